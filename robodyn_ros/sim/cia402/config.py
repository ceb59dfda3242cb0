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

"""Options of the simulated drive set (``robodyn sim-drive`` and its ``--config`` YAML)."""

from dataclasses import dataclass, field
import math

from ..board.config import SimBoardConfig
from ...errors import InputError
from ...hardware.cia402.bus import INTERFACES


@dataclass
class SimDriveConfig(SimBoardConfig):
    """
    Options of the simulated drive set: the plant's as for the board, plus the bus.

    The board's link options (``transport``, ``link``, ``address``,
    ``port``, ``lockstep``) are not used; ``rate`` is the drives' internal
    cycle (the plant's step), ``firmware`` their software version (0x100A).

    Attributes
    ----------
    interface : str
        ``'udp_multicast'`` (inside an isolated network namespace) or ``'virtual'``.
    channel : str
        Multicast group ('' for python-can's) or virtual channel.
    can_port : int
        UDP port of ``udp_multicast``.
    bitrate : int
        Bus bitrate the drives pace their frames at [bit/s].
    node_ids : list of int
        Node id of each joint's drive (empty: 1, 2, ..., n).
    quick_stop_time : float
        Time a drive stays in Quick stop active before Switch on disabled [s].
    brake_delay : float
        Time from Operation enabled to the brake release [s] (the power
        stage holds torque first).

    """

    interface: str = 'udp_multicast'
    channel: str = ''
    can_port: int = 43113
    bitrate: int = 1000000
    node_ids: list = field(default_factory=list)
    quick_stop_time: float = 0.02
    brake_delay: float = 0.004

    def check(self):
        """
        Validate the options.

        Raises
        ------
        InputError
            Naming the option and the problem.

        """
        super().check()
        if self.interface not in INTERFACES or self.interface == 'socketcan':
            raise InputError('interface', "must be 'udp_multicast' or 'virtual' (a simulated "
                             f'drive never drives a real bus), got {self.interface!r}')
        if not 10000 <= int(self.bitrate) <= 1000000:
            raise InputError('bitrate', f'must be in [10000, 1000000] bit/s, got {self.bitrate}')
        if not 1 <= int(self.can_port) <= 65535:
            raise InputError('can_port', f'must be in [1, 65535], got {self.can_port}')
        ids = list(self.node_ids)
        if any(not (isinstance(k, int) and 1 <= k <= 127) for k in ids) or \
                len(set(ids)) != len(ids):
            raise InputError('node_ids', f'must be distinct integers in [1, 127], got {ids}')
        for name in ('quick_stop_time', 'brake_delay'):
            v = float(getattr(self, name))
            if not (math.isfinite(v) and 0.0 <= v <= 1.0):
                raise InputError(name, f'must be in [0, 1] s, got {v}')
