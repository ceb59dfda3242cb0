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

"""State-variable filter (seed 003 App. B) at fixed and varying sample times."""

import math

import numpy as np
import pytest
from robodyn_ros.control import filters
from robodyn_ros.control.filters import SEED003_OFFLINE, SEED003_REALTIME, StateVariableFilter
from robodyn_ros.errors import InputError
from scipy import signal


@pytest.mark.parametrize('coeffs', [SEED003_REALTIME, SEED003_OFFLINE])
def test_outputs_match_continuous_filters(coeffs):
    """Each output s^i y / C(s) equals scipy's simulation of that transfer function."""
    h = 1.0 / 121.0
    t = np.arange(0, 3.0, h)
    y = np.sin(2.0 * t) + 0.3 * t ** 2
    f = StateVariableFilter(coeffs, h, 1, hold='linear')
    f.reset(np.zeros(1))
    out = np.array([f.update([v])[:, 0] for v in y[1:]])
    out = np.vstack([np.zeros(len(coeffs)), out])
    for i in range(len(coeffs)):
        num = np.zeros(i + 1)
        num[0] = 1.0
        # lsim interpolates the input linearly between samples (first-order hold).
        _, ref, _ = signal.lsim((num, list(coeffs)), y - y[0] * 0, t, interp=True)
        assert np.allclose(out[:, i], ref, atol=1e-6 * max(1.0, np.abs(ref).max())), i


def test_zero_hold_is_exact_for_held_inputs_and_steady_state():
    """A held input is filtered exactly; a constant gives the static gain, zero derivatives."""
    h = 0.01
    f = StateVariableFilter(SEED003_REALTIME, h, 2, hold='zero')
    f.reset([1.0, -2.0])
    out = f.update([1.0, -2.0])
    assert np.allclose(out[0], [1.0, -2.0]) and np.allclose(out[1:], 0.0)
    steps = np.repeat([0.0, 1.0, -0.5, 2.0], 25)
    g = StateVariableFilter(SEED003_REALTIME, h, 1, hold='zero')
    g.reset([0.0])
    got = [g.update([u])[0, 0] for u in steps[1:]]
    a, b, c, d = signal.tf2ss([1.0], list(SEED003_REALTIME))
    ad, bd, cd, dd, _ = signal.cont2discrete((a, b, c, d), h, method='zoh')
    _, ref, _ = signal.dlsim((ad, bd, cd, dd, h), steps[1:])
    # update(u) means u was held over the sample that just ended: one sample ahead of dlsim.
    assert np.allclose(got[:-1], np.asarray(ref)[1:, 0], atol=1e-9)


def test_predict_and_unit_response_are_linear():
    """predict(u) = predict(0) + u * unit_response(); the state is not changed."""
    f = StateVariableFilter((1.0, 1.0), 0.01, 3, hold='zero')
    f.update([0.2, -0.1, 0.5])
    f.update([0.4, 0.0, 1.0])
    before = f.outputs().copy()
    u = np.array([2.0, -1.0, 0.5])
    assert np.allclose(f.predict(u), f.predict(np.zeros(3)) + np.outer(f.unit_response(), u))
    assert np.allclose(f.outputs(), before)
    expected = f.predict(u)
    assert np.allclose(f.update(u), expected)


def test_bad_filters_are_refused():
    """Unstable, degenerate or mis-sized filters raise input errors."""
    for coeffs in ((1.0,), (0.0, 1.0), (1.0, 0.0), (1.0, -1.0), (1.0, np.nan)):
        with pytest.raises(InputError):
            StateVariableFilter(coeffs, 0.01)
    with pytest.raises(InputError):
        StateVariableFilter((1.0, 1.0), 0.0)
    with pytest.raises(InputError):
        StateVariableFilter((1.0, 1.0), 0.01, hold='cubic')
    f = StateVariableFilter((1.0, 1.0), 0.01, 2)
    with pytest.raises(InputError):
        f.update([1.0])


# Varying sample time: velocity and acceleration from encoder positions (the driver's use).

def test_ramp_is_tracked_without_velocity_error():
    """Unit DC gain: a constant velocity is estimated exactly, acceleration zero."""
    f = StateVariableFilter.velocity_estimator(2, bandwidth=20.0)
    v = np.array([0.3, -1.7])
    for k in range(2000):
        p, qd, qdd = f.update(v * k * 1e-3, 1e-3)
    assert np.allclose(qd, v, rtol=1e-9)
    assert np.allclose(qdd, 0.0, atol=1e-9)
    # 2 zeta / w, less half a sample: each sample is held over the interval before it
    lag = 2 * 1.0 / (2 * math.pi * 20.0) - 0.5e-3
    assert np.allclose(p, v * (1999e-3 - lag), rtol=1e-6)


