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

"""Options of ``robodyn demo``."""

from dataclasses import dataclass, field
import math

from ..control.factory import LAWS
from ..errors import InputError


@dataclass
class DemoConfig:
    """
    Options of one demo run.

    Attributes
    ----------
    robot : str
        Library robot, example robot or URDF/xacro path.
    controllers : list of str
        Control laws, run one after the other on the same goal.
    out : str
        Output folder ('' : ``demo_output/<date-time>``).
    short : bool
        One excursion instead of three, shorter settling.
    rate : float
        Board cycle rate and control rate [Hz].
    mode : {'one-process', 'graph'}
        ``'one-process'``: the ``control_loop`` node runs each law in the
        board's I/O loop (no DDS in the cycle); ``'graph'``: the
        ``hardware_interface`` node and one ``controller`` node per law over
        DDS.
    payload : float
        Payload carried by the simulated robot, unknown to the model [kg].
    payload_com : list
        Its position in the end-effector frame [m].
    soak : float
        Soak duration [min] (0: the normal demo).
    load_friction : bool
        Give the simulated plant the load-dependent (seed 004) bearing and
        transmission friction (about 0.6 ms per cycle of plant computation).
    board_port : int
        UDP port of the simulated board on 127.0.0.1 (0: any free port).
    velocity_scale : float
        Planner's factor on the velocity limits.
    settle : float
        Time recorded after each motion ends [s].
    start_timeout : float
        Longest wait for the parts to come up [s].
    domain_id : int
        ROS_DOMAIN_ID of the demo's graph (-1: the environment's, else one
        chosen from the process id).
    board_control : bool
        Open the simulated board's control channel (fault injection, its
        true state), as the fault campaign does.
    record : bool
        Write the MCAP recording of the run (benchmarks leave it out).
    board_arguments : list of str
        Extra command-line arguments of ``robodyn sim-board``.
    hardware_parameters : dict
        Extra parameters of the hardware interface (name to value).
    hardware : {'board', 'cia402'}
        The simulated hardware: the driver board over UDP, or one CiA 402
        drive per joint over CAN (``udp_multicast`` in the demo's own
        network namespace).

    """

    robot: str = 'puma560'
    controllers: list = field(default_factory=lambda: ['computed_torque', 'mbvsst'])
    out: str = ''
    short: bool = False
    rate: float = 1000.0
    mode: str = 'one-process'
    payload: float = 2.0
    payload_com: list = field(default_factory=lambda: [0.0, 0.0, 0.0])
    soak: float = 0.0
    load_friction: bool = False
    board_port: int = 0
    velocity_scale: float = 0.6
    settle: float = 1.0
    start_timeout: float = 60.0
    domain_id: int = -1
    board_control: bool = False
    record: bool = True
    board_arguments: list = field(default_factory=list)
    hardware_parameters: dict = field(default_factory=dict)
    hardware: str = 'board'

    def check(self):
        """
        Validate the options.

        Raises
        ------
        InputError
            Naming the option and the problem.

        """
        if not self.controllers:
            raise InputError('--controller', 'name at least one control law')
        for law in self.controllers:
            if law not in LAWS:
                raise InputError('--controller', f'unknown law {law!r} (one of '
                                 f'{", ".join(LAWS)})')
        if len(set(self.controllers)) != len(self.controllers):
            raise InputError('--controller', 'each law at most once')
        if self.hardware not in ('board', 'cia402'):
            raise InputError('--hardware', f"must be 'board' or 'cia402', got {self.hardware!r}")
        if self.mode not in ('one-process', 'graph'):
            raise InputError('--mode', f"must be 'one-process' or 'graph', got {self.mode!r}")
        if not (math.isfinite(self.rate) and 50.0 <= self.rate <= 5000.0):
            raise InputError('--rate', f'must be in [50, 5000] Hz, got {self.rate}')
        if not (math.isfinite(self.payload) and 0.0 <= self.payload <= 1000.0):
            raise InputError('--payload', f'must be in [0, 1000] kg, got {self.payload}')
        if len(self.payload_com) != 3 or not all(math.isfinite(c) for c in self.payload_com):
            raise InputError('--payload-com', 'must be three finite values [m]')
        if not (math.isfinite(self.soak) and 0.0 <= self.soak <= 24 * 60):
            raise InputError('--soak', f'must be in [0, 1440] minutes, got {self.soak}')
        if not 0 <= self.board_port <= 65535:
            raise InputError('--board-port', f'must be in [0, 65535], got {self.board_port}')
        if not (math.isfinite(self.velocity_scale) and 0.01 <= self.velocity_scale <= 1.0):
            raise InputError('--velocity-scale', 'must be in [0.01, 1]')
        if not (math.isfinite(self.settle) and 0.0 <= self.settle <= 60.0):
            raise InputError('--settle', 'must be in [0, 60] s')
        if not (math.isfinite(self.start_timeout) and self.start_timeout > 0.0):
            raise InputError('--start-timeout', 'must be positive')
        if not -1 <= self.domain_id <= 232:
            raise InputError('--domain-id', f'must be in [0, 232], got {self.domain_id}')
