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
Requests of the host to the board, each packing and unpacking its own payload.

Identify request, configure, enable, disable, clear fault and heartbeat
(answered by :mod:`.reports`), and the set-point frame sent every cycle:
set-currents (current mode) or set-impedance (impedance mode).
"""

from dataclasses import dataclass
import math
import struct

import numpy as np

from .framing import MAX_PAYLOAD
from .wire import (array_struct, check_axis_count, CURRENT_SCALE, GEAR_RATIO_SCALE, I32,
                   Message, MsgId, TIME_SCALE, to_fixed, to_float32, to_integer,
                   TORQUE_CONSTANT_SCALE, U32, U64)
from ..errors import MessageError


@dataclass(frozen=True)
class IdentifyRequest(Message):
    """Host asks the board who it is (empty payload)."""

    msg_id = MsgId.IDENTIFY_REQUEST


@dataclass(frozen=True)
class Configure(Message):
    """
    Per-axis configuration sent by the host before enabling.

    Attributes
    ----------
    watchdog_period : float
        Longest time without a valid current frame while enabled [s].
    current_limit : tuple of float
        Current limit per axis [A].
    torque_constant : tuple of float
        Motor torque constant per axis [N m/A].
    gear_ratio : tuple of float
        Motor over joint speed per axis (signed).
    encoder_counts : tuple of int
        Encoder counts per motor revolution the host assumes, per axis.

    """

    watchdog_period: float
    current_limit: tuple
    torque_constant: tuple
    gear_ratio: tuple
    encoder_counts: tuple
    msg_id = MsgId.CONFIGURE
    HEAD = struct.Struct('<IB')
    layout = (HEAD.size, 16)

    @property
    def axis_count(self):
        """Give the number of axes (int)."""
        return len(self.current_limit)

    def pack(self):
        n = check_axis_count(len(self.current_limit), 'current_limit')
        for name in ('torque_constant', 'gear_ratio', 'encoder_counts'):
            if len(getattr(self, name)) != n:
                raise MessageError(f'{name}: {len(getattr(self, name))} values for {n} axes')
        values = []
        for k in range(n):
            values.append(to_fixed(self.current_limit[k], CURRENT_SCALE, 1, U32[1],
                                   'current_limit'))
            values.append(to_fixed(self.torque_constant[k], TORQUE_CONSTANT_SCALE, 1, U32[1],
                                   'torque_constant'))
            gear = to_fixed(self.gear_ratio[k], GEAR_RATIO_SCALE, *I32, 'gear_ratio')
            if gear == 0:
                raise MessageError('gear_ratio: must not be 0')
            values.append(gear)
            values.append(to_integer(self.encoder_counts[k], 1, U32[1], 'encoder_counts'))
        watchdog = to_fixed(self.watchdog_period, TIME_SCALE, 1, U32[1], 'watchdog_period')
        return self.HEAD.pack(watchdog, n) + array_struct('IIiI', n).pack(*values)

    @classmethod
    def unpack(cls, payload):
        watchdog, n = cls.HEAD.unpack_from(payload)
        cls.check_axes(payload, n)
        values = array_struct('IIiI', n).unpack_from(payload, cls.HEAD.size)
        limit, kt, gear, counts = values[0::4], values[1::4], values[2::4], values[3::4]
        if watchdog == 0 or min(limit) == 0 or min(kt) == 0 or min(counts) == 0 or 0 in gear:
            raise MessageError('configure: zero watchdog, limit, torque constant, gear ratio '
                               'or encoder counts')
        return cls(watchdog / TIME_SCALE, tuple(v / CURRENT_SCALE for v in limit),
                   tuple(v / TORQUE_CONSTANT_SCALE for v in kt),
                   tuple(v / GEAR_RATIO_SCALE for v in gear), counts)


@dataclass(frozen=True)
class Enable(Message):
    """Host asks the board to switch its outputs on (empty payload)."""

    msg_id = MsgId.ENABLE


@dataclass(frozen=True)
class Disable(Message):
    """Host asks the board to switch its outputs off (empty payload)."""

    msg_id = MsgId.DISABLE


@dataclass(frozen=True)
class ClearFault(Message):
    """Host asks the board to clear its latched faults (empty payload)."""

    msg_id = MsgId.CLEAR_FAULT


@dataclass(frozen=True)
class Heartbeat(Message):
    """
    Host keep-alive; the board answers with :class:`HeartbeatReply`.

    Attributes
    ----------
    token : int
        Opaque 64-bit value echoed by the board (e.g. host time in us).

    """

    token: int
    msg_id = MsgId.HEARTBEAT
    BODY = struct.Struct('<Q')
    layout = (BODY.size, 0)

    def pack(self):
        return self.BODY.pack(to_integer(self.token, *U64, 'token'))

    @classmethod
    def unpack(cls, payload):
        return cls(*cls.BODY.unpack(payload))


@dataclass(frozen=True)
class SetCurrents(Message):
    """
    Current set-points for every axis (one frame per cycle).

    Attributes
    ----------
    state_time_us : int
        Board time of the state report the set-points were computed from
        [us]; the board refuses set-points older than its watchdog period.
    currents : tuple of float
        Motor currents [A].

    """

    state_time_us: int
    currents: tuple
    msg_id = MsgId.SET_CURRENTS
    HEAD = struct.Struct('<QB')
    layout = (HEAD.size, 4)

    def pack(self):
        n = check_axis_count(len(self.currents), 'currents')
        values = [to_fixed(c, CURRENT_SCALE, *I32, 'current') for c in self.currents]
        return (self.HEAD.pack(to_integer(self.state_time_us, *U64, 'state_time_us'), n)
                + array_struct('i', n).pack(*values))

    @classmethod
    def unpack(cls, payload):
        t, n = cls.HEAD.unpack_from(payload)
        cls.check_axes(payload, n)
        values = array_struct('i', n).unpack_from(payload, cls.HEAD.size)
        return cls(t, tuple(v / CURRENT_SCALE for v in values))


@dataclass(frozen=True)
class SetImpedance(Message):
    """
    Impedance set-points for every axis (one frame per cycle), in the board's motor units.

    Until the next accepted set-point frame (or the watchdog) the board
    closes, at its inner rate, per axis::

        i = kp (position + velocity (t - state_time) - theta) + kd (velocity - omega) + current

    with ``theta`` the motor angle of its encoder (``2 pi counts / cpr``),
    ``omega`` the motor speed it measures and ``t`` its board time, clamped
    to the configured current limit. A joint-side command converts as
    ``position = N q``, ``velocity = N qd``, ``kp = Kp / (eta N**2 Kt)``,
    ``kd = Kd / (eta N**2 Kt)``, ``current = tau / (eta N Kt)``
    (:meth:`~robodyn_ros.hardware.board.driver.BoardDriver.send_impedance`).

    Attributes
    ----------
    state_time_us : int
        Board time of the state report the set-points were computed from,
        and the time at which the position reference holds [us]; the board
        refuses set-points older than its watchdog period.
    position : tuple of float
        Motor angle reference at ``state_time_us`` [rad] (0 at encoder count 0).
    velocity : tuple of float
        Motor speed reference [rad/s]; also the slope of the position reference.
    kp : tuple of float
        Position gain [A/rad], >= 0.
    kd : tuple of float
        Velocity gain [A s/rad], >= 0.
    current : tuple of float
        Feed-forward current [A].

    """

    state_time_us: int
    position: tuple
    velocity: tuple
    kp: tuple
    kd: tuple
    current: tuple
    msg_id = MsgId.SET_IMPEDANCE
    HEAD = struct.Struct('<QB')
    #: Per-axis fields in wire order, and their smallest allowed values.
    FIELDS = ('position', 'velocity', 'kp', 'kd', 'current')
    LOWEST = (-math.inf, -math.inf, 0.0, 0.0, -math.inf)
    layout = (HEAD.size, 20)
    max_axes = (MAX_PAYLOAD - HEAD.size) // 20

    @property
    def axis_count(self):
        """Give the number of axes (int)."""
        return len(self.position)

    def pack(self):
        n = check_axis_count(len(self.position), 'position', self.max_axes)
        columns = [getattr(self, name) for name in self.FIELDS]
        for name, column in zip(self.FIELDS, columns):
            if len(column) != n:
                raise MessageError(f'{name}: {len(column)} values for {n} axes')
        values = [to_float32(column[k], low, name) for k in range(n)
                  for name, column, low in zip(self.FIELDS, columns, self.LOWEST)]
        return (self.HEAD.pack(to_integer(self.state_time_us, *U64, 'state_time_us'), n)
                + array_struct('fffff', n).pack(*values))

    @classmethod
    def unpack(cls, payload):
        t, n = cls.HEAD.unpack_from(payload)
        cls.check_axes(payload, n)
        block = np.frombuffer(payload, '<f4', 5 * n, cls.HEAD.size).astype(float).reshape(n, 5)
        bad = ~np.isfinite(block) | (block < cls.LOWEST)
        if bad.any():  # the first bad value, named; nothing of the frame is used
            k = int(np.argmax(bad.reshape(-1)))
            v = float(block.reshape(-1)[k])
            raise MessageError(f'set_impedance: axis {k // 5} {cls.FIELDS[k % 5]} {v} is '
                               f'{"not finite" if not math.isfinite(v) else "negative"}')
        return cls(t, *(tuple(column) for column in block.T.tolist()))
