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
The demo's graph: the robodyn graph on the simulated motor driver board.

Runs ``robodyn sim-board`` (the plant behind the board's byte protocol, on
UDP at ``board_address``) and, once it has started, everything of
``bringup_hardware.launch.py`` pointed at it::

    ros2 launch robodyn_ros bringup_sim.launch.py robot:=puma560 rviz:=true

``loop:=one-process`` (default) or ``loop:=graph``, as in the hardware bring-up.

With ``backend:=cia402`` it runs ``robodyn sim-drive`` instead (one simulated
CiA 402 drive per joint on python-can's ``udp_multicast``) and the hardware
interface on the same bus. CAN over UDP multicast must never reach the
machine's interfaces: both refuse to run outside a network namespace whose
only interface is loopback, so launch it inside one (docs/drives.md)::

    sudo ip netns exec robodyn_can ros2 launch robodyn_ros bringup_sim.launch.py backend:=cia402
"""

from launch import LaunchDescription
from launch.actions import (DeclareLaunchArgument, ExecuteProcess, IncludeLaunchDescription,
                            OpaqueFunction, RegisterEventHandler, Shutdown)
from launch.event_handlers import OnProcessStart
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.substitutions import FindPackagePrefix, FindPackageShare

ROBOTS = ['puma560', 'cmu_dd_arm2', 'ma3000', 'rx90', 'stanford']


def _robodyn():
    # Console scripts live in lib/robodyn_ros, which is not on PATH.
    return PathJoinSubstitution([FindPackagePrefix('robodyn_ros'), 'lib', 'robodyn_ros',
                                 'robodyn'])


def _drives(context, robot):
    """Start the simulated CiA 402 drives and, once they run, the graph on their bus."""
    drives = ExecuteProcess(
        name='sim_drive', output='screen',
        cmd=[_robodyn(), 'sim-drive', robot, '--interface', 'udp_multicast',
             '--rate', LaunchConfiguration('rate')],
        on_exit=[Shutdown(reason='robodyn sim-drive exited')])
    arguments = ['robot', 'namespace', 'rate', 'dynamics_workers', 'robot_state_publisher',
                 'rviz', 'loop']
    graph = IncludeLaunchDescription(
        PythonLaunchDescriptionSource(PathJoinSubstitution([
            FindPackageShare('robodyn_ros'), 'launch', 'bringup_hardware.launch.py'])),
        launch_arguments=[(a, LaunchConfiguration(a)) for a in arguments]
        + [('backend', 'cia402'), ('can_interface', 'udp_multicast'),
           ('can_channel', '239.74.163.2'),
           ('address', ''), ('port', '')])
    return [drives, RegisterEventHandler(OnProcessStart(target_action=drives,
                                                        on_start=[graph]))]


def _graph(context):
    """Start the simulated board on UDP and, once it runs, the graph pointed at it."""
    robot = LaunchConfiguration('robot').perform(context)
    if LaunchConfiguration('backend').perform(context) == 'cia402':
        return _drives(context, robot)
    address = LaunchConfiguration('board_address').perform(context).strip()
    host, _, number = address.rpartition(':')
    if not host or not number.isdigit() or not 0 < int(number) < 65536:
        raise RuntimeError('robodyn_ros bringup_sim: board_address must be HOST:PORT with a '
                           f'port in 1..65535, got {address!r}')
    robodyn = _robodyn()
    board = ExecuteProcess(
        name='sim_board', output='screen',
        cmd=[robodyn, 'sim-board', robot, '--transport', 'udp', '--address', host,
             '--port', number, '--rate', LaunchConfiguration('rate')],
        on_exit=[Shutdown(reason='robodyn sim-board exited')])
    arguments = ['robot', 'namespace', 'rate', 'dynamics_workers', 'robot_state_publisher',
                 'rviz', 'loop']
    graph = IncludeLaunchDescription(
        PythonLaunchDescriptionSource(PathJoinSubstitution([
            FindPackageShare('robodyn_ros'), 'launch', 'bringup_hardware.launch.py'])),
        launch_arguments=[(a, LaunchConfiguration(a)) for a in arguments]
        + [('address', address), ('port', '')])
    return [board, RegisterEventHandler(OnProcessStart(target_action=board, on_start=[graph]))]


def generate_launch_description():
    return LaunchDescription([
        DeclareLaunchArgument('robot', default_value='puma560', choices=ROBOTS,
                              description='Library robot'),
        DeclareLaunchArgument('namespace', default_value='',
                              description='ROS namespace of every node'),
        DeclareLaunchArgument('rate', default_value='1000',
                              description='Control and board exchange rate [Hz]'),
        DeclareLaunchArgument('backend', default_value='board', choices=['board', 'cia402'],
                              description='Simulated hardware: the driver board, or CiA 402 '
                                          'drives (run inside a loopback-only network '
                                          'namespace)'),
        DeclareLaunchArgument('board_address', default_value='127.0.0.1:47000',
                              description='UDP address HOST:PORT of the simulated board'),
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
        OpaqueFunction(function=_graph),
    ])
