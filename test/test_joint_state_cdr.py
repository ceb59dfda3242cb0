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

"""Direct CDR reading and writing agrees with rclpy's serialization."""

import struct

import numpy as np
import pytest
from rclpy.serialization import deserialize_message, serialize_message
from robodyn_ros.nodes.joint_state_cdr import (decode_joint_state, encode_float64,
                                               Float64ArrayEncoder, JointStateEncoder,
                                               JointStateView, read_joint_state)
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64, Float64MultiArray, MultiArrayDimension


def _random_state(rng):
    n = int(rng.integers(0, 9))
    names = [''.join(rng.choice(list('abcxyz_019é'), int(rng.integers(1, 12))))
             for _ in range(n)]
    msg = JointState(name=names)
    msg.header.stamp.sec = int(rng.integers(0, 2**31 - 1))
    msg.header.stamp.nanosec = int(rng.integers(0, 10**9))
    msg.header.frame_id = ''.join(rng.choice(list('base_link'), int(rng.integers(0, 10))))
    for field in ('position', 'velocity', 'effort'):
        if rng.random() < 0.8:
            setattr(msg, field, rng.normal(size=n).tolist())
    return msg


def test_decode_matches_rclpy_on_random_messages():
    """Names, positions, velocities, efforts and stamp of 500 random messages."""
    rng = np.random.default_rng(0)
    cache = {}
    for _ in range(500):
        msg = _random_state(rng)
        view = decode_joint_state(serialize_message(msg), cache)
        assert view.name == list(msg.name)
        for field in ('position', 'velocity', 'effort'):
            assert np.array_equal(getattr(view, field), np.asarray(getattr(msg, field), float))
        stamp = msg.header.stamp
        assert view.stamp_ns == stamp.sec * 1_000_000_000 + stamp.nanosec


def test_name_cache_returns_the_same_list_until_names_change():
    """Unchanged names are not decoded again; changed ones are."""
    cache = {}
    a = serialize_message(JointState(name=['j1', 'j2'], position=[1.0, 2.0]))
    b = serialize_message(JointState(name=['j1', 'j2'], position=[3.0, 4.0]))
    c = serialize_message(JointState(name=['j2', 'j1'], position=[3.0, 4.0]))
    va, vb, vc = (decode_joint_state(x, cache) for x in (a, b, c))
    assert va.name is vb.name and vc.name == ['j2', 'j1']
    assert vb.position.tolist() == [3.0, 4.0]


@pytest.mark.parametrize('names', [['a'], ['shoulder_pan_joint', 'b', 'cd', 'efg'],
                                   [f'joint_{k}' for k in range(7)], []])
def test_encoders_give_what_rclpy_reads(names):
    """Encoded effort messages deserialize to the intended messages (odd name lengths too)."""
    enc = JointStateEncoder(names, frame_id='base')
    rng = np.random.default_rng(1)
    for _ in range(5):
        effort = rng.normal(size=len(names))
        stamp = int(rng.integers(0, 2**31 - 1)) * 1_000_000_000 + int(rng.integers(0, 10**9))
        msg = deserialize_message(enc.encode(stamp, effort), JointState)
        assert list(msg.name) == names and msg.header.frame_id == 'base'
        assert np.array_equal(np.asarray(msg.effort), effort)
        assert len(msg.position) == 0 and len(msg.velocity) == 0
        assert msg.header.stamp.sec * 1_000_000_000 + msg.header.stamp.nanosec == stamp
    arr = Float64ArrayEncoder(len(names))
    values = rng.normal(size=len(names))
    out = deserialize_message(arr.encode(values), Float64MultiArray)
    assert np.array_equal(np.asarray(out.data), values) and len(out.layout.dim) == 0


def test_encoded_bytes_equal_rclpy_bytes_up_to_padding():
    """Byte for byte, except the padding that rclpy leaves unset."""
    names = ['a', 'bcd', 'efghi']
    enc = JointStateEncoder(names)
    ours = enc.encode(5_000_000_007, [1.0, 2.0, 3.0])
    msg = JointState(name=names, effort=[1.0, 2.0, 3.0])
    msg.header.stamp.sec, msg.header.stamp.nanosec = 5, 7
    theirs = serialize_message(msg)
    assert len(theirs) >= len(ours)
    pad = {i for i in range(len(ours)) if ours[i] != theirs[i]}
    # The padding of this layout: after the empty frame_id (3 bytes), after
    # 'a' (2) and 'efghi' (2), and before the first double (4).
    assert pad <= {17, 18, 19, 30, 31, 50, 51, 64, 65, 66, 67}
    assert all(ours[i] == 0 for i in pad)


