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

import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import pytest

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


def test_restartable_transport_is_udp_unless_the_user_configured(tmp_path):
    """The fault campaign's graph: data over UDP; user settings and other middlewares are kept."""
    for env in ({}, {'ROS_AUTOMATIC_DISCOVERY_RANGE': 'LOCALHOST'}):
        assert use_restartable_transport(env, str(tmp_path)) == 'profile'
        root = ElementTree.parse(env['FASTDDS_DEFAULT_PROFILES_FILE']).getroot()
        addresses = [e.text for e in root.iter() if e.tag.endswith('address')]
        assert addresses == ['127.0.0.1'] and 'FASTDDS_BUILTIN_TRANSPORTS' not in env
    env = {'ROS_AUTOMATIC_DISCOVERY_RANGE': 'SUBNET'}
    assert use_restartable_transport(env, str(tmp_path)) == 'builtin'
    assert env == {'ROS_AUTOMATIC_DISCOVERY_RANGE': 'SUBNET',
                   'FASTDDS_BUILTIN_TRANSPORTS': 'UDPv4'}
    for key in FASTDDS_USER_SETTINGS:
        env = {key: 'x'}
        assert use_restartable_transport(env, str(tmp_path)) is None and env == {key: 'x'}
    env = {'RMW_IMPLEMENTATION': 'rmw_cyclonedds_cpp'}
    assert use_restartable_transport(env, str(tmp_path)) is None
    assert env == {'RMW_IMPLEMENTATION': 'rmw_cyclonedds_cpp'}


_MAPPED_PORTS = """
import os, rclpy
from std_msgs.msg import String
rclpy.init()
node = rclpy.create_node('shm_port_probe')
node.create_publisher(String, 'probe', 10)
node.create_subscription(String, 'probe', lambda msg: None, 10)
with open(f'/proc/{os.getpid()}/maps', encoding='utf-8') as fh:
    names = {line.split()[-1] for line in fh if '/dev/shm/' in line}
print(sum(os.path.basename(n).startswith('fastdds_port') for n in names))
node.destroy_node()
rclpy.shutdown()
"""


@pytest.mark.skipif(not sys.platform.startswith('linux'), reason='reads /proc/<pid>/maps')
def test_a_node_with_the_restartable_profile_opens_no_shared_memory_port(tmp_path):
    """On loopback discovery a node maps Fast DDS shared-memory ports, with the profile none."""
    counts = []
    for restartable in (False, True):
        env = dict(os.environ, ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST')
        for key in FASTDDS_USER_SETTINGS:
            env.pop(key, None)
        if restartable:
            use_restartable_transport(env, str(tmp_path))
        out = subprocess.run([sys.executable, '-c', _MAPPED_PORTS], env=env, capture_output=True,
                             text=True, timeout=120, check=True)
        counts.append(int(out.stdout.split()[-1]))
    assert counts[0] > 0 and counts[1] == 0, counts
