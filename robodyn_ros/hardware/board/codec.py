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
Frames of the board messages: payload sizes, encoding and decoding by message id.

Each record of :mod:`.messages` packs and unpacks its own payload (rounding
SI values to the wire units, refusing non-finite or out-of-range values);
this module dispatches by message id through
:func:`~robodyn_ros.hardware.board.wire.message_type`. Decoding checks
everything that can be checked: the exact payload length for the id and
for the axis count carried in the payload, reserved bits zero, known
enumerations, positive resolutions and periods. A frame that passes the CRC
but not these checks raises :class:`~robodyn_ros.hardware.errors.MessageError`.
"""

import numpy as np

from .framing import encode_frame
from .messages import Message, message_type, MsgId, SetCurrents, SetImpedance
from .wire import check_axis_count, CURRENT_SCALE, F32_MAX, I32, to_integer, U64
from ..errors import MessageError


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
    cls = message_type(msg_id)
    if cls is None:
        return False
    base, per = cls.layout
    if per == 0:
        return length == base
    extra = length - base
    return extra >= per and extra % per == 0 and extra // per <= cls.max_axes


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
    base, per = message_type(MsgId(msg_id)).layout
    return base + per * axes


def pack_payload(msg):
    """
    Encode the payload of a message record.

    Parameters
    ----------
    msg : message record
        Any record of :mod:`.messages`.

    Returns
    -------
    bytes
        The payload.

    Raises
    ------
    MessageError
        If a value is not finite, out of range or the arrays disagree in length.

    """
    if not isinstance(msg, Message) or message_type(msg.msg_id) is not type(msg):
        raise MessageError(f'no encoder for {type(msg).__name__}')
    return msg.pack()


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
    n = check_axis_count(amps.size, 'currents')
    wire = np.rint(amps * CURRENT_SCALE)
    if not (np.all(np.isfinite(wire)) and np.all(np.abs(wire) <= I32[1])):
        raise MessageError(f'currents: {amps.tolist()} not finite or out of range')
    payload = (SetCurrents.HEAD.pack(to_integer(state_time_us, *U64, 'state_time_us'), n)
               + wire.astype('<i4').tobytes())
    return encode_frame(int(MsgId.SET_CURRENTS), seq, payload)


def encode_set_impedance(state_time_us, position, velocity, kp, kd, current, seq):
    """
    Encode a set-impedance frame from arrays (the per-cycle fast path).

    Gives the same bytes as ``encode_message(SetImpedance(...), seq)``, and
    refuses the same values; the units are those of
    :class:`~robodyn_ros.hardware.board.requests.SetImpedance` (motor side).

    Parameters
    ----------
    state_time_us : int
        Board time of the state used, at which the position reference holds [us].
    position, velocity : numpy.ndarray
        Motor angle [rad] and speed [rad/s] references, (n,).
    kp, kd : numpy.ndarray
        Gains [A/rad] and [A s/rad], >= 0, (n,).
    current : numpy.ndarray
        Feed-forward currents [A], (n,).
    seq : int
        Sequence number.

    Returns
    -------
    bytes
        The frame.

    Raises
    ------
    MessageError
        Arrays of different lengths, a bad axis count, a non-finite value,
        a negative gain or a value beyond the binary32 range. Nothing is
        encoded then.

    """
    try:
        block = np.array((position, velocity, kp, kd, current), dtype=float)
    except (TypeError, ValueError):
        block = None
    if block is None or block.ndim != 2:
        raise MessageError(f'set_impedance: the five arrays must have one length each, got '
                           f'{[np.size(a) for a in (position, velocity, kp, kd, current)]}')
    n = check_axis_count(block.shape[1], 'position', SetImpedance.max_axes)
    if not (np.all(np.abs(block) <= F32_MAX) and np.all(block[2:4] >= 0.0)):
        raise MessageError(f'set_impedance: {block.tolist()} has a non-finite value, a negative '
                           'gain or a value beyond the binary32 range')
    payload = (SetImpedance.HEAD.pack(to_integer(state_time_us, *U64, 'state_time_us'), n)
               + block.T.astype('<f4').tobytes())
    return encode_frame(int(MsgId.SET_IMPEDANCE), seq, payload)


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
    cls = message_type(msg_id)
    if cls is None:
        raise MessageError(f'unknown message id 0x{msg_id:02x}')
    if not plausible_length(msg_id, len(payload)):
        raise MessageError(f'{MsgId(msg_id).name.lower()}: impossible payload length '
                           f'{len(payload)}')
    return cls.unpack(payload)


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
