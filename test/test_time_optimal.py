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

"""Time-optimal parameterization: limits held (Pinocchio + friction), infeasible paths, speeds."""

import numpy as np
import pinocchio as pin
import pytest
from robodyn_ros.dynamics.tables import tables
from robodyn_ros.errors import InputError
from robodyn_ros.friction.models import velocity_friction
from robodyn_ros.model import load_robot
from robodyn_ros.pinocchio_bridge import PinocchioBridge
from robodyn_ros.planning.efforts import ModelEffortProvider, Payload
from robodyn_ros.planning.errors import InfeasibleError, StaticTorqueError
from robodyn_ros.planning.limits import PlanningLimits
from robodyn_ros.planning.planner import Planner, PlannerConfig
from robodyn_ros.planning.rest_stops import path_stops
from robodyn_ros.planning.smoothing import smooth_time_optimal
from robodyn_ros.planning.time_optimal import time_optimal, TimeOptimalSettings
from robodyn_ros.planning.via_points import via_points


def _waypoints(model, seed, count=5, share=0.3):
    rng = np.random.default_rng(seed)
    lo, hi = model.lower_limits, model.upper_limits
    mid = np.where(np.isfinite(lo + hi), (lo + hi) / 2.0, 0.0)
    return np.array([mid + share * (model.random_configuration(rng) - mid)
                     for _ in range(count)])


def _pin_torque(model, payload=None):
    """Pinocchio rnea (rotor inertia) of the model with payload, plus velocity friction."""
    loaded = payload.apply(model) if payload is not None else model
    bridge = PinocchioBridge(loaded)
    pm, data = bridge.pin_model, bridge.pin_data
    tab = tables(loaded)

    def torque(q, qd, qdd):
        rigid = np.array([bridge.from_v(pin.rnea(pm, data, bridge.q(a), bridge.v(b),
                                                 bridge.v(c))) for a, b, c in zip(q, qd, qdd)])
        return rigid + velocity_friction(tab, qd)
    return torque


@pytest.mark.parametrize('friction,mass', [(False, 0.0), (True, 0.0), (True, 2.0)])
def test_torque_limits_held_checked_with_pinocchio(friction, mass):
    """RX-90, velocity friction, tight torque limits: |tau| <= limit at 2,000 Pinocchio samples."""
    model = load_robot('rx90')
    payload = Payload(mass, (0.0, 0.0, 0.05))
    lim = PlanningLimits.from_model(model)
    provider = ModelEffortProvider(model, payload=payload, friction=friction)
    path = via_points(_waypoints(model, 4), limits=lim)
    q, qd, qdd = path.sample(np.linspace(0.0, path.duration, 400))
    static = np.abs(provider(q, 0 * qd, 0 * qdd)).max(axis=0)
    effort = static + 0.5 * (np.abs(provider(q, qd, qdd)).max(axis=0) - static) + 5.0
    res = time_optimal(path, lim, provider, effort_limits=effort)
    traj = res.trajectory
    t = np.linspace(0.0, traj.duration, 2000)
    tau = _pin_torque(model, payload)(*traj.sample(t))
    if not friction:
        tau = tau - velocity_friction(tables(payload.apply(model)), traj.sample(t)[1])
    assert np.max(np.abs(tau) / effort) <= 1.0 + 1e-3
    assert np.max(res.check.torque) > 0.97          # the torque limit is what binds
    _, qd2, qdd2 = traj.sample(t)
    assert np.all(np.abs(qd2) <= lim.velocity * (1 + 1e-6))
    assert np.all(np.abs(qdd2) <= lim.acceleration * (1 + 1e-6))
    assert np.allclose(traj.sample(0.0)[0], path.sample(0.0)[0])
    assert np.allclose(traj.sample(traj.duration)[0], path.sample(path.duration)[0])


def test_puma_load_friction_and_payload_limits_held():
    """PUMA 560 with bearing and transmission friction and 2 kg: the provider's torques hold."""
    model = load_robot('puma560')
    lim = PlanningLimits.from_model(model)
    provider = ModelEffortProvider(model, payload=Payload(2.0, (0.0, 0.0, 0.05)))
    path = via_points(_waypoints(model, 3), limits=lim)
    effort = lim.effort * 0.6
    res = time_optimal(path, lim, provider, effort_limits=effort)
    t = np.linspace(0.0, res.duration, 20001)
    tau = provider(*res.trajectory.sample(t))
    assert np.max(np.abs(tau) / effort) <= 1.0 + 1e-3
    assert res.check.worst <= 1.0 + 1e-6
    # Faster than the uniform stretch of the same path under the same limits.
    uniform = Planner(lim.with_values(effort=effort), PlannerConfig(
        time_parameterization='uniform'), provider).plan(path.sample(0.0)[0],
                                                         path.waypoints[1:])
    assert res.duration < uniform.duration


