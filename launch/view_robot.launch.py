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

"""
Look at a library robot: robot_state_publisher, joint sliders and RViz.

::

    ros2 launch robodyn_ros view_robot.launch.py robot:=stanford
"""

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.conditions import IfCondition, UnlessCondition
from launch.substitutions import (Command, FindExecutable, LaunchConfiguration,
                                  PathJoinSubstitution)
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from launch_ros.substitutions import FindPackageShare

ROBOTS = ['puma560', 'cmu_dd_arm2', 'ma3000', 'rx90', 'stanford']


def _share(*parts):
    return PathJoinSubstitution([FindPackageShare('robodyn_ros'), *parts])


def _launch_setup(context):
    robot = LaunchConfiguration('robot').perform(context)
    namespace = LaunchConfiguration('namespace')
    gui = LaunchConfiguration('gui')
    description = ParameterValue(Command([
        FindExecutable(name='xacro'), ' ', _share('urdf', f'{robot}.urdf.xacro'),
        ' ros2_control:=none']), value_type=str)
    rate = {'rate': ParameterValue(LaunchConfiguration('rate'), value_type=int)}
    return [
        Node(package='robot_state_publisher', executable='robot_state_publisher',
             name='robot_state_publisher', namespace=namespace, output='screen',
             parameters=[{'robot_description': description}]),
        Node(package='joint_state_publisher_gui', executable='joint_state_publisher_gui',
             name='joint_state_publisher', namespace=namespace, parameters=[rate],
             condition=IfCondition(gui)),
        Node(package='joint_state_publisher', executable='joint_state_publisher',
             name='joint_state_publisher', namespace=namespace, parameters=[rate],
             condition=UnlessCondition(gui)),
        Node(package='rviz2', executable='rviz2', name='rviz2', namespace=namespace,
             output='log', arguments=['-d', _share('rviz', 'robodyn.rviz')]),
    ]


def generate_launch_description():
    return LaunchDescription([
        DeclareLaunchArgument('robot', default_value='puma560', choices=ROBOTS,
                              description='Library robot'),
        DeclareLaunchArgument('namespace', default_value='',
                              description='ROS namespace of every node'),
        DeclareLaunchArgument('rate', default_value='10',
                              description='joint_state_publisher rate [Hz]'),
        DeclareLaunchArgument('gui', default_value='true', choices=['true', 'false'],
                              description='Joint sliders (joint_state_publisher_gui)'),
        OpaqueFunction(function=_launch_setup),
    ])
