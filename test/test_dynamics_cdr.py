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


"""Packed trajectories in serialized form, checked against rclpy's own serialization."""

import numpy as np
import pytest
from rclpy.serialization import deserialize_message, serialize_message
from robodyn_ros.nodes import dynamics_cdr as cdr
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint


def _message(frame, names, arrays, sec=5, nanosec=7):
    msg = JointTrajectory(joint_names=list(names))
    msg.header.frame_id, msg.header.stamp.sec, msg.header.stamp.nanosec = frame, sec, nanosec
    point = JointTrajectoryPoint()
    for field, arr in zip(cdr.FIELDS, arrays):
        if arr is not None:
            setattr(point, field, np.asarray(arr).reshape(-1).tolist())
    msg.points = [point]
    return msg


CASES = [('x', ['a', 'bb', 'ccc'], 4, (1, 1, 1, 0)), ('', ['j1'], 1, (1, 0, 0, 1)),
         ('seven c', [f'joint{k}' for k in range(6)], 300, (1, 1, 1, 1)),
         ('ab', ['a', 'b'], 3, (0, 0, 0, 1)), ('odd', ['abcde'], 2, (1, 0, 1, 0))]


@pytest.mark.parametrize('frame,names,rows,fields', CASES)
def test_encode_and_decode_agree_with_rclpy(frame, names, rows, fields):
    """Ours -> rclpy and rclpy -> ours give the same header, names and arrays (odd lengths)."""
    rng = np.random.default_rng(rows)
    arrays = [rng.normal(size=(rows, len(names))) if f else None for f in fields]
    ours = cdr.encode(5, 7, frame, names, *arrays)
    back = deserialize_message(ours, JointTrajectory)
    ref = _message(frame, names, arrays)
    assert back.header == ref.header and list(back.joint_names) == names
    assert len(back.points) == 1
    for field, arr in zip(cdr.FIELDS, arrays):
        got = np.asarray(getattr(back.points[0], field))
        assert np.array_equal(got, np.zeros(0) if arr is None else arr.reshape(-1)), field
    view = cdr.decode(serialize_message(ref))
    assert (view.sec, view.nanosec, view.frame_id, view.joint_names, view.points) == (
        5, 7, frame, names, rows)
    for field, arr in zip(cdr.FIELDS, arrays):
        got = getattr(view, field)
        assert (arr is None and got is None) or np.array_equal(got, arr), field
    assert not view.is_error


def test_error_messages():
    """An error has no points; code, message and details travel in joint_names."""
    data = cdr.encode_error(3, 4, 'req', 'busy', 'queue full', {'queue_depth': 7})
    msg = deserialize_message(data, JointTrajectory)
    assert list(msg.joint_names) == ['busy', 'queue full', 'queue_depth=7'] and not msg.points
    view = cdr.decode(data)
    assert view.is_error and view.frame_id == 'req' and view.positions is None
    assert cdr.read_header(data)[:3] == (3, 4, 'req')


def test_probe_message():
    """A probe: the header, no joint names, no points; rclpy reads it as such."""
    data = cdr.encode_probe(5, 6, 'probe#1')
    msg = deserialize_message(data, JointTrajectory)
    assert msg.header.frame_id == 'probe#1' and not msg.joint_names and not msg.points
    view = cdr.decode(data)
    assert view.points == 0 and not view.joint_names and view.frame_id == 'probe#1'


def test_refusals():
    """Several points, truncation, wrong lengths and other encodings raise ValueError."""
    names = ['a', 'b']
    two = _message('f', names, [[1.0, 2.0], None, None, None])
    two.points.append(JointTrajectoryPoint(positions=[3.0, 4.0]))
    with pytest.raises(ValueError, match='packed'):
        cdr.decode(serialize_message(two))
    good = cdr.encode(1, 2, 'f', names, np.ones((3, 2)), np.ones((3, 2)))
    for cut in (3, 10, 20, 40, len(good) - 20):
        with pytest.raises(ValueError):
            cdr.decode(good[:cut])
    with pytest.raises(ValueError, match='not little-endian'):
        cdr.decode(b'\x00\x00\x00\x00' + good[4:])
    odd = serialize_message(_message('f', names, [[1.0, 2.0, 3.0], None, None, None]))
    with pytest.raises(ValueError, match='whole number of states'):
        cdr.decode(odd)
    short = serialize_message(_message('f', names, [[1.0, 2.0], [1.0], None, None]))
    with pytest.raises(ValueError, match='velocities has 1 values'):
        cdr.decode(short)
    bad = bytearray(good)
    bad[20:24] = (10 ** 9).to_bytes(4, 'little')        # absurd name count
    with pytest.raises(ValueError):
        cdr.decode(bytes(bad))


def test_request_bytes_bounds_the_size():
    """The size bound of a request covers the encoded message."""
    names = [f'joint{k}' for k in range(6)]
    q = np.zeros((1000, 6))
    data = cdr.encode(1, 2, 'frame', names, q, q, q)
    name_bytes = sum(len(n) + 8 for n in names) + len('frame') + 8
    assert len(data) <= cdr.request_bytes(1000, 6, name_bytes) < len(data) + 64