def test_static_torque_above_limit_is_refused():
    """Gravity above a limit: StaticTorqueError naming the joint and the path point."""
    model = load_robot('puma560')
    lim = PlanningLimits.from_model(model)
    provider = ModelEffortProvider(model)
    path = via_points(_waypoints(model, 3), limits=lim)
    effort = lim.effort.copy()
    effort[1] = 5.0
    with pytest.raises(StaticTorqueError) as err:
        time_optimal(path, lim, provider, effort_limits=effort)
    assert err.value.joint == 'joint2' and 'joint2' in str(err.value)
    assert 0.0 <= err.value.s <= path.duration and err.value.position.shape == (6,)
    assert abs(err.value.torque) > 5.0


def test_start_and_end_speeds():
    """A path started and ended at its own speed keeps it there; too fast a start is refused."""
    model = load_robot('rx90')
    lim = PlanningLimits.from_model(model)
    provider = ModelEffortProvider(model)
    v0 = lim.velocity * 0.2
    path = via_points(_waypoints(model, 6), limits=lim, start_velocity=v0)
    res = time_optimal(path, lim, provider, start_speed=1.0)
    assert np.allclose(res.trajectory.sample(0.0)[1], v0, rtol=1e-9, atol=1e-12)
    assert res.check.worst <= 1.0 + 1e-6
    moving_end = time_optimal(path, lim, provider, start_speed=1.0, end_speed=0.5)
    assert moving_end.trajectory.path_speed[-1] == pytest.approx(0.5)
    with pytest.raises(InfeasibleError):
        time_optimal(path, lim, provider, start_speed=20.0)


def test_smooth_variant_holds_limits_and_costs_time():
    """The smoothed law is continuous in acceleration, within limits, and a little longer."""
    model = load_robot('rx90')
    lim = PlanningLimits.from_model(model).with_values(
        jerk=PlanningLimits.from_model(model).acceleration * 10.0)
    provider = ModelEffortProvider(model)
    path = via_points(_waypoints(model, 4), limits=lim)
    res = time_optimal(path, lim, provider)
    sm = smooth_time_optimal(res.trajectory, lim, provider)
    assert sm.duration > res.duration and sm.cost == pytest.approx(
        sm.duration / res.duration - 1.0)
    assert sm.check.worst <= 1.0 + 1e-6
    t = np.linspace(0.0, sm.duration, 40001)
    qdd = sm.trajectory.sample(t)[2]
    # Continuous acceleration: neighbouring samples differ by a jerk-sized step only.
    assert np.max(np.abs(np.diff(qdd, axis=0))) < 0.05 * np.max(lim.acceleration)
    raw = res.trajectory.sample(np.linspace(0.0, res.duration, 40001))[2]
    assert np.max(np.abs(np.diff(raw, axis=0))) > np.max(np.abs(np.diff(qdd, axis=0)))


@pytest.mark.parametrize('field,value', [('grid', 1), ('discretization', 'midpoint'),
                                         ('margin', 1.0), ('check_samples', 1),
                                         ('tolerance', -1e-6), ('repairs', -1)])
def test_settings_are_checked(field, value):
    """A bad numerical setting is refused when the record is made, naming the field."""
    with pytest.raises(InputError, match=field):
        TimeOptimalSettings(**{field: value})


@pytest.mark.parametrize('discretization', ['interpolation', 'collocation'])
def test_settings_choose_grid_and_check(discretization):
    """The grid, the check samples and the discretization of the settings are the ones used."""
    model = load_robot('rx90')
    lim = PlanningLimits.from_model(model)
    path = via_points(_waypoints(model, 5), limits=lim)
    settings = TimeOptimalSettings(grid=60, discretization=discretization, check_samples=500,
                                   repairs=0)
    res = time_optimal(path, lim, settings=settings)
    assert res.grid.size == 60 and res.check.velocity_ratio.shape[0] == 500
    assert res.repairs == 0 and res.check.worst <= 1.0 + settings.tolerance
    default = time_optimal(path, lim)
    assert default.grid.size == TimeOptimalSettings().grid


