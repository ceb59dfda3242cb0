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
The robodyn graph on a real motor driver board.

Starts robodyn's hardware interface (configured, then activated) on the board
at ``port:=/dev/ttyUSB0`` (serial, with ``baud``) or ``address:=HOST:PORT``
(UDP), or on CiA 402 drives (``backend:=cia402``, ``can_channel``,
``node_ids``, ``bitrate``; docs/drives.md), the parallel-dynamics node, the
planner and the controller, and optionally robot_state_publisher and RViz::

    ros2 launch robodyn_ros bringup_hardware.launch.py robot:=puma560 port:=/dev/ttyUSB0
    ros2 launch robodyn_ros bringup_hardware.launch.py backend:=cia402 node_ids:=1,2,3,4,5,6

``loop:=one-process`` (the default) runs the board and the control law in one
node, ``control_loop``, with no DDS in the cycle; ``loop:=graph`` starts the
``hardware_interface`` and ``controller`` nodes instead (joint_states and
joint_commands over DDS, as with ros2_control or several hosts).
"""

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, IncludeLaunchDescription, OpaqueFunction
from launch.conditions import IfCondition
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import (Command, FindExecutable, LaunchConfiguration,
                                  PathJoinSubstitution)
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from launch_ros.substitutions import FindPackageShare

ROBOTS = ['puma560', 'cmu_dd_arm2', 'ma3000', 'rx90', 'stanford']


def _share(*parts):
    return PathJoinSubstitution([FindPackageShare('robodyn_ros'), *parts])


def _viewers(context):
    robot = LaunchConfiguration('robot').perform(context)
    namespace = LaunchConfiguration('namespace')
    description = ParameterValue(Command([
        FindExecutable(name='xacro'), ' ', _share('urdf', f'{robot}.urdf.xacro'),
        ' ros2_control:=none']), value_type=str)
    return [
        Node(package='robot_state_publisher', executable='robot_state_publisher',
             name='robot_state_publisher', namespace=namespace, output='screen',
             parameters=[{'robot_description': description}],
             condition=IfCondition(LaunchConfiguration('robot_state_publisher'))),
        Node(package='rviz2', executable='rviz2', name='rviz2', namespace=namespace,
             output='log', arguments=['-d', _share('rviz', 'robodyn.rviz')],
             condition=IfCondition(LaunchConfiguration('rviz'))),
    ]


def generate_launch_description():
    def include(name, arguments):
        return IncludeLaunchDescription(
            PythonLaunchDescriptionSource(_share('launch', name)),
            launch_arguments=[(a, LaunchConfiguration(a)) for a in arguments])

    return LaunchDescription([
        DeclareLaunchArgument('robot', default_value='puma560', choices=ROBOTS,
                              description='Library robot'),
        DeclareLaunchArgument('namespace', default_value='',
                              description='ROS namespace of every node'),
        DeclareLaunchArgument('rate', default_value='1000',
                              description='Control and board exchange rate [Hz]'),
        DeclareLaunchArgument('port', default_value='',
                              description='Serial device of the board, e.g. /dev/ttyUSB0'),
        DeclareLaunchArgument('baud', default_value='1000000',
                              description='Serial bit rate [bit/s]'),
        DeclareLaunchArgument('address', default_value='',
                              description='UDP address of the board, HOST:PORT (instead of '
                                          'port)'),
        DeclareLaunchArgument('dynamics_workers', default_value='0',
                              description='Worker processes of the parallel dynamics node'),
        DeclareLaunchArgument('robot_state_publisher', default_value='true',
                              choices=['true', 'false'],
                              description='Publish robot_description and TF'),
        DeclareLaunchArgument('rviz', default_value='false', choices=['true', 'false'],
                              description='Start RViz'),
        DeclareLaunchArgument('loop', default_value='one-process',
                              choices=['one-process', 'graph'],
                              description='one-process: control_loop runs board and law in '
                                          'one loop; graph: hardware_interface + controller'),
        DeclareLaunchArgument('backend', default_value='board', choices=['board', 'cia402'],
                              description='The hardware: the motor driver board, or CiA 402 '
                                          'drives on CAN'),
        DeclareLaunchArgument('can_interface', default_value='socketcan',
                              choices=['socketcan', 'udp_multicast', 'virtual'],
                              description='CAN bus of backend cia402'),
        DeclareLaunchArgument('can_channel', default_value='can0',
                              description='CAN channel of backend cia402'),
        DeclareLaunchArgument('node_ids', default_value='',
                              description='Node ids of the drives, comma separated (empty: '
                                          '1..n)'),
        DeclareLaunchArgument('bitrate', default_value='1000000',
                              description='CAN bitrate [bit/s]'),
        include('hardware_interface.launch.py',
                ['robot', 'namespace', 'rate', 'port', 'baud', 'address', 'loop', 'backend',
                 'can_interface', 'can_channel', 'node_ids', 'bitrate']),
        include('robodyn_nodes.launch.py',
                ['robot', 'namespace', 'rate', 'dynamics_workers', 'loop']),
        OpaqueFunction(function=_viewers),
    ])