@pytest.mark.parametrize('cut', [5, 13, 20, 30, 45])
def test_truncated_or_corrupt_data_raises_value_error(cut):
    """A cut or corrupted message is a clear ValueError, never a crash or garbage."""
    data = serialize_message(JointState(name=['j1', 'j2'], position=[1.0, 2.0],
                                        velocity=[0.5, 0.25]))
    with pytest.raises(ValueError):
        decode_joint_state(data[:cut])
    bad = bytearray(data)
    bad[20:24] = (10**9).to_bytes(4, 'little')   # absurd name count
    with pytest.raises(ValueError):
        decode_joint_state(bytes(bad))


def test_other_encodings_are_left_to_rclpy():
    """Big-endian or XCDR2 data is not read here (None)."""
    data = serialize_message(JointState(name=['j1'], position=[1.0]))
    assert decode_joint_state(b'\x00\x00\x00\x00' + data[4:]) is None
    assert decode_joint_state(b'\x00\x07\x00\x00' + data[4:]) is None


def test_encoder_with_several_fields():
    """Positions, velocities and efforts in message order; unknown fields are refused."""
    names = ['j1', 'joint_2', 'x']
    enc = JointStateEncoder(names, fields=('position', 'velocity', 'effort'))
    q, qd, tau = np.arange(3.0), -np.arange(3.0), np.array([0.5, 1.5, 2.5])
    msg = deserialize_message(enc.encode(1_500_000_000, q, qd, tau), JointState)
    assert list(msg.position) == q.tolist() and list(msg.velocity) == qd.tolist()
    assert list(msg.effort) == tau.tolist()
    assert (msg.header.stamp.sec, msg.header.stamp.nanosec) == (1, 500_000_000)
    view = decode_joint_state(JointStateEncoder(names, fields=('velocity',)).encode(0, qd))
    assert view.position.size == 0 and view.velocity.tolist() == qd.tolist()
    with pytest.raises(ValueError):
        JointStateEncoder(names, fields=('torque',))


@pytest.mark.parametrize('layout', [(('payload_mass', 1),),
                                    (('theta', 4), ('a', 1), ('gains_of_joint_3', 6)),
                                    (('x', 0), ('yz', 2))])
def test_labelled_array_encoder_gives_what_rclpy_reads(layout):
    """Labels, sizes and strides as a message built field by field; values exact."""
    size = sum(count for _, count in layout)
    enc = Float64ArrayEncoder(size, layout)
    rng = np.random.default_rng(size)
    for _ in range(3):
        values = rng.normal(size=size) * 10.0 ** rng.integers(-9, 9, size=size)
        out = deserialize_message(enc.encode(values), Float64MultiArray)
        assert np.array_equal(np.asarray(out.data), values)
        assert [(d.label, d.size, d.stride) for d in out.layout.dim] == [
            (label, count, count) for label, count in layout]
        msg = Float64MultiArray(data=values.tolist())
        msg.layout.dim = [MultiArrayDimension(label=label, size=count, stride=count)
                          for label, count in layout]
        theirs = serialize_message(msg)
        ours = enc.encode(values)
        assert len(ours) == len(theirs)
        assert all(a == b or a == 0 for a, b in zip(ours, theirs))  # up to padding
    with pytest.raises(ValueError):
        Float64ArrayEncoder(size + 1, layout)


def test_float64_encoder_equals_rclpy():
    """A std_msgs/Float64 byte for byte, NaN and infinities included."""
    for value in (0.0, -1.5, 1.938, 1e-300, float('inf'), -float('inf')):
        assert encode_float64(value) == serialize_message(Float64(data=value))
    assert np.isnan(deserialize_message(encode_float64(float('nan')), Float64).data)


def _big_endian_joint_state(names, position):
    """Build big-endian plain CDR of a JointState with names and positions only."""
    body = bytearray(struct.pack('>iI', 3, 4) + struct.pack('>I', 1) + b'\x00')

    def align(k):
        body.extend(bytes(-len(body) % k))
    align(4)
    body += struct.pack('>I', len(names))
    for name in names:
        align(4)
        raw = name.encode() + b'\x00'
        body += struct.pack('>I', len(raw)) + raw
    align(4)
    body += struct.pack('>I', len(position))
    align(8)
    body += struct.pack(f'>{len(position)}d', *position)
    for _ in range(2):                       # velocity, effort: empty
        align(4)
        body += struct.pack('>I', 0)
    return b'\x00\x00\x00\x00' + bytes(body)


def test_read_joint_state_hands_other_encodings_to_rclpy():
    """Little-endian CDR is read here; big-endian CDR goes to rclpy and reads the same."""
    assert isinstance(read_joint_state(serialize_message(
        JointState(name=['j1'], position=[1.0]))), JointStateView)
    data = _big_endian_joint_state(['j1', 'elbow'], [0.5, -2.25])
    assert decode_joint_state(data) is None
    msg = read_joint_state(data)
    assert list(msg.name) == ['j1', 'elbow'] and list(msg.position) == [0.5, -2.25]
    assert (msg.header.stamp.sec, msg.header.stamp.nanosec) == (3, 4)
