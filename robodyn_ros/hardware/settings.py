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
Settings records of the host side: the connection and the hardware interface.

:class:`DriverSettings` fix a host-board connection (watchdog, timeouts,
expected encoders, efficiency, velocity filter); :class:`InterfaceSettings`
are the hardware interface's run-time settings (board mode, friction
compensation, command timeout, joint-limit margin, recovery). Both check
themselves.
"""

from dataclasses import dataclass
import math

from ..errors import InputError


#: Upper bound of ``command_timeout`` [s]: a controller silent for longer is dead.
MAX_COMMAND_TIMEOUT = 0.5
#: Upper bound of ``hold_time`` [s]: how long the interface holds on its own at most.
MAX_HOLD_TIME = 10.0
#: How the interface commands the board: currents every cycle, or impedance set-points
#: (the board closes their PD at its inner rate between frames).
BOARD_MODES = ('current', 'impedance')


@dataclass(frozen=True)
class DriverSettings:
    """
    Fixed settings of a host-board connection.

    Attributes
    ----------
    watchdog_period : float
        Board watchdog period sent in the configuration [s].
    connect_timeout : float
        Longest wait for the identify answer [s].
    request_timeout : float
        Longest wait for an acknowledgement [s].
    encoder_counts : tuple of int
        Expected counts per motor revolution (one or one per joint; empty:
        accept the board's).
    efficiency : tuple of float
        Transmission efficiency (one or one per joint).
    velocity_bandwidth : float
        State-variable filter natural frequency [Hz].
    velocity_damping : float
        State-variable filter damping ratio.

    """

    watchdog_period: float = 0.05
    connect_timeout: float = 1.0
    request_timeout: float = 0.5
    encoder_counts: tuple = ()
    efficiency: tuple = (1.0,)
    velocity_bandwidth: float = 30.0
    velocity_damping: float = 1.0

    def check(self):
        """
        Validate the settings.

        Raises
        ------
        InputError
            Naming the bad setting.

        """
        for name in ('watchdog_period', 'connect_timeout', 'request_timeout',
                     'velocity_bandwidth', 'velocity_damping'):
            v = getattr(self, name)
            if not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0.0):
                raise InputError(name, f'must be a positive number, got {v!r}')


@dataclass(frozen=True)
class InterfaceSettings:
    """
    Settings of the hardware interface that may change at run time.

    Attributes
    ----------
    board_mode : {'current', 'impedance'}
        ``'current'``: every command goes to the board as currents;
        ``'impedance'``: impedance set-points (a law's split form) go as
        impedance frames and the hold is an impedance set-point, so the
        board keeps closing it between frames (torque commands still go as
        currents). Fixed while active.
    friction_compensation : bool
        Add the model's friction to the command.
    friction_band : float
        Zero-velocity band of the compensation [rad/s or m/s].
    friction_scale : float
        Compensation gain in [0, 1.5].
    load_friction : bool
        Include the load-dependent friction from the RNE reactions.
    load_friction_period : float
        Refresh period of the load-dependent term [s].
    command_timeout : float
        A command older than this has stopped: the interface holds [s]
        (at most :data:`MAX_COMMAND_TIMEOUT`).
    hold_time : float
        How long the interface holds by itself before it brakes and
        switches the outputs off [s] (at most :data:`MAX_HOLD_TIME`).
    hold_bandwidth : float
        Natural frequency of the hold's PD [rad/s].
    stream_length : int
        Valid commands in a row from one source that make a command stream.
    limit_margin : float
        Joint-limit ramp width [rad or m].
    auto_recover : bool
        After a fault whose cause is gone, switch the outputs on again by
        itself and hold (never the last command); off: stay off until reset.
    recover_period : float
        Time between recovery attempts [s].
    reconnect_period : float
        Time between reconnection attempts [s].
    state_timeout : float
        No state report for this long is an error [s] (0: the watchdog period).

    """

    board_mode: str = 'current'
    friction_compensation: bool = True
    friction_band: float = 0.02
    friction_scale: float = 1.0
    load_friction: bool = False
    load_friction_period: float = 0.02
    command_timeout: float = 0.02
    hold_time: float = 2.0
    hold_bandwidth: float = 40.0
    stream_length: int = 3
    limit_margin: float = 0.05
    auto_recover: bool = False
    recover_period: float = 0.5
    reconnect_period: float = 0.5
    state_timeout: float = 0.0

    def check(self, active=None):
        """
        Validate the settings.

        Parameters
        ----------
        active : InterfaceSettings, optional
            The settings in force while the outputs are armed or on: then
            ``command_timeout`` and ``hold_time`` may not be raised above
            them, and ``board_mode`` may not change.

        Raises
        ------
        InputError
            Naming the bad setting.

        """
        for name in ('friction_band', 'command_timeout', 'hold_time', 'hold_bandwidth',
                     'recover_period', 'reconnect_period'):
            v = getattr(self, name)
            if not (math.isfinite(v) and v > 0.0):
                raise InputError(name, f'must be positive, got {v}')
        for name in ('load_friction_period', 'limit_margin', 'state_timeout'):
            v = getattr(self, name)
            if not (math.isfinite(v) and v >= 0.0):
                raise InputError(name, f'must be >= 0, got {v}')
        if not 0.0 <= self.friction_scale <= 1.5:
            raise InputError('friction_scale', f'must be in [0, 1.5], got {self.friction_scale}')
        for name, bound in (('command_timeout', MAX_COMMAND_TIMEOUT),
                            ('hold_time', MAX_HOLD_TIME)):
            value = getattr(self, name)
            if value > bound:
                raise InputError(name, f'must be <= {bound:g} s, got {value:g}')
            if active is not None and value > getattr(active, name):
                raise InputError(name, f'cannot be raised while active ({getattr(active, name):g}'
                                       f' s now); deactivate first')
        if self.board_mode not in BOARD_MODES:
            raise InputError('board_mode', f'must be one of {", ".join(BOARD_MODES)}, got '
                                           f'{self.board_mode!r}')
        if active is not None and self.board_mode != active.board_mode:
            raise InputError('board_mode', f'cannot change while active ({active.board_mode} '
                                           'now); deactivate first')
        if not (isinstance(self.stream_length, int) and 1 <= self.stream_length <= 100):
            raise InputError('stream_length', f'must be an integer in 1..100, got '
                                              f'{self.stream_length!r}')
