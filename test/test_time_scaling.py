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

"""Torque-limited time scaling: within limits on a dense grid, Pinocchio check, refusals."""

import numpy as np
import pinocchio as pin
import pytest
from robodyn_ros.errors import InputError
from robodyn_ros.model import load_robot
from robodyn_ros.pinocchio_bridge import PinocchioBridge
from robodyn_ros.planning.efforts import ModelEffortProvider, Payload
from robodyn_ros.planning.errors import LimitError
from robodyn_ros.planning.limits import PlanningLimits
from robodyn_ros.planning.point_to_point import point_to_point
from robodyn_ros.planning.time_scaling import TimeScaledTrajectory, torque_limited_scaling
from robodyn_ros.planning.via_points import via_points


def _waypoints(model, seed, count=5, share=0.3):
    rng = np.random.default_rng(seed)
    lo, hi = model.lower_limits, model.upper_limits
    mid = np.where(np.isfinite(lo + hi), (lo + hi) / 2.0, 0.0)
    return np.array([mid + share * (model.random_configuration(rng) - mid)
                     for _ in range(count)])


def test_time_scaled_trajectory_semantics():
    """Sampling at t gives the path at t / c with velocities / c and accelerations / c^2."""
    path = point_to_point([0.0, 1.0], [1.0, -1.0], 'quintic', duration=2.0)
    scaled = TimeScaledTrajectory(path, 2.5)
    assert scaled.duration == pytest.approx(5.0) and scaled.factor == 2.5
    t = np.linspace(0, 5, 11)
    q, qd, qdd = scaled.sample(t)
    p, pd, pdd = path.sample(t / 2.5)
    assert np.allclose(q, p) and np.allclose(qd, pd / 2.5) and np.allclose(qdd, pdd / 6.25)
    with pytest.raises(InputError):
        TimeScaledTrajectory(path, 0.0)


@pytest.mark.parametrize('share', [0.75, 0.55])
def test_puma_with_friction_and_payload_stays_within_limits(share):
    """PUMA 560 (Coulomb, viscous, Stribeck, seed-004 load friction) with 2 kg: |tau| <= limit."""
    model = load_robot('puma560')
    lim = PlanningLimits.from_model(model)
    provider = ModelEffortProvider(model, payload=Payload(2.0, (0.0, 0.0, 0.05)))
    path = via_points(_waypoints(model, 3), limits=lim)
    limits = lim.effort * share
    res = torque_limited_scaling(path, limits, provider)
    assert res.factor > 1.0 and res.peak_ratio_before > 1.0
    assert res.peak_ratio_after <= 1.0 and res.peak_ratio_after >= 1.0 - 3e-3
    t = np.linspace(0.0, res.trajectory.duration, 20001)
    tau = provider(*res.trajectory.sample(t))
    assert np.max(np.abs(tau) / limits) <= 1.0
    assert res.trajectory.duration == pytest.approx(res.factor * path.duration)
    # The ratio before is what the provider gives on the unscaled path.
    before = provider(*path.sample(np.linspace(0, path.duration, 4001)))
    assert res.peak_ratio_before == pytest.approx(np.max(np.abs(before) / limits), rel=2e-3)


def test_friction_peaks_at_zero_crossings_are_caught():
    """Stiction near zero speed (start, end, reversals) would break the limit without probes."""
    model = load_robot('puma560')
    lim = PlanningLimits.from_model(model)
    provider = ModelEffortProvider(model)
    path = via_points(_waypoints(model, 5), limits=lim)
    limits = lim.effort * 0.5
    res = torque_limited_scaling(path, limits, provider)
    traj = res.trajectory
    t = np.linspace(0.0, traj.duration, 20001)
    qd = traj.sample(t)[1]
    step = t[1]
    # Fine windows around the ends and every velocity sign change of every joint.
    centres = [0.0, traj.duration] + [t[k] for k in np.flatnonzero(
        np.any(np.sign(qd[1:]) != np.sign(qd[:-1]), axis=1))]
    fine = np.concatenate([np.linspace(c - 2 * step, c + 2 * step, 801) for c in centres])
    fine = np.clip(fine, 0.0, traj.duration)
    tau = provider(*traj.sample(np.concatenate([t, fine])))
    assert np.max(np.abs(tau) / limits) <= 1.0
    # Without the probes the even grid misses the stiction peaks near zero speed.
    grid_only = provider(*traj.sample(np.linspace(0.0, traj.duration, 201)))
    assert np.max(np.abs(grid_only) / limits) < np.max(np.abs(tau) / limits)


