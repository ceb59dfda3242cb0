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
Reports and answers of the board to the host, each packing and unpacking its own payload.

The identity, the heartbeat reply, the state report sent every cycle, the
fault report and the acknowledgement of configure, enable, disable and
clear fault.
"""

from dataclasses import dataclass
import struct

from .wire import (ACKED_REQUESTS, array_struct, BOARD_WIDE, check_axis_count, CURRENT_SCALE,
                   FAULT_MASK, I32, MAX_AXES, Message, MsgId, Result, Status, STATUS_MASK,
                   TIME_SCALE, to_fixed, to_integer, U32, U64)
from ..errors import MessageError


@dataclass(frozen=True)
class Identify(Message):
    """
    The board's identity.

    Attributes
    ----------
    protocol_version : int
        Protocol version the firmware speaks.
    firmware : tuple of int
        ``(major, minor, patch)``.
    cycle_period : float
        Board cycle (state report) period [s].
    encoder_counts : tuple of int
        Encoder counts per motor revolution, per axis.
    max_current : tuple of float
        Amplifier current rating per axis [A].

    """

    protocol_version: int
    firmware: tuple
    cycle_period: float
    encoder_counts: tuple
    max_current: tuple
    msg_id = MsgId.IDENTIFY
    HEAD = struct.Struct('<5BI')
    layout = (HEAD.size, 8)

    @property
    def axis_count(self):
        """Give the number of axes (int)."""
        return len(self.encoder_counts)

    def pack(self):
        n = check_axis_count(len(self.encoder_counts), 'encoder_counts')
        if len(self.max_current) != n:
            raise MessageError(f'max_current: {len(self.max_current)} values for {n} axes')
        major, minor, patch = (to_integer(v, 0, 255, 'firmware') for v in self.firmware)
        values = []
        for k in range(n):
            values.append(to_integer(self.encoder_counts[k], 1, U32[1], 'encoder_counts'))
            values.append(to_fixed(self.max_current[k], CURRENT_SCALE, 1, U32[1],
                                   'max_current'))
        period = to_fixed(self.cycle_period, TIME_SCALE, 1, U32[1], 'cycle_period')
        return (self.HEAD.pack(to_integer(self.protocol_version, 1, 255, 'protocol_version'),
                               major, minor, patch, n, period)
                + array_struct('II', n).pack(*values))

    @classmethod
    def unpack(cls, payload):
        version, major, minor, patch, n, period = cls.HEAD.unpack_from(payload)
        cls.check_axes(payload, n)
        if version < 1 or period == 0:
            raise MessageError('identify: protocol version and cycle period must be positive')
        values = array_struct('II', n).unpack_from(payload, cls.HEAD.size)
        counts, currents = values[0::2], values[1::2]
        if min(counts) == 0 or min(currents) == 0:
            raise MessageError('identify: encoder counts and max current must be positive')
        return cls(version, (major, minor, patch), period / TIME_SCALE, counts,
                   tuple(c / CURRENT_SCALE for c in currents))


@dataclass(frozen=True)
class HeartbeatReply(Message):
    """
    Board answer to a heartbeat.

    Attributes
    ----------
    token : int
        The host's token.
    board_time_us : int
        Board time when it answered [us].

    """

    token: int
    board_time_us: int
    msg_id = MsgId.HEARTBEAT_REPLY
    BODY = struct.Struct('<QQ')
    layout = (BODY.size, 0)

    def pack(self):
        return self.BODY.pack(to_integer(self.token, *U64, 'token'),
                              to_integer(self.board_time_us, *U64, 'board_time_us'))

    @classmethod
    def unpack(cls, payload):
        return cls(*cls.BODY.unpack(payload))


@dataclass(frozen=True)
class StateReport(Message):
    """
    The board's state, sent every cycle.

    Attributes
    ----------
    board_time_us : int
        Board time of the sample [us].
    status : int
        :class:`Status` bits.
    faults : int
        Latched :class:`Fault` bits.
    applied_state_time_us : int
        ``state_time_us`` of the set-points in force (0 if none) [us].
    rx_errors : int
        Frames the board rejected so far (wraps at 65536).
    counts : tuple of int
        Encoder positions [counts].
    currents : tuple of float
        Measured motor currents [A].

    """

    board_time_us: int
    status: int
    faults: int
    applied_state_time_us: int
    rx_errors: int
    counts: tuple
    currents: tuple
    msg_id = MsgId.STATE_REPORT
    HEAD = struct.Struct('<QHHQHB')
    layout = (HEAD.size, 8)

    def pack(self):
        n = check_axis_count(len(self.counts), 'counts')
        if len(self.currents) != n:
            raise MessageError(f'currents: {len(self.currents)} values for {n} axes')
        status = to_integer(self.status, 0, STATUS_MASK, 'status')
        faults = to_integer(self.faults, 0, FAULT_MASK, 'faults')
        if status & ~STATUS_MASK or faults & ~FAULT_MASK:
            raise MessageError('status/faults: reserved bits set')
        values = []
        for k in range(n):
            values.append(to_integer(self.counts[k], *I32, 'counts'))
            values.append(to_fixed(self.currents[k], CURRENT_SCALE, *I32, 'current'))
        head = self.HEAD.pack(to_integer(self.board_time_us, *U64, 'board_time_us'), status,
                              faults, to_integer(self.applied_state_time_us, *U64,
                                                 'applied_state_time_us'),
                              int(self.rx_errors) & 0xFFFF, n)
        return head + array_struct('ii', n).pack(*values)

    @classmethod
    def unpack(cls, payload):
        t, status, faults, applied, rx_err, n = cls.HEAD.unpack_from(payload)
        cls.check_axes(payload, n)
        if status & ~STATUS_MASK or faults & ~FAULT_MASK:
            raise MessageError('state_report: reserved status or fault bits set')
        if bool(status & Status.FAULT) != bool(faults):
            raise MessageError('state_report: FAULT status bit disagrees with the fault bits')
        values = array_struct('ii', n).unpack_from(payload, cls.HEAD.size)
        return cls(t, status, faults, applied, rx_err, values[0::2],
                   tuple(v / CURRENT_SCALE for v in values[1::2]))


@dataclass(frozen=True)
class FaultReport(Message):
    """
    A fault was latched (sent once when it happens).

    Attributes
    ----------
    board_time_us : int
        Board time of the fault [us].
    faults : int
        The newly latched :class:`Fault` bits.
    axis : int
        Axis concerned, or :data:`BOARD_WIDE`.
    value : int
        Detail (e.g. the measured current in uA for an over-current).

    """

    board_time_us: int
    faults: int
    axis: int
    value: int
    msg_id = MsgId.FAULT_REPORT
    BODY = struct.Struct('<QHBi')
    layout = (BODY.size, 0)

    def pack(self):
        faults = to_integer(self.faults, 1, FAULT_MASK, 'faults')
        axis = to_integer(self.axis, 0, 255, 'axis')
        if axis >= MAX_AXES and axis != BOARD_WIDE:
            raise MessageError(f'axis: {axis} is neither an axis nor BOARD_WIDE')
        return self.BODY.pack(to_integer(self.board_time_us, *U64, 'board_time_us'), faults,
                              axis, to_integer(self.value, *I32, 'value'))

    @classmethod
    def unpack(cls, payload):
        t, faults, axis, value = cls.BODY.unpack(payload)
        if faults == 0 or faults & ~FAULT_MASK:
            raise MessageError(f'fault_report: invalid fault bits 0x{faults:04x}')
        if axis >= MAX_AXES and axis != BOARD_WIDE:
            raise MessageError(f'fault_report: invalid axis {axis}')
        return cls(t, faults, axis, value)


@dataclass(frozen=True)
class Ack(Message):
    """
    Answer to configure, enable, disable and clear fault.

    Attributes
    ----------
    acked_id : int
        Id of the answered request.
    acked_seq : int
        Its sequence number.
    result : int
        :class:`Result` code.
    detail : int
        Fault bits for ``FAULT_ACTIVE``, the axis for ``BAD_PARAMETER``.

    """

    acked_id: int
    acked_seq: int
    result: int
    detail: int = 0
    msg_id = MsgId.ACK
    BODY = struct.Struct('<BHBH')
    layout = (BODY.size, 0)

    def pack(self):
        return self.BODY.pack(to_integer(self.acked_id, 0, 255, 'acked_id'),
                              to_integer(self.acked_seq, 0, 0xFFFF, 'acked_seq'),
                              to_integer(self.result, 0, max(Result), 'result'),
                              to_integer(self.detail, 0, 0xFFFF, 'detail'))

    @classmethod
    def unpack(cls, payload):
        acked, seq, result, detail = cls.BODY.unpack(payload)
        if acked not in [int(r) for r in ACKED_REQUESTS] or result > max(Result):
            raise MessageError(f'ack: invalid request id 0x{acked:02x} or result {result}')
        return cls(acked, seq, result, detail)

    @property
    def ok(self):
        """Whether the request was accepted (bool)."""
        return self.result == Result.OK
