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

"""The state-variable filter against closed forms."""

import math

import numpy as np
import pytest
from robodyn_ros.errors import InputError
from robodyn_ros.hardware.velocity_filter import StateVariableFilter


def test_ramp_is_tracked_without_velocity_error():
    """Unit DC gain: a constant velocity is estimated exactly, acceleration zero."""
    f = StateVariableFilter(2, bandwidth=20.0)
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
    filt = StateVariableFilter(1, bandwidth=fc, damping=zeta)
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
    f = StateVariableFilter(1, bandwidth=30.0)
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
    f = StateVariableFilter(1, bandwidth=10.0, max_gap=0.1)
    f.update(np.array([0.0]), 0.0)
    f.update(np.array([0.1]), 0.01)
    p, v, a = f.update(np.array([5.0]), 1.0)
    assert p[0] == 5.0 and v[0] == 0.0 and a[0] == 0.0
    f.reset([2.0])
    p, v, _ = f.update(np.array([2.0]), 0.001)
    assert p[0] == pytest.approx(2.0) and v[0] == pytest.approx(0.0)
    for bad in (0.0, -1.0, math.nan):
        with pytest.raises(InputError):
            StateVariableFilter(1, bandwidth=bad)
    with pytest.raises(InputError):
        StateVariableFilter(1, damping=0.0)
    assert 'bandwidth=10' in repr(f)
