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


"""Dense trajectories written in serialized form, checked against rclpy's own messages."""

import numpy as np
import pytest
from rclpy.serialization import deserialize_message, serialize_message
from robodyn_ros.nodes.conversions import trajectory_arrays, trajectory_msg
from robodyn_ros.nodes.trajectory_cdr import encode_trajectory, read_trajectory
from trajectory_msgs.msg import JointTrajectory


@pytest.mark.parametrize('names,rows,fields,frame', [
    (['a', 'bb', 'ccc'], 7, (1, 1, 1, 1), ''), (['joint1'], 1, (1, 0, 0, 0), 'x'),
    ([f'joint{k}' for k in range(6)], 500, (1, 1, 1, 0), 'odd frame'),
    (['a', 'b'], 3, (1, 0, 1, 0), 'ab'), (['a', 'b'], 0, (1, 1, 1, 1), 'none')])
def test_encoded_trajectory_deserializes_to_the_same_message(names, rows, fields, frame):
    """Ours deserializes to what trajectory_msg builds: names, times, every array, every point."""
    rng = np.random.default_rng(rows)
    times = np.cumsum(rng.uniform(0.001, 0.5, rows))
    times[:min(rows, 2)] = [0.0, 0.9999999999][:min(rows, 2)]    # a carry into the seconds
    arrays = [rng.normal(size=(rows, len(names))) if f else None for f in fields]
    ours = deserialize_message(encode_trajectory(3, 4, frame, names, times, *arrays),
                               JointTrajectory)
    ref = trajectory_msg(names, times, *arrays, frame_id=frame)
    assert ours.header.frame_id == frame and (ours.header.stamp.sec,
                                              ours.header.stamp.nanosec) == (3, 4)
    assert list(ours.joint_names) == names and len(ours.points) == rows == len(ref.points)
    for a, b in zip(ours.points, ref.points):
        assert a.time_from_start == b.time_from_start
        for field in ('positions', 'velocities', 'accelerations', 'effort'):
            assert list(getattr(a, field)) == list(getattr(b, field)), field
    if rows:
        got = trajectory_arrays(ours, names)
        assert np.allclose(got['times'], times, atol=1e-9)


def _goal(names, rows, seed, times=True, velocities=False):
    rng = np.random.default_rng(seed)
    q = rng.normal(size=(rows, len(names)))
    t = np.cumsum(rng.uniform(0.01, 1.0, rows)) if times else np.zeros(rows)
    msg = trajectory_msg(names, t, q, q * 2 if velocities else None)
    return msg, serialize_message(msg)


@pytest.mark.parametrize('rows,times,velocities', [
    (1, False, False), (7, True, False), (300, True, True), (0, False, False)])
def test_read_trajectory_equals_rclpy_and_trajectory_arrays(rows, times, velocities):
    """Goals read from bytes give what rclpy plus trajectory_arrays give, in any joint order."""
    names = ['j3', 'j1', 'j2']
    msg, data = _goal(names, rows, rows, times, velocities)
    want = ['j1', 'j2', 'j3']
    ours = read_trajectory(data, want)
    ref = trajectory_arrays(deserialize_message(data, JointTrajectory), want)
    assert set(ours) == set(ref)
    for key, value in ref.items():
        if value is None:
            assert ours[key] is None, key
        else:
            assert np.allclose(ours[key], value, rtol=0, atol=1e-9), key


def test_read_trajectory_refusals_and_irregular_points():
    """Missing joints and NaN raise like trajectory_arrays; differing points are left to rclpy."""
    names = ['a', 'b']
    msg, data = _goal(names, 4, 1)
    with pytest.raises(ValueError, match='lacks joints c'):
        read_trajectory(data, ['a', 'b', 'c'])
    msg.points[2].positions = [0.0, float('nan')]
    with pytest.raises(ValueError, match='point 2: positions of joint b is nan'):
        read_trajectory(serialize_message(msg), names)
    msg.points[2].positions = [0.0, 1.0]
    msg.points[1].velocities = [1.0, 2.0]            # one point with velocities
    assert read_trajectory(serialize_message(msg), names) is None
    msg.joint_names = ['a', 'a']
    with pytest.raises(ValueError, match='duplicate'):
        read_trajectory(serialize_message(msg))
