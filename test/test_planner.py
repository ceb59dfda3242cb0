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

"""The planning pipeline: every profile, time scaling, efforts, stops and refusals."""

import tracemalloc

import numpy as np
import pytest
from robodyn_ros.errors import InputError
from robodyn_ros.model import load_robot
from robodyn_ros.planning.efforts import ModelEffortProvider, Payload
from robodyn_ros.planning.errors import (InfeasibleError, LimitError, PlanningCancelled,
                                         TooLargeError)
from robodyn_ros.planning.limits import PlanningLimits
from robodyn_ros.planning.planner import exact_peaks, Planner, PlannerConfig, PROFILES


@pytest.fixture(scope='module')
def puma():
    """PUMA 560, its limits, an effort provider with a 1 kg payload and waypoints."""
    model = load_robot('puma560')
    lim = PlanningLimits.from_model(model)
    provider = ModelEffortProvider(model, payload=Payload(1.0))
    rng = np.random.default_rng(21)
    pts = np.array([model.random_configuration(rng) * 0.25 for _ in range(4)])
    return model, lim, provider, pts


@pytest.mark.parametrize('profile', PROFILES)
def test_every_profile_plans_within_limits(profile, puma):
    """Each profile reaches the goal through the waypoints, within every limit, with efforts."""
    model, lim, provider, pts = puma
    planner = Planner(lim, PlannerConfig(profile=profile, sample_period=0.02), provider)
    plan = planner.plan(pts[0], pts[1:])
    traj = plan.trajectory
    assert plan.profile == profile and plan.duration == pytest.approx(traj.duration)
    assert np.allclose(plan.positions[-1], pts[-1], atol=1e-9)
    assert np.allclose(plan.positions[0], pts[0], atol=1e-12)
    q, qd, qdd = traj.sample(plan.times)
    assert np.allclose(plan.positions, q) and np.allclose(plan.velocities, qd)
    assert np.allclose(plan.efforts, provider(q, qd, qdd))
    assert np.all(np.diff(plan.times) <= 0.02 + 1e-12)
    pv, pa = exact_peaks(traj)
    assert np.all(pv <= lim.velocity * (1 + 1e-6))
    if profile != 'linear':
        assert np.all(pa <= lim.acceleration * (1 + 1e-6))
    if plan.scaling is not None and profile != 'linear':
        t = np.linspace(0.0, traj.duration, 3001)
        assert np.max(np.abs(provider(*traj.sample(t))) / lim.effort) <= 1.0


def test_time_scaling_and_reserve(puma):
    """Tighter effort limits slow the plan; the reserve is kept free."""
    model, lim, provider, pts = puma
    tight = lim.with_values(effort=lim.effort * 0.8)
    planner = Planner(tight, PlannerConfig(effort_reserve=0.1, time_parameterization='uniform'),
                      provider)
    plan = planner.plan(pts[0], pts[1:])
    assert plan.scaling.factor > 1.0
    t = np.linspace(0.0, plan.duration, 4001)
    tau = provider(*plan.trajectory.sample(t))
    assert np.max(np.abs(tau) / (tight.effort * 0.9)) <= 1.0
    off = Planner(tight, PlannerConfig(time_scaling=False, time_parameterization='uniform'),
                  provider).plan(pts[0], pts[1:])
    assert off.scaling is None and off.duration < plan.duration


