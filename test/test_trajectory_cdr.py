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
from rclpy.serialization import deserialize_message
from robodyn_ros.nodes.conversions import trajectory_arrays, trajectory_msg
from robodyn_ros.nodes.trajectory_cdr import encode_trajectory
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