def test_sinusoid_matches_the_frequency_response():
    """Velocity of a sine: gain and phase of s w^2 / (s^2 + 2 zeta w s + w^2)."""
    fc, zeta, f0, h = 15.0, 0.7, 3.0, 1e-3
    filt = StateVariableFilter.velocity_estimator(1, bandwidth=fc, damping=zeta)
    w, w0 = 2 * math.pi * fc, 2 * math.pi * f0
    t = np.arange(0, 4.0, h)
    out = np.array([filt.update(np.array([math.sin(w0 * tk)]), h)[1][0] for tk in t])
    s = 1j * w0
    g = s * w * w / (s * s + 2 * zeta * w * s + w * w) * np.exp(s * h / 2)  # held sample
    g *= (1 - np.exp(-s * h)) / (s * h)  # mean over the sample interval
    expected = np.abs(g) * np.sin(w0 * t + np.angle(g))
    tail = t > 2.0
    assert np.max(np.abs(out[tail] - expected[tail])) < 2e-3 * w0


def test_estimates_are_interval_means():
    """Velocity times dt sums to the filtered displacement, even with irregular steps."""
    f = StateVariableFilter.velocity_estimator(1, bandwidth=30.0)
    rng = np.random.default_rng(0)
    moved, p0 = 0.0, None
    t = 0.0
    for k in range(500):
        dt = float(rng.choice([1e-3, 2e-3, 3e-3]))
        t += dt
        p, v, a = f.update(np.array([math.sin(3 * t)]), dt)
        if k == 100:
            p0 = p[0]
        if k > 100:
            moved += v[0] * dt
    assert moved == pytest.approx(p[0] - p0, abs=1e-12)


def test_gaps_reset_and_bad_parameters():
    """A long gap or a first sample restarts at rest; bad settings are refused."""
    f = StateVariableFilter.velocity_estimator(1, bandwidth=10.0, max_gap=0.1)
    f.update(np.array([0.0]), 0.0)
    f.update(np.array([0.1]), 0.01)
    p, v, a = f.update(np.array([5.0]), 1.0)
    assert p[0] == 5.0 and v[0] == 0.0 and a[0] == 0.0
    f.reset([2.0])
    p, v, _ = f.update(np.array([2.0]), 0.001)
    assert p[0] == pytest.approx(2.0) and v[0] == pytest.approx(0.0)
    for bad in (0.0, -1.0, math.nan):
        with pytest.raises(InputError):
            StateVariableFilter.velocity_estimator(1, bandwidth=bad)
    with pytest.raises(InputError):
        StateVariableFilter.velocity_estimator(1, damping=0.0)
    w = 2 * math.pi * 10.0
    assert f.coefficients == (1 / w ** 2, 2 / w, 1.0) and 'period=None' in repr(f)


def test_prepare_loads_the_update_and_leaves_the_state_alone():
    """A prepared filter gives the same outputs as one that was not; nothing starts."""
    from robodyn_ros.control import filters
    from robodyn_ros.control.jit import AVAILABLE
    a = StateVariableFilter.velocity_estimator(3, 30.0, 1.0)
    b = StateVariableFilter.velocity_estimator(3, 30.0, 1.0)
    before = a.state.copy()
    a.prepare(0.001)
    assert not a.started
    assert np.array_equal(a.state['x'], before['x'])
    if AVAILABLE:
        assert filters._call.signatures
    for k in range(20):
        u = np.array([0.1 * k, -0.2 * k, 0.01 * k * k])
        assert np.allclose(a.update(u, 0.001), b.update(u, 0.001), rtol=0, atol=1e-15)


def test_prepared_multiples_match_their_own_exponentials_and_need_none_later(monkeypatch):
    """prepare(dt, multiples): k dt up to max_gap, as expm gives them; no expm in a late cycle."""
    ready = StateVariableFilter.velocity_estimator(3, bandwidth=40.0, max_gap=0.05)
    ready.prepare(0.001, multiples=filters.CACHE_SIZE)
    assert sorted(ready._cache) == [k * 1_000_000 for k in range(1, 51)]   # within max_gap
    lazy = StateVariableFilter.velocity_estimator(3, bandwidth=40.0, max_gap=0.05)
    for k in (2, 7, 50):
        lazy._discretise(k * 0.001)
        for got, want in zip(ready._cache[k * 1_000_000], lazy._cache[k * 1_000_000]):
            np.testing.assert_allclose(got, want, rtol=0.0, atol=1e-12 * np.abs(want).max())
    rng = np.random.default_rng(4)
    signal_in = np.cumsum(rng.normal(0, 0.01, (40, 3)), axis=0)
    gaps = [0.001, 0.003, 0.001, 0.012, 0.05, 0.002] * 6
    twin = StateVariableFilter.velocity_estimator(3, bandwidth=40.0, max_gap=0.05)

    def no_expm(*args):
        raise AssertionError('a matrix exponential in a cycle')

    for u, dt in zip(signal_in, gaps):
        want = twin.update(u, dt)                 # discretises lazily with expm
        with monkeypatch.context() as patch:
            patch.setattr(filters, 'expm', no_expm)
            got = ready.update(u, dt)
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)
