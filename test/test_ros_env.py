# Copyright 2026 The robodyn_ros Authors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.


"""ROS environment defaults: loopback discovery, the large-data Fast DDS profile."""

import xml.etree.ElementTree as ElementTree

from robodyn_ros.ros_env import (apply_ros_env_defaults, FASTDDS_USER_SETTINGS,
                                 use_large_data_transport, use_restartable_transport)


def test_loopback_unless_chosen():
    """Discovery stays on localhost unless the user chose a range."""
    assert apply_ros_env_defaults({})['ROS_AUTOMATIC_DISCOVERY_RANGE'] == 'LOCALHOST'
    env = {'ROS_AUTOMATIC_DISCOVERY_RANGE': 'SUBNET'}
    assert apply_ros_env_defaults(env)['ROS_AUTOMATIC_DISCOVERY_RANGE'] == 'SUBNET'


def test_large_data_profile_only_where_the_user_did_not_configure(tmp_path):
    """The profile file is valid XML with a 64 MB shared-memory segment; user settings win."""
    env = {}
    path = use_large_data_transport(env, str(tmp_path))
    assert env['FASTDDS_DEFAULT_PROFILES_FILE'] == path
    root = ElementTree.parse(path).getroot()
    sizes = [e.text for e in root.iter() if e.tag.endswith('segment_size')]
    assert sizes == ['67108864']
    assert use_large_data_transport(env, str(tmp_path)) is None     # already configured
    for key in FASTDDS_USER_SETTINGS:
        assert use_large_data_transport({key: 'x'}, str(tmp_path)) is None
    assert use_large_data_transport({'RMW_IMPLEMENTATION': 'rmw_cyclonedds_cpp'},
                                    str(tmp_path)) is None


def test_restartable_transport_is_udp_unless_the_user_configured():
    """The fault campaign's graph: UDP only; user settings and other middlewares are kept."""
    env = {}
    assert use_restartable_transport(env) and env == {'FASTDDS_BUILTIN_TRANSPORTS': 'UDPv4'}
    for key in FASTDDS_USER_SETTINGS:
        env = {key: 'x'}
        assert not use_restartable_transport(env) and env == {key: 'x'}
    env = {'RMW_IMPLEMENTATION': 'rmw_cyclonedds_cpp'}
    assert not use_restartable_transport(env) and 'FASTDDS_BUILTIN_TRANSPORTS' not in env
