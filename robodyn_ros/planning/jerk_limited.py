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

"""
Jerk-limited, time-optimal motion with the ``ruckig`` library.

Ruckig (community version, run locally) computes the time-optimal
third-order motion from any start state to a target state under velocity,
acceleration and jerk limits, all joints synchronised in time. Its
profiles are piecewise cubics (a brake phase when the start state breaks a
limit, then seven constant-jerk phases); :func:`ruckig_trajectory` turns them
into an exact :class:`PiecewisePolynomialTrajectory` on the union of the
joints' phase boundaries.

Waypoints are visited one after the other, each reached at rest (the
community version plans intermediate waypoints only through a cloud
service, which this package does not use). :func:`smooth_stop` brakes from
any state to rest as fast as the acceleration and jerk limits allow.
"""

import numpy as np

from .errors import RuckigError
from .limits import joint_vector
from .multi_segment import concatenate
from .point_to_point import resolve_names
from .polynomials import compose_affine, pad
from .trajectory import PiecewisePolynomialTrajectory
from .via_points import check_range
from ..errors import InputError


def _ruckig():
    try:
        import ruckig
    except ImportError as exc:  # pragma: no cover - ruckig is a pinned dependency
        raise RuckigError('the jerk-limited planner needs the ruckig package '
                          '(pip install ruckig)') from exc
    return ruckig


def _pieces(profile):
    """Yield (start time, cubic coefficients) of one joint's ruckig profile."""
    t0 = 0.0
    brake = profile.brake
    if brake.duration > 0.0:
        for k in range(2):
            if brake.t[k] > 0.0:
                yield t0, (brake.p[k], brake.v[k], brake.a[k] / 2.0, brake.j[k] / 6.0)
                t0 += brake.t[k]
    for k in range(7):
        if profile.t[k] > 0.0:
            yield t0, (profile.p[k], profile.v[k], profile.a[k] / 2.0, profile.j[k] / 6.0)
            t0 += profile.t[k]
    accel = profile.accel
    if accel.duration > 0.0:
        for k in range(2):
            if accel.t[k] > 0.0:
                yield t0, (accel.p[k], accel.v[k], accel.a[k] / 2.0, accel.j[k] / 6.0)
                t0 += accel.t[k]
    # Hold the final state (covers rounding at the very end).
    yield t0, (profile.pf, profile.vf, profile.af / 2.0, 0.0)


def ruckig_trajectory(result, joint_names):
    """
    Convert a computed ``ruckig.Trajectory`` into a piecewise polynomial.

    Parameters
    ----------
    result : ruckig.Trajectory
        A calculated trajectory (one section).
    joint_names : sequence of str
        Joint names.

    Returns
    -------
    PiecewisePolynomialTrajectory
        Cubic pieces on the union of the joints' phase boundaries.

    """
    n = len(joint_names)
    duration = float(result.duration)
    pieces = [list(_pieces(result.profiles[0][j])) for j in range(n)]
    cuts = sorted({0.0} | {t for joint in pieces for t, _ in joint if 0.0 < t < duration})
    breaks = []
    for t in cuts:
        if not breaks or t - breaks[-1] > 1e-12 * max(1.0, duration):
            breaks.append(t)
    breaks.append(duration)
    if duration == 0.0:
        breaks = [0.0, 0.0]
    starts_at = np.asarray(breaks[:-1])
    base = np.zeros((len(starts_at), n, 4))
    offset = np.zeros((len(starts_at), n))
    for j in range(n):
        starts = np.array([t for t, _ in pieces[j]])
        table = np.array([c for _, c in pieces[j]], dtype=float)
        k = np.maximum(np.searchsorted(starts, starts_at + 1e-12, side='right') - 1, 0)
        base[:, j] = table[k]
        offset[:, j] = starts_at - starts[k]
    coeffs = compose_affine(base, offset)
    return PiecewisePolynomialTrajectory(joint_names, breaks, coeffs)


def _calculate(inp, n):
    ruckig = _ruckig()
    otg = ruckig.Ruckig(n)
    traj = ruckig.Trajectory(n)
    try:
        result = otg.calculate(inp, traj)
    except (ruckig.RuckigError, RuntimeError) as exc:
        raise RuckigError(f'ruckig refused the input: {str(exc).strip()}') from None
    if result not in (ruckig.Result.Working, ruckig.Result.Finished):
        raise RuckigError(f'ruckig failed: {result}')
    return traj


def _input(n, limits, q, qd, qdd):
    ruckig = _ruckig()
    inp = ruckig.InputParameter(n)
    inp.current_position = q.tolist()
    inp.current_velocity = qd.tolist()
    inp.current_acceleration = qdd.tolist()
    inp.max_velocity = limits.velocity.tolist()
    inp.max_acceleration = limits.acceleration.tolist()
    inp.max_jerk = limits.jerk.tolist()
    return inp


