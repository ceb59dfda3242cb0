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
Multi-segment joint paths from the seeds, and chaining of trajectories.

* :func:`three_five_three`: seed 003's 3-5-3 polynomial (cubic, quintic,
  cubic) through four points, as the MA3000 experiments used it.
* :func:`quintic_linear_quintic`: seed 000's "Trajectory 1": a quintic
  blend from rest, a constant-velocity middle, a quintic blend to rest.
* :func:`stop_and_go`: point-to-point profiles through waypoints, stopping
  at each.
* :func:`concatenate`: one piecewise polynomial from consecutive ones.
"""

import numpy as np

from .errors import PlanningError
from .limits import joint_vector
from .point_to_point import point_to_point, resolve_names
from .polynomials import hermite_quintic, pad
from .trajectory import PiecewisePolynomialTrajectory
from ..errors import InputError


def _points(points, count, joint_names):
    arr = np.asarray(points, dtype=float)
    if arr.ndim == 1:
        arr = arr[:, None]
    if arr.ndim != 2 or arr.shape[0] != count:
        raise InputError('points', f'expected {count} points (shape ({count},) or '
                                   f'({count}, n)), got shape {np.shape(points)}')
    n = arr.shape[1]
    names = list(joint_names) if joint_names is not None else [f'j{j}' for j in range(n)]
    if len(names) != n:
        raise InputError('joint_names', f'{len(names)} names for {n} joints')
    for k in range(count):
        joint_vector(arr[k], n, f'points[{k}]', names)
    return arr, names


def _durations(values, count, argument):
    arr = np.asarray(values, dtype=float).reshape(-1)
    if arr.shape != (count,):
        raise InputError(argument, f'expected {count} values, got shape {np.shape(values)}')
    if not np.all(np.isfinite(arr)) or np.any(arr <= 0.0):
        k = int(np.flatnonzero(~(np.isfinite(arr) & (arr > 0.0)))[0])
        raise InputError(argument, f'segment {k} lasts {arr[k]} s (must be finite and > 0)')
    return arr


def three_five_three(points, segment_times, joint_names=None, start_velocity=0.0,
                     start_acceleration=0.0, end_velocity=0.0, end_acceleration=0.0):
    """
    Seed 003's 3-5-3 path: cubic, quintic, cubic through four points.

    The first cubic leaves ``p0`` with the given start velocity and
    acceleration and reaches ``p1`` with whatever velocity ``v1`` and
    acceleration ``a1`` that implies (``3 delta_1 / t_1`` and
    ``6 delta_1 / t_1^2`` from rest); the last cubic reaches ``p3`` with the
    given end state, which sets its start state ``(v2, a2)`` (``3 delta_n /
    t_n`` and ``-6 delta_n / t_n^2`` to rest); the quintic joins
    ``(p1, v1, a1)`` to ``(p2, v2, a2)``. Position, velocity and acceleration
    are continuous (seed 003 eqs. 7.1-7.3).

    Parameters
    ----------
    points : array_like
        ``p0, p1, p2, p3``, shape (4,) for one joint or (4, n) [rad or m, or
        any unit: the law is linear].
    segment_times : array_like
        Durations ``t_1, t_2, t_n`` of the three segments [s].
    joint_names : sequence of str, optional
        Names (default ``j0, j1, ...``).
    start_velocity, start_acceleration, end_velocity, end_acceleration : float or array_like
        Boundary states [unit/s, unit/s^2]; zero in the seed.

    Returns
    -------
    PiecewisePolynomialTrajectory
        Breaks ``0, t_1, t_1 + t_2, t_1 + t_2 + t_n``.

    """
    p, names = _points(points, 4, joint_names)
    t1, t2, tn = _durations(segment_times, 3, 'segment_times')
    n = p.shape[1]
    v0, a0, vf, af = (joint_vector(np.broadcast_to(np.asarray(x, dtype=float), (n,)), n,
                                   label, names)
                      for x, label in ((start_velocity, 'start_velocity'),
                                       (start_acceleration, 'start_acceleration'),
                                       (end_velocity, 'end_velocity'),
                                       (end_acceleration, 'end_acceleration')))
    d1 = p[1] - p[0]
    dn = p[3] - p[2]
    # Normalised-time coefficients (time / segment length), as in the seed.
    c1 = np.stack([p[0], v0 * t1, a0 * t1 ** 2 / 2.0, d1 - v0 * t1 - a0 * t1 ** 2 / 2.0], -1)
    cn = np.stack([p[2], 3.0 * dn - 2.0 * vf * tn + af * tn ** 2 / 2.0,
                   -3.0 * dn + 3.0 * vf * tn - af * tn ** 2,
                   dn - vf * tn + af * tn ** 2 / 2.0], -1)
    v1 = (c1[:, 1] + 2.0 * c1[:, 2] + 3.0 * c1[:, 3]) / t1
    a1 = (2.0 * c1[:, 2] + 6.0 * c1[:, 3]) / t1 ** 2
    v2 = cn[:, 1] / tn
    a2 = 2.0 * cn[:, 2] / tn ** 2
    seg1 = c1 / t1 ** np.arange(4)
    seg3 = cn / tn ** np.arange(4)
    seg2 = hermite_quintic(p[1], v1, a1, p[2], v2, a2, t2)
    coeffs = np.stack([pad(seg1, 6), seg2, pad(seg3, 6)])
    return PiecewisePolynomialTrajectory(names, [0.0, t1, t1 + t2, t1 + t2 + tn], coeffs)


def quintic_linear_quintic(points, times, joint_names=None):
    """
    Seed 000's Trajectory 1: quintic from rest, constant velocity, quintic to rest.

    The middle segment moves every joint at ``(q_2 - q_1) / (t_2 - t_1)``
    with zero acceleration; the blends are quintics in local segment time
    with ``P0 = q, P1 = v, P2 = a / 2`` and ``P3, P4, P5`` from the end
    conditions (seed 000 Sec. 2.2.5).

    Parameters
    ----------
    points : array_like
        Knots ``q_0 .. q_3``, shape (4,) or (4, n) [rad or m].
    times : array_like
        Knot times ``t_0 < t_1 < t_2 < t_3`` [s]; the trajectory starts at
        ``t_0`` (its time 0).
    joint_names : sequence of str, optional
        Names (default ``j0, j1, ...``).

    Returns
    -------
    PiecewisePolynomialTrajectory
        Three segments.

    """
    q, names = _points(points, 4, joint_names)
    t = np.asarray(times, dtype=float).reshape(-1)
    if t.shape != (4,):
        raise InputError('times', f'expected 4 knot times, got shape {np.shape(times)}')
    h = _durations(np.diff(t), 3, 'times')
    v = (q[2] - q[1]) / h[1]
    zero = np.zeros_like(v)
    seg1 = hermite_quintic(q[0], zero, zero, q[1], v, zero, h[0])
    seg2 = pad(np.stack([q[1], v], -1), 6)
    seg3 = hermite_quintic(q[2], v, zero, q[3], zero, zero, h[2])
    breaks = np.concatenate([[0.0], np.cumsum(h)])
    return PiecewisePolynomialTrajectory(names, breaks, np.stack([seg1, seg2, seg3]))


def concatenate(trajectories):
    """
    Join piecewise polynomial trajectories end to start.

    Parameters
    ----------
    trajectories : sequence of PiecewisePolynomialTrajectory
        Pieces with the same joint names; each should start where the
        previous one ends (checked to 1e-9).

    Returns
    -------
    PiecewisePolynomialTrajectory
        The joined trajectory.

    Raises
    ------
    PlanningError
        If the joints differ or a piece does not start where the last ended.

    """
    parts = list(trajectories)
    if not parts:
        raise InputError('trajectories', 'needs at least one trajectory')
    names = parts[0].joint_names
    width = max(p.coefficients.shape[2] for p in parts)
    breaks = [np.zeros(1)]
    coeffs = []
    offset = 0.0
    for k, part in enumerate(parts):
        if part.joint_names != names:
            raise PlanningError(f'trajectory {k} has joints {list(part.joint_names)}, '
                                f'expected {list(names)}')
        if k > 0:
            end = parts[k - 1].sample(parts[k - 1].duration)[0]
            start = part.sample(0.0)[0]
            gap = np.max(np.abs(end - start))
            if gap > 1e-9 * max(1.0, np.max(np.abs(end))):
                raise PlanningError(f'trajectory {k} starts {gap:.3g} away from where '
                                    f'trajectory {k - 1} ends')
        b = part.breaks
        keep = np.diff(b) > 0.0
        if not np.any(keep):
            continue
        breaks.append(b[1:][keep] + offset)
        coeffs.append(pad(part.coefficients[keep], width))
        offset += part.duration
    if not coeffs:
        return parts[0]
    return PiecewisePolynomialTrajectory(names, np.concatenate(breaks), np.concatenate(coeffs))


def stop_and_go(waypoints, kind='trapezoid', limits=None, durations=None, joint_names=None):
    """
    Point-to-point motions through waypoints, stopping at each.

    Parameters
    ----------
    waypoints : array_like
        Positions, (m + 1, n): the start, then m waypoints [rad or m].
    kind : str
        Point-to-point profile kind.
    limits : PlanningLimits, optional
        Limits (needed when durations are not given).
    durations : array_like, optional
        Duration of each of the m moves [s] (default: minimum times).
    joint_names : sequence of str, optional
        Names (default those of ``limits``).

    Returns
    -------
    PiecewisePolynomialTrajectory
        The chained moves.

    """
    pts = np.asarray(waypoints, dtype=float)
    if pts.ndim != 2 or pts.shape[0] < 2:
        raise InputError('waypoints', f'expected shape (m + 1, n) with m >= 1, got '
                                      f'{np.shape(waypoints)}')
    names, limits = resolve_names(pts[0], limits, joint_names)
    moves = pts.shape[0] - 1
    times = [None] * moves if durations is None else list(_durations(durations, moves,
                                                                     'durations'))
    parts = [point_to_point(pts[k], pts[k + 1], kind, limits, times[k], names)
             for k in range(moves)]
    return concatenate(parts)
