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

"""Minimum-jerk spline through via points: independent solve, continuity, limits, errors."""

from math import factorial

from hypothesis import given, settings, strategies as st
import numpy as np
import pytest
from robodyn_ros.errors import InputError
from robodyn_ros.model import load_robot
from robodyn_ros.planning.errors import InfeasibleError, LimitError
from robodyn_ros.planning.limits import PlanningLimits
from robodyn_ros.planning.polynomials import derivative, polyval
from robodyn_ros.planning.via_points import segment_peaks, via_points


def _row(order, t):
    """Row of d^order/dt^order of sum c_k t^k over k = 0..5."""
    return np.array([factorial(k) / factorial(k - order) * t ** (k - order) if k >= order
                     else 0.0 for k in range(6)])


def independent_min_jerk(points, h, v0, a0):
    """Monomial coefficients from the 6M conditions of the minimum-jerk spline (one joint)."""
    m = len(h)
    a = np.zeros((6 * m, 6 * m))
    b = np.zeros(6 * m)
    r = 0
    for s in range(m):
        a[r, 6 * s:6 * s + 6] = _row(0, 0.0)
        b[r] = points[s]
        a[r + 1, 6 * s:6 * s + 6] = _row(0, h[s])
        b[r + 1] = points[s + 1]
        r += 2
    a[r, 0:6], b[r] = _row(1, 0.0), v0
    a[r + 1, 0:6], b[r + 1] = _row(2, 0.0), a0
    a[r + 2, -6:], a[r + 3, -6:] = _row(1, h[-1]), _row(2, h[-1])
    r += 4
    for s in range(m - 1):
        for order in range(1, 5):
            a[r, 6 * s:6 * s + 6] = _row(order, h[s])
            a[r, 6 * s + 6:6 * s + 12] = -_row(order, 0.0)
            r += 1
    return np.linalg.solve(a, b).reshape(m, 6)


def test_matches_an_independent_solve():
    """The knot-state system gives the same spline as the full 6M coefficient system."""
    rng = np.random.default_rng(7)
    pts = rng.uniform(-1, 1, (6, 3))
    h = rng.uniform(0.3, 2.0, 5)
    v0, a0 = rng.normal(size=3), rng.normal(size=3)
    traj = via_points(pts, h, start_velocity=v0, start_acceleration=a0)
    for j in range(3):
        ref = independent_min_jerk(pts[:, j], h, v0[j], a0[j])
        assert np.allclose(traj.coefficients[:, j, :], ref, atol=1e-9)


def test_continuity_and_waypoints():
    """Waypoints are hit at the breaks; derivatives up to snap are continuous; rest at the end."""
    rng = np.random.default_rng(8)
    pts = rng.uniform(-1, 1, (5, 2))
    traj = via_points(pts, [1.0, 0.5, 2.0, 1.0])
    assert np.allclose(traj.sample(traj.breaks)[0], pts, atol=1e-12)
    c, h = traj.coefficients, np.diff(traj.breaks)
    for order in range(5):
        for s in range(3):
            assert np.allclose(polyval(c[s], h[s]), polyval(c[s + 1], 0.0), atol=1e-9)
        c = derivative(c)
    q, qd, qdd = traj.sample(np.array([0.0, traj.duration]))
    assert np.allclose(qd, 0.0, atol=1e-12) and np.allclose(qdd, 0.0, atol=1e-9)
    assert np.allclose(traj.knot_velocities[[0, -1]], 0.0)
    assert np.array_equal(traj.sample(traj.duration + 1.0)[0], pts[-1])