def test_given_times_and_moving_start(puma):
    """Given segment times are used; a moving start needs spline or ruckig."""
    model, lim, provider, pts = puma
    planner = Planner(lim, PlannerConfig(profile='spline', time_scaling=False), provider)
    plan = planner.plan(pts[0], pts[1:], durations=[2.0, 1.5, 2.5])
    assert plan.duration == pytest.approx(6.0)
    assert np.allclose(plan.trajectory.sample([2.0, 3.5])[0], pts[1:3])
    v0 = lim.velocity * 0.3
    moving = planner.plan(pts[0], pts[1:], start_velocity=v0)
    assert np.allclose(moving.velocities[0], v0)
    ruck = Planner(lim, PlannerConfig(profile='ruckig'), provider).plan(
        pts[0], pts[1:2], start_velocity=v0, start_acceleration=np.zeros(6))
    assert np.allclose(ruck.velocities[0], v0)
    with pytest.raises(InfeasibleError, match="profile 'trapezoid' starts at rest but joint"):
        Planner(lim, PlannerConfig(profile='trapezoid')).plan(pts[0], pts[1:],
                                                              start_velocity=v0)
    with pytest.raises(LimitError, match=r'peak velocity .* \(with the given times\)'):
        planner.plan(pts[0], pts[1:], durations=[0.05, 0.05, 0.05])


def test_refusals(puma):
    """Goals out of range name the goal point; NaN, shapes and profile demands are checked."""
    model, lim, provider, pts = puma
    planner = Planner(lim, PlannerConfig(), provider)
    bad = pts[1:].copy()
    bad[1, 2] = 10.0
    with pytest.raises(LimitError) as info:
        planner.plan(pts[0], bad)
    assert info.value.joint == 'joint3' and 'point 1' in str(info.value)
    bad[1, 2] = np.nan
    with pytest.raises(InputError, match="waypoint 1: joint 'joint3' is nan"):
        planner.plan(pts[0], bad)
    with pytest.raises(InputError, match='expected shape'):
        planner.plan(pts[0], pts[1:, :5])
    with pytest.raises(InputError, match='durations'):
        planner.plan(pts[0], pts[1:], durations=[1.0, 1.0])
    with pytest.raises(InputError, match='needs exactly 3 waypoints'):
        Planner(lim, PlannerConfig(profile='three_five_three')).plan(pts[0], pts[1:3])
    with pytest.raises(InputError, match='unknown profile'):
        PlannerConfig(profile='magic')
    with pytest.raises(InputError, match='sample_period'):
        PlannerConfig(sample_period=0.0)


@pytest.mark.parametrize('profile', PROFILES)
def test_goal_at_the_start(profile, puma):
    """A goal equal to the start gives a (near) zero-length plan that holds the start."""
    model, lim, provider, pts = puma
    count = 3 if profile in ('three_five_three', 'quintic_linear_quintic') else 1
    plan = Planner(lim, PlannerConfig(profile=profile), provider).plan(
        pts[0], np.tile(pts[0], (count, 1)))
    assert plan.duration <= 3e-3 and np.allclose(plan.positions, pts[0])
    assert np.allclose(plan.velocities, 0.0)


def test_stop(puma):
    """A stop from a moving state ends at rest within the acceleration limits."""
    model, lim, provider, pts = puma
    planner = Planner(lim, PlannerConfig(), provider)
    plan = planner.stop(pts[0], lim.velocity * 0.5, np.zeros(6))
    assert np.allclose(plan.velocities[-1], 0.0, atol=1e-12)
    assert np.allclose(plan.velocities[0], lim.velocity * 0.5)
    assert np.all(np.abs(plan.accelerations) <= lim.acceleration * (1 + 1e-9))
    assert plan.efforts is not None and plan.profile == 'stop'
    hold = planner.stop(pts[0], np.zeros(6), np.zeros(6))
    assert hold.duration == 0.0 and np.allclose(hold.positions, pts[0])


def test_joint_subset_of_a_larger_robot():
    """Panda arm joints only (fingers held): plan, scaling and efforts over 7 joints."""
    model = load_robot('panda')
    arm = model.joint_names[:7]
    lim = PlanningLimits.from_model(model, arm, acceleration=5.0)
    fixed = np.zeros(model.n)
    fixed[3] = -1.5
    provider = ModelEffortProvider(model, arm, fixed_positions=fixed)
    planner = Planner(lim, PlannerConfig(profile='trapezoid_c2'), provider)
    start = np.array([0.0, 0.0, 0.0, -1.5, 0.0, 1.5, 0.0])
    plan = planner.plan(start, [start + 0.3])
    assert plan.positions.shape[1] == 7 and plan.efforts.shape[1] == 7
    assert np.allclose(plan.positions[-1], start + 0.3)


