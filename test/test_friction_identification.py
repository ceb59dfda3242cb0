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

"""The friction least-squares fit on synthetic steady-state data."""

import numpy as np
import pytest
from robodyn_ros.errors import InputError
from robodyn_ros.friction.identification import fit_friction, NO_STRIBECK

SPEEDS = np.array([0.005, 0.01, 0.02, 0.04, 0.08, 0.15, 0.3, 0.6, 1.0])


def _data(fc, fs, fv, vs, noise=0.0, seed=0):
    qd = np.concatenate([SPEEDS, -SPEEDS])
    v = np.abs(qd)
    e = np.exp(-v / vs)
    tau = np.where(qd > 0, fc[0] + (fs[0] - fc[0]) * e + fv[0] * v,
                   -(fc[1] + (fs[1] - fc[1]) * e + fv[1] * v))
    return qd, tau + np.random.default_rng(seed).normal(0.0, noise, qd.size)


def test_recovers_asymmetric_stribeck_parameters():
    """Asymmetric Coulomb, viscous and static levels and the Stribeck velocity come back."""
    qd, tau = _data((2.0, 1.6), (3.0, 2.4), (1.5, 1.2), 0.05, noise=0.005)
    fit = fit_friction(qd, tau)
    assert fit.asymmetric and fit.stribeck
    assert fit.coulomb == pytest.approx((2.0, 1.6), rel=0.02)
    assert fit.static == pytest.approx((3.0, 2.4), rel=0.02)
    assert fit.viscous == pytest.approx((1.5, 1.2), rel=0.02)
    assert fit.stribeck_velocity == pytest.approx(0.05, rel=0.05)
    assert fit.rms_residual < 0.01 and fit.samples == 18
    assert np.allclose(fit.torque(qd), tau, atol=0.03)
    assert fit.params()['coulomb'] == list(fit.coulomb)


def test_symmetric_data_gives_a_symmetric_fit():
    """Equal levels in both directions are not split (F-test)."""
    qd, tau = _data((2.0, 2.0), (3.0, 3.0), (1.0, 1.0), 0.03, noise=0.01, seed=1)
    fit = fit_friction(qd, tau)
    assert not fit.asymmetric and fit.stribeck
    assert fit.coulomb[0] == fit.coulomb[1] == pytest.approx(2.0, rel=0.03)


def test_tiny_asymmetry_in_clean_data_is_not_split():
    """Levels 1 % apart with almost no noise: significant, but not material."""
    qd, tau = _data((2.0, 1.98), (3.0, 2.97), (1.0, 0.99), 0.03, noise=1e-5, seed=3)
    assert not fit_friction(qd, tau).asymmetric
    assert fit_friction(qd, tau, min_asymmetry=0.001).asymmetric


def test_no_stribeck_hump_is_fitted_when_there_is_none():
    """Plain Coulomb + viscous data give static = coulomb and no Stribeck term."""
    qd, tau = _data((1.0, 1.0), (1.0, 1.0), (0.5, 0.5), 0.1, noise=0.005, seed=2)
    fit = fit_friction(qd, tau)
    assert not fit.stribeck and fit.static == fit.coulomb
    assert fit.stribeck_velocity == NO_STRIBECK
    assert fit.viscous[0] == pytest.approx(0.5, rel=0.05)


def test_bad_input_is_refused():
    """Too few points per direction, NaN, or mismatched arrays raise InputError."""
    with pytest.raises(InputError, match='three runs'):
        fit_friction([0.1, 0.2, 0.3, -0.1], [1, 1, 1, -1])
    with pytest.raises(InputError, match='finite'):
        fit_friction([0.1, np.nan], [1, 1])
    with pytest.raises(InputError, match='same length'):
        fit_friction([0.1, 0.2], [1.0])
