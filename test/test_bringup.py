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

import math
import re

import pytest
from robodyn_ros import bringup
from robodyn_ros.model import library, RobotModel

_URDF = """<?xml version="1.0"?>
<robot name="mixed">
  <link name="base_link"/>
  <link name="a"><inertial><mass value="1"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="b"><inertial><mass value="1"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="c"><inertial><mass value="1"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="d"><inertial><mass value="1"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <joint name="spin" type="continuous"><parent link="base_link"/><child link="a"/>
    <axis xyz="0 0 1"/></joint>
  <joint name="slide" type="prismatic"><parent link="a"/><child link="b"/>
    <axis xyz="0 0 1"/><limit lower="0.2" upper="0.5" effort="10" velocity="1"/></joint>
  <joint name="below" type="revolute"><parent link="b"/><child link="c"/>
    <axis xyz="0 1 0"/><limit lower="-1.0" upper="-0.5" effort="10" velocity="1"/></joint>
  <joint name="around" type="revolute"><parent link="c"/><child link="d"/>
    <axis xyz="0 1 0"/><limit lower="-1.0" upper="2.0" effort="10" velocity="1"/></joint>
</robot>
"""


def test_home_configuration_clamps_zero_into_the_limits():
    model = RobotModel.from_urdf(_URDF)
    assert bringup.home_configuration(model) == (0.0, 0.2, -0.5, 0.0)


@pytest.mark.parametrize('robot', library.names())
def test_home_configuration_of_the_library_robots(robot):
    model = library.load(robot)
    home = bringup.home_configuration(model)
    assert len(home) == model.n
    for value, joint in zip(home, model.joints):
        assert math.isfinite(value)
        assert joint.limits.lower <= value <= joint.limits.upper
        assert value == 0.0 or value in (joint.limits.lower, joint.limits.upper)


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
