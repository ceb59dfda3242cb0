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

"""Forward dynamics: ABA and M-solve against Pinocchio, and inverse of inverse dynamics."""

import os

from dyn_models import DATA, example_models
import numpy as np
import pinocchio as pin
import pytest
from robodyn_ros.dynamics import forward_dynamics, inverse_dynamics
from robodyn_ros.dynamics.crosscheck import random_states
from robodyn_ros.errors import InputError
from robodyn_ros.model import RobotModel
from robodyn_ros.pinocchio_bridge import PinocchioBridge


@pytest.fixture(scope='module')
def models():
    return example_models()


def test_aba_matches_pinocchio(models):
    """Frictionless ABA equals pinocchio.aba (with armature)."""
    for name, m in models.items():
        bridge = PinocchioBridge(m)
        q, qd, _ = random_states(m, 100, seed=21)
        tau = np.random.default_rng(0).normal(0, 5, q.shape)
        acc = forward_dynamics(m, q, qd, tau, friction=False)
        for k in range(100):
            ref = bridge.from_v(pin.aba(bridge.pin_model, bridge.pin_data, bridge.q(q[k]),
                                        bridge.v(qd[k]), bridge.v(tau[k])))
            assert np.allclose(acc[k], ref, atol=1e-10 * max(1, np.abs(ref).max())), name


def test_forward_inverts_inverse_with_friction(models):
    """forward(q, qd, inverse(q, qd, qdd)) = qdd, both methods, friction on."""
    for name, m in models.items():
        q, qd, qdd = random_states(m, 30, seed=22)
        tau = inverse_dynamics(m, q, qd, qdd)
        for method in ('aba', 'crba'):
            back = forward_dynamics(m, q, qd, tau, method=method)
            assert np.allclose(back, qdd, atol=1e-8), (name, method)


def test_forward_with_load_dependent_friction(data_dir):
    """Bearing and transmission friction (seed 004) are inverted by the Newton solve."""
    m = RobotModel.from_urdf(os.path.join(DATA, 'two_link.urdf'),
                             params=os.path.join(DATA, 'good_params.yaml'))
    assert m.joint('shoulder').friction.transmission is not None
    q, qd, qdd = random_states(m, 20, seed=23)
    tau = inverse_dynamics(m, q, qd, qdd)
    assert np.allclose(forward_dynamics(m, q, qd, tau), qdd, atol=1e-8)


def test_single_state_shape_and_bad_method(models):
    """A single state returns (n,); unknown methods are refused."""
    m = models['ur5']
    z = np.zeros(6)
    assert forward_dynamics(m, z, z, z).shape == (6,)
    with pytest.raises(InputError, match='method'):
        forward_dynamics(m, z, z, z, method='euler')
    with pytest.raises(InputError, match='tau: entry 2 is nan'):
        forward_dynamics(m, z, z, [0, 0, np.nan, 0, 0, 0])
