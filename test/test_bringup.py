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

"""The bring-up contract module (launch files and assets: test_launch_files, test_xacro_assets)."""

import re

from robodyn_ros import bringup


def test_node_names_and_parameters_are_consistent():
    for name, description in bringup.NODE_EXECUTABLES.items():
        assert re.fullmatch(r'[a-z][a-z0-9_]*', name), name
        assert description
    assert set(bringup.NODE_PARAMETERS) <= set(bringup.NODE_EXECUTABLES)
    assert set(bringup.NODE_EXECUTABLES) - set(bringup.NODE_PARAMETERS) == {'robodyn'}
    for name, parameters in bringup.NODE_PARAMETERS.items():
        assert {'robot', 'robot_params'} <= set(parameters), name
        assert len(set(parameters)) == len(parameters)
    assert bringup.SIM_BOARD_COMMAND[0] in bringup.NODE_EXECUTABLES


def test_controller_and_variant_names():
    assert set(bringup.CONTROLLER_TYPES) == {bringup.JOINT_STATE_BROADCASTER,
                                             bringup.EFFORT_CONTROLLER}
    assert bringup.ROS2_CONTROL_VARIANTS[0] == 'none'
    assert not bringup.HARDWARE_JOINT_STATES.startswith('/')
    assert not bringup.HARDWARE_JOINT_COMMANDS.startswith('/')
    assert bringup.DEFAULT_RATE > 0
