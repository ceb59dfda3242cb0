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
Robodyn behind ros2_control.

controller_manager (``ros2_control_node``) runs joint_state_broadcaster and
``effort_controller`` (forward command controller on the effort interface),
fed by robodyn's controller with std_msgs/Float64MultiArray on
``effort_controller/commands``. The hardware is chosen by ``hardware``:

* ``sim``: topic-based ros2_control exchanging sensor_msgs/JointState with
  robodyn's hardware interface on ``hardware/joint_commands`` and
  ``hardware/joint_states``, which drives the simulated board
  (``robodyn sim-board``);
* ``board``: the same on a real board (``port`` or ``address``);
* ``mock``: mock_components/GenericSystem, plumbing only (the arm does not
  move under effort commands).

::

    ros2 launch robodyn_ros ros2_control.launch.py robot:=puma560 hardware:=sim
"""

import math

from launch import LaunchDescription
from launch.actions import (DeclareLaunchArgument, ExecuteProcess, IncludeLaunchDescription,
                            OpaqueFunction, RegisterEventHandler, Shutdown)
from launch.event_handlers import OnProcessStart
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import (Command, FindExecutable, LaunchConfiguration,
                                  PathJoinSubstitution)
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from launch_ros.substitutions import FindPackagePrefix, FindPackageShare

ROBOTS = ['puma560', 'cmu_dd_arm2', 'ma3000', 'rx90', 'stanford']
HARDWARE = ['sim', 'board', 'mock']


def _share(*parts):
    return PathJoinSubstitution([FindPackageShare('robodyn_ros'), *parts])


def _absolute(namespace, name):
    """Topic name in the namespace, for the topic-based plugin's own node."""
    return '/' + '/'.join(p for p in namespace.strip('/').split('/') + name.split('/') if p)


def _include(name, arguments):
    return IncludeLaunchDescription(PythonLaunchDescriptionSource(_share('launch', name)),
                                    launch_arguments=list(arguments.items()))


def _launch_setup(context):
    value = {name: LaunchConfiguration(name).perform(context)
             for name in ('robot', 'namespace', 'rate', 'hardware', 'port', 'baud', 'address',
                          'board_address', 'dynamics_workers', 'rviz')}
    try:
        rate = float(value['rate'])
    except ValueError:
        rate = math.nan
    if not (math.isfinite(rate) and rate > 0.0 and rate == int(rate)):
        raise RuntimeError('robodyn_ros ros2_control: rate must be a positive whole number of '
                           f'Hz, got {value["rate"]!r}')
    robot, namespace, hardware = value['robot'], value['namespace'], value['hardware']
    description = ParameterValue(Command([
        FindExecutable(name='xacro'), ' ', _share('urdf', f'{robot}.urdf.xacro'),
        ' ros2_control:=', 'mock' if hardware == 'mock' else 'topic',
        ' joint_commands_topic:=', _absolute(namespace, 'hardware/joint_commands'),
        ' joint_states_topic:=', _absolute(namespace, 'hardware/joint_states')]),
        value_type=str)
    spawner = ['--controller-manager', 'controller_manager']
    actions = [
        Node(package='robot_state_publisher', executable='robot_state_publisher',
             name='robot_state_publisher', namespace=namespace, output='screen',
             parameters=[{'robot_description': description}]),
        # No name= here: a __node remap would rename every controller in the process too.
        Node(package='controller_manager', executable='ros2_control_node',
             namespace=namespace, output='screen',
             parameters=[_share('config', f'{robot}_controllers.yaml'),
                         {'update_rate': int(rate)}],
             remappings=[('~/robot_description', 'robot_description')],
             on_exit=[Shutdown(reason='controller_manager exited')]),
        Node(package='controller_manager', executable='spawner', namespace=namespace,
             output='screen',
             arguments=['joint_state_broadcaster'] + spawner),
        Node(package='controller_manager', executable='spawner', namespace=namespace,
             output='screen',
             arguments=['effort_controller'] + spawner),
        _include('robodyn_nodes.launch.py', {
            'robot': robot, 'namespace': namespace, 'rate': value['rate'],
            'dynamics_workers': value['dynamics_workers'],
            'effort_controller': 'effort_controller', 'use_sim_time': 'false'}),
    ]
    if hardware != 'mock':
        sim = hardware == 'sim'
        interface = _include('hardware_interface.launch.py', {
            'robot': robot, 'namespace': namespace, 'rate': value['rate'],
            'port': '' if sim else value['port'], 'baud': value['baud'],
            'address': value['board_address'] if sim else value['address'],
            'joint_states_topic': 'hardware/joint_states',
            'joint_commands_topic': 'hardware/joint_commands'})
        if sim:
            board_host, _, board_port = value['board_address'].rpartition(':')
            if not board_host or not board_port.isdigit() or not 0 < int(board_port) < 65536:
                raise RuntimeError('robodyn_ros ros2_control: board_address must be HOST:PORT '
                                   f'with a port in 1..65535, got {value["board_address"]!r}')
            robodyn = PathJoinSubstitution([FindPackagePrefix('robodyn_ros'), 'lib',
                                            'robodyn_ros', 'robodyn'])
            board = ExecuteProcess(
                name='sim_board', output='screen',
                cmd=[robodyn, 'sim-board', robot, '--transport', 'udp', '--address',
                     board_host, '--port', board_port, '--rate', value['rate']],
                on_exit=[Shutdown(reason='robodyn sim-board exited')])
            actions += [board, RegisterEventHandler(OnProcessStart(target_action=board,
                                                                   on_start=[interface]))]
        else:
            actions.append(interface)
    if value['rviz'] == 'true':
        actions.append(Node(package='rviz2', executable='rviz2', name='rviz2',
                            namespace=namespace, output='log',
                            arguments=['-d', _share('rviz', 'robodyn.rviz')]))
    return actions


def generate_launch_description():
    return LaunchDescription([
        DeclareLaunchArgument('robot', default_value='puma560', choices=ROBOTS,
                              description='Library robot'),
        DeclareLaunchArgument('namespace', default_value='',
                              description='ROS namespace of every node'),
        DeclareLaunchArgument('rate', default_value='1000',
                              description='controller_manager update rate and robodyn control '
                                          'rate [Hz]'),
        DeclareLaunchArgument('hardware', default_value='sim', choices=HARDWARE,
                              description='sim: robodyn simulated board; board: a real board '
                                          '(port or address); mock: mock_components'),
        DeclareLaunchArgument('port', default_value='',
                              description='hardware:=board: serial device of the board'),
        DeclareLaunchArgument('baud', default_value='1000000',
                              description='hardware:=board: serial bit rate [bit/s]'),
        DeclareLaunchArgument('address', default_value='',
                              description='hardware:=board: UDP address HOST:PORT'),
        DeclareLaunchArgument('board_address', default_value='127.0.0.1:47000',
                              description='hardware:=sim: UDP address of the simulated board'),
        DeclareLaunchArgument('dynamics_workers', default_value='0',
                              description='Worker processes of the parallel dynamics node'),
        DeclareLaunchArgument('rviz', default_value='false', choices=['true', 'false'],
                              description='Start RViz'),
        OpaqueFunction(function=_launch_setup),
    ])
