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

"""Effort provider: RNE with friction and payload, joint subsets, payload physics."""

import numpy as np
import pytest
from robodyn_ros.dynamics import gravity_torques, inverse_dynamics
from robodyn_ros.errors import InputError
from robodyn_ros.model import load_robot
from robodyn_ros.planning.efforts import ModelEffortProvider, Payload


def test_matches_inverse_dynamics_with_payload():
    """The provider equals inverse_dynamics of the model carrying the payload."""
    model = load_robot('puma560')
    payload = Payload(1.5, (0.0, 0.02, 0.1))
    provider = ModelEffortProvider(model, payload=payload)
    rng = np.random.default_rng(1)
    q, qd, qdd = rng.normal(size=(3, 20, 6))
    ref = inverse_dynamics(model.with_payload(1.5, (0.0, 0.02, 0.1)), q, qd, qdd)
    assert np.allclose(provider(q, qd, qdd), ref)
    assert np.allclose(provider(q[0], qd[0], qdd[0]), ref[0])
    no_friction = ModelEffortProvider(model, friction=False)
    assert np.allclose(no_friction(q, qd, qdd), inverse_dynamics(model, q, qd, qdd,
                                                                 friction=False))


def test_payload_gravity_is_jacobian_transpose_of_its_weight():
    """Holding torque added by a point mass = -J^T (m g) at the mass (static, no friction)."""
    model = load_robot('ur5')
    mass, com = 3.0, np.array([0.0, 0.0, 0.1])
    rng = np.random.default_rng(2)
    for _ in range(5):
        q = model.random_configuration(rng)
        diff = gravity_torques(model.with_payload(mass, com), q) - gravity_torques(model, q)
        frame = model.frame(model.joints[-1].link)
        pose = model.frame_pose(q, frame.name)
        point = pose[:3, :3] @ com + pose[:3, 3]
        jac = model.jacobian(q, frame.name)
        # Shift the linear Jacobian from the frame origin to the mass point.
        jv = jac[:3] + np.cross(jac[3:].T, point - pose[:3, 3]).T
        assert np.allclose(diff, -jv.T @ (mass * np.asarray(model.gravity)), atol=1e-10)


def test_joint_subset_holds_other_joints():
    """Planned joints only: the others sit at fixed positions with zero motion."""
    model = load_robot('panda')
    arm = model.joint_names[:7]
    fixed = np.zeros(model.n)
    fixed[7:] = 0.02
    provider = ModelEffortProvider(model, arm, fixed_positions=fixed)
    rng = np.random.default_rng(3)
    q, qd, qdd = rng.normal(size=(3, 4, 7)) * 0.3
    full = [np.tile(fixed, (4, 1)), np.zeros((4, model.n)), np.zeros((4, model.n))]
    for arr, part in zip(full, (q, qd, qdd)):
        arr[:, :7] = part
    assert np.allclose(provider(q, qd, qdd), inverse_dynamics(model, *full)[:, :7])
    moved = provider.with_fixed_positions(np.zeros(model.n))
    assert moved.joint_names == arm
    with pytest.raises(InputError, match='expected 7 planned joints'):
        provider(np.zeros((1, 9)), np.zeros((1, 9)), np.zeros((1, 9)))


def test_payload_validation():
    """Negative or non-finite masses and malformed centres of mass are refused."""
    with pytest.raises(InputError, match='payload mass'):
        Payload(-1.0)
    with pytest.raises(InputError, match='payload mass'):
        Payload(np.nan)
    with pytest.raises(InputError, match='payload com'):
        Payload(1.0, (0.0, 0.0))
    model = load_robot('puma560')
    assert Payload(0.0).apply(model) is model
    with pytest.raises(Exception, match='nowhere'):
        ModelEffortProvider(model, payload=Payload(1.0, frame='nowhere'))
