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

"""Prediction-decoupled pipelining: exact first sample, the error measure, limits."""

import numpy as np
import pytest
from robodyn_ros.dynamics.rne import rne
from robodyn_ros.errors import InputError
from robodyn_ros.model import load_robot
from robodyn_ros.parallel.linkframes import link_frames
from robodyn_ros.parallel.prediction import exact, METHODS, prediction_error, simulate
from robodyn_ros.reproductions.stanford_prediction import thesis_model, trajectory


def _smooth_path(model, count, seed, dt=0.005):
    rng = np.random.default_rng(seed)
    t = np.arange(count) * dt
    amp, freq, phase = (rng.uniform(0.2, 0.6, model.n), rng.uniform(0.5, 2.0, model.n),
                        rng.uniform(0, np.pi, model.n))
    mid = np.array([model.random_configuration(rng) for _ in range(1)])[0] * 0.3
    arg = np.outer(t, 2 * np.pi * freq) + phase
    w = 2 * np.pi * freq
    return mid + amp * np.sin(arg), amp * w * np.cos(arg), -amp * w ** 2 * np.sin(arg)


@pytest.mark.parametrize('method', METHODS)
@pytest.mark.parametrize('robot,frames', [('stanford', 'dh'), ('panda', 'body'),
                                          ('puma560', 'body')])
def test_first_sample_exact_then_close(method, robot, frames):
    """Sample 0 equals the RNE exactly; later samples err, less at a shorter period."""
    model = load_robot(robot)
    worst = []
    for dt in (0.005, 0.0025):
        q, qd, qdd = _smooth_path(model, int(round(1.0 / dt)), 5, dt)
        res = simulate(model, q, qd, qdd, method, frames)
        ref = rne(model, q, qd, qdd).tau
        assert np.allclose(res.tau[0], ref[0], atol=1e-12 * max(1, np.abs(ref).max()))
        assert np.any(np.abs(res.tau[1:] - ref[1:]) > 1e-9)
        worst.append(np.max(np.abs(res.tau - ref), axis=0))
    assert np.all(worst[1] <= 0.75 * worst[0] + 1e-12)


def test_exact_is_the_rne():
    """The serial recursion over samples is the rigid-body RNE."""
    model = load_robot('stanford')
    q, qd, qdd = _smooth_path(model, 50, 1)
    ref = rne(model, q, qd, qdd).tau
    for kind in ('body', 'dh'):
        assert np.max(np.abs(exact(model, q, qd, qdd, kind).tau - ref)) < 1e-11


def test_error_shrinks_with_the_sample_period():
    """Halving the sample period shrinks every zero-order error (seed 000 Sec. 5)."""
    fr = link_frames(thesis_model(), 'dh')
    errs = []
    for period in (0.005, 0.0025):
        s = trajectory(1, 2.0, period)
        errs.append(prediction_error(simulate(fr, s.q, s.qd, s.qdd, 'zero').tau,
                                     exact(fr, s.q, s.qd, s.qdd).tau))
    assert np.all(errs[1] < errs[0])


def test_constant_state_is_predicted_exactly():
    """At rest every method is exact (nothing changes between samples)."""
    model = load_robot('stanford')
    q = np.tile(model.random_configuration(np.random.default_rng(3)), (20, 1))
    zero = np.zeros_like(q)
    ref = rne(model, q, zero, zero).tau
    for method in METHODS:
        assert np.allclose(simulate(model, q, zero, zero, method).tau, ref, atol=1e-12)


def test_prediction_error_measure():
    """100 RMS(error) / range of the exact torque, per joint."""
    exact_u = np.array([[0.0, 1.0], [2.0, 1.0], [4.0, 1.0]])
    pred = exact_u + np.array([[0.0, 0.0], [0.4, 0.0], [0.0, 0.0]])
    err = prediction_error(pred, exact_u)
    assert np.isclose(err[0], 100.0 * np.sqrt(0.16 / 3) / 4.0)
    assert err[1] == 0.0
    assert np.isinf(prediction_error(exact_u + [[0, 1e-3]] * 3, exact_u)[1])


def test_bad_input():
    """Unknown method, NaN and mismatched shapes are refused."""
    model = load_robot('stanford')
    q, qd, qdd = _smooth_path(model, 10, 0)
    with pytest.raises(InputError):
        simulate(model, q, qd, qdd, 'second')
    bad = q.copy()
    bad[3, 1] = np.nan
    with pytest.raises(InputError):
        simulate(model, bad, qd, qdd)
    with pytest.raises(InputError):
        simulate(model, q, qd[:5], qdd)
    with pytest.raises(InputError):
        exact(model, q[:, :3], qd[:, :3], qdd[:, :3])
