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

"""Damped least-squares inverse kinematics and the axis-angle extraction of seed 001."""

import numpy as np
import pytest
from robodyn_ros.errors import InputError
from robodyn_ros.model import load_robot
from robodyn_ros.model.transforms import axis_angle_matrix
from robodyn_ros.pinocchio_bridge import PinocchioBridge
from robodyn_ros.planning.errors import LimitError, UnreachablePoseError
from robodyn_ros.planning.ik import axis_angle, pose_and_jacobian, rotation_vector, solve_ik


@pytest.mark.parametrize('robot, frame, joints', [
    ('puma560', None, None), ('ur5', None, None), ('stanford', None, None),
    ('rx90', None, None), ('panda', 'panda_hand', 7)])
def test_recovers_random_poses(robot, frame, joints):
    """From a perturbed guess the solver reaches the pose of a random configuration."""
    model = load_robot(robot)
    frame = frame or model.end_effector
    active = model.joint_names[:joints] if joints else None
    rng = np.random.default_rng(11)
    solved = 0
    for _ in range(8):
        q = model.random_configuration(rng)
        target = model.frame_pose(q, frame)
        guess = np.clip(q + rng.normal(scale=0.15, size=model.n), model.lower_limits,
                        model.upper_limits)
        if active:
            guess[joints:] = q[joints:]
        sol = solve_ik(model, target, guess, frame, joints=active)
        assert np.allclose(model.frame_pose(sol.q, frame), target, atol=1e-9)
        assert np.all(sol.q >= model.lower_limits) and np.all(sol.q <= model.upper_limits)
        if active:
            assert np.array_equal(sol.q[joints:], guess[joints:])
        solved += 1
    assert solved == 8


def test_pose_and_jacobian_match_pinocchio():
    """Our one-pass pose and Jacobian equal Pinocchio's (UR5, random states)."""
    model = load_robot('ur5')
    bridge = PinocchioBridge(model)
    frame = model.frame(model.end_effector)
    rng = np.random.default_rng(12)
    for _ in range(5):
        q = model.random_configuration(rng)
        rot, pos, jac = pose_and_jacobian(model, q, frame)
        ref = bridge.frame_pose(q, frame.name)
        assert np.allclose(rot, ref[:3, :3], atol=1e-12) and np.allclose(pos, ref[:3, 3])
        assert np.allclose(jac, bridge.frame_jacobian(q, frame.name), atol=1e-10)


def test_position_only_for_a_three_joint_arm():
    """The MA3000 (3 joints) reaches positions; the orientation is free."""
    model = load_robot('ma3000')
    rng = np.random.default_rng(13)
    q = model.random_configuration(rng)
    target = model.frame_pose(q, model.end_effector)
    sol = solve_ik(model, target, q + 0.1, orientation=False)
    assert np.allclose(model.frame_pose(sol.q, model.end_effector)[:3, 3], target[:3, 3],
                       atol=1e-9)
    assert sol.rotation_error == 0.0


def test_failures_say_why():
    """Out of reach: residual and singular value; beyond a joint range: joint and bound."""
    model = load_robot('puma560')
    target = model.frame_pose(np.zeros(6), model.end_effector)
    target[0, 3] += 3.0
    with pytest.raises(UnreachablePoseError, match=r'unreachable: closest configuration leaves '
                                                   r'2\.\d+ m'):
        solve_ik(model, target, np.zeros(6))
    q = np.array([0.0, -0.5, 0.5, 0.0, 1.2, 0.0])
    target = model.frame_pose(q, model.end_effector)
    upper = model.upper_limits.copy()
    upper[4] = 0.6
    with pytest.raises(LimitError) as info:
        solve_ik(model, target, np.array([0.0, -0.5, 0.5, 0.0, 0.5, 0.0]), upper=upper)
    assert info.value.joint == 'joint5' and info.value.bound == 0.6
    with pytest.raises(InputError, match='4x4'):
        solve_ik(model, np.eye(3), np.zeros(6))
    bad = np.eye(4)
    bad[0, 0] = -1.0
    with pytest.raises(InputError, match='proper rotation'):
        solve_ik(model, bad, np.zeros(6))
    with pytest.raises(InputError, match="q0: joint 'joint2' is nan"):
        solve_ik(model, np.eye(4), [0, np.nan, 0, 0, 0, 0])


def _seed_851(ri, rf):
    """Eq. 8.51 written with the columns s, n, a of R^i and R^f, as in the seed."""
    si, ni, ai = ri.T
    sf, nf, af = rf.T
    c = 0.5 * (si @ sf + ni @ nf + ai @ af - 1.0)
    w = np.array([ai @ nf - ni @ af, si @ af - ai @ sf, ni @ sf - si @ nf])
    sa = 0.5 * np.linalg.norm(w)
    return w / (2 * sa), np.arctan2(sa, c)


def test_axis_angle_of_seed_001():
    """(u, alpha) of eq. 8.51 for random rotations with alpha in (0, pi); alpha = 1.9 case."""
    rng = np.random.default_rng(14)
    for alpha in list(rng.uniform(1e-3, np.pi - 1e-3, 100)) + [1.9]:
        u = rng.normal(size=3)
        u /= np.linalg.norm(u)
        axis = rng.normal(size=3)
        ri = axis_angle_matrix(axis / np.linalg.norm(axis), rng.uniform(0.0, 3.0))
        rot = axis_angle_matrix(u, alpha)
        got_u, got_a = axis_angle(rot)
        ref_u, ref_a = _seed_851(ri, ri @ rot)
        assert got_a == pytest.approx(alpha, abs=1e-12) and np.allclose(got_u, u, atol=1e-9)
        assert got_a == pytest.approx(ref_a) and np.allclose(got_u, ref_u)
    for alpha in (1e-9, 1e-6, np.pi - 1e-7, np.pi):
        rot = axis_angle_matrix([0.0, 0.6, 0.8], alpha)
        assert np.allclose(rotation_vector(rot), np.array([0.0, 0.6, 0.8]) * alpha, atol=1e-9)
    assert axis_angle(np.eye(3))[1] == 0.0
