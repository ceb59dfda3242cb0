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
Payload codecs of the board messages (little-endian fixed point).

Encoding rounds SI values to the wire units of :mod:`.messages` and refuses
non-finite or out-of-range values. Decoding checks everything that can be
checked: the exact payload length for the id and for the axis count carried
in the payload, reserved bits zero, known enumerations, positive resolutions
and periods. A frame that passes the CRC but not these checks raises
:class:`~robodyn_ros.hardware.errors.MessageError`.
"""

import math
import struct

import numpy as np

from .framing import encode_frame
from .messages import (Ack, ACKED_REQUESTS, BOARD_WIDE, ClearFault, Configure, CURRENT_SCALE,
                       Disable, Enable, FAULT_MASK, FaultReport, GEAR_RATIO_SCALE, Heartbeat,
                       HeartbeatReply, Identify, IdentifyRequest, MAX_AXES, MsgId, Result,
                       SetCurrents, StateReport, Status, STATUS_MASK, TIME_SCALE,
                       TORQUE_CONSTANT_SCALE)
from ..errors import MessageError


def _fixed(value, scale, low, high, field):
    """Convert a float to a fixed-point integer, checking finiteness and range."""
    v = float(value)
    if not math.isfinite(v):
        raise MessageError(f'{field}: {v} is not finite')
    out = int(round(v * scale))
    if not low <= out <= high:
        raise MessageError(f'{field}: {v} outside the encodable range '
                           f'[{low / scale:g}, {high / scale:g}]')
    return out


def _integer(value, low, high, field):
    out = int(value)
    if out != value or not low <= out <= high:
        raise MessageError(f'{field}: {value!r} is not an integer in [{low}, {high}]')
    return out


def _axes(count, field):
    if not 1 <= count <= MAX_AXES:
        raise MessageError(f'{field}: axis count {count} outside 1..{MAX_AXES}')
    return count


I32 = (-2**31, 2**31 - 1)
U32 = (0, 2**32 - 1)
U64 = (0, 2**64 - 1)


_IDENT_HEAD = struct.Struct('<5BI')
_CONF_HEAD = struct.Struct('<IB')
_SET_HEAD = struct.Struct('<QB')
_STATE_HEAD = struct.Struct('<QHHQHB')
_FAULT = struct.Struct('<QHBi')
_ACK = struct.Struct('<BHBH')
_TOKEN = struct.Struct('<Q')
_REPLY = struct.Struct('<QQ')
_CACHE = {}


def _array(fmt, count):
    key = (fmt, count)
    s = _CACHE.get(key)
    if s is None:
        s = _CACHE[key] = struct.Struct('<' + fmt * count)
    return s


#: Payload layout per id: (fixed size, per-axis size) or fixed size only.
_LAYOUT = {
    MsgId.IDENTIFY_REQUEST: (0, 0), MsgId.ENABLE: (0, 0), MsgId.DISABLE: (0, 0),
    MsgId.CLEAR_FAULT: (0, 0), MsgId.HEARTBEAT: (8, 0), MsgId.HEARTBEAT_REPLY: (16, 0),
    MsgId.IDENTIFY: (_IDENT_HEAD.size, 8), MsgId.CONFIGURE: (_CONF_HEAD.size, 16),
    MsgId.SET_CURRENTS: (_SET_HEAD.size, 4), MsgId.STATE_REPORT: (_STATE_HEAD.size, 8),
    MsgId.FAULT_REPORT: (_FAULT.size, 0), MsgId.ACK: (_ACK.size, 0),
}


def plausible_length(msg_id, length):
    """
    Tell whether a payload length is possible for a message id.

    Parameters
    ----------
    msg_id : int
        Message id.
    length : int
        Payload length [bytes].

    Returns
    -------
    bool
        False for unknown ids and impossible lengths.

    """
    layout = _LAYOUT.get(msg_id)
    if layout is None:
        return False
    base, per = layout
    if per == 0:
        return length == base
    extra = length - base
    return extra >= per and extra % per == 0 and extra // per <= MAX_AXES


def payload_size(msg_id, axes=0):
    """
    Payload size of a message [bytes].

    Parameters
    ----------
    msg_id : int
        Message id.
    axes : int
        Axis count for per-axis messages.

    Returns
    -------
    int
        Size in bytes.

    """
    base, per = _LAYOUT[MsgId(msg_id)]
    return base + per * axes


def pack_payload(msg):
    """
    Encode the payload of a message record.

    Parameters
    ----------
    msg : message record
        Any record of this module.

    Returns
    -------
    bytes
        The payload.

    Raises
    ------
    MessageError
        If a value is not finite, out of range or the arrays disagree in length.

    """
    mid = msg.msg_id
    if mid in (MsgId.IDENTIFY_REQUEST, MsgId.ENABLE, MsgId.DISABLE, MsgId.CLEAR_FAULT):
        return b''
    if mid == MsgId.HEARTBEAT:
        return _TOKEN.pack(_integer(msg.token, *U64, 'token'))
    if mid == MsgId.HEARTBEAT_REPLY:
        return _REPLY.pack(_integer(msg.token, *U64, 'token'),
                           _integer(msg.board_time_us, *U64, 'board_time_us'))
    if mid == MsgId.SET_CURRENTS:
        n = _axes(len(msg.currents), 'currents')
        values = [_fixed(c, CURRENT_SCALE, *I32, 'current') for c in msg.currents]
        return (_SET_HEAD.pack(_integer(msg.state_time_us, *U64, 'state_time_us'), n)
                + _array('i', n).pack(*values))
    if mid == MsgId.STATE_REPORT:
        n = _axes(len(msg.counts), 'counts')
        if len(msg.currents) != n:
            raise MessageError(f'currents: {len(msg.currents)} values for {n} axes')
        status = _integer(msg.status, 0, STATUS_MASK, 'status')
        faults = _integer(msg.faults, 0, FAULT_MASK, 'faults')
        if status & ~STATUS_MASK or faults & ~FAULT_MASK:
            raise MessageError('status/faults: reserved bits set')
        values = []
        for k in range(n):
            values.append(_integer(msg.counts[k], *I32, 'counts'))
            values.append(_fixed(msg.currents[k], CURRENT_SCALE, *I32, 'current'))
        head = _STATE_HEAD.pack(_integer(msg.board_time_us, *U64, 'board_time_us'), status,
                                faults, _integer(msg.applied_state_time_us, *U64,
                                                 'applied_state_time_us'),
                                int(msg.rx_errors) & 0xFFFF, n)
        return head + _array('ii', n).pack(*values)
    if mid == MsgId.IDENTIFY:
        n = _axes(len(msg.encoder_counts), 'encoder_counts')
        if len(msg.max_current) != n:
            raise MessageError(f'max_current: {len(msg.max_current)} values for {n} axes')
        major, minor, patch = (_integer(v, 0, 255, 'firmware') for v in msg.firmware)
        values = []
        for k in range(n):
            values.append(_integer(msg.encoder_counts[k], 1, U32[1], 'encoder_counts'))
            values.append(_fixed(msg.max_current[k], CURRENT_SCALE, 1, U32[1], 'max_current'))
        period = _fixed(msg.cycle_period, TIME_SCALE, 1, U32[1], 'cycle_period')
        return (_IDENT_HEAD.pack(_integer(msg.protocol_version, 1, 255, 'protocol_version'),
                                 major, minor, patch, n, period)
                + _array('II', n).pack(*values))
    if mid == MsgId.CONFIGURE:
        n = _axes(len(msg.current_limit), 'current_limit')
        for name in ('torque_constant', 'gear_ratio', 'encoder_counts'):
            if len(getattr(msg, name)) != n:
                raise MessageError(f'{name}: {len(getattr(msg, name))} values for {n} axes')
        values = []
        for k in range(n):
            values.append(_fixed(msg.current_limit[k], CURRENT_SCALE, 1, U32[1], 'current_limit'))
            values.append(_fixed(msg.torque_constant[k], TORQUE_CONSTANT_SCALE, 1, U32[1],
                                 'torque_constant'))
            gear = _fixed(msg.gear_ratio[k], GEAR_RATIO_SCALE, *I32, 'gear_ratio')
            if gear == 0:
                raise MessageError('gear_ratio: must not be 0')
            values.append(gear)
            values.append(_integer(msg.encoder_counts[k], 1, U32[1], 'encoder_counts'))
        watchdog = _fixed(msg.watchdog_period, TIME_SCALE, 1, U32[1], 'watchdog_period')
        return _CONF_HEAD.pack(watchdog, n) + _array('IIiI', n).pack(*values)
    if mid == MsgId.FAULT_REPORT:
        faults = _integer(msg.faults, 1, FAULT_MASK, 'faults')
        axis = _integer(msg.axis, 0, 255, 'axis')
        if axis >= MAX_AXES and axis != BOARD_WIDE:
            raise MessageError(f'axis: {axis} is neither an axis nor BOARD_WIDE')
        return _FAULT.pack(_integer(msg.board_time_us, *U64, 'board_time_us'), faults, axis,
                           _integer(msg.value, *I32, 'value'))
    if mid == MsgId.ACK:
        return _ACK.pack(_integer(msg.acked_id, 0, 255, 'acked_id'),
                         _integer(msg.acked_seq, 0, 0xFFFF, 'acked_seq'),
                         _integer(msg.result, 0, max(Result), 'result'),
                         _integer(msg.detail, 0, 0xFFFF, 'detail'))
    raise MessageError(f'no encoder for {type(msg).__name__}')


def encode_message(msg, seq):
    """
    Encode a message record as a complete frame.

    Parameters
    ----------
    msg : message record
        The message.
    seq : int
        Sequence number (modulo 65536).

    Returns
    -------
    bytes
        The frame.

    """
    return encode_frame(int(msg.msg_id), seq, pack_payload(msg))


def encode_set_currents(state_time_us, currents, seq):
    """
    Encode a set-currents frame from an array (the per-cycle fast path).

    Gives the same bytes as ``encode_message(SetCurrents(...), seq)``.

    Parameters
    ----------
    state_time_us : int
        Board time of the state used [us].
    currents : numpy.ndarray
        Currents [A], (n,).
    seq : int
        Sequence number.

    Returns
    -------
    bytes
        The frame.

    Raises
    ------
    MessageError
        Non-finite or out-of-range currents, or a bad axis count.

    """
    amps = np.asarray(currents, dtype=float)
    n = _axes(amps.size, 'currents')
    wire = np.rint(amps * CURRENT_SCALE)
    if not (np.all(np.isfinite(wire)) and np.all(np.abs(wire) <= I32[1])):
        raise MessageError(f'currents: {amps.tolist()} not finite or out of range')
    payload = (_SET_HEAD.pack(_integer(state_time_us, *U64, 'state_time_us'), n)
               + wire.astype('<i4').tobytes())
    return encode_frame(int(MsgId.SET_CURRENTS), seq, payload)


def _check_count(payload, mid, count):
    _axes(count, f'{MsgId(mid).name.lower()} axis count')
    if len(payload) != payload_size(mid, count):
        raise MessageError(f'{MsgId(mid).name.lower()}: payload of {len(payload)} bytes does '
                           f'not match {count} axes')


def decode_payload(msg_id, payload):
    """
    Decode and check a payload.

    Parameters
    ----------
    msg_id : int
        Message id.
    payload : bytes
        Payload bytes.

    Returns
    -------
    message record
        The message.

    Raises
    ------
    MessageError
        Unknown id, wrong length, reserved bits set or values out of range.

    """
    if not plausible_length(msg_id, len(payload)):
        if msg_id not in _LAYOUT:
            raise MessageError(f'unknown message id 0x{msg_id:02x}')
        raise MessageError(f'{MsgId(msg_id).name.lower()}: impossible payload length '
                           f'{len(payload)}')
    mid = MsgId(msg_id)
    if mid == MsgId.STATE_REPORT:
        t, status, faults, applied, rx_err, n = _STATE_HEAD.unpack_from(payload)
        _check_count(payload, mid, n)
        if status & ~STATUS_MASK or faults & ~FAULT_MASK:
            raise MessageError('state_report: reserved status or fault bits set')
        if bool(status & Status.FAULT) != bool(faults):
            raise MessageError('state_report: FAULT status bit disagrees with the fault bits')
        values = _array('ii', n).unpack_from(payload, _STATE_HEAD.size)
        return StateReport(t, status, faults, applied, rx_err, values[0::2],
                           tuple(v / CURRENT_SCALE for v in values[1::2]))
    if mid == MsgId.SET_CURRENTS:
        t, n = _SET_HEAD.unpack_from(payload)
        _check_count(payload, mid, n)
        values = _array('i', n).unpack_from(payload, _SET_HEAD.size)
        return SetCurrents(t, tuple(v / CURRENT_SCALE for v in values))
    if mid in (MsgId.IDENTIFY_REQUEST, MsgId.ENABLE, MsgId.DISABLE, MsgId.CLEAR_FAULT):
        return {MsgId.IDENTIFY_REQUEST: IdentifyRequest, MsgId.ENABLE: Enable,
                MsgId.DISABLE: Disable, MsgId.CLEAR_FAULT: ClearFault}[mid]()
    if mid == MsgId.HEARTBEAT:
        return Heartbeat(*_TOKEN.unpack(payload))
    if mid == MsgId.HEARTBEAT_REPLY:
        return HeartbeatReply(*_REPLY.unpack(payload))
    if mid == MsgId.IDENTIFY:
        version, major, minor, patch, n, period = _IDENT_HEAD.unpack_from(payload)
        _check_count(payload, mid, n)
        if version < 1 or period == 0:
            raise MessageError('identify: protocol version and cycle period must be positive')
        values = _array('II', n).unpack_from(payload, _IDENT_HEAD.size)
        counts, currents = values[0::2], values[1::2]
        if min(counts) == 0 or min(currents) == 0:
            raise MessageError('identify: encoder counts and max current must be positive')
        return Identify(version, (major, minor, patch), period / TIME_SCALE, counts,
                        tuple(c / CURRENT_SCALE for c in currents))
    if mid == MsgId.CONFIGURE:
        watchdog, n = _CONF_HEAD.unpack_from(payload)
        _check_count(payload, mid, n)
        values = _array('IIiI', n).unpack_from(payload, _CONF_HEAD.size)
        limit, kt, gear, counts = values[0::4], values[1::4], values[2::4], values[3::4]
        if watchdog == 0 or min(limit) == 0 or min(kt) == 0 or min(counts) == 0 or 0 in gear:
            raise MessageError('configure: zero watchdog, limit, torque constant, gear ratio '
                               'or encoder counts')
        return Configure(watchdog / TIME_SCALE, tuple(v / CURRENT_SCALE for v in limit),
                         tuple(v / TORQUE_CONSTANT_SCALE for v in kt),
                         tuple(v / GEAR_RATIO_SCALE for v in gear), counts)
    if mid == MsgId.FAULT_REPORT:
        t, faults, axis, value = _FAULT.unpack(payload)
        if faults == 0 or faults & ~FAULT_MASK:
            raise MessageError(f'fault_report: invalid fault bits 0x{faults:04x}')
        if axis >= MAX_AXES and axis != BOARD_WIDE:
            raise MessageError(f'fault_report: invalid axis {axis}')
        return FaultReport(t, faults, axis, value)
    acked, seq, result, detail = _ACK.unpack(payload)
    if acked not in [int(r) for r in ACKED_REQUESTS] or result > max(Result):
        raise MessageError(f'ack: invalid request id 0x{acked:02x} or result {result}')
    return Ack(acked, seq, result, detail)


def decode_message(frame):
    """
    Decode the message of a checked frame.

    Parameters
    ----------
    frame : Frame
        A frame from :class:`~robodyn_ros.hardware.board.framing.FrameParser`.

    Returns
    -------
    message record
        The message.

    Raises
    ------
    MessageError
        See :func:`decode_payload`.

    """
    return decode_payload(frame.msg_id, frame.payload)
