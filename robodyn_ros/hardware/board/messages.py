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
Messages of the board protocol: ids, bit fields, records and payload codecs.

Every message is a frozen record with SI values (currents in A, torque
constants in N m/A, periods in s; board times stay integer microseconds,
encoder positions integer counts). On the wire the fields are
little-endian fixed point (see ``docs/driver_board_protocol.md``):

===================  ================  ==========================
quantity             wire type         unit of one LSB
===================  ================  ==========================
current, limit       i32 / u32         1 uA
torque constant      u32               1e-6 N m/A
gear ratio           i32               1e-4
period, board time   u32 / u64         1 us
encoder position     i32               1 count
===================  ================  ==========================

The payload codecs are in :mod:`robodyn_ros.hardware.board.codec`.
"""

from dataclasses import dataclass
import enum

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
    """Message ids (requests from the host are below 0x10 or equal to 0x10)."""

    IDENTIFY_REQUEST = 0x01
    IDENTIFY = 0x02
    CONFIGURE = 0x03
    ENABLE = 0x04
    DISABLE = 0x05
    CLEAR_FAULT = 0x06
    HEARTBEAT = 0x07
    HEARTBEAT_REPLY = 0x08
    SET_CURRENTS = 0x10
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


# ---------------------------------------------------------------------------- records
@dataclass(frozen=True)
class IdentifyRequest:
    """Host asks the board who it is (empty payload)."""

    msg_id = MsgId.IDENTIFY_REQUEST


@dataclass(frozen=True)
class Enable:
    """Host asks the board to switch its outputs on (empty payload)."""

    msg_id = MsgId.ENABLE


@dataclass(frozen=True)
class Disable:
    """Host asks the board to switch its outputs off (empty payload)."""

    msg_id = MsgId.DISABLE


@dataclass(frozen=True)
class ClearFault:
    """Host asks the board to clear its latched faults (empty payload)."""

    msg_id = MsgId.CLEAR_FAULT


@dataclass(frozen=True)
class Identify:
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

    @property
    def axis_count(self):
        """Give the number of axes (int)."""
        return len(self.encoder_counts)


@dataclass(frozen=True)
class Configure:
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

    @property
    def axis_count(self):
        """Give the number of axes (int)."""
        return len(self.current_limit)


@dataclass(frozen=True)
class Heartbeat:
    """
    Host keep-alive; the board answers with :class:`HeartbeatReply`.

    Attributes
    ----------
    token : int
        Opaque 64-bit value echoed by the board (e.g. host time in us).

    """

    token: int
    msg_id = MsgId.HEARTBEAT


@dataclass(frozen=True)
class HeartbeatReply:
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


@dataclass(frozen=True)
class SetCurrents:
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


@dataclass(frozen=True)
class StateReport:
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


@dataclass(frozen=True)
class FaultReport:
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


@dataclass(frozen=True)
class Ack:
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

    @property
    def ok(self):
        """Whether the request was accepted (bool)."""
        return self.result == Result.OK