def jerk_limited(waypoints, limits, start_velocity=None, start_acceleration=None,
                 min_durations=None, joint_names=None):
    """
    Time-optimal jerk-limited motion through waypoints (stopping at each).

    Parameters
    ----------
    waypoints : array_like
        Positions, (M + 1, n): the start, then M waypoints [rad or m].
    limits : PlanningLimits
        Velocity, acceleration and jerk limits (all finite) and the position
        range.
    start_velocity, start_acceleration : array_like, optional
        Start state (default rest); it may exceed the limits, ruckig then
        brakes first.
    min_durations : array_like, optional
        Minimum duration of each of the M moves [s] (ruckig stretches to
        it when longer than the optimum).
    joint_names : sequence of str, optional
        Names (default those of ``limits``).

    Returns
    -------
    PiecewisePolynomialTrajectory
        Piecewise cubic positions (continuous acceleration, bounded jerk).

    Raises
    ------
    LimitError
        Infinite or non-positive limits, waypoints outside the range, or a
        motion that leaves the range.
    RuckigError
        If ruckig cannot plan the motion.

    """
    pts = np.asarray(waypoints, dtype=float)
    if pts.ndim != 2 or pts.shape[0] < 2:
        raise InputError('waypoints', f'expected shape (M + 1, n) with M >= 1, got '
                                      f'{np.shape(waypoints)}')
    names, limits = resolve_names(pts[0], limits, joint_names)
    n, moves = len(names), pts.shape[0] - 1
    for field in ('velocity', 'acceleration', 'jerk'):
        limits.require_finite(field, 'jerk-limited planning')
    for k in range(moves + 1):
        joint_vector(pts[k], n, f'waypoints[{k}]', names)
        limits.check_positions(pts[k], 'start position' if k == 0 else 'waypoint position',
                               detail='start' if k == 0 else f'waypoint {k}')
    qd = np.zeros(n) if start_velocity is None else joint_vector(start_velocity, n,
                                                                 'start_velocity', names)
    qdd = np.zeros(n) if start_acceleration is None else joint_vector(
        start_acceleration, n, 'start_acceleration', names)
    if min_durations is not None:
        mins = np.asarray(min_durations, dtype=float).reshape(-1)
        if mins.shape != (moves,) or not np.all(np.isfinite(mins)) or np.any(mins < 0.0):
            raise InputError('min_durations', f'expected {moves} finite values >= 0, got '
                                              f'{np.asarray(min_durations).tolist()}')
    parts = []
    for k in range(moves):
        inp = _input(n, limits, pts[k], qd if k == 0 else np.zeros(n),
                     qdd if k == 0 else np.zeros(n))
        inp.target_position = pts[k + 1].tolist()
        if min_durations is not None and mins[k] > 0.0:
            inp.minimum_duration = float(mins[k])
        parts.append(ruckig_trajectory(_calculate(inp, n), names))
    traj = concatenate(parts) if len(parts) > 1 else parts[0]
    check_range(traj, limits)
    return traj


def smooth_stop(position, velocity, acceleration, limits, joint_names=None):
    """
    Brake to rest as fast as the acceleration and jerk limits allow.

    Parameters
    ----------
    position, velocity, acceleration : array_like
        Current state, (n,) [rad, rad/s, rad/s^2 or m, m/s, m/s^2].
    limits : PlanningLimits
        Acceleration and jerk limits (finite).
    joint_names : sequence of str, optional
        Names (default those of ``limits``).

    Returns
    -------
    PiecewisePolynomialTrajectory
        From the current state to rest (zero velocity and acceleration);
        duration 0 when already at rest.

    """
    names, limits = resolve_names(position, limits, joint_names)
    n = len(names)
    q = joint_vector(position, n, 'position', names)
    qd = joint_vector(velocity, n, 'velocity', names)
    qdd = joint_vector(acceleration, n, 'acceleration', names)
    for field in ('acceleration', 'jerk'):
        limits.require_finite(field, 'a smooth stop')
    if not (np.any(qd) or np.any(qdd)):
        return PiecewisePolynomialTrajectory(names, [0.0, 0.0], pad(q[None, :, None], 1))
    ruckig = _ruckig()
    inp = _input(n, limits, q, qd, qdd)
    inp.max_velocity = np.maximum(limits.velocity, np.abs(qd)).tolist()
    if not np.all(np.isfinite(inp.max_velocity)):
        inp.max_velocity = np.where(np.isfinite(limits.velocity), limits.velocity,
                                    np.abs(qd) + 1.0).tolist()
    inp.control_interface = ruckig.ControlInterface.Velocity
    inp.target_velocity = [0.0] * n
    inp.target_acceleration = [0.0] * n
    return ruckig_trajectory(_calculate(inp, n), names)