def test_closed_form_against_pinocchio_without_friction():
    """No friction: tau(c) = g + (tau(1) - g) / c^2 exactly, checked with Pinocchio's rnea."""
    model = load_robot('stanford')
    lim = PlanningLimits.from_model(model)
    bridge = PinocchioBridge(model)
    pm, data = bridge.pin_model, bridge.pin_data

    def pin_effort(q, qd, qdd):
        return np.array([bridge.from_v(pin.rnea(pm, data, bridge.q(a), bridge.v(b), bridge.v(c)))
                         for a, b, c in zip(q, qd, qdd)])

    path = via_points(_waypoints(model, 8, 4, 0.4), limits=lim)
    q, qd, qdd = path.sample(np.linspace(0.0, path.duration, 2001))
    static = np.abs(pin_effort(q, 0 * qd, 0 * qdd)).max(axis=0)
    full = np.abs(pin_effort(q, qd, qdd)).max(axis=0)
    limits = static + 0.5 * (full - static) + 1e-3     # needs slowing, feasible
    res = torque_limited_scaling(path, limits, pin_effort, margin=1e-3)
    assert res.factor > 1.0 and 1.0 - 3e-3 <= res.peak_ratio_after <= 1.0
    t = np.linspace(0.0, res.trajectory.duration, 5001)
    tau = pin_effort(*res.trajectory.sample(t))
    assert np.max(np.abs(tau) / limits) <= 1.0
    # Hollerbach's split, independently: tau(c) = g + (tau(1) - g) / c^2 at matching points.
    c = res.factor
    qp, qdp, qddp = path.sample(t / c)
    g = pin_effort(qp, 0 * qdp, 0 * qddp)
    assert np.allclose(tau, g + (pin_effort(qp, qdp, qddp) - g) / c ** 2, atol=1e-9)
    ours = ModelEffortProvider(model, friction=False)
    assert np.allclose(ours(*res.trajectory.sample(t[:50])), tau[:50], atol=1e-9)


def test_no_scaling_needed_and_speedup():
    """Within limits the path is returned as is; allow_speedup shortens it to the limit."""
    model = load_robot('rx90')
    lim = PlanningLimits.from_model(model)
    provider = ModelEffortProvider(model)
    path = via_points(_waypoints(model, 9), limits=lim.with_values(
        velocity=lim.velocity * 0.2, acceleration=lim.acceleration * 0.05))
    res = torque_limited_scaling(path, lim.effort, provider)
    assert res.factor == 1.0 and res.trajectory is path
    assert np.array_equal(res.ratio_before, res.ratio_after)
    fast = torque_limited_scaling(path, lim.effort, provider, allow_speedup=True)
    assert fast.factor < 1.0 and 1.0 - 3e-3 <= fast.peak_ratio_after <= 1.0
    bounded = torque_limited_scaling(path, lim.effort, provider, allow_speedup=True,
                                     velocity=lim.velocity * 0.2)
    assert bounded.factor == pytest.approx(1.0, abs=1e-6) or bounded.factor >= fast.factor


def test_refusals():
    """Gravity above a limit cannot be fixed by slowing down; limits must be positive."""
    model = load_robot('puma560')
    lim = PlanningLimits.from_model(model)
    provider = ModelEffortProvider(model, payload=Payload(5.0))
    path = via_points(_waypoints(model, 3), limits=lim)
    with pytest.raises(LimitError) as info:
        torque_limited_scaling(path, lim.effort * 0.1, provider)
    err = info.value
    j = model.joint_index(err.joint)
    assert abs(err.value) > err.bound == pytest.approx(lim.effort[j] * 0.1 * (1 - 1e-3))
    assert 'static torque' in str(err)
    assert 'no time scaling can help' in str(info.value)
    with pytest.raises(LimitError, match="joint 'joint4': effort limit -1"):
        torque_limited_scaling(path, [1, 1, 1, -1, 1, 1], provider)
    with pytest.raises(LimitError, match='effort limit nan'):
        torque_limited_scaling(path, [np.nan] * 6, provider)
    with pytest.raises(InputError, match='margin'):
        torque_limited_scaling(path, lim.effort, provider, margin=1.0)