def _dense_path(model, count, seed=0):
    """Waypoints along a smooth closed curve within 40 % of each range around the middle."""
    mid = model.home_configuration(1.0)
    s = np.linspace(0.0, 1.0, count + 1)[1:]
    rng = np.random.default_rng(seed)
    return mid, mid + 0.4 * np.sin(2 * np.pi * np.outer(s, rng.uniform(0.5, 3.0, model.n)))


def test_goal_bounds_refused_with_their_names(puma):
    """Too many waypoints or too long a motion: refused, naming max_waypoints / max_duration."""
    model, lim, provider, pts = puma
    planner = Planner(lim, PlannerConfig(max_waypoints=3, max_duration=5.0), provider)
    with pytest.raises(TooLargeError, match='max_waypoints = 3'):
        planner.plan(pts[0], np.vstack([pts[1:], pts[1:]]))
    with pytest.raises(TooLargeError, match='max_duration = 5 s'):
        planner.plan(pts[0], pts[1:], durations=[1.0, 1.0, 1e5])
    far = Planner(lim, PlannerConfig(max_duration=0.05), provider)
    with pytest.raises(TooLargeError, match='max_duration'):   # timed by the planner
        far.plan(pts[0], pts[1:])
    for bad in ({'max_waypoints': 0}, {'max_duration': float('inf')}, {'max_duration': -1.0}):
        with pytest.raises(InputError):
            PlannerConfig(**bad)


@pytest.mark.parametrize('timing', ['uniform', 'optimal'])
def test_samples_never_exceed_the_bound(timing, puma):
    """Whatever the motion, a plan has at most max_duration / sample_period + 2 samples."""
    model, lim, provider, pts = puma
    config = PlannerConfig(sample_period=0.05, max_duration=3.0, time_parameterization=timing)
    planner = Planner(lim, config, provider)
    for scale in (0.2, 0.6, 1.0):
        try:
            plan = planner.plan(pts[0] * scale, pts[1:] * scale)
        except TooLargeError:
            continue
        assert len(plan.times) <= config.max_samples == 62 and plan.duration <= 3.0
    plan = planner.plan(pts[0], pts[1:], durations=[1.0, 1.0, 1.0])
    assert len(plan.times) <= config.max_samples and plan.duration == pytest.approx(3.0)


def test_cancel_stops_planning_between_stages(puma):
    """A cancel callback that turns true stops the planner with PlanningCancelled."""
    model, lim, provider, pts = puma
    planner = Planner(lim, PlannerConfig(), provider)
    asked = []

    def cancel_on_second_ask():
        asked.append(1)
        return len(asked) >= 2
    with pytest.raises(PlanningCancelled):
        planner.plan(pts[0], pts[1:], cancel=cancel_on_second_ask)
    assert len(asked) == 2
    plan = planner.plan(pts[0], pts[1:], cancel=lambda: False)
    assert np.allclose(plan.positions[-1], pts[-1], atol=1e-9)


@pytest.mark.parametrize('timing', ['uniform', 'optimal'])
def test_memory_grows_linearly_with_waypoints(timing):
    """Peak memory of a plan of 4 x the waypoints stays near 4 x (a dense solve would be 16 x)."""
    model = load_robot('puma560')
    lim = PlanningLimits.from_model(model)
    config = PlannerConfig(time_parameterization=timing, max_duration=1e4, sample_period=1.0)
    planner = Planner(lim, config, ModelEffortProvider(model))      # few samples: the path
    peaks = []
    for count in (400, 1600):
        start, pts = _dense_path(model, count)
        planner.plan(start, pts)                   # compiled parts loaded before measuring
        tracemalloc.start()
        plan = planner.plan(start, pts)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        assert np.allclose(plan.positions[-1], pts[-1], atol=1e-9)
    assert peaks[1] < 6.0 * peaks[0], peaks
