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
Robodyn's hardware interface (a lifecycle node), configured and then activated.

With ``loop:=one-process`` the node is ``control_loop`` instead: the same
interface running the control law itself in the board's I/O loop (no DDS in
the cycle, no ``controller`` node needed; parameters from
``config/control_loop.yaml``, ``law`` among them).

Activating it before any controller runs is safe: the interface keeps the
brakes on (outputs off) until a valid ``joint_commands`` stream from one
publisher has arrived, and only then releases them (see docs/hardware.md).

The board is on a serial port (``port``, ``baud``) or at a UDP address
(``address:=HOST:PORT``); exactly one of the two must be given. They become
the node's ``transport``, ``device``, ``baud_rate``, ``address`` and
``port`` parameters. With ``backend:=cia402`` the hardware is one CANopen
CiA 402 drive per joint on ``can_interface``/``can_channel`` (SocketCAN
``can0`` by default) with ``node_ids`` (comma separated, joint order;
empty: 1..n) and ``bitrate``; the SYNC period is 1/``rate``; ``port`` and
``address`` must then be empty (see docs/drives.md). If the node exits,
the whole launch shuts down.
"""

import math

from launch import LaunchDescription
from launch.actions import (DeclareLaunchArgument, EmitEvent, OpaqueFunction,
                            RegisterEventHandler, Shutdown)
from launch.conditions import IfCondition
from launch.events import matches_action
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import LifecycleNode
from launch_ros.event_handlers import OnStateTransition
from launch_ros.events.lifecycle import ChangeState
from launch_ros.substitutions import FindPackageShare
from lifecycle_msgs.msg import Transition

ROBOTS = ['puma560', 'cmu_dd_arm2', 'ma3000', 'rx90', 'stanford']


def _split_address(address):
    host, _, number = address.rpartition(':')
    if not host or not number.isdigit() or not 0 < int(number) < 65536:
        raise RuntimeError('robodyn_ros hardware_interface: address must be HOST:PORT '
                           f'with a port in 1..65535, got {address!r}')
    return host, int(number)


def _cia402(context, rate):
    """Check the CAN arguments and give the node's cia402 parameters."""
    text = LaunchConfiguration('node_ids').perform(context).strip()
    ids = [t.strip() for t in text.split(',')] if text else []
    if not all(t.isdigit() and 1 <= int(t) <= 127 for t in ids) or len(set(ids)) != len(ids):
        raise RuntimeError('robodyn_ros hardware_interface: node_ids must be distinct node ids '
                           f'in 1..127, comma separated, got {text!r}')
    bitrate = LaunchConfiguration('bitrate').perform(context)
    if not bitrate.isdigit() or not 10000 <= int(bitrate) <= 1000000:
        raise RuntimeError('robodyn_ros hardware_interface: bitrate must be an integer in '
                           f'10000..1000000 bit/s, got {bitrate!r}')
    link = {'backend': 'cia402',
            'can_interface': LaunchConfiguration('can_interface').perform(context),
            'bitrate': int(bitrate), 'sync_period': 1.0 / rate}
    channel = LaunchConfiguration('can_channel').perform(context).strip()
    if channel:                  # empty: the interface's default (the multicast group)
        link['can_channel'] = channel
    if ids:
        link['node_ids'] = [int(t) for t in ids]
    return link


def _config(name):
    return PathJoinSubstitution([FindPackageShare('robodyn_ros'), 'config', name])


