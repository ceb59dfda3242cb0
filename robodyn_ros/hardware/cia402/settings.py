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

"""Settings of a CiA 402 drive set (the ``hardware_interface`` node's ``cia402`` parameters)."""

from dataclasses import dataclass
import math

from .bus import INTERFACES
from ...errors import InputError


@dataclass(frozen=True)
class Cia402Settings:
    """
    Fixed settings of the host's connection to a CiA 402 drive set.

    Attributes
    ----------
    node_ids : tuple of int
        CANopen node id of each joint's drive, in model joint order.
    interface : str
        ``'socketcan'``, ``'udp_multicast'`` or ``'virtual'``.
    channel : str
        ``can0``, the multicast group ('' for python-can's), or the
        virtual channel.
    port : int
        UDP port of ``udp_multicast``.
    bitrate : int
        Bus bitrate [bit/s] (frames are paced at it).
    cycle_period : float
        SYNC period, written to 0x1006 [s].
    watchdog_period : float
        RPDO timeout written to each drive's RPDO1 event timer: a drive in
        Operation enabled without a set-point for this long quick-stops [s].
    heartbeat_period : float
        Heartbeat producer time of the drives (0x1017) and of the host [s].
    heartbeat_timeout : float
        Consumer time: the host's for each drive, each drive's for the host
        (0x1016) [s].
    master_id : int
        Node id of the host's heartbeat.
    connect_timeout : float
        Longest wait for a drive's first SDO answer at configure [s].
    request_timeout : float
        Longest wait for an SDO answer, and for a power state change [s].
    rated_torque : tuple of float
        Motor rated torque written to 0x6076 [N m] (one or one per joint;
        empty: the motor torque at the actuator's current limit).
    encoder_counts : tuple of int
        Expected encoder increments per motor revolution (0x608F; empty:
        accept the drive's).
    efficiency : tuple of float
        Transmission efficiency (one or one per joint).
    velocity_bandwidth, velocity_damping : float
        State-variable filter of the acceleration estimate [Hz], [-].
    max_stale : int
        Cycles a drive's previous answer stands in for a late one (counted
        as stale; older, the cycle has no sample).
    answer_wait : float
        Share of the period a cycle waits for answers still missing at its
        start.
    eds : str
        The drives' EDS file ('' for the package's generic one).

    """

    node_ids: tuple = ()
    interface: str = 'udp_multicast'
    channel: str = ''
    port: int = 43113
    bitrate: int = 1000000
    cycle_period: float = 0.002
    watchdog_period: float = 0.05
    heartbeat_period: float = 0.1
    heartbeat_timeout: float = 0.5
    master_id: int = 127
    connect_timeout: float = 1.0
    request_timeout: float = 0.3
    rated_torque: tuple = ()
    encoder_counts: tuple = ()
    efficiency: tuple = (1.0,)
    velocity_bandwidth: float = 30.0
    velocity_damping: float = 1.0
    max_stale: int = 1
    answer_wait: float = 0.5
    eds: str = ''

    def check(self, n=None):
        """
        Validate the settings.

        Parameters
        ----------
        n : int, optional
            Number of joints (checks one node id per joint).

        Raises
        ------
        InputError
            Naming the bad setting.

        """
        ids = list(self.node_ids)
        if n is not None and len(ids) != n:
            raise InputError('node_ids', f'need one node id per joint ({n}), got {len(ids)}')
        if any(not (isinstance(k, int) and 1 <= k <= 127) for k in ids):
            raise InputError('node_ids', f'node ids must be integers in [1, 127], got {ids}')
        if len(set(ids)) != len(ids):
            raise InputError('node_ids', f'node ids must be distinct, got {ids}')
        if not 1 <= self.master_id <= 127 or self.master_id in ids:
            raise InputError('master_id', f"must be in [1, 127] and not a drive's id, got "
                             f'{self.master_id}')
        if self.interface not in INTERFACES:
            raise InputError('can_interface', f'must be one of {", ".join(INTERFACES)}, got '
                             f'{self.interface!r}')
        if not 10000 <= self.bitrate <= 1000000:
            raise InputError('bitrate', f'must be in [10000, 1000000] bit/s, got {self.bitrate}')
        for name, low, high in (('cycle_period', 2e-4, 0.1), ('watchdog_period', 0.002, 60.0),
                                ('heartbeat_period', 0.005, 60.0),
                                ('heartbeat_timeout', 0.01, 60.0),
                                ('connect_timeout', 0.01, 60.0), ('request_timeout', 0.01, 60.0),
                                ('velocity_bandwidth', 0.1, 5000.0),
                                ('velocity_damping', 0.05, 10.0), ('answer_wait', 0.0, 0.8)):
            v = getattr(self, name)
            if not (isinstance(v, (int, float)) and math.isfinite(v) and low <= v <= high):
                raise InputError(name, f'must be in [{low:g}, {high:g}], got {v!r}')
        if self.watchdog_period < 2.0 * self.cycle_period:
            raise InputError('watchdog_period', f'must be at least two cycles '
                             f'({2e3 * self.cycle_period:g} ms), got {self.watchdog_period:g} s')
        if self.heartbeat_timeout <= self.heartbeat_period:
            raise InputError('heartbeat_timeout', 'must be longer than heartbeat_period '
                             f'({self.heartbeat_period:g} s), got {self.heartbeat_timeout:g} s')
        if not (isinstance(self.max_stale, int) and 0 <= self.max_stale <= 100):
            raise InputError('max_stale',
                             f'must be an integer in [0, 100], got {self.max_stale!r}')
        if any(not (math.isfinite(v) and v > 0) for v in self.rated_torque):
            raise InputError('rated_torque', 'entries must be positive [N m]')
        if any(int(v) < 1 for v in self.encoder_counts):
            raise InputError('encoder_counts', 'entries must be positive integers')
