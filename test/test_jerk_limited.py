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

"""Jerk-limited motion with ruckig: exact conversion, limits, waypoints, smooth stop."""

import importlib

import numpy as np
import pytest
from robodyn_ros.errors import InputError
from robodyn_ros.planning.errors import LimitError, RuckigError
from robodyn_ros.planning.jerk_limited import jerk_limited, ruckig_trajectory, smooth_stop
from robodyn_ros.planning.limits import PlanningLimits
import ruckig

LIM = PlanningLimits(['a', 'b', 'c'], lower=-5.0, upper=5.0, velocity=[1.0, 1.5, 0.8],
                     acceleration=[2.0, 3.0, 1.0], jerk=[10.0, 20.0, 5.0])


def _ruckig_reference(q0, v0, a0, goal):
    inp = ruckig.InputParameter(3)
    inp.current_position, inp.current_velocity = list(q0), list(v0)
    inp.current_acceleration, inp.target_position = list(a0), list(goal)
    inp.max_velocity, inp.max_acceleration = LIM.velocity.tolist(), LIM.acceleration.tolist()
    inp.max_jerk = LIM.jerk.tolist()
    traj = ruckig.Trajectory(3)
    ruckig.Ruckig(3).calculate(inp, traj)
    return traj


@pytest.mark.parametrize('v0, a0', [([0, 0, 0], [0, 0, 0]), ([1.6, -0.5, 0.2], [3.0, 0, 0])])
def test_matches_ruckig_evaluation(v0, a0):
    """Our piecewise cubics equal ruckig's own at_time, brake phase included."""
    goal = [1.0, -2.0, 0.4]
    traj = jerk_limited([[0, 0, 0], goal], LIM, v0, a0)
    ref = _ruckig_reference([0, 0, 0], v0, a0, goal)
    assert traj.duration == pytest.approx(ref.duration)
    t = np.linspace(0.0, ref.duration, 777)
    exp = np.array([np.array(ref.at_time(x)) for x in t])
    q, qd, qdd = traj.sample(t)
    assert np.allclose(q, exp[:, 0], atol=1e-12) and np.allclose(qd, exp[:, 1], atol=1e-12)
    assert np.allclose(qdd, exp[:, 2], atol=1e-11)
    assert np.allclose(traj.sample(traj.duration)[0], goal, atol=1e-12)


def test_limits_including_jerk():
    """Velocity, acceleration and jerk (from the cubic coefficients) stay within the limits."""
    pts = [[0, 0, 0], [1.0, -2.0, 0.4], [-0.5, 0.5, 0.4], [0.2, 0.0, -1.0]]
    traj = jerk_limited(pts, LIM)
    assert not traj.check_limits(LIM.lower, LIM.upper, LIM.velocity, LIM.acceleration,
                                 dt=1e-4, tol=1e-9)
    jerk = 6.0 * np.abs(traj.coefficients[:, :, 3]).max(axis=0)
    assert np.all(jerk <= LIM.jerk * (1 + 1e-9))
    assert np.any(np.isclose(jerk, LIM.jerk))
    breaks = traj.breaks
    q, qd, qdd = traj.sample(breaks)
    stops = [np.argmin(np.abs(q - np.array(p)).sum(axis=1)) for p in pts]
    assert np.allclose(q[stops], pts, atol=1e-12) and np.allclose(qd[stops], 0.0, atol=1e-12)


def test_minimum_durations():
    """A minimum duration longer than the optimum is met exactly."""
    traj = jerk_limited([[0, 0, 0], [0.5, 0.5, 0.5], [0, 0, 0]], LIM, min_durations=[4.0, 0.0])
    assert traj.sample(4.0)[0] == pytest.approx([0.5, 0.5, 0.5])
    fastest = jerk_limited([[0.5, 0.5, 0.5], [0, 0, 0]], LIM)
    assert traj.duration == pytest.approx(4.0 + fastest.duration)


def test_smooth_stop():
    """From a moving state to rest within the acceleration and jerk limits."""
    traj = smooth_stop([0.1, 0.2, 0.3], [0.9, -1.2, 0.5], [1.0, 0.0, -0.5], LIM)
    q, qd, qdd = traj.sample(traj.duration)
    assert np.allclose(qd, 0.0, atol=1e-12) and np.allclose(qdd, 0.0, atol=1e-12)
    start = traj.sample(0.0)
    assert np.allclose(start[1], [0.9, -1.2, 0.5]) and np.allclose(start[2], [1.0, 0.0, -0.5])
    assert not traj.check_limits(acceleration=LIM.acceleration, dt=1e-4, tol=1e-9)
    rest = smooth_stop([0.1, 0.2, 0.3], [0, 0, 0], [0, 0, 0], LIM)
    assert rest.duration == 0.0 and np.allclose(rest.sample(1.0)[0], [0.1, 0.2, 0.3])
    fast = smooth_stop([0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 0.0, 0.0], LIM)
    assert np.allclose(fast.sample(fast.duration)[1], 0.0, atol=1e-12)


def test_errors():
    """Infinite jerk, NaN, waypoints outside the range, refused inputs are reported."""
    with pytest.raises(LimitError, match="joint 'a': jerk limit inf is not finite"):
        jerk_limited([[0, 0, 0], [1, 1, 1]], LIM.with_values(jerk=np.inf))
    with pytest.raises(InputError, match="joint 'b' is nan"):
        jerk_limited([[0, 0, 0], [1, np.nan, 1]], LIM)
    with pytest.raises(LimitError, match="joint 'c': waypoint position 6 exceeds"):
        jerk_limited([[0, 0, 0], [1, 1, 6]], LIM)
    with pytest.raises(InputError, match='min_durations'):
        jerk_limited([[0, 0, 0], [1, 1, 1]], LIM, min_durations=[-1.0])
    with pytest.raises(LimitError, match='acceleration limit inf'):
        smooth_stop([0, 0, 0], [1, 0, 0], [0, 0, 0], LIM.with_values(acceleration=np.inf))
    module = importlib.import_module('robodyn_ros.planning.jerk_limited')
    inp = ruckig.InputParameter(1)
    inp.max_velocity, inp.max_acceleration, inp.max_jerk = [1.0], [-1.0], [1.0]
    inp.current_position, inp.target_position = [0.0], [1.0]
    with pytest.raises(RuckigError, match='ruckig refused the input'):
        module._calculate(inp, 1)


def test_conversion_of_zero_motion():
    """A motion of zero length converts to a constant trajectory."""
    inp = ruckig.InputParameter(1)
    inp.current_position, inp.target_position = [0.3], [0.3]
    inp.max_velocity, inp.max_acceleration, inp.max_jerk = [1.0], [1.0], [1.0]
    traj = ruckig.Trajectory(1)
    ruckig.Ruckig(1).calculate(inp, traj)
    out = ruckig_trajectory(traj, ['a'])
    assert out.duration == pytest.approx(0.0) and out.sample(0.0)[0][0] == pytest.approx(0.3)
