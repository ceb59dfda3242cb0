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

"""Straight-line Cartesian motion: on the segment, synchronised, at the goal, refusals."""

import numpy as np
import pytest
from robodyn_ros.errors import InputError
from robodyn_ros.model import load_robot
from robodyn_ros.model.transforms import axis_angle_matrix
from robodyn_ros.planning.cartesian import cartesian_line, CartesianLimits
from robodyn_ros.planning.errors import LimitError, SingularityError, UnreachablePoseError
from robodyn_ros.planning.ik import rotation_vector
from robodyn_ros.planning.limits import PlanningLimits


def _check_line(model, traj, frame, count=3001):
    """Distance from the segment [m], orientation error [rad] and task speeds on a fine grid."""
    start, goal = traj.start_pose, traj.goal_pose
    p0, p1 = start[:3, 3], goal[:3, 3]
    axis = (p1 - p0) / max(np.linalg.norm(p1 - p0), 1e-300)
    t = np.linspace(0.0, traj.duration, count)
    q, _, _ = traj.sample(t)
    off, rot_err, along = [], [], []
    for k in range(count):
        pose = model.frame_pose(q[k], frame)
        d = pose[:3, 3] - p0
        off.append(np.linalg.norm(d - (d @ axis) * axis))
        along.append(d @ axis)
        rot_err.append(np.linalg.norm(rotation_vector(traj.pose(t[k])[:3, :3] @
                                                      pose[:3, :3].T)))
    return np.array(off), np.array(rot_err), np.array(along)


def test_line_stays_on_the_segment_and_ends_at_the_goal():
    """PUMA 560: within 1e-6 m of the segment on a grid finer than the IK grid; goal reached."""
    model = load_robot('puma560')
    q0 = np.array([0.2, -0.8, 0.9, 0.3, 0.6, 0.1])
    goal = model.frame_pose(q0 + np.array([0.3, 0.2, -0.3, 0.2, 0.3, 0.4]), model.end_effector)
    limits = CartesianLimits(linear_speed=0.3, linear_acceleration=1.0, angular_speed=1.0,
                             angular_acceleration=3.0)
    traj = cartesian_line(model, q0, goal, task_limits=limits)
    off, rot_err, along = _check_line(model, traj, model.end_effector)
    assert off.max() < 1e-6 and rot_err.max() < 1e-6
    assert np.all(np.diff(along) >= -1e-9)          # moves forward only
    end = model.frame_pose(traj.sample(traj.duration)[0], model.end_effector)
    assert np.allclose(end, goal, atol=1e-9)
    assert np.allclose(traj.sample(0.0)[0], q0)
    # Orientation turns about one axis fixed in the start frame (eq. 8.54).
    rel = traj.start_pose[:3, :3].T @ goal[:3, :3]
    assert np.allclose(axis_angle_matrix(traj.axis, traj.angle), rel, atol=1e-12)


def test_translation_and_rotation_are_synchronised_within_limits():
    """Task speeds from J qd follow one law; one of the four task limits is reached."""
    model = load_robot('puma560')
    q0 = np.array([0.2, -0.8, 0.9, 0.3, 0.6, 0.1])
    goal = model.frame_pose(q0 + np.array([0.2, 0.25, -0.2, 0.5, -0.4, 0.6]),
                            model.end_effector)
    lin, ang = (0.25, 0.8), (0.6, 2.0)
    traj = cartesian_line(model, q0, goal, task_limits=CartesianLimits(*lin, *ang),
                          kind='trapezoid_c2')
    assert traj.stretch == 1.0
    t = np.linspace(0.0, traj.duration, 401)
    q, qd, _ = traj.sample(t)
    twists = np.array([model.jacobian(q[k], model.end_effector) @ qd[k] for k in range(len(t))])
    v = np.linalg.norm(twists[:, :3], axis=1)
    w = np.linalg.norm(twists[:, 3:], axis=1)
    assert v.max() <= lin[0] * (1 + 1e-6) and w.max() <= ang[0] * (1 + 1e-6)
    sync = traj.synchronisation
    assert max(sync.velocity_ratio.max(), sync.acceleration_ratio.max()) == pytest.approx(1.0)
    # Same law: v / D equals w / alpha at every time.
    assert np.allclose(v / traj.distance, w / traj.angle, atol=1e-6)


