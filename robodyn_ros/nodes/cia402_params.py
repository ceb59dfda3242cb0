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
The hardware interface's ``cia402`` backend: its parameters and its drive set.

:func:`cia402_parameter_specs` are declared by ``hardware_interface`` and
``control_loop`` with the board's parameters; :func:`cia402_driver` builds
the :class:`~robodyn_ros.hardware.cia402.driver.Cia402Driver` from their
values (see ``docs/drives.md``).
"""

import math

from rclpy.parameter import Parameter

from .params import ParamSpec


def positive_list(name):
    """Give a check that every entry of an optional list is positive (callable)."""
    def check(value):
        if value is not None and any(not (math.isfinite(v) and v > 0) for v in value):
            return f'{name} entries must be positive'
        return None
    return check


def cia402_parameter_specs():
    """
    Parameters of the ``cia402`` backend.

    Returns
    -------
    list of ParamSpec
        Bus, node ids, timing and scaling of the drive set.

    """
    return [
        ParamSpec('can_interface', 'socketcan', 'CAN bus of the cia402 backend: socketcan (a '
                  'real interface), udp_multicast (tests and the demo, only inside a network '
                  'namespace with nothing but loopback) or virtual (in-process)',
                  choices=('socketcan', 'udp_multicast', 'virtual'), read_only=True),
        ParamSpec('can_channel', '', 'CAN channel: the SocketCAN interface (empty: can0), '
                  "the multicast group (empty: python-can's 239.74.163.2), or the virtual "
                  'channel', read_only=True),
        ParamSpec('can_port', 43113, 'UDP port of udp_multicast', low=1, high=65535,
                  read_only=True),
        ParamSpec('bitrate', 1000000, 'CAN bitrate [bit/s] (frames are paced at it; a real '
                  'interface gets it from ip link)', low=10000, high=1000000, read_only=True),
        ParamSpec('node_ids', None, "CANopen node id of each joint's drive, in joint order "
                  '(unset: 1, 2, ..., n)', kind=Parameter.Type.INTEGER_ARRAY, read_only=True,
                  check=_node_ids),
        ParamSpec('sync_period', 0.002, 'SYNC period of the cia402 backend: the cycle [s]',
                  low=0.0002, high=0.1, read_only=True),
        ParamSpec('heartbeat_period', 0.1, 'Heartbeat producer time of the drives and of the '
                  'host [s]', low=0.005, high=60.0, read_only=True),
        ParamSpec('heartbeat_timeout', 0.5, "Heartbeat consumer time, the host's for each "
                  "drive and each drive's for the host: a silent drive is a lost link, a "
                  'silent host quick-stops the drives [s]', low=0.01, high=60.0,
                  read_only=True),
        ParamSpec('master_node_id', 127, "Node id of the host's own heartbeat", low=1,
                  high=127, read_only=True),
        ParamSpec('rated_torque', None, 'Motor rated torque written to 0x6076 (one or one per '
                  'joint; unset: the motor torque at the actuator current limit) [N m]',
                  kind=Parameter.Type.DOUBLE_ARRAY, read_only=True,
                  check=positive_list('rated_torque'), constraints='each > 0'),
        ParamSpec('eds_file', '', "The drives' EDS file (empty: the package's generic CiA "
                  '402 drive)', read_only=True),
    ]


def _node_ids(value):
    if value is None:
        return None
    if any(not 1 <= v <= 127 for v in value) or len(set(value)) != len(value):
        return 'node_ids must be distinct integers in [1, 127]'
    return None


def cia402_driver(model, values):
    """
    Build the CiA 402 drive set of ``model`` from the node's parameter values.

    Parameters
    ----------
    model : RobotModel
        The host's model (one drive per joint).
    values : dict
        The node's parameters by name.

    Returns
    -------
    Cia402Driver
        The drive set, not yet connected.

    """
    from ..hardware.cia402.driver import Cia402Driver
    from ..hardware.cia402.settings import Cia402Settings
    v = values
    ids = tuple(int(k) for k in (v['node_ids'] or range(1, model.n + 1)))
    settings = Cia402Settings(
        node_ids=ids, interface=v['can_interface'], channel=v['can_channel'],
        port=v['can_port'], bitrate=v['bitrate'], cycle_period=v['sync_period'],
        watchdog_period=v['watchdog_period'], heartbeat_period=v['heartbeat_period'],
        heartbeat_timeout=v['heartbeat_timeout'], master_id=v['master_node_id'],
        connect_timeout=v['connect_timeout'], rated_torque=tuple(v['rated_torque'] or ()),
        encoder_counts=tuple(v['encoder_counts'] or ()),
        efficiency=tuple(v['transmission_efficiency'] or (1.0,)),
        velocity_bandwidth=v['velocity_filter_bandwidth'],
        velocity_damping=v['velocity_filter_damping'], eds=v['eds_file'])
    return Cia402Driver(model, settings)
