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

"""Gain design from poles (seed 001 eqs. 9.10 and 9.26)."""

from control_models import pin_mass_matrix, two_link
import numpy as np
import pytest
from robodyn_ros.control.gains import ct_gains, max_joint_inertia, pid_poles, triple_pole_pid
from robodyn_ros.errors import InputError


def test_ct_gains_give_the_requested_poles():
    """Kp = w^2 and Kd = 2 zeta w: the roots of s^2 + Kd s + Kp are -zeta w +- ..."""
    kp, kd = ct_gains([20.0, 5.0], [1.0, 0.5])
    assert kp.tolist() == [400.0, 25.0] and kd.tolist() == [40.0, 5.0]
    assert np.allclose(np.roots([1.0, kd[0], kp[0]]), [-20.0, -20.0], atol=1e-5)
    roots = np.roots([1.0, kd[1], kp[1]])
    assert np.allclose(np.abs(roots), 5.0) and np.allclose(roots.real, -2.5)
    assert ct_gains(40.0, n=3)[0].tolist() == [1600.0] * 3   # seed 003: Kp = 1600, Kv = 80
    with pytest.raises(InputError):
        ct_gains(-1.0, n=2)


def test_triple_pole_pid_places_a_triple_pole():
    """Claim 25 of seed 001: with eq. 9.10 the roots of eq. 9.8 are -w (triple)."""
    a = np.array([2.5, 0.8, 0.1])
    fv = np.array([0.5, 0.1, 0.0])
    w = np.array([15.0, 30.0, 50.0])
    g = triple_pole_pid(a, w, fv)
    assert np.allclose(g.kp, 3 * a * w ** 2) and np.allclose(g.ki, a * w ** 3)
    assert np.allclose(g.kd + fv, 3 * a * w)
    poles = pid_poles(a, g, fv)
    for j in range(3):
        # A triple root is ill-conditioned numerically: compare the polynomial instead.
        assert np.allclose(np.poly(poles[j]).real, np.poly([-w[j]] * 3), rtol=1e-6)
        assert np.allclose(poles[j].real, -w[j], rtol=1e-3)
    with pytest.raises(InputError, match='viscous'):
        triple_pole_pid([0.1], 1.0, [5.0])


def test_max_joint_inertia_bounds_the_diagonal():
    """The designed a_j is the largest M_jj over the samples (Pinocchio CRBA, same seeds)."""
    model = two_link()
    a = max_joint_inertia(model, samples=64, seed=4)
    rng = np.random.default_rng(4)
    qs = [model.random_configuration(rng) for _ in range(64)]
    qs[0] = np.zeros(2)
    diag = np.array([np.diag(pin_mass_matrix(model, q)) for q in qs])
    assert np.allclose(a, diag.max(axis=0), rtol=1e-9)
    with pytest.raises(InputError):
        max_joint_inertia(model, samples=0)
