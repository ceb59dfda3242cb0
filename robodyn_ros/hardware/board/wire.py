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
What every board message is built from: ids, bit fields, wire units and fields, the base record.

Every message is a frozen record with SI values (currents in A, torque
constants in N m/A, periods in s; board times stay integer microseconds,
encoder positions integer counts). On the wire the fields are
little-endian fixed point (see ``docs/driver_board_protocol.md``), except
the impedance set-points, which are IEEE 754 binary32 (:func:`to_float32`):

===================  ================  ==========================
quantity             wire type         unit of one LSB
===================  ================  ==========================
current, limit       i32 / u32         1 uA
torque constant      u32               1e-6 N m/A
gear ratio           i32               1e-4
period, board time   u32 / u64         1 us
encoder position     i32               1 count
impedance fields     f32               (binary32, SI motor units)
===================  ================  ==========================

:class:`Message` is the base of every record: a record names its
:class:`MsgId`, its payload ``layout`` and packs and unpacks itself, and
defining it registers it for :func:`message_type`. Adding a message is its
id here and its record in :mod:`.requests` or :mod:`.reports`.
"""

import enum
import math
import struct

from ..errors import MessageError

PROTOCOL_VERSION = 1
#: Largest number of axes one board may have.
MAX_AXES = 32
#: Axis field of a fault report that concerns the whole board.
BOARD_WIDE = 0xFF

#: Wire units per SI unit (one LSB is the inverse).
CURRENT_SCALE = 1e6          # uA per A
TORQUE_CONSTANT_SCALE = 1e6  # (1e-6 N m/A) per N m/A
GEAR_RATIO_SCALE = 1e4       # 1e-4 per unit ratio
TIME_SCALE = 1e6             # us per s


class MsgId(enum.IntEnum):
    """Message ids (requests from the host are below 0x20, the board's answers from 0x20)."""

    IDENTIFY_REQUEST = 0x01
    IDENTIFY = 0x02
    CONFIGURE = 0x03
    ENABLE = 0x04
    DISABLE = 0x05
    CLEAR_FAULT = 0x06
    HEARTBEAT = 0x07
    HEARTBEAT_REPLY = 0x08
    SET_CURRENTS = 0x10
    SET_IMPEDANCE = 0x11
    STATE_REPORT = 0x20
    FAULT_REPORT = 0x21
    ACK = 0x30


class Status(enum.IntFlag):
    """Status bits of a state report."""

    ENABLED = 0x01
    CONFIGURED = 0x02
    FAULT = 0x04
    CURRENT_LIMITED = 0x08
    BRAKED = 0x10
    OVERRUN = 0x20
    IMPEDANCE = 0x40


class Fault(enum.IntFlag):
    """Latched fault bits (state and fault reports, NAK details)."""

    WATCHDOG = 0x01
    OVER_CURRENT = 0x02
    ENCODER = 0x04
    INTERNAL = 0x08


class Result(enum.IntEnum):
    """Result code of an acknowledgement."""

    OK = 0
    BAD_STATE = 1
    BAD_PARAMETER = 2
    FAULT_ACTIVE = 3
    UNSUPPORTED = 4


STATUS_MASK = int(sum(Status))
FAULT_MASK = int(sum(Fault))
ACKED_REQUESTS = (MsgId.CONFIGURE, MsgId.ENABLE, MsgId.DISABLE, MsgId.CLEAR_FAULT)


def fault_names(bits):
    """
    Name the set fault bits.

    Parameters
    ----------
    bits : int
        Fault bits.

    Returns
    -------
    list of str
        Lower-case names, e.g. ``['watchdog', 'encoder']``.

    """
    return [f.name.lower() for f in Fault if bits & f]


# ---------------------------------------------------------------------------- wire fields
#: Ranges of the integer wire types.
I32 = (-2**31, 2**31 - 1)
U32 = (0, 2**32 - 1)
U64 = (0, 2**64 - 1)
#: Largest finite binary32 value.
F32_MAX = float(struct.unpack('<f', b'\xff\xff\x7f\x7f')[0])
_F32 = struct.Struct('<f')

_STRUCTS = {}


def to_fixed(value, scale, low, high, field):
    """
    Convert a float to a fixed-point integer, checking finiteness and range.

    Parameters
    ----------
    value : float
        SI value.
    scale : float
        Wire units per SI unit.
    low, high : int
        Encodable range of the wire integer.
    field : str
        Field name for the error message.

    Returns
    -------
    int
        ``round(value * scale)``.

    Raises
    ------
    MessageError
        Non-finite or out-of-range value.

    """
    v = float(value)
    if not math.isfinite(v):
        raise MessageError(f'{field}: {v} is not finite')
    out = int(round(v * scale))
    if not low <= out <= high:
        raise MessageError(f'{field}: {v} outside the encodable range '
                           f'[{low / scale:g}, {high / scale:g}]')
    return out


def to_integer(value, low, high, field):
    """
    Check an integer field.

    Parameters
    ----------
    value : int
        The value (a float equal to an integer passes).
    low, high : int
        Allowed range.
    field : str
        Field name for the error message.

    Returns
    -------
    int
        The value.

    Raises
    ------
    MessageError
        Not an integer, or out of range.

    """
    out = int(value)
    if out != value or not low <= out <= high:
        raise MessageError(f'{field}: {value!r} is not an integer in [{low}, {high}]')
    return out


def to_float32(value, low, field):
    """
    Round a float to the nearest binary32, checking finiteness and range.

    Parameters
    ----------
    value : float
        SI value.
    low : float
        Smallest allowed value (``-math.inf``: any sign; 0.0 for a gain).
    field : str
        Field name for the error message.

    Returns
    -------
    float
        The binary32 value (exactly what the wire carries).

    Raises
    ------
    MessageError
        Non-finite, below ``low`` or beyond the binary32 range.

    """
    v = float(value)
    if not math.isfinite(v):
        raise MessageError(f'{field}: {v} is not finite')
    if v < low:
        raise MessageError(f'{field}: {v} is below {low:g}')
    if abs(v) > F32_MAX:
        raise MessageError(f'{field}: {v} outside the binary32 range')
    return _F32.unpack(_F32.pack(v))[0]


def check_axis_count(count, field, limit=MAX_AXES):
    """
    Check an axis count (1 to ``limit``).

    Parameters
    ----------
    count : int
        Number of axes.
    field : str
        Field name for the error message.
    limit : int
        Largest count the message can carry (default :data:`MAX_AXES`).

    Returns
    -------
    int
        The count.

    Raises
    ------
    MessageError
        Out of range.

    """
    if not 1 <= count <= limit:
        raise MessageError(f'{field}: axis count {count} outside 1..{limit}')
    return count


def array_struct(fmt, count):
    """
    Return the (cached) little-endian struct of ``count`` repetitions of ``fmt``.

    Parameters
    ----------
    fmt : str
        Struct format of one axis, e.g. ``'ii'``.
    count : int
        Number of axes.

    Returns
    -------
    struct.Struct
        The layout.

    """
    key = (fmt, count)
    s = _STRUCTS.get(key)
    if s is None:
        s = _STRUCTS[key] = struct.Struct('<' + fmt * count)
    return s


# ---------------------------------------------------------------------------- records
_TYPES = {}


def message_type(msg_id):
    """
    Return the record class of a message id.

    Parameters
    ----------
    msg_id : int
        Message id.

    Returns
    -------
    type or None
        The :class:`Message` subclass, None for an unknown id.

    """
    return _TYPES.get(msg_id)


class Message:
    """
    Base of the message records: payload layout, packing and unpacking.

    A subclass sets ``msg_id`` (a :class:`MsgId`) and ``layout``
    ``(fixed size, per-axis size)`` [bytes] (and ``max_axes`` if its
    per-axis block limits it below :data:`MAX_AXES`) and overrides
    :meth:`pack` and :meth:`unpack` unless its payload is empty; defining it
    registers it.
    """

    msg_id = None
    layout = (0, 0)
    max_axes = MAX_AXES

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.msg_id is None:
            return
        if cls.msg_id in _TYPES:
            raise TypeError(f'{cls.__name__}: message id {cls.msg_id!r} is taken by '
                            f'{_TYPES[cls.msg_id].__name__}')
        _TYPES[MsgId(cls.msg_id)] = cls

    def pack(self):
        """
        Encode the payload.

        Returns
        -------
        bytes
            The payload (empty for requests without data).

        Raises
        ------
        MessageError
            If a value is not finite, out of range or the arrays disagree in length.

        """
        return b''

    @classmethod
    def unpack(cls, payload):
        """
        Decode and check a payload whose length is plausible for this message.

        Parameters
        ----------
        payload : bytes
            Payload bytes.

        Returns
        -------
        Message
            The record.

        Raises
        ------
        MessageError
            Wrong length, reserved bits set or values out of range.

        """
        return cls()

    @classmethod
    def check_axes(cls, payload, count):
        """
        Check a per-axis payload against the axis count it carries.

        Parameters
        ----------
        payload : bytes
            Payload bytes.
        count : int
            Axis count read from the payload.

        Raises
        ------
        MessageError
            Count out of range, or a length that does not match it.

        """
        name = cls.msg_id.name.lower()
        check_axis_count(count, f'{name} axis count', cls.max_axes)
        base, per = cls.layout
        if len(payload) != base + per * count:
            raise MessageError(f'{name}: payload of {len(payload)} bytes does not match '
                               f'{count} axes')
