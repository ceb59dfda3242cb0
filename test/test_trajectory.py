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


"""Tests of the Trajectory value (robodyn_ros.planning.trajectory)."""

import numpy as np
import pytest
from robodyn_ros.errors import InputError
from robodyn_ros.planning import PiecewisePolynomialTrajectory, SampledTrajectory


def _quintic(h, duration):
    c = np.zeros((1, len(h), 6))
    h = np.asarray(h, dtype=float)
    c[0, :, 3] = 10 * h / duration ** 3
    c[0, :, 4] = -15 * h / duration ** 4
    c[0, :, 5] = 6 * h / duration ** 5
    return PiecewisePolynomialTrajectory(['a', 'b'], [0.0, duration], c)


def test_sample_shapes_and_ends():
    """Scalar times give (n,), arrays give (N, n); the ends are held at rest."""
    tr = _quintic([1.0, -0.5], 2.0)
    q, qd, qdd = tr.sample(1.0)
    assert q.shape == (2,) and np.allclose(q, [0.5, -0.25]) and np.allclose(qdd, 0.0)
    q, qd, qdd = tr.sample(np.array([-1.0, 0.0, 2.0, 3.0]))
    assert q.shape == (4, 2)
    assert np.allclose(q[0], 0.0) and np.allclose(q[-1], [1.0, -0.5])
    assert np.allclose(qd[[0, -1]], 0.0) and np.allclose(qdd[[0, -1]], 0.0)
    assert tr.starts_at_rest and tr.ends_at_rest and tr.duration == 2.0


def test_derivatives_are_consistent():
    """Velocity and acceleration are the derivatives of position."""
    tr = _quintic([1.0, 2.0], 1.5)
    t = np.linspace(0.1, 1.4, 20)
    h = 1e-6
    q1, qd, qdd = tr.sample(t)
    assert np.allclose((tr.sample(t + h)[0] - tr.sample(t - h)[0]) / (2 * h), qd, atol=1e-7)
    assert np.allclose((tr.sample(t + h)[1] - tr.sample(t - h)[1]) / (2 * h), qdd, atol=1e-5)


def test_sampled_trajectory_reproduces_quintics():
    """Quintic Hermite interpolation of knot samples is exact for quintic pieces."""
    tr = _quintic([0.7, -1.3], 2.0)
    t, q, qd, qdd = tr.dense(0.25)
    st = SampledTrajectory(tr.joint_names, t, q, qd, qdd)
    grid = np.linspace(0.0, 2.0, 401)
    for a, b in zip(st.sample(grid), tr.sample(grid)):
        assert np.allclose(a, b, atol=1e-12)


def test_dense_includes_end_and_limit_check():
    """dense() ends exactly at the duration; check_limits names the joint and bound."""
    tr = _quintic([1.0, 0.1], 2.0)
    t, q, _, _ = tr.dense(0.3)
    assert t[-1] == 2.0 and np.allclose(q[-1], [1.0, 0.1])
    problems = tr.check_limits(velocity=[0.5, 1.0], upper=[0.9, 1.0])
    assert any('joint a: velocity' in p and 'exceeds 0.5' in p for p in problems)
    assert any('joint a: position' in p for p in problems)
    assert not tr.check_limits(velocity=[1.0, 1.0], acceleration=[10.0, 10.0])


@pytest.mark.parametrize('kwargs, text', [
    ({'breaks': [1.0, 2.0]}, 'breaks'),
    ({'coefficients': np.zeros((2, 2, 3))}, 'coefficients'),
    ({'coefficients': np.full((1, 2, 3), np.nan)}, 'finite'),
])
def test_bad_piecewise_input(kwargs, text):
    """Malformed breaks and coefficients raise InputError."""
    args = {'joint_names': ['a', 'b'], 'breaks': [0.0, 1.0],
            'coefficients': np.zeros((1, 2, 3))}
    args.update(kwargs)
    with pytest.raises(InputError, match=text):
        PiecewisePolynomialTrajectory(**args)


def test_bad_samples_and_times():
    """Non-increasing sample times, wrong shapes and NaN times are refused."""
    with pytest.raises(InputError, match='increasing'):
        SampledTrajectory(['a'], [0.0, 0.0], [[0.0], [1.0]])
    with pytest.raises(InputError, match='shape'):
        SampledTrajectory(['a'], [0.0, 1.0], [[0.0, 1.0]])
    with pytest.raises(InputError, match='finite'):
        _quintic([1.0, 1.0], 1.0).sample(np.nan)
    with pytest.raises(InputError, match='dt'):
        _quintic([1.0, 1.0], 1.0).dense(0.0)
