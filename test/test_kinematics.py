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

"""Forward kinematics and Jacobians against Pinocchio and finite differences."""

import os

import numpy as np
import pytest

from robodyn_ros.model import RobotModel
from robodyn_ros.pinocchio_bridge import PinocchioBridge


def _models(data_dir, ur5_urdf, panda_urdf):
    prismatic_dh = RobotModel.from_dh([
        {'a': 0.0, 'alpha': 0.0, 'd': 0.3, 'theta': 0.0, 'joint': 'R', 'mass': 2.0,
         'com': [0.0, 0.05, 0.0], 'inertia': [0.02, 0.02, 0.03]},
        {'a': 0.1, 'alpha': -np.pi / 2, 'd': 0.2, 'theta': 0.1, 'joint': 'P', 'mass': 1.0,
         'com': [0.0, 0.0, -0.1], 'inertia': [0.01, 0.01, 0.002]},
        {'a': 0.0, 'alpha': np.pi / 2, 'd': 0.0, 'theta': 0.3, 'joint': 'R', 'mass': 0.5,
         'com': [0.02, 0.0, 0.0], 'inertia': [0.001, 0.002, 0.002]},
    ], convention='modified', name='rpr')
    return {
        'ur5': RobotModel.from_urdf(ur5_urdf),
        'panda': RobotModel.from_urdf(panda_urdf),
        'two_link': RobotModel.from_urdf(os.path.join(data_dir, 'two_link.urdf')),
        'continuous': RobotModel.from_urdf(os.path.join(data_dir, 'two_link.urdf.xacro')),
        'rpr_modified_dh': prismatic_dh,
    }


@pytest.fixture
def models(data_dir, ur5_urdf, panda_urdf):
    return _models(data_dir, ur5_urdf, panda_urdf)


def test_fk_and_jacobians_match_pinocchio(models):
    """Every frame's pose and both Jacobians agree with Pinocchio on 100 configurations."""
    rng = np.random.default_rng(7)
    for name, m in models.items():
        bridge = PinocchioBridge(m)
        worst_pose = worst_jac = 0.0
        for _ in range(100):
            q = m.random_configuration(rng)
            for frame in m.frame_names:
                assert bridge.pin_model.existFrame(frame), f'{name}: Pinocchio lacks {frame}'
                worst_pose = max(worst_pose, np.abs(m.frame_pose(q, frame)
                                                    - bridge.frame_pose(q, frame)).max())
                for ref in ('world_aligned', 'local'):
                    worst_jac = max(worst_jac, np.abs(m.jacobian(q, frame, ref)
                                                      - bridge.frame_jacobian(q, frame,
                                                                              ref)).max())
        assert worst_pose < 1e-10, name
        assert worst_jac < 1e-10, name


def test_jacobian_matches_finite_differences(models):
    """The world-aligned Jacobian is the derivative of the frame pose."""
    rng = np.random.default_rng(3)
    h = 1e-6
    for name, m in models.items():
        frame = m.frame_names[-1]
        q = m.random_configuration(rng)
        jac = m.jacobian(q, frame)
        t0 = m.frame_pose(q, frame)
        for i in range(m.n):
            dq = np.zeros(m.n)
            dq[i] = h
            tp, tm = m.frame_pose(q + dq, frame), m.frame_pose(q - dq, frame)
            v = (tp[:3, 3] - tm[:3, 3]) / (2 * h)
            dr = (tp[:3, :3] - tm[:3, :3]) / (2 * h) @ t0[:3, :3].T
            w = np.array([dr[2, 1], dr[0, 2], dr[1, 0]])
            assert np.allclose(jac[:3, i], v, atol=1e-7), (name, i)
            assert np.allclose(jac[3:, i], w, atol=1e-7), (name, i)


def test_root_frame_is_fixed(models):
    """The root frame never moves and has a zero Jacobian."""
    m = models['ur5']
    q = m.random_configuration(np.random.default_rng(0))
    assert np.allclose(m.frame_pose(q, m.root_link), np.eye(4))
    assert not np.any(m.jacobian(q, m.root_link))
