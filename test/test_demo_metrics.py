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

"""Tracking-error and rate statistics of the demo against closed forms."""

import numpy as np
import pytest
from robodyn_ros.demo.metrics import (error_stats, moving_median, rate_stats, reference_at,
                                      settle_value, tracking_errors)
from robodyn_ros.demo.store import Plan


def _cubic_plan(stamp=100.0, dt=0.01, duration=2.0):
    # q(t) = a t^3 + b t^2 per joint: Hermite interpolation reproduces it exactly
    a, b = np.array([0.3, -0.2]), np.array([-0.1, 0.5])
    t = np.arange(0.0, duration + 1e-12, dt)
    q = a * t[:, None] ** 3 + b * t[:, None] ** 2
    qd = 3 * a * t[:, None] ** 2 + 2 * b * t[:, None]
    return Plan(stamp, stamp, t, q, qd), (a, b)


def test_reference_is_exact_for_cubics_and_holds_the_ends():
    """Hermite sampling reproduces a cubic between points and clamps outside the plan."""
    plan, (a, b) = _cubic_plan()
    t = plan.stamp + np.random.default_rng(1).uniform(0.0, 2.0, 200)
    rel = t - plan.stamp
    expected = a * rel[:, None] ** 3 + b * rel[:, None] ** 2
    assert np.allclose(reference_at(plan, t), expected, atol=1e-12)
    assert np.allclose(reference_at(plan, [plan.stamp - 5.0]), plan.positions[0])
    assert np.allclose(reference_at(plan, [plan.end + 5.0]), plan.positions[-1])


def test_reference_without_velocities_is_linear():
    """Plans without velocities are interpolated linearly."""
    t = np.array([0.0, 1.0, 3.0])
    plan = Plan(10.0, 10.0, t, np.array([[0.0], [1.0], [-1.0]]), None)
    got = reference_at(plan, [10.5, 12.0, 13.0])
    assert np.allclose(got[:, 0], [0.5, 0.0, -1.0])


def test_single_point_plan_is_constant():
    """A one-point plan is a hold."""
    plan = Plan(0.0, 0.0, np.zeros(1), np.array([[0.2, 0.3]]), np.zeros((1, 2)))
    assert np.allclose(reference_at(plan, [-1.0, 0.0, 4.0]), [[0.2, 0.3]] * 3)


def test_tracking_error_and_stats():
    """Errors are reference minus measurement; max and RMS per joint."""
    plan, (a, b) = _cubic_plan()
    stamps = plan.stamp + np.linspace(0.0, 2.0, 101)
    rel = stamps - plan.stamp
    exact = a * rel[:, None] ** 3 + b * rel[:, None] ** 2
    injected = np.array([0.01, -0.02]) * np.sin(np.linspace(0, 4 * np.pi, 101))[:, None]
    err = tracking_errors(plan, stamps, exact - injected)
    assert np.allclose(err, injected, atol=1e-12)
    stats = error_stats(err, stamps)
    assert stats.samples == 101 and stats.duration == pytest.approx(2.0)
    assert np.allclose(stats.max_abs, np.abs(injected).max(axis=0))
    assert np.allclose(stats.rms, np.sqrt(np.mean(injected ** 2, axis=0)))
    empty = error_stats(tracking_errors(plan, np.zeros(0), np.zeros((0, 2))), np.zeros(0))
    assert empty.samples == 0 and all(np.isnan(empty.max_abs)) and len(empty.rms) == 2


def test_rate_stats():
    """Rate and inter-arrival percentiles of a jittered stream."""
    rng = np.random.default_rng(0)
    t = np.cumsum(np.full(1001, 0.002) + rng.normal(0.0, 1e-5, 1001))
    st = rate_stats(t[::-1])  # order does not matter
    assert st.count == 1001
    assert st.rate_hz == pytest.approx(1000.0 / (t[-1] - t[0]))
    assert st.period_p50_ms == pytest.approx(2.0, abs=0.01)
    assert st.period_max_ms >= st.period_p99_ms >= st.period_p50_ms
    assert np.isnan(rate_stats([1.0]).rate_hz) and rate_stats([]).count == 0


def test_settle_value():
    """Mean over the last window; NaN without data."""
    t = np.linspace(0.0, 10.0, 101)
    v = np.where(t < 9.0, 0.0, 2.0)
    assert settle_value(t, v, 0.95) == pytest.approx(2.0)
    assert np.isnan(settle_value([], [], 1.0))


def test_moving_median():
    """Median inside the window only; NaN when the window is empty."""
    t = np.arange(10.0)
    v = np.array([100.0, 1.0, 2.0, 3.0, 50.0, 4.0, 5.0, 6.0, 7.0, -100.0])
    assert moving_median(t, v, 1.0, 8.0) == pytest.approx(4.5)
    assert np.isnan(moving_median(t, v, 20.0, 30.0))
