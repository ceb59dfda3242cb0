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
The serialized form (CDR) of the 1 kHz messages, read and written directly.

At 1 kHz, rclpy's conversion between message objects and their serialized
bytes is a large part of a control cycle: taking a ``sensor_msgs/JointState``
builds a message object with a header, a time and a list of names, and
publishing one converts it back, some 30-50 us each way in Python. The
control loop needs only the positions and velocities of the newest state,
and sends only a stamp and the efforts. This module reads and writes those
messages' serialized form (little-endian plain CDR, the ROS 2 default) with
``struct`` and numpy, in a few microseconds:

* :func:`decode_joint_state` reads names, positions, velocities and efforts
  from the bytes a raw subscription takes (None for an encoding it does not
  read), and :func:`read_joint_state` hands those to ``rclpy.serialization``;
* :class:`JointStateEncoder` and :class:`Float64ArrayEncoder` fill a
  prepared template with a stamp and values, :func:`encode_float64` writes
  a ``std_msgs/Float64``; the bytes go to ``Publisher.publish``, which
  accepts serialized messages.

Both are checked against ``rclpy.serialization`` in the tests.
"""

import struct

import numpy as np

#: Encapsulation header of little-endian plain CDR (XCDR1), as ROS 2 writes it.
CDR_LE = b'\x00\x01\x00\x00'
_U32 = struct.Struct('<I')
_STAMP = struct.Struct('<iI')
_F64 = struct.Struct('<d')


class JointStateView:
    """
    The fields of a decoded JointState that a control loop reads.

    Attributes
    ----------
    name : list of str
        Joint names (the same list object while the names do not change).
    position, velocity, effort : numpy.ndarray
        Read-only float arrays (empty when the message has none).
    stamp_ns : int
        Header stamp [ns].

    """

    __slots__ = ('name', 'position', 'velocity', 'effort', 'stamp_ns')

    def __init__(self, name, position, velocity, effort, stamp_ns):
        self.name = name
        self.position = position
        self.velocity = velocity
        self.effort = effort
        self.stamp_ns = stamp_ns


_EMPTY = np.frombuffer(b'', dtype='<f8')


def decode_joint_state(data, cache=None):
    """
    Read a serialized ``sensor_msgs/JointState``.

    Parameters
    ----------
    data : bytes
        The serialized message (as a raw subscription takes it).
    cache : dict, optional
        Kept between calls: while the name block's bytes stay the same, the
        names are not decoded again and the same list is returned.

    Returns
    -------
    JointStateView or None
        None when the data is not little-endian plain CDR (decode it with
        ``rclpy.serialization.deserialize_message`` then).

    Raises
    ------
    ValueError
        On a truncated or malformed message.

    """
    if data[:4] != CDR_LE:
        return None
    try:
        sec, nsec = _STAMP.unpack_from(data, 4)
        off = 16 + _U32.unpack_from(data, 12)[0]          # past frame_id
        off += -off % 4
        count = _U32.unpack_from(data, off)[0]
        start = off = off + 4
        block = cache.get('block') if cache is not None else None
        if block is not None and cache['count'] == count and data[
                start:start + len(block)] == block:
            names = cache['names']
            off += len(block)
        else:
            if count > len(data) // 5:                    # a name takes 5 bytes or more
                raise ValueError(f'{count} names cannot fit in {len(data)} bytes')
            names = []
            for _ in range(count):
                off += -off % 4
                length = _U32.unpack_from(data, off)[0]
                if length == 0 or off + 4 + length > len(data):
                    raise ValueError('a name runs past the end of the message')
                names.append(data[off + 4:off + 3 + length].decode('utf-8'))
                off += 4 + length
            if cache is not None:
                cache.update(block=data[start:off], count=count, names=names)
        arrays = []
        for _ in range(3):                                # position, velocity, effort
            off += -off % 4
            size = _U32.unpack_from(data, off)[0]
            off += 4
            if size:
                off += -(off - 4) % 8
                arrays.append(np.frombuffer(data, dtype='<f8', count=size, offset=off))
                off += 8 * size
            else:
                arrays.append(_EMPTY)
    except (struct.error, UnicodeDecodeError) as exc:
        raise ValueError(f'malformed JointState: {exc}') from None
    return JointStateView(names, arrays[0], arrays[1], arrays[2],
                          sec * 1_000_000_000 + nsec)


def read_joint_state(data, cache=None):
    """
    Read a serialized ``sensor_msgs/JointState``, whatever its encoding.

    Little-endian plain CDR is read by :func:`decode_joint_state`; anything
    else by ``rclpy.serialization.deserialize_message``.

    Parameters
    ----------
    data : bytes
        The serialized message.
    cache : dict, optional
        See :func:`decode_joint_state`.

    Returns
    -------
    JointStateView or sensor_msgs.msg.JointState
        Either has ``name``, ``position``, ``velocity`` and ``effort``.

    Raises
    ------
    Exception
        ``ValueError`` for a malformed message (rclpy's own errors for
        another encoding).

    """
    msg = decode_joint_state(data, cache)
    if msg is None:
        from rclpy.serialization import deserialize_message
        from sensor_msgs.msg import JointState
        msg = deserialize_message(data, JointState)
    return msg


class _Writer:
    """Build a CDR body with zeroed padding."""

    def __init__(self):
        self.buf = bytearray(CDR_LE)

    def align(self, size):
        self.buf += bytes((-(len(self.buf) - 4)) % size)

    def u32(self, value):
        self.align(4)
        self.buf += _U32.pack(value)

    def string(self, text):
        raw = text.encode('utf-8') + b'\x00'
        self.u32(len(raw))
        self.buf += raw

    def doubles_slot(self, count):
        """Write a sequence header and zeros; return the offset of the values."""
        self.u32(count)
        if count == 0:
            return len(self.buf)
        self.align(8)
        offset = len(self.buf)
        self.buf += bytes(8 * count)
        return offset


class JointStateEncoder:
    """
    Serialized ``sensor_msgs/JointState`` with fixed names and chosen fields.

    Parameters
    ----------
    names : sequence of str
        Joint names.
    frame_id : str
        Header frame.
    fields : sequence of str
        The filled fields, in message order, from ``'position'``,
        ``'velocity'``, ``'effort'``; the others are sent empty.

    """

    FIELDS = ('position', 'velocity', 'effort')

    def __init__(self, names, frame_id='', fields=('effort',)):
        unknown = set(fields) - set(self.FIELDS)
        if unknown:
            raise ValueError(f'unknown JointState fields {sorted(unknown)}')
        n = len(names)
        w = _Writer()
        w.buf += _STAMP.pack(0, 0)
        w.string(frame_id)
        w.u32(n)
        for name in names:
            w.string(name)
        offsets = [w.doubles_slot(n if f in fields else 0) for f in self.FIELDS]
        self._buf = w.buf
        self._views = [np.frombuffer(self._buf, dtype='<f8', count=n, offset=off)
                       for f, off in zip(self.FIELDS, offsets) if f in fields]
        self.fields = tuple(f for f in self.FIELDS if f in fields)
        self.names = tuple(names)
        self.n = n

    def encode(self, stamp_ns, *values):
        """
        Serialize a stamp and the values of the fields.

        Parameters
        ----------
        stamp_ns : int
            Header stamp [ns].
        *values : array_like
            (n,) values of each field in :attr:`fields` order [rad, rad/s,
            N m or m, m/s, N].

        Returns
        -------
        bytes
            The serialized message.

        """
        sec, nsec = divmod(int(stamp_ns), 1_000_000_000)
        _STAMP.pack_into(self._buf, 4, sec, nsec)
        for view, value in zip(self._views, values):
            view[:] = value
        return bytes(self._buf)


class Float64ArrayEncoder:
    """
    Serialized ``std_msgs/Float64MultiArray``, its layout fixed.

    Parameters
    ----------
    size : int
        Number of values.
    layout : sequence of tuple, optional
        ``(label, count)`` of each dimension (its stride is its count), the
        counts adding up to ``size``; empty (default): no dimensions.

    """

    def __init__(self, size, layout=()):
        self.layout = tuple((str(label), int(count)) for label, count in layout)
        if self.layout and sum(count for _, count in self.layout) != size:
            raise ValueError(f'layout {self.layout} does not hold {size} values')
        w = _Writer()
        w.u32(len(self.layout))             # layout.dim
        for label, count in self.layout:
            w.string(label)
            w.u32(count)                    # size
            w.u32(count)                    # stride
        w.u32(0)                            # layout.data_offset
        offset = w.doubles_slot(size)
        self._buf = w.buf
        self._view = np.frombuffer(self._buf, dtype='<f8', count=size, offset=offset)

    def encode(self, values):
        """
        Serialize the values.

        Parameters
        ----------
        values : array_like
            (size,) values.

        Returns
        -------
        bytes
            The serialized message.

        """
        self._view[:] = values
        return bytes(self._buf)


def encode_float64(value):
    """
    Serialize a ``std_msgs/Float64``.

    Parameters
    ----------
    value : float
        The value.

    Returns
    -------
    bytes
        The serialized message.

    """
    return CDR_LE + _F64.pack(value)