def test_position_only_line_and_time_stretch():
    """The 3-joint MA3000 moves its tool on a line; slow joints stretch time, not the path."""
    model = load_robot('ma3000')
    q0 = np.array([0.2, -0.7, 0.9])
    goal = model.frame_pose(q0 + np.array([0.3, 0.2, -0.3]), model.end_effector)
    traj = cartesian_line(model, q0, goal, orientation=False)
    assert traj.stretch > 1.0 and traj.angle == 0.0
    lim = PlanningLimits.from_model(model)
    assert not traj.check_limits(lim.lower, lim.upper, lim.velocity * (1 + 1e-6),
                                 lim.acceleration * (1 + 1e-3), dt=traj.duration / 2000)
    off, _, _ = _check_line(model, traj, model.end_effector, 1001)
    assert off.max() < 1e-6
    end = model.frame_pose(traj.sample(traj.duration)[0], model.end_effector)
    assert np.allclose(end[:3, 3], goal[:3, 3], atol=1e-9)


def test_prismatic_arm():
    """The Stanford arm (prismatic third joint) follows a line too."""
    model = load_robot('stanford')
    q0 = np.array([0.3, 0.8, 0.7, 0.2, 0.5, 0.1])
    goal = model.frame_pose(q0 + np.array([-0.2, 0.1, 0.15, 0.1, -0.2, 0.3]),
                            model.end_effector)
    traj = cartesian_line(model, q0, goal)
    off, rot_err, _ = _check_line(model, traj, model.end_effector, 1001)
    assert off.max() < 1e-6 and rot_err.max() < 1e-6


def test_zero_length_line():
    """A goal equal to the start pose gives a zero-length motion that holds the start."""
    model = load_robot('puma560')
    q0 = np.array([0.2, -0.8, 0.9, 0.3, 0.6, 0.1])
    traj = cartesian_line(model, q0, model.frame_pose(q0, model.end_effector))
    assert traj.duration == 0.0
    q, qd, qdd = traj.sample(np.array([0.0, 1.0]))
    assert np.allclose(q, q0) and np.allclose(qd, 0.0) and np.allclose(qdd, 0.0)


def test_refusals():
    """Singular configurations, unreachable poses, joint limits and malformed goals."""
    ur5 = load_robot('ur5')
    q0 = np.array([0.3, -1.2, 0.6, -1.0, 1.2, 0.3])
    stretched = q0.copy()
    stretched[2] = 0.0
    with pytest.raises(SingularityError, match='singular configuration at t = '):
        cartesian_line(ur5, q0, ur5.frame_pose(stretched, ur5.end_effector))
    puma = load_robot('puma560')
    wrist = np.array([0.2, -0.7, 0.9, 0.0, 0.0, 0.0])
    with pytest.raises(SingularityError, match='t = 0 s'):
        cartesian_line(puma, wrist, puma.frame_pose(wrist + 0.1, puma.end_effector))
    far = puma.frame_pose(wrist, puma.end_effector)
    far[0, 3] += 2.0
    q1 = np.array([0.2, -0.7, 0.9, 0.3, 0.6, 0.1])
    with pytest.raises(UnreachablePoseError):
        cartesian_line(puma, q1, far)
    narrow = PlanningLimits.from_model(puma, upper=[2.8, 0.8, 3.9, 3.0, 0.65, 4.6])
    goal = puma.frame_pose(q1 + np.array([0, 0, 0, 0, 0.2, 0]), puma.end_effector)
    with pytest.raises(LimitError, match="joint 'joint5'"):
        cartesian_line(puma, q1, goal, limits=narrow)
    with pytest.raises(InputError, match='4x4'):
        cartesian_line(puma, q1, np.eye(3))
    with pytest.raises(InputError, match="start: joint 'joint1' is nan"):
        cartesian_line(puma, [np.nan, 0, 0, 0, 0, 0], goal)
    with pytest.raises(LimitError, match="joint 'translation': speed limit 0 m/s must be > 0"):
        CartesianLimits(linear_speed=0.0)
    with pytest.raises(LimitError, match="'rotation': acceleration limit nan"):
        CartesianLimits(angular_acceleration=float('nan'))
    with pytest.raises(InputError, match='singular_threshold'):
        CartesianLimits(singular_threshold=-1.0)
    with pytest.raises(InputError, match='task_limits'):
        cartesian_line(puma, q1, goal, task_limits=(0.5, 1.0))
    with pytest.raises(InputError, match='dt'):
        cartesian_line(puma, q1, goal, dt=0.0)