def test_planner_config_uses_it():
    """PlannerConfig(time_parameterization=...) is validated and the optimal plan is shorter."""
    model = load_robot('puma560')
    lim = PlanningLimits.from_model(model)
    provider = ModelEffortProvider(model)
    pts = _waypoints(model, 3)
    plans = {m: Planner(lim, PlannerConfig(time_parameterization=m), provider).plan(
        pts[0], pts[1:]) for m in ('uniform', 'optimal', 'optimal_smooth')}
    assert plans['optimal'].duration < plans['uniform'].duration
    assert plans['optimal'].duration <= plans['optimal_smooth'].duration
    for plan in plans.values():
        assert np.all(np.abs(plan.velocities) <= lim.velocity * (1 + 1e-6))
        assert np.allclose(plan.positions[-1], pts[-1])
    with pytest.raises(Exception):
        PlannerConfig(time_parameterization='fastest')


def _fd_jerk_ratio(traj, jerk, count=100001):
    """Peak |jerk| / limit by finite differences of densely sampled accelerations."""
    t = np.linspace(0.0, traj.duration, count)
    qdd = traj.sample(t)[2]
    return np.max(np.abs(np.diff(qdd, axis=0)) / np.diff(t)[:, None] / jerk)


@pytest.mark.parametrize('robot,friction,seed,local', [
    ('puma560', False, 0, False), ('puma560', True, 1, True), ('puma560', False, 6, True),
    ('rx90', False, 2, True), ('rx90', True, 3, False), ('rx90', True, 7, True)])
def test_smooth_variant_holds_the_full_jerk(robot, friction, seed, local):
    """The jerk of the smoothed law, by finite differences of its accelerations, is held."""
    model = load_robot(robot)
    base = PlanningLimits.from_model(model)
    lim = base.with_values(jerk=base.acceleration * 10.0)
    provider = ModelEffortProvider(model, friction=friction)
    path = via_points(_waypoints(model, seed), limits=lim)
    effort = lim.effort * 0.8 if robot == 'puma560' else None
    res = time_optimal(path, lim, provider, effort_limits=effort)

    def resolve(cap):
        return time_optimal(path, lim, provider, effort_limits=effort, speed_cap=cap).trajectory
    sm = smooth_time_optimal(res.trajectory, lim, provider, effort,
                             resolve=resolve if local else None)
    assert _fd_jerk_ratio(sm.trajectory, lim.jerk) <= 1.0 + 1e-3
    assert np.max(sm.jerk_ratio) <= 1.0 + 1e-6 and sm.check.worst <= 1.0 + 1e-6
    t = np.linspace(0.0, sm.duration, 20001)
    _, qd, qdd = sm.trajectory.sample(t)
    assert np.all(np.abs(qd) <= lim.velocity * (1 + 1e-6))
    assert np.all(np.abs(qdd) <= lim.acceleration * (1 + 1e-6))
    assert np.allclose(sm.trajectory.sample(sm.duration)[0], path.sample(path.duration)[0])


def test_smooth_variant_holds_the_jerk_where_the_path_bends():
    """
    On a tight loop the curvature terms of the jerk alone exceed the limit; they are held too.

    The time-optimal law's jerk inside its stages has no path-acceleration jump
    (only ``3 q'' sd sdd + q''' sd^3``) and is over the limit here, so a
    window that spreads the jumps only cannot hold the jerk.
    """
    model = load_robot('rx90')
    base = PlanningLimits.from_model(model)
    lim = base.with_values(jerk=base.acceleration * 10.0)
    mid = np.zeros(model.n)
    angle = np.linspace(0.0, 2.0 * np.pi, 13)
    pts = np.tile(mid, (angle.size, 1))
    pts[:, 0] += 0.05 * np.sin(angle)
    pts[:, 1] += 0.05 * (1.0 - np.cos(angle))
    path = via_points(pts, limits=lim)
    res = time_optimal(path, lim)
    inside = res.trajectory.jerk(np.linspace(0.0, res.duration, 20001))
    assert np.max(np.abs(inside) / lim.jerk) > 2.0           # curvature terms dominate
    sm = smooth_time_optimal(res.trajectory, lim)
    assert _fd_jerk_ratio(sm.trajectory, lim.jerk) <= 1.0 + 1e-3
    assert sm.check.worst <= 1.0 + 1e-6
    # Lowering the speed where the loop bends costs less than stretching it all.
    local = smooth_time_optimal(res.trajectory, lim, resolve=lambda cap: time_optimal(
        path, lim, speed_cap=cap).trajectory)
    assert _fd_jerk_ratio(local.trajectory, lim.jerk) <= 1.0 + 1e-3
    assert local.check.worst <= 1.0 + 1e-6 and local.duration < sm.duration


