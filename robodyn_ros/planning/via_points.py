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
Smooth motion through via points: the minimum-jerk quintic spline.

Between consecutive waypoints the motion is a quintic; at every interior
waypoint position, velocity, acceleration, jerk and snap are continuous (the
Euler-Lagrange conditions of minimum integrated squared jerk), and the motion
starts from a given state (rest by default) and ends at rest with zero
acceleration. The interior velocities and accelerations follow from one
block-tridiagonal linear system shared by all joints.

Segment times are either given or chosen from the velocity and acceleration
limits: each segment gets the minimum time of a rest-to-rest quintic over
its largest joint move (Table 8.1), then all times are scaled uniformly so
that the most constrained joint reaches its limit exactly (peaks are found
exactly, from the roots of the derivative polynomials). Per-segment
balancing was tried and dropped: it shortened motions by 1-2 % (median of
40 random PUMA paths) but sometimes lengthened them 2.7-fold with large
excursions. Like any smooth spline, the motion can overshoot waypoints on
paths that reverse (0.26 rad beyond the waypoints' box in the median of
those 40 paths); the position range is checked exactly and violations are
refused. Stop-and-go profiles do not overshoot.
"""

import math

import numpy as np
from scipy.linalg import solve_banded

from .errors import InfeasibleError, LimitError
from .limits import joint_vector
from .point_to_point import resolve_names
from .polynomials import derivative, extrema, hermite_quintic, max_abs, pad
from .trajectory import PiecewisePolynomialTrajectory
from ..errors import InputError

#: Shortest segment the time selection will use [s].
MIN_SEGMENT_TIME = 1e-3

# Jerk (J) and snap (S) at the start (0) and end (1) of a quintic segment as
# linear forms in (delta, v0, a0, v1, a1), each divided by h^(3 or 4) / h^k.


def _jerk_snap(h):
    """Rows of J0, J1, S0, S1 over (delta, v0, a0, v1, a1) for segment lengths h, (M, 4, 5)."""
    h = np.asarray(h, dtype=float)[:, None]
    return np.stack([
        np.hstack([60.0 / h ** 3, -36.0 / h ** 2, -9.0 / h, -24.0 / h ** 2, 3.0 / h]),
        np.hstack([60.0 / h ** 3, -24.0 / h ** 2, -3.0 / h, -36.0 / h ** 2, 9.0 / h]),
        np.hstack([-360.0 / h ** 4, 192.0 / h ** 3, 36.0 / h ** 2, 168.0 / h ** 3,
                   -24.0 / h ** 2]),
        np.hstack([360.0 / h ** 4, -168.0 / h ** 3, -24.0 / h ** 2, -192.0 / h ** 3,
                   36.0 / h ** 2]),
    ], axis=1)


def solve_knot_states(points, durations, start_velocity, start_acceleration):
    """
    Velocities and accelerations at the knots of the minimum-jerk spline.

    Parameters
    ----------
    points : numpy.ndarray
        Knot positions, (M + 1, n).
    durations : numpy.ndarray
        Segment lengths, (M,) [s].
    start_velocity, start_acceleration : numpy.ndarray
        Start state, (n,); the end is at rest.

    Returns
    -------
    tuple of numpy.ndarray
        Velocities and accelerations at every knot, each (M + 1, n).

    """
    m_seg, n = durations.size, points.shape[1]
    scale = float(np.mean(durations))
    h = durations / scale
    vel = np.zeros((m_seg + 1, n))
    acc = np.zeros((m_seg + 1, n))
    vel[0] = start_velocity * scale
    acc[0] = start_acceleration * scale ** 2
    if m_seg > 1:
        x = _solve_interior(_jerk_snap(h), np.diff(points, axis=0), vel[0], acc[0])
        vel[1:-1] = x[0::2]
        acc[1:-1] = x[1::2]
    return vel / scale, acc / scale ** 2


def _solve_interior(js, delta, v0, a0):
    """
    Solve the jerk and snap continuity at the interior knots (banded, O(M)).

    Unknowns ``(v_1, a_1, ..., v_{M-1}, a_{M-1})``; the rows of knot k (jerk,
    then snap) involve knots k-1, k and k+1 only, so the matrix has three
    bands on each side of the diagonal. The end knot is at rest; the start
    knot's state moves to the right-hand side.
    """
    m_seg = delta.shape[0]
    count = 2 * (m_seg - 1)
    band = np.zeros((7, count))
    rhs = np.zeros((count, delta.shape[1]))
    left, right = js[:-1], js[1:]                        # segments k-1 and k, k = 1..M-1
    knots = np.arange(1, m_seg)
    for t, (lr, rr) in enumerate(((1, 0), (3, 2))):
        rows = 2 * (knots - 1) + t
        parts = ((left[:, lr, 1:3], knots - 1), (left[:, lr, 3:5] - right[:, rr, 1:3], knots),
                 (-right[:, rr, 3:5], knots + 1))
        for coef, knot in parts:
            inside = (knot >= 1) & (knot <= m_seg - 1)
            for c in range(2):
                cols = 2 * (knot[inside] - 1) + c
                band[3 + rows[inside] - cols, cols] = coef[inside, c]
        rhs[rows] = -(left[:, lr, 0, None] * delta[:-1] - right[:, rr, 0, None] * delta[1:])
        rhs[t] -= left[0, lr, 1] * v0 + left[0, lr, 2] * a0      # the known start knot
    return solve_banded((3, 3), band, rhs)


class ViaPointTrajectory(PiecewisePolynomialTrajectory):
    """
    Minimum-jerk quintic spline through waypoints.

    Parameters
    ----------
    joint_names : sequence of str
        Joint names.
    points : numpy.ndarray
        Knots (start first), (M + 1, n) [rad or m].
    durations : numpy.ndarray
        Segment lengths, (M,) [s].
    velocities, accelerations : numpy.ndarray
        Knot states, (M + 1, n).

    """

    def __init__(self, joint_names, points, durations, velocities, accelerations):
        coeffs = hermite_quintic(points[:-1], velocities[:-1], accelerations[:-1], points[1:],
                                 velocities[1:], accelerations[1:], durations[:, None])
        super().__init__(joint_names, np.concatenate([[0.0], np.cumsum(durations)]), coeffs)
        self._points = points.copy()
        self._durations = durations.copy()
        self._vel = velocities.copy()
        self._acc = accelerations.copy()

    @property
    def waypoints(self):
        """Knot positions, start first, (M + 1, n) [rad or m]."""
        return self._points.copy()

    @property
    def durations(self):
        """Segment lengths, (M,) [s]."""
        return self._durations.copy()

    @property
    def knot_velocities(self):
        """Velocities at the knots, (M + 1, n) [rad/s or m/s]."""
        return self._vel.copy()

    def _evaluate(self, times):
        q, qd, qdd = super()._evaluate(times)
        q[times >= self.duration] = self._points[-1]
        return q, qd, qdd


def segment_peaks(trajectory):
    """
    Exact peak speed and acceleration of every joint on every segment.

    Parameters
    ----------
    trajectory : PiecewisePolynomialTrajectory
        The trajectory.

    Returns
    -------
    tuple of numpy.ndarray
        ``(velocity, acceleration)`` peaks of ``|qd|`` and ``|qdd|``, each (S, n).

    """
    c = trajectory.coefficients
    seg, n, terms = c.shape
    lengths = np.repeat(np.diff(trajectory.breaks), n)
    d1 = derivative(c.reshape(-1, terms))
    d2 = pad(derivative(d1), d1.shape[1])
    peaks, _ = max_abs(np.vstack([d1, d2]), np.concatenate([lengths, lengths]))
    half = seg * n
    return peaks[:half].reshape(seg, n), peaks[half:].reshape(seg, n)


def first_bad_rows(points, limits):
    """
    Find the first row of positions that is not finite or not within the range.

    Parameters
    ----------
    points : numpy.ndarray
        Positions, (m, n).
    limits : PlanningLimits
        Position range (n joints).

    Returns
    -------
    numpy.ndarray
        Index of that row (empty when every row is fine): the caller checks
        it row by row to raise the error that names joint and value.

    """
    pts = np.asarray(points, dtype=float)
    if pts.ndim != 2 or pts.shape[1] != limits.n:
        return np.arange(min(len(pts), 1))
    with np.errstate(invalid='ignore'):
        ok = np.isfinite(pts) & (pts >= limits.lower) & (pts <= limits.upper)
    return np.flatnonzero(~np.all(ok, axis=1))[:1]


def _ratios(traj, velocity, acceleration):
    pv, pa = segment_peaks(traj)
    with np.errstate(divide='ignore', invalid='ignore'):
        rv = np.where(np.isfinite(velocity), pv / velocity, 0.0)
        ra = np.where(np.isfinite(acceleration), np.sqrt(pa / acceleration), 0.0)
    return np.maximum(rv, ra).max(axis=1)


def via_points(waypoints, durations=None, limits=None, start_velocity=None,
               start_acceleration=None, joint_names=None):
    """
    Plan the minimum-jerk spline through waypoints.

    Parameters
    ----------
    waypoints : array_like
        Positions, (M + 1, n): the start state's position, then M waypoints
        [rad or m].
    durations : array_like, optional
        Segment lengths, (M,) [s]; default: chosen from the limits.
    limits : PlanningLimits, optional
        Velocity and acceleration limits (needed without ``durations``) and
        the position range the waypoints must respect.
    start_velocity, start_acceleration : array_like, optional
        Start state, (n,) (default rest) [rad/s, rad/s^2 or m/s, m/s^2].
    joint_names : sequence of str, optional
        Names (default those of ``limits``).

    Returns
    -------
    ViaPointTrajectory
        The spline; with chosen times, its peak speed or acceleration equals
        the limit of at least one joint and exceeds none.

    Raises
    ------
    InputError
        NaN, wrong shapes, non-positive durations.
    LimitError
        Waypoints outside the position range, a start state above the limits.
    InfeasibleError
        If no finite limit allows choosing the times.

    """
    pts = np.asarray(waypoints, dtype=float)
    if pts.ndim != 2 or pts.shape[0] < 2:
        raise InputError('waypoints', f'expected shape (M + 1, n) with M >= 1, got '
                                      f'{np.shape(waypoints)}')
    names, limits = resolve_names(pts[0], limits, joint_names)
    n, m_seg = len(names), pts.shape[0] - 1
    for k in first_bad_rows(pts, limits):
        joint_vector(pts[k], n, f'waypoints[{k}]', names)
        limits.check_positions(pts[k], 'start position' if k == 0 else 'waypoint position',
                               detail='start' if k == 0 else f'waypoint {k}')
    v0 = np.zeros(n) if start_velocity is None else joint_vector(start_velocity, n,
                                                                 'start_velocity', names)
    a0 = np.zeros(n) if start_acceleration is None else joint_vector(
        start_acceleration, n, 'start_acceleration', names)
    if durations is not None:
        h = np.asarray(durations, dtype=float).reshape(-1)
        if h.shape != (m_seg,):
            raise InputError('durations', f'expected {m_seg} values, got shape '
                                          f'{np.shape(durations)}')
        if not np.all(np.isfinite(h)) or np.any(h <= 0.0):
            k = int(np.flatnonzero(~(np.isfinite(h) & (h > 0.0)))[0])
            raise InputError('durations', f'segment {k} lasts {h[k]} s (must be > 0)')
        vel, acc = solve_knot_states(pts, h, v0, a0)
        traj = ViaPointTrajectory(names, pts, h, vel, acc)
        check_range(traj, limits)
        return traj
    limits.check_rates(v0, 'velocity', 'start velocity')
    limits.check_rates(a0, 'acceleration', 'start acceleration')
    kv, ka = limits.velocity, limits.acceleration
    if not (np.any(np.isfinite(kv)) or np.any(np.isfinite(ka))):
        raise InfeasibleError('choosing segment times needs a finite velocity or '
                              'acceleration limit (or give the durations)')
    delta = np.abs(np.diff(pts, axis=0))
    with np.errstate(divide='ignore', invalid='ignore'):
        need_v = np.where(np.isfinite(kv), 15.0 / 8.0 * delta / kv, 0.0)
        need_a = np.where(np.isfinite(ka), np.sqrt(10.0 / math.sqrt(3.0) * delta / ka), 0.0)
    h = np.maximum(np.maximum(need_v, need_a).max(axis=1), MIN_SEGMENT_TIME)
    at_rest = not (np.any(v0) or np.any(a0))
    # Uniform scaling to the tightest limit: exact from rest (velocities scale with
    # 1 / c, accelerations with 1 / c^2), repeated for a moving start.
    best = None
    for _ in range(30):
        vel, acc = solve_knot_states(pts, h, v0, a0)
        traj = ViaPointTrajectory(names, pts, h, vel, acc)
        worst = float(_ratios(traj, kv, ka).max())
        if at_rest and worst > 0.0 and abs(worst - 1.0) > 1e-9 and \
                np.all(h * worst >= MIN_SEGMENT_TIME):
            h = h * worst
            vel, acc = solve_knot_states(pts, h, v0, a0)
            best = ViaPointTrajectory(names, pts, h, vel, acc)
            break
        if worst <= 1.0 + 1e-9:
            best = traj
            if worst >= 1.0 - 1e-6 or worst <= 0.0:
                break
        h = np.maximum(h * worst, MIN_SEGMENT_TIME)
    if best is None:
        raise InfeasibleError('could not choose segment times within the velocity and '
                              'acceleration limits from this start state')
    check_range(best, limits)
    return best


def check_range(trajectory, limits):
    """
    Check the exact position extrema of a piecewise polynomial against the range.

    Parameters
    ----------
    trajectory : PiecewisePolynomialTrajectory
        The trajectory.
    limits : PlanningLimits
        Position range (same joints).

    Raises
    ------
    LimitError
        Naming the joint, the extreme position, the bound and the time.

    """
    c = trajectory.coefficients
    seg, n, terms = c.shape
    breaks = trajectory.breaks
    lo, t_lo, hi, t_hi = extrema(c.reshape(-1, terms), np.repeat(np.diff(breaks), n))
    lo, t_lo, hi, t_hi = (x.reshape(seg, n) for x in (lo, t_lo, hi, t_hi))
    for j, name in enumerate(limits.joint_names):
        k = int(np.argmin(lo[:, j]))
        if lo[k, j] < limits.lower[j] - 1e-12:
            raise LimitError(name, 'position', lo[k, j], limits.lower[j],
                             'is below the lower limit',
                             detail=f'at t = {breaks[k] + t_lo[k, j]:.4g} s')
        k = int(np.argmax(hi[:, j]))
        if hi[k, j] > limits.upper[j] + 1e-12:
            raise LimitError(name, 'position', hi[k, j], limits.upper[j],
                             'exceeds the upper limit',
                             detail=f'at t = {breaks[k] + t_hi[k, j]:.4g} s')
