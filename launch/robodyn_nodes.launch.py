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
Robodyn's planner, controller and parallel dynamics (included by the bring-up files).

With ``loop:=one-process`` there is no controller node: the ``control_loop``
node runs the law (see ``hardware_interface.launch.py``).

The controller publishes sensor_msgs/JointState efforts on ``joint_commands``,
or, with ``effort_controller:=NAME``, std_msgs/Float64MultiArray on
``NAME/commands`` for ros2_control's forward command controller.
"""

import math

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from launch_ros.substitutions import FindPackageShare

ROBOTS = ['puma560', 'cmu_dd_arm2', 'ma3000', 'rx90', 'stanford']


def _config(name):
    return PathJoinSubstitution([FindPackageShare('robodyn_ros'), 'config', name])


def _common():
    return {'robot': LaunchConfiguration('robot'),
            'use_sim_time': ParameterValue(LaunchConfiguration('use_sim_time'), value_type=bool)}


def _worker_count(context):
    text = LaunchConfiguration('dynamics_workers').perform(context)
    try:
        count = int(text)
    except ValueError:
        count = -1
    if count < 0:
        raise RuntimeError(f'robodyn_ros: dynamics_workers must be an integer >= 0, got {text!r}')
    return count


def _check_arguments(context):
    rate = LaunchConfiguration('rate').perform(context)
    try:
        valid = math.isfinite(float(rate)) and float(rate) > 0.0
    except ValueError:
        valid = False
    if not valid:
        raise RuntimeError(f'robodyn_ros: rate must be a positive number of Hz, got {rate!r}')
    _worker_count(context)
    return []


def _workers(context):
    return [Node(package='robodyn_ros', executable='parallel_dynamics_worker',
                 name=f'parallel_dynamics_worker_{i}', namespace=LaunchConfiguration('namespace'),
                 parameters=[_config('parallel_dynamics_worker.yaml'), _common()],
                 output='screen')
            for i in range(_worker_count(context))]


def _controller(context):
    if LaunchConfiguration('loop').perform(context) != 'graph':
        return []
    return [Node(package='robodyn_ros', executable='controller', name='controller',
                 namespace=LaunchConfiguration('namespace'), output='screen',
                 parameters=[_config('controller.yaml'), _common(), {
                     'rate': ParameterValue(LaunchConfiguration('rate'), value_type=float),
                     'effort_controller': ParameterValue(
                         LaunchConfiguration('effort_controller'), value_type=str)}])]


def generate_launch_description():
    namespace = LaunchConfiguration('namespace')
    return LaunchDescription([
        DeclareLaunchArgument('robot', default_value='puma560', choices=ROBOTS,
                              description='Library robot'),
        DeclareLaunchArgument('namespace', default_value='',
                              description='ROS namespace of every node'),
        DeclareLaunchArgument('rate', default_value='1000', description='Control rate [Hz]'),
        DeclareLaunchArgument('effort_controller', default_value='',
                              description='Empty: the controller publishes joint_commands; a '
                                          'ros2_control controller name: it publishes '
                                          '<name>/commands (Float64MultiArray)'),
        DeclareLaunchArgument('use_sim_time', default_value='false', choices=['true', 'false'],
                              description='Use the /clock topic (Gazebo)'),
        DeclareLaunchArgument('dynamics_workers', default_value='0',
                              description='Worker processes of the parallel dynamics node'),
        DeclareLaunchArgument('loop', default_value='graph', choices=['one-process', 'graph'],
                              description='graph: start the controller node; one-process: '
                                          'none (the control_loop node runs the law)'),
        OpaqueFunction(function=_check_arguments),
        Node(package='robodyn_ros', executable='trajectory_planner', name='trajectory_planner',
             namespace=namespace, output='screen',
             parameters=[_config('trajectory_planner.yaml'), _common()]),
        OpaqueFunction(function=_controller),
        Node(package='robodyn_ros', executable='parallel_dynamics', name='parallel_dynamics',
             namespace=namespace, output='screen',
             parameters=[_config('parallel_dynamics.yaml'), _common()]),
        OpaqueFunction(function=_workers),
    ])