def test_planner_optimal_smooth_holds_the_jerk():
    """The planner's optimal_smooth plan holds its (default) jerk limits, by finite differences."""
    model = load_robot('puma560')
    lim = PlanningLimits.from_model(model)
    provider = ModelEffortProvider(model)
    pts = _waypoints(model, 8)
    planner = Planner(lim, PlannerConfig(time_parameterization='optimal_smooth'), provider)
    plan = planner.plan(pts[0], pts[1:])
    assert _fd_jerk_ratio(plan.trajectory, planner.limits.jerk) <= 1.0 + 1e-3
    assert np.max(plan.scaling.jerk_ratio) <= 1.0 + 1e-6
    assert np.allclose(plan.positions[-1], pts[-1])


def test_trajectory_jerk_matches_finite_differences():
    """Trajectory.jerk of a spline, a time-optimal law and a smoothed law matches the samples."""
    model = load_robot('puma560')
    lim = PlanningLimits.from_model(model).with_values(
        jerk=PlanningLimits.from_model(model).acceleration * 10.0)
    path = via_points(_waypoints(model, 5), limits=lim)
    res = time_optimal(path, lim)
    sm = smooth_time_optimal(res.trajectory, lim)
    for traj in (path, sm.trajectory):
        t = np.linspace(0.0, traj.duration, 200001)
        fd = np.diff(traj.sample(t)[2], axis=0) / np.diff(t)[:, None]
        exact = traj.jerk(0.5 * (t[1:] + t[:-1]))
        scale = np.max(np.abs(exact), axis=0)
        # Away from the few jumps of a piecewise law, the two agree closely.
        assert np.median(np.abs(fd - exact) / scale) < 1e-6
        assert np.max(np.abs(fd - exact) / scale) < 0.5
    assert sm.trajectory.jerk(-1.0).shape == (model.n,)
    assert np.all(sm.trajectory.jerk(np.array([-1.0, sm.duration + 1.0])) == 0.0)


@pytest.mark.parametrize('robot,seed,repeat', [('puma560', 2, False), ('puma560', 5, True),
                                               ('rx90', 4, False), ('rx90', 1, True)])
def test_smooth_variant_stops_where_the_path_comes_back(robot, seed, repeat):
    """
    Reversals and a repeated waypoint: the jerk is held and the motion is not stretched absurdly.

    There ``|q'|`` nearly vanishes and the path turns back; the smoothed law
    stops there (each section is smoothed on its own) instead of carrying the
    speed of the window into the turn.
    """
    model = load_robot(robot)
    base = PlanningLimits.from_model(model)
    lim = base.with_values(jerk=base.acceleration * 10.0)
    provider = ModelEffortProvider(model)
    q0 = np.zeros(model.n)
    a = np.random.default_rng(seed).uniform(-0.5, 0.5, model.n)
    wps = np.array([a, a, -a] if repeat else [a, q0, a, q0 + 0.01])
    stops = path_stops(via_points(np.vstack([q0, wps]), limits=lim))
    assert stops.size == (1 if repeat else 3)
    plans = {m: Planner(lim, PlannerConfig(time_parameterization=m), provider).plan(q0, wps)
             for m in ('optimal', 'optimal_smooth')}
    smooth = plans['optimal_smooth']
    assert _fd_jerk_ratio(smooth.trajectory, lim.jerk) <= 1.0 + 1e-3
    assert np.max(smooth.scaling.jerk_ratio) <= 1.0 + 1e-6
    assert smooth.scaling.check.worst <= 1.0 + 1e-6
    assert smooth.duration <= 2.5 * plans['optimal'].duration
    assert np.allclose(smooth.positions[-1], wps[-1])
    for seed_r in range(3):
        assert path_stops(via_points(_waypoints(model, seed_r), limits=lim)).size == 0
