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

"""Options of the simulated board (``robodyn sim-board`` and its ``--config`` YAML)."""

from dataclasses import dataclass, field, fields
import math

from ...errors import InputError


@dataclass
class SimBoardConfig:
    """
    Options of the simulated board.

    Attributes
    ----------
    robot : str
        Library robot, example robot or URDF/xacro path (the true plant).
    params : str
        YAML with the true actuator, friction and limit data ('' for none).
    transport : str
        ``'pty'`` or ``'udp'``.
    link : str
        Symbolic link to the pty slave ('' for none).
    address : str
        UDP address to bind.
    port : int
        UDP port (0: any).
    control_port : int
        Control channel port on 127.0.0.1 (0: any; -1: no channel).
    rate : float
        Cycle rate [Hz] (state reports, current-mode set-points, plant step
        in current mode).
    inner_rate : float
        Rate of the impedance-mode PD and plant sub-steps [Hz]: a whole
        number of sub-steps per cycle, ``ceil(inner_rate / rate)`` (at least 1).
    encoder_counts : list
        Counts per motor revolution (one value or one per axis).
    max_current : list
        Amplifier ratings [A] (empty: from the model's limits).
    current_time_constant : float
        Current loop time constant [s].
    efficiency : list
        True transmission efficiency (one value or one per axis).
    backlash : list
        Backlash width at the joint side [rad or m] (one value or per axis).
    backlash_speed : float
        Gap crossing speed [rad/s or m/s].
    encoder_noise : float
        Encoder noise [counts, standard deviation].
    current_noise : float
        Current sensor noise [A, standard deviation].
    load_friction : bool
        Keep the model's load-dependent (seed 004) friction.
    brakes : bool
        Hold the joints while the outputs are off.
    friction_smoothing : float
        Lower bound of the plant's zero-velocity friction band [rad/s or m/s].
    q0 : list
        Initial positions [rad or m] (empty: zeros clipped to the limits).
    seed : int
        Random seed.
    firmware : str
        Reported firmware version ``'major.minor.patch'``.
    over_current_factor : float
        Over-current trip level relative to the configured limit.
    lockstep : bool
        While enabled, advance one cycle as soon as the host has answered
        the last report (at most ``lockstep_timeout`` of waiting), instead of
        in real time: board time then runs as fast as the host allows and
        host latency is always one cycle (deterministic tests on a busy
        machine).
    lockstep_timeout : float
        Longest wait for the host's answer in lockstep [s].
    faults : list
        Faults active at start, as ``NAME[:key=value,...]`` strings.
    max_runtime : float
        Exit after this many seconds (0: run until stopped).
    payload_mass : float
        Point mass carried by the plant and unknown to the host [kg].
    payload_com : list
        Its position in ``payload_frame`` [m] (three values).
    payload_frame : str
        Frame carrying the payload ('' for the model's end effector).
    rt_priority : int
        ``SCHED_FIFO`` priority of the simulator's loop (0: normal
        scheduling): hardware keeps its cycle on its own timer, a process on
        a busy machine only when it is scheduled.

    """

    robot: str = 'puma560'
    params: str = ''
    transport: str = 'pty'
    link: str = ''
    address: str = '127.0.0.1'
    port: int = 0
    control_port: int = 0
    rate: float = 1000.0
    inner_rate: float = 4000.0
    encoder_counts: list = field(default_factory=lambda: [4096])
    max_current: list = field(default_factory=list)
    current_time_constant: float = 5e-4
    efficiency: list = field(default_factory=lambda: [1.0])
    backlash: list = field(default_factory=lambda: [0.0])
    backlash_speed: float = 0.5
    encoder_noise: float = 0.0
    current_noise: float = 0.0
    load_friction: bool = True
    brakes: bool = True
    friction_smoothing: float = 0.002
    q0: list = field(default_factory=list)
    seed: int = 0
    firmware: str = '1.0.0'
    over_current_factor: float = 1.25
    lockstep: bool = False
    lockstep_timeout: float = 0.1
    faults: list = field(default_factory=list)
    max_runtime: float = 0.0
    payload_mass: float = 0.0
    payload_com: list = field(default_factory=lambda: [0.0, 0.0, 0.0])
    payload_frame: str = ''
    rt_priority: int = 0

    @property
    def substeps(self):
        """Inner periods per cycle, ``ceil(inner_rate / rate)``, at least 1 (int)."""
        return max(1, math.ceil(self.inner_rate / self.rate - 1e-9))

    def check(self):
        """
        Validate the options.

        Raises
        ------
        InputError
            Naming the option and the problem.

        """
        self._check_types()
        if not 0 <= self.port <= 65535:
            raise InputError('port', f'must be in [0, 65535] (0: any free port), got {self.port}')
        if not -1 <= self.control_port <= 65535:
            raise InputError('control_port', 'must be in [-1, 65535] (0: any free port, -1: '
                             f'no control channel), got {self.control_port}')
        if self.transport not in ('pty', 'udp'):
            raise InputError('transport', f"must be 'pty' or 'udp', got {self.transport!r}")
        if not (math.isfinite(self.rate) and 10.0 <= self.rate <= 20000.0):
            raise InputError('rate', f'must be in [10, 20000] Hz, got {self.rate}')
        if not (math.isfinite(self.inner_rate) and 10.0 <= self.inner_rate <= 100000.0):
            raise InputError('inner_rate', f'must be in [10, 100000] Hz, got {self.inner_rate}')
        if not 0.0 <= self.current_time_constant <= 1.0:
            raise InputError('current_time_constant', 'must be in [0, 1] s')
        for name in ('encoder_noise', 'current_noise', 'backlash_speed', 'max_runtime',
                     'friction_smoothing', 'lockstep_timeout', 'payload_mass'):
            v = float(getattr(self, name))
            if not (math.isfinite(v) and v >= 0.0):
                raise InputError(name, f'must be finite and >= 0, got {v}')
        com = [float(c) for c in self.payload_com]
        if len(com) != 3 or not all(math.isfinite(c) for c in com):
            raise InputError('payload_com', f'must be three finite values [m], got {com}')
        if min(self.encoder_counts or [0]) < 1:
            raise InputError('encoder_counts', 'must be positive integers')
        if self.max_current and min(self.max_current) <= 0.0:
            raise InputError('max_current', 'must be positive')
        if not (isinstance(self.rt_priority, int) and 0 <= self.rt_priority <= 99):
            raise InputError('rt_priority', f'must be an integer in [0, 99], got '
                             f'{self.rt_priority!r}')
        if not self.over_current_factor > 1.0:
            raise InputError('over_current_factor', 'must be > 1')
        try:
            version = tuple(int(v) for v in self.firmware.split('.'))
        except ValueError:
            version = ()
        if len(version) != 3 or not all(0 <= v <= 255 for v in version):
            raise InputError('firmware', f"must look like '1.2.3', got {self.firmware!r}")

    def _check_types(self):
        """Check each option's type against its default's (a YAML file can hold anything)."""
        for f in fields(self):
            value, default = getattr(self, f.name), f.default
            if isinstance(f.default_factory, type(lambda: 0)):
                default = f.default_factory()
            if isinstance(default, bool):
                ok, want = isinstance(value, bool), 'true or false'
            elif isinstance(default, int):
                ok, want = isinstance(value, int) and not isinstance(value, bool), 'an integer'
            elif isinstance(default, float):
                ok = isinstance(value, (int, float)) and not isinstance(value, bool)
                want = 'a number'
            elif isinstance(default, str):
                ok, want = isinstance(value, str), 'a string'
            else:
                kind = str if f.name == 'faults' else (int, float)
                ok = isinstance(value, (list, tuple)) and all(
                    isinstance(v, kind) and not isinstance(v, bool) for v in value)
                want = 'a list of strings' if f.name == 'faults' else 'a list of numbers'
            if not ok:
                raise InputError(f.name, f'must be {want}, got {value!r}')
