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
Packed ``trajectory_msgs/JointTrajectory`` messages, read and written in serialized form.

The dynamics service carries many states per message. One
``JointTrajectoryPoint`` per state costs Python objects per point on both
sides (building, converting, reading: about 0.1 ms per point), which
dominated its round trips. A **packed** trajectory has exactly one point
whose arrays hold all N states row after row: ``positions[k * n + j]`` is
joint ``j`` of state ``k`` (n = ``len(joint_names)``); ``velocities``,
``accelerations`` and ``effort`` hold N x n values or none. With N = 1 it is
an ordinary one-point trajectory.

This module writes and reads that message's serialized form
(little-endian plain CDR, what ROS 2 writes) with ``struct`` and numpy, so
that no Python object is made per state: :func:`encode` returns the bytes
``Publisher.publish`` takes, :func:`decode` reads the bytes a raw
subscription takes into read-only array views. A message with no points is
an **error**: its ``joint_names`` then carry the error code, a message and
``key=value`` details (see :mod:`.dynamics_protocol`).
Both are checked against ``rclpy.serialization`` in the tests.
"""

import struct

import numpy as np

from .joint_state_cdr import CDR_LE

_U32 = struct.Struct('<I')
_STAMP = struct.Struct('<iI')
#: Array fields of a point, in message order.
FIELDS = ('positions', 'velocities', 'accelerations', 'effort')
#: Bytes of the fixed part of a packed message besides names and frame id:
#: encapsulation, stamp, string and sequence lengths, padding, duration.
OVERHEAD = 4 + 8 + 4 + 4 + 4 + 4 * 8 + 8 + 8


class PackedTrajectory:
    """
    A decoded packed trajectory (or error).

    Attributes
    ----------
    sec, nanosec : int
        Header stamp.
    frame_id : str
        Header frame id.
    joint_names : list of str
        Joint names (for an error: code, message, details).
    points : int
        States N (0 for an error).
    positions, velocities, accelerations, effort : numpy.ndarray or None
        Read-only (N, n) views into the bytes; None when the field is empty.

    """

    __slots__ = ('sec', 'nanosec', 'frame_id', 'joint_names', 'points') + FIELDS

    def __init__(self, sec, nanosec, frame_id, joint_names, points, arrays):
        self.sec = sec
        self.nanosec = nanosec
        self.frame_id = frame_id
        self.joint_names = joint_names
        self.points = points
        for name, value in zip(FIELDS, arrays):
            setattr(self, name, value)

    @property
    def is_error(self):
        """Return True for an error message (no points)."""
        return self.points == 0


def _string(data, off):
    off += -off % 4
    length = _U32.unpack_from(data, off)[0]
    if length == 0 or off + 4 + length > len(data):
        raise ValueError('a string runs past the end of the message')
    return data[off + 4:off + 3 + length].decode('utf-8'), off + 4 + length


def read_header(data):
    """
    Read the stamp and frame id of a serialized message with a std_msgs/Header first.

    Parameters
    ----------
    data : bytes
        The serialized message.

    Returns
    -------
    tuple
        ``(sec, nanosec, frame_id, offset)``; ``offset`` is the first byte
        after the header.

    Raises
    ------
    ValueError
        Not little-endian plain CDR, or truncated.

    """
    if data[:4] != CDR_LE:
        raise ValueError('not little-endian plain CDR')
    try:
        sec, nanosec = _STAMP.unpack_from(data, 4)
        frame_id, off = _string(data, 12)
    except (struct.error, UnicodeDecodeError) as exc:
        raise ValueError(f'malformed header: {exc}') from None
    return sec, nanosec, frame_id, off


def read_start(data):
    """
    Read a serialized ``JointTrajectory`` up to its number of points.

    Works for any JointTrajectory (packed or not), e.g. to refuse a goal by
    its size before deserializing it.

    Parameters
    ----------
    data : bytes
        The serialized message.

    Returns
    -------
    tuple
        ``(sec, nanosec, frame_id, joint_names, points, offset)``; ``offset``
        is the first byte of the first point.

    Raises
    ------
    ValueError
        Not little-endian plain CDR, truncated or malformed.

    """
    sec, nanosec, frame_id, off = read_header(data)
    try:
        off += -off % 4
        count = _U32.unpack_from(data, off)[0]
        off += 4
        if count > len(data) // 5:
            raise ValueError(f'{count} joint names cannot fit in {len(data)} bytes')
        names = []
        for _ in range(count):
            name, off = _string(data, off)
            names.append(name)
        off += -off % 4
        points = _U32.unpack_from(data, off)[0]
    except (struct.error, UnicodeDecodeError) as exc:
        raise ValueError(f'malformed message: {exc}') from None
    if points > len(data) // 24:                      # a point takes 24 bytes or more
        raise ValueError(f'{points} points cannot fit in {len(data)} bytes')
    return sec, nanosec, frame_id, names, points, off + 4


def decode(data):
    """
    Read a serialized packed ``JointTrajectory``.

    Parameters
    ----------
    data : bytes
        The serialized message.

    Returns
    -------
    PackedTrajectory
        Header, names and (N, n) read-only views of the arrays.

    Raises
    ------
    ValueError
        Truncated or malformed data, more than one point, array lengths that
        are not N x n (the message names the field).

    """
    sec, nanosec, frame_id, names, points, off = read_start(data)
    try:
        if points == 0:
            return PackedTrajectory(sec, nanosec, frame_id, names, 0, (None,) * 4)
        if points != 1:
            raise ValueError(f'{points} points: the dynamics messages are packed (one point '
                             'holding every state row after row, see docs/parallel.md)')
        sizes, arrays = [], []
        for _ in FIELDS:
            off += -off % 4
            size = _U32.unpack_from(data, off)[0]
            off += 4
            if size:
                off += -(off - 4) % 8
                if off + 8 * size > len(data):
                    raise ValueError('an array runs past the end of the message')
                arrays.append(np.frombuffer(data, dtype='<f8', count=size, offset=off))
                off += 8 * size
            else:
                arrays.append(None)
            sizes.append(size)
    except (struct.error, UnicodeDecodeError) as exc:
        raise ValueError(f'malformed message: {exc}') from None
    n = len(names)
    total = sizes[0] or sizes[3]
    if n == 0 or total == 0 or total % n:
        raise ValueError(f'{total} values for {n} joints: not a whole number of states')
    rows = total // n
    for field, size in zip(FIELDS, sizes):
        if size not in (0, total):
            raise ValueError(f'{field} has {size} values, expected 0 or {total} '
                             f'({rows} states x {n} joints)')
    out = [None if a is None else a.reshape(rows, n) for a in arrays]
    return PackedTrajectory(sec, nanosec, frame_id, names, rows, out)


def header_and_names(sec, nanosec, frame_id, names):
    """
    Serialize the start of a ``JointTrajectory``: header and joint names.

    Parameters
    ----------
    sec, nanosec : int
        Header stamp.
    frame_id : str
        Header frame id.
    names : sequence of str
        Joint names.

    Returns
    -------
    bytearray
        Encapsulation, header and names, padded to 4 bytes (the number of
        points comes next).

    """
    buf = bytearray(CDR_LE)
    buf += _STAMP.pack(int(sec), int(nanosec))
    for text in [frame_id, None, *names]:
        if text is None:                                    # the names' count
            buf += bytes(-(len(buf) - 4) % 4) + _U32.pack(len(names))
            continue
        raw = text.encode('utf-8') + b'\x00'
        buf += bytes(-(len(buf) - 4) % 4) + _U32.pack(len(raw)) + raw
    buf += bytes(-(len(buf) - 4) % 4)
    return buf


def encode(sec, nanosec, frame_id, names, positions=None, velocities=None,
           accelerations=None, effort=None):
    """
    Serialize a packed ``JointTrajectory``.

    Parameters
    ----------
    sec, nanosec : int
        Header stamp.
    frame_id : str
        Header frame id.
    names : sequence of str
        Joint names (n).
    positions, velocities, accelerations, effort : array_like, optional
        (N, n) arrays (or anything with N x n values in row order); None
        leaves the field empty [rad, rad/s, rad/s^2, N m or m, m/s, m/s^2, N].

    Returns
    -------
    bytes
        The serialized message (one point).

    """
    parts = [header_and_names(sec, nanosec, frame_id, names) + _U32.pack(1)]
    size = len(parts[0])
    for value in (positions, velocities, accelerations, effort):
        arr = None if value is None else np.ascontiguousarray(value, dtype='<f8')
        count = 0 if arr is None else arr.size
        head = bytes(-(size - 4) % 4) + _U32.pack(count)
        size += len(head)
        if count:
            head += bytes(-(size - 4) % 8)
            size += -(size - 4) % 8 + 8 * count
            parts += [head, memoryview(arr).cast('B')]
        else:
            parts.append(head)
    parts.append(bytes(-(size - 4) % 4 + 8))                 # time_from_start = 0
    return b''.join(parts)


def encode_error(sec, nanosec, frame_id, code, message, details=None):
    """
    Serialize an error answer: the header, no points, the error in ``joint_names``.

    Parameters
    ----------
    sec, nanosec : int
        Header stamp (the request's).
    frame_id : str
        Header frame id (the request's).
    code : str
        Error code.
    message : str
        Human-readable reason.
    details : dict, optional
        Extra ``key=value`` entries (e.g. the queue depth).

    Returns
    -------
    bytes
        The serialized message.

    """
    names = [code, message] + [f'{k}={v}' for k, v in (details or {}).items()]
    buf = header_and_names(sec, nanosec, frame_id, names)
    return bytes(buf + _U32.pack(0))


def encode_probe(sec, nanosec, frame_id):
    """
    Serialize a probe: a request with no joint names and no points.

    Parameters
    ----------
    sec, nanosec : int
        Header stamp.
    frame_id : str
        Header frame id.

    Returns
    -------
    bytes
        The serialized message.

    """
    return bytes(header_and_names(sec, nanosec, frame_id, []) + _U32.pack(0))


def request_bytes(points, joints, name_bytes=0):
    """
    Bound the serialized size of a packed request with positions, velocities and accelerations.

    Parameters
    ----------
    points : int
        States N.
    joints : int
        Joints n.
    name_bytes : int
        Bytes of the frame id and joint names with their length fields.

    Returns
    -------
    int
        Upper bound of the message size [bytes].

    """
    return OVERHEAD + name_bytes + 3 * 8 * int(points) * int(joints)