@pytest.mark.parametrize('robot', ['puma560', 'rx90', 'stanford'])
def test_chosen_times_reach_and_respect_limits(robot):
    """Chosen times: no joint exceeds its limits and one limit is reached exactly."""
    model = load_robot(robot)
    lim = PlanningLimits.from_model(model)
    rng = np.random.default_rng(9)
    mid = (np.where(np.isfinite(lim.lower), lim.lower, -1) +
           np.where(np.isfinite(lim.upper), lim.upper, 1)) / 2
    pts = mid + 0.15 * (lim.upper - lim.lower) * rng.uniform(-1, 1, (5, model.n))
    traj = via_points(pts, limits=lim)
    pv, pa = segment_peaks(traj)
    rv, ra = pv.max(axis=0) / lim.velocity, pa.max(axis=0) / lim.acceleration
    assert np.all(rv <= 1 + 1e-9) and np.all(ra <= 1 + 1e-9)
    assert max(rv.max(), np.sqrt(ra.max())) == pytest.approx(1.0, abs=1e-6)
    assert not traj.check_limits(lim.lower, lim.upper, lim.velocity, lim.acceleration,
                                 dt=traj.duration / 20000, tol=1e-7)


def test_moving_start():
    """A moving start state is honoured and the limits still hold."""
    lim = PlanningLimits(['a', 'b'], velocity=[1.0, 2.0], acceleration=[3.0, 3.0])
    traj = via_points([[0.0, 0.0], [0.5, 0.5], [1.0, 0.0]], limits=lim,
                      start_velocity=[0.8, -1.0], start_acceleration=[0.5, 0.0])
    q, qd, qdd = traj.sample(0.0)
    assert np.allclose(qd, [0.8, -1.0]) and np.allclose(qdd, [0.5, 0.0])
    assert not traj.check_limits(velocity=lim.velocity, acceleration=lim.acceleration,
                                 dt=1e-4, tol=1e-7)
    with pytest.raises(LimitError, match="joint 'b': start velocity 2.5"):
        via_points([[0.0, 0.0], [1.0, 1.0]], limits=lim, start_velocity=[0.0, 2.5])


def test_errors_are_named():
    """Waypoints outside the range, overshoot between waypoints, bad times, no limits."""
    lim = PlanningLimits(['a'], lower=[-1.0], upper=[1.0], velocity=[1.0], acceleration=[1.0])
    with pytest.raises(LimitError) as info:
        via_points([[0.0], [1.2]], limits=lim)
    assert (info.value.joint, info.value.value, info.value.bound) == ('a', 1.2, 1.0)
    assert 'waypoint 1' in str(info.value)
    with pytest.raises(LimitError, match=r"joint 'a': position [\d.]+ exceeds the upper limit 1 "
                                         r'\(at t = '):
        via_points([[0.0], [0.99], [0.0]], [0.2, 5.0], limits=lim)
    with pytest.raises(InputError, match='segment 1 lasts -1'):
        via_points([[0.0], [0.5], [0.0]], [1.0, -1.0])
    with pytest.raises(InputError, match="waypoints\\[1\\]: joint 'j0' is nan"):
        via_points([[0.0], [np.nan]], [1.0])
    with pytest.raises(InputError, match='expected shape'):
        via_points([0.0, 1.0], [1.0])
    with pytest.raises(InfeasibleError, match='finite velocity or acceleration'):
        via_points([[0.0], [0.5]])


@settings(max_examples=40, deadline=None)
@given(pts=st.lists(st.lists(st.floats(-2.0, 2.0), min_size=2, max_size=2), min_size=2,
                    max_size=6),
       kv=st.floats(0.2, 4.0), ka=st.floats(0.5, 20.0))
def test_spline_properties(pts, kv, ka):
    """Through every waypoint, at rest at both ends, within the limits, one limit reached."""
    pts = np.array(pts)
    lim = PlanningLimits(['a', 'b'], velocity=[kv, 2 * kv], acceleration=[ka, ka / 2])
    traj = via_points(pts, limits=lim)
    assert np.allclose(traj.sample(traj.breaks)[0], pts, atol=1e-9)
    pv, pa = segment_peaks(traj)
    ratio = max((pv.max(axis=0) / lim.velocity).max(),
                np.sqrt((pa.max(axis=0) / lim.acceleration).max()))
    assert ratio <= 1 + 1e-9
    # Moves of a micrometre or less may end on the planner's minimum segment time
    # rather than on a limit.
    assert ratio == pytest.approx(1.0, abs=1e-6) or np.ptp(pts, axis=0).max() < 1e-6