def _hardware_interface(context):
    """Check the connection arguments and build the node with the board link."""
    port = LaunchConfiguration('port').perform(context).strip()
    address = LaunchConfiguration('address').perform(context).strip()
    backend = LaunchConfiguration('backend').perform(context)
    if backend == 'cia402' and (port or address):
        raise RuntimeError("robodyn_ros hardware_interface: port and address are the board's; "
                           'with backend:=cia402 give can_interface, can_channel and node_ids '
                           f'(got port={port!r}, address={address!r})')
    if backend != 'cia402' and bool(port) == bool(address):
        raise RuntimeError('robodyn_ros hardware_interface: give exactly one of '
                           'port:=<serial device> or address:=<host>:<port> '
                           f'(got port={port!r}, address={address!r})')
    rate = LaunchConfiguration('rate').perform(context)
    try:
        valid = math.isfinite(float(rate)) and float(rate) > 0.0
    except ValueError:
        valid = False
    if not valid:
        raise RuntimeError('robodyn_ros hardware_interface: rate must be a positive number of '
                           f'Hz, got {rate!r}')
    baud = LaunchConfiguration('baud').perform(context)
    if not baud.isdigit() or int(baud) <= 0:
        raise RuntimeError('robodyn_ros hardware_interface: baud must be a positive integer, '
                           f'got {baud!r}')
    if backend == 'cia402':
        link = _cia402(context, float(rate))
    elif address:
        host, number = _split_address(address)
        link = {'transport': 'udp', 'address': host, 'port': number}
    else:
        link = {'transport': 'serial', 'device': port, 'baud_rate': int(baud)}
    parameters = dict({'robot': LaunchConfiguration('robot')}, **link)
    remappings = [('joint_states', LaunchConfiguration('joint_states_topic')),
                  ('joint_commands', LaunchConfiguration('joint_commands_topic'))]
    if LaunchConfiguration('loop').perform(context) == 'one-process':
        if 'backend' in parameters:   # the loop's 'backend' is its law's dynamics
            parameters['hardware'] = parameters.pop('backend')
        node = LifecycleNode(
            package='robodyn_ros', executable='control_loop', name='control_loop',
            namespace=LaunchConfiguration('namespace'), output='screen',
            parameters=[_config('control_loop.yaml'), parameters], remappings=remappings,
            on_exit=[Shutdown(reason='robodyn_ros control_loop exited')])
    else:
        node = LifecycleNode(
            package='robodyn_ros', executable='hardware_interface', name='hardware_interface',
            namespace=LaunchConfiguration('namespace'), output='screen',
            parameters=[_config('hardware_interface.yaml'), parameters],
            remappings=remappings,
            on_exit=[Shutdown(reason='robodyn_ros hardware_interface exited')])
    autostart = IfCondition(LaunchConfiguration('autostart'))
    configure = EmitEvent(condition=autostart, event=ChangeState(
        lifecycle_node_matcher=matches_action(node),
        transition_id=Transition.TRANSITION_CONFIGURE))
    activate = RegisterEventHandler(condition=autostart, event_handler=OnStateTransition(
        target_lifecycle_node=node, start_state='configuring', goal_state='inactive',
        entities=[EmitEvent(event=ChangeState(
            lifecycle_node_matcher=matches_action(node),
            transition_id=Transition.TRANSITION_ACTIVATE))]))
    return [node, activate, configure]


def generate_launch_description():
    return LaunchDescription([
        DeclareLaunchArgument('robot', default_value='puma560', choices=ROBOTS,
                              description='Library robot'),
        DeclareLaunchArgument('namespace', default_value='',
                              description='ROS namespace of the node'),
        DeclareLaunchArgument('rate', default_value='1000',
                              description='Board exchange rate [Hz] (checked here; the '
                                          'board sets the pace and the interface follows)'),
        DeclareLaunchArgument('port', default_value='',
                              description='Serial device of the board, e.g. /dev/ttyUSB0'),
        DeclareLaunchArgument('baud', default_value='1000000',
                              description='Serial bit rate [bit/s]'),
        DeclareLaunchArgument('address', default_value='',
                              description='UDP address of the board, HOST:PORT'),
        DeclareLaunchArgument('backend', default_value='board', choices=['board', 'cia402'],
                              description='The hardware: the motor driver board, or CiA 402 '
                                          'drives on CAN'),
        DeclareLaunchArgument('can_interface', default_value='socketcan',
                              choices=['socketcan', 'udp_multicast', 'virtual'],
                              description='CAN bus of backend cia402 (udp_multicast only in a '
                                          'network namespace with nothing but loopback)'),
        DeclareLaunchArgument('can_channel', default_value='can0',
                              description='CAN channel of backend cia402'),
        DeclareLaunchArgument('node_ids', default_value='',
                              description='Node ids of the drives, comma separated in joint '
                                          'order (empty: 1..n)'),
        DeclareLaunchArgument('bitrate', default_value='1000000',
                              description='CAN bitrate [bit/s] (set on can0 with ip link)'),
        DeclareLaunchArgument('joint_states_topic', default_value='joint_states',
                              description='Where the node publishes the joint states'),
        DeclareLaunchArgument('joint_commands_topic', default_value='joint_commands',
                              description='Where the node reads the effort commands'),
        DeclareLaunchArgument('autostart', default_value='true', choices=['true', 'false'],
                              description='Configure and activate the node at start'),
        DeclareLaunchArgument('loop', default_value='graph', choices=['one-process', 'graph'],
                              description='graph: the hardware_interface node (a controller '
                                          'sends joint_commands); one-process: the '
                                          'control_loop node runs the law itself'),
        OpaqueFunction(function=_hardware_interface),
    ])
