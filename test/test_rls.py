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

"""Recursive least squares with forgetting and bounded estimates."""

import numpy as np
import pytest
from robodyn_ros.control.rls import forgetting_from_time, RecursiveLeastSquares
from robodyn_ros.errors import InputError


def test_recovers_parameters_like_batch_least_squares():
    """Without forgetting, RLS from a vague prior equals the batch solution."""
    rng = np.random.default_rng(0)
    theta = np.array([1.5, -0.4, 2.0])
    x = rng.normal(size=(60, 3))
    y = x @ theta + rng.normal(0, 0.01, 60)
    rls = RecursiveLeastSquares(np.zeros(3), 1e8)
    for k in range(60):
        rls.update(x[k], y[k])
    batch, *_ = np.linalg.lstsq(x, y, rcond=None)
    assert np.allclose(rls.theta, batch, atol=1e-6) and rls.updates == 60


def test_block_update_equals_row_updates():
    """Several equations per sample give the same result as one at a time (lambda = 1)."""
    rng = np.random.default_rng(1)
    a = RecursiveLeastSquares(np.zeros(4), 10.0)
    b = RecursiveLeastSquares(np.zeros(4), 10.0)
    for _ in range(5):
        x = rng.normal(size=(3, 4))
        y = rng.normal(size=3)
        a.update(x, y)
        for r in range(3):
            b.update(x[r], y[r])
    assert np.allclose(a.theta, b.theta) and np.allclose(a.covariance, b.covariance)


def test_forgetting_tracks_a_change_and_bounds_hold():
    """With forgetting the estimate follows a jump; the box is never left."""
    rng = np.random.default_rng(2)
    rls = RecursiveLeastSquares([0.5], 10.0, forgetting=0.95, lower=0.0, upper=3.0)
    for k in range(400):
        x = rng.normal(size=1)
        truth = 1.0 if k < 200 else 2.5
        rls.update(x, truth * x[0])
        assert 0.0 <= rls.theta[0] <= 3.0
    assert rls.theta[0] == pytest.approx(2.5, abs=1e-3)
    clipped = RecursiveLeastSquares([0.5], 10.0, lower=0.0, upper=1.0)
    clipped.update([1.0], 5.0)
    assert clipped.theta[0] == 1.0


def test_covariance_does_not_wind_up_and_bad_data_are_ignored():
    """Unexciting data with forgetting keep P under its cap; NaN data change nothing."""
    rls = RecursiveLeastSquares([0.0, 0.0], 5.0, forgetting=0.9)
    for _ in range(500):
        rls.update([1.0, 0.0], 1.0)
    assert np.diag(rls.covariance).max() <= 5.0 + 1e-12
    before = rls.theta.copy()
    rls.update([np.nan, 1.0], 2.0)
    rls.update([1.0, 1.0], np.inf)
    assert np.array_equal(rls.theta, before)
    rls.reset()
    assert np.array_equal(rls.theta, [0.0, 0.0]) and rls.updates == 0


def test_invalid_configuration():
    """Bad forgetting, covariance, bounds or initial values are refused."""
    for kwargs in ({'forgetting': 0.0}, {'forgetting': 1.5}, {'variance': -1.0},
                   {'variance': np.ones((3, 3))}, {'lower': 1.0, 'upper': 0.0},
                   {'lower': 0.5}):
        with pytest.raises(InputError):
            RecursiveLeastSquares([0.0, 0.0], **kwargs)
    with pytest.raises(InputError):
        RecursiveLeastSquares([np.nan])
    with pytest.raises(InputError, match='equations'):
        RecursiveLeastSquares([0.0]).update(np.ones((3, 1)), np.ones(2))
    assert forgetting_from_time(0.01, 1.0) == pytest.approx(np.exp(-0.01))
    with pytest.raises(InputError):
        forgetting_from_time(0.01, 0.0)


def test_single_parameter_path_equals_batch_least_squares():
    """The scalar fast path (one parameter, several equations) is exact least squares."""
    rng = np.random.default_rng(4)
    x = rng.normal(size=(30, 3))
    y = 2.5 * x + rng.normal(0, 0.01, x.shape)
    rls = RecursiveLeastSquares([0.0], 1e9)
    for k in range(30):
        rls.update(x[k][:, None], y[k])
    assert rls.theta[0] == pytest.approx(float((x * y).sum() / (x * x).sum()), rel=1e-6)
    capped = RecursiveLeastSquares([0.0], 1.0, forgetting=0.5)
    for _ in range(50):
        capped.update([[0.0]], [0.0])
    assert capped.covariance[0, 0] <= 1.0
