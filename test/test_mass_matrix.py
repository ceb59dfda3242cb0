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

"""Mass matrix, gravity, bias forces, Coriolis matrix: properties and Pinocchio."""

from dyn_models import example_models
import numpy as np
import pinocchio as pin
import pytest
from robodyn_ros.dynamics import (bias_forces, coriolis_matrix, gravity_torques,
                                  inverse_dynamics, mass_matrix)
from robodyn_ros.dynamics.crosscheck import random_states
from robodyn_ros.pinocchio_bridge import PinocchioBridge


@pytest.fixture(scope='module')
def models():
    return example_models()


def test_mass_matrix_is_symmetric_positive_definite_and_matches_crba(models):
    """M is SPD, equals the RNE columns and Pinocchio's crba."""
    for name, m in models.items():
        bridge = PinocchioBridge(m)
        q, _, _ = random_states(m, 50, seed=11)
        mm = mass_matrix(m, q)
        for k in range(50):
            assert np.allclose(mm[k], mm[k].T, atol=1e-14)
            assert np.all(np.linalg.eigvalsh(mm[k]) > 0.0), name
            ref = bridge.from_matrix(pin.crba(bridge.pin_model, bridge.pin_data, bridge.q(q[k])))
            ref = np.triu(ref) + np.triu(ref, 1).T
            assert np.allclose(mm[k], ref, atol=1e-12 * max(1, np.abs(ref).max())), name
        # Column i of M is the torque for qdd = e_i without gravity and velocity.
        cols = np.array([inverse_dynamics(m, q[0], np.zeros(m.n), e, friction=False,
                                          gravity=False) for e in np.eye(m.n)]).T
        assert np.allclose(cols, mm[0], atol=1e-12), name


def test_gravity_and_bias_match_pinocchio(models):
    """g(q) and C qd + g equal computeGeneralizedGravity and nonLinearEffects."""
    for name, m in models.items():
        bridge = PinocchioBridge(m)
        q, qd, _ = random_states(m, 50, seed=12)
        g = gravity_torques(m, q)
        h = bias_forces(m, q, qd, friction=False)
        for k in range(50):
            pq = bridge.q(q[k])
            ref_g = bridge.from_v(pin.computeGeneralizedGravity(bridge.pin_model,
                                                                bridge.pin_data, pq))
            ref_h = bridge.from_v(pin.nonLinearEffects(bridge.pin_model, bridge.pin_data, pq,
                                                       bridge.v(qd[k])))
            assert np.allclose(g[k], ref_g, atol=1e-11), name
            assert np.allclose(h[k], ref_h, atol=1e-11), name


def test_bias_forces_include_friction(models):
    """With friction on, h is the torque at zero acceleration including friction."""
    m = models['dh_modified_rrprrr']
    q, qd, _ = random_states(m, 5, seed=1)
    assert np.allclose(bias_forces(m, q, qd), inverse_dynamics(m, q, qd, np.zeros_like(q)))
    assert not np.allclose(bias_forces(m, q, qd), bias_forces(m, q, qd, friction=False))


def test_coriolis_matches_pinocchio_and_is_christoffel(models):
    """C equals computeCoriolisMatrix; C qd = h - g; dM/dt - 2C is skew-symmetric."""
    for name, m in models.items():
        bridge = PinocchioBridge(m)
        q, qd, _ = random_states(m, 30, seed=13)
        c = coriolis_matrix(m, q, qd)
        h = bias_forces(m, q, qd, friction=False) - gravity_torques(m, q)
        for k in range(30):
            ref = bridge.from_matrix(pin.computeCoriolisMatrix(
                bridge.pin_model, bridge.pin_data, bridge.q(q[k]), bridge.v(qd[k])))
            assert np.allclose(c[k], ref, atol=1e-12 * max(1, np.abs(ref).max())), name
            assert np.allclose(c[k] @ qd[k], h[k], atol=1e-11), name
            eps = 1e-6
            m_dot = (mass_matrix(m, q[k] + eps * qd[k])
                     - mass_matrix(m, q[k] - eps * qd[k])) / (2 * eps)
            skew = m_dot - 2.0 * c[k]
            assert np.allclose(skew, -skew.T, atol=1e-6 * max(1, np.abs(m_dot).max())), name


def test_christoffel_symbols_by_finite_differences(models):
    """C_ij = sum_k c_ijk qd_k with c_ijk from finite differences of M."""
    m = models['dh_modified_rrprrr']
    q, qd, _ = random_states(m, 1, seed=14)
    q, qd = q[0], qd[0]
    n, eps = m.n, 1e-6
    dm = np.array([(mass_matrix(m, q + eps * e) - mass_matrix(m, q - eps * e)) / (2 * eps)
                   for e in np.eye(n)])  # dm[k] = dM/dq_k
    c = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            c[i, j] = sum(0.5 * (dm[k][i, j] + dm[j][i, k] - dm[i][j, k]) * qd[k]
                          for k in range(n))
    assert np.allclose(coriolis_matrix(m, q, qd), c, atol=1e-7)
