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
Dense ``trajectory_msgs/JointTrajectory`` messages written straight into their serialized form.

A planned trajectory has one point per sample (60,000 for ten minutes at
10 ms). Building them as ``JointTrajectoryPoint`` objects costs about 35 us
per point in Python, and rclpy's conversion of the whole message then holds
the GIL for a few hundred milliseconds in one call, during which no other
thread of the process (the executor answering ``planner/stop``) runs.
:func:`encode_trajectory` writes the same bytes with a few strided numpy
copies: every point has the same arrays, so after the first point every
point has the same layout (a nonempty array of doubles always ends 8-aligned)
and the points are columns of a table. Checked against
``rclpy.serialization`` in the tests.

:func:`read_trajectory` reads such a message the same way (a goal of 10,000
waypoints: rclpy's ``deserialize_message`` holds the GIL for about 200 ms in
one call); a message whose points differ in their arrays returns None, for
``rclpy.serialization`` to read.
"""

import struct

import numpy as np

from .conversions import order_index
from .dynamics_cdr import FIELDS, header_and_names, read_start

_U32 = struct.Struct('<I')


def _layout(start, counts):
    """Offsets in a point starting at ``start``: per array (length, data), the duration, size."""
    off, fields = start, []
    for count in counts:
        off += -(off - 4) % 4
        length = off
        off += 4
        data = None
        if count:
            off += -(off - 4) % 8
            data = off
            off += 8 * count
        fields.append((length - start, None if data is None else data - start))
    off += -(off - 4) % 4
    return fields, off - start, off + 8 - start


def _column(out, dtype, offset, stride, rows, width=None):
    shape = (rows,) if width is None else (rows, width)
    strides = (stride,) if width is None else (stride, 8)
    return np.ndarray(shape, dtype=dtype, buffer=out, offset=offset, strides=strides)


def encode_trajectory(sec, nanosec, frame_id, names, times, positions, velocities=None,
                      accelerations=None, effort=None):
    """
    Serialize a dense JointTrajectory: one point per row, every point with the same arrays.

    Parameters
    ----------
    sec, nanosec : int
        Header stamp.
    frame_id : str
        Header frame id.
    names : sequence of str
        Joint names (n).
    times : array_like
        ``time_from_start`` of each point, (N,) [s] (finite, >= 0).
    positions, velocities, accelerations, effort : array_like, optional
        (N, n) arrays; None leaves the field empty in every point.

    Returns
    -------
    bytes
        The serialized message.

    """
    t = np.asarray(times, dtype=float).reshape(-1)
    rows, n = t.size, len(names)
    arrays = [None if a is None else np.asarray(a, dtype=float).reshape(rows, n)
              for a in (positions, velocities, accelerations, effort)]
    counts = [0 if a is None else n for a in arrays]
    head = header_and_names(sec, nanosec, frame_id, names) + _U32.pack(rows)
    first = len(head)
    layouts = [_layout(first, counts)]
    layouts.append(_layout(first + layouts[0][2], counts))
    size = first + (layouts[0][2] + (rows - 1) * layouts[1][2] if rows else 0)
    out = np.zeros(size, dtype=np.uint8)
    out[:first] = np.frombuffer(bytes(head), dtype=np.uint8)
    whole = np.floor(t)
    frac = np.rint((t - whole) * 1e9)
    carry = frac >= 1e9
    secs, nanos = (whole + carry).astype('<i4'), np.where(carry, 0, frac).astype('<u4')
    groups = ((first, layouts[0], slice(0, min(rows, 1))),
              (first + layouts[0][2], layouts[1], slice(1, rows)))
    for start, (fields, duration, stride), part in groups:
        count = len(range(rows)[part])
        if count == 0:
            continue
        for (length, data), arr, width in zip(fields, arrays, counts):
            _column(out, '<u4', start + length, stride, count)[:] = width
            if data is not None:
                _column(out, '<f8', start + data, stride, count, width)[:] = arr[part]
        _column(out, '<i4', start + duration, stride, count)[:] = secs[part]
        _column(out, '<u4', start + duration + 4, stride, count)[:] = nanos[part]
    return out.tobytes()


def _first_counts(data, off):
    counts = []
    for _ in FIELDS:
        off += -(off - 4) % 4
        count = _U32.unpack_from(data, off)[0]
        off += 4
        if count:
            off += -(off - 4) % 8 + 8 * count
        counts.append(count)
    return counts


def read_trajectory(data, joint_names=None):
    """
    Read a serialized JointTrajectory whose points all have the same arrays.

    Parameters
    ----------
    data : bytes
        The serialized message.
    joint_names : sequence of str, optional
        Joint order wanted (default: the message's).

    Returns
    -------
    dict or None
        As :func:`~.conversions.trajectory_arrays`: ``times`` (N,) [s] and
        the (N, n) arrays (None where empty), in ``joint_names`` order; None
        when the points differ in their arrays (read it with rclpy).

    Raises
    ------
    ValueError
        Malformed data, duplicate or missing joints, non-finite values (the
        messages of :func:`~.conversions.trajectory_arrays`).

    """
    _, _, _, names, rows, first = read_start(data)
    if len(set(names)) != len(names):
        raise ValueError('duplicate joint names')
    idx = order_index(names, joint_names or names)
    n = len(names)
    out = {'times': np.zeros(0)}
    out.update((f, None) for f in FIELDS)
    if rows == 0:
        return out
    try:
        counts = _first_counts(data, first)
    except struct.error as exc:
        raise ValueError(f'malformed message: {exc}') from None
    if any(c not in (0, n) for c in counts):
        return None
    layouts = [_layout(first, counts)]
    layouts.append(_layout(first + layouts[0][2], counts))
    if len(data) < first + layouts[0][2] + (rows - 1) * layouts[1][2]:
        return None
    buf = np.frombuffer(data, dtype=np.uint8)
    parts = {f: [] for f in FIELDS}
    times = []
    groups = ((first, layouts[0], 1), (first + layouts[0][2], layouts[1], rows - 1))
    for start, (fields, duration, stride), count in groups:
        if count == 0:
            continue
        for (length, at), width, field in zip(fields, counts, FIELDS):
            if not np.all(_column(buf, '<u4', start + length, stride, count) == width):
                return None                           # points differ: not this reader's
            if at is not None:
                parts[field].append(_column(buf, '<f8', start + at, stride, count, width))
        times.append(_column(buf, '<i4', start + duration, stride, count)
                     + 1e-9 * _column(buf, '<u4', start + duration + 4, stride, count))
    out['times'] = np.concatenate(times)
    wanted = list(joint_names or names)
    for field, width in zip(FIELDS, counts):
        if width == 0:
            continue
        arr = np.concatenate(parts[field])[:, idx]
        if not np.all(np.isfinite(arr)):
            k, j = np.argwhere(~np.isfinite(arr))[0]
            raise ValueError(f'point {k}: {field} of joint {wanted[j]} is {arr[k, j]}')
        out[field] = arr
    return out
