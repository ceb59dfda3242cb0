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
Reference motions of the seed experiments (local to the simulation scenarios).

These build :class:`~robodyn_ros.planning.trajectory.PiecewisePolynomialTrajectory`
values for the closed-loop scenarios: seed 003's 3-5-3 polynomial (from the
planner) and square wave, seed 002's sinusoidal joint motion, and a
rest-to-rest quintic.
"""

import math

import numpy as np

from ..errors import InputError
from ..planning.multi_segment import three_five_three as planned_three_five_three
from ..planning.trajectory import PiecewisePolynomialTrajectory


def hermite_quintic(p0, v0, a0, p1, v1, a1, duration):
    """
    Coefficients of the quintic matching position, velocity and acceleration at both ends.

    Parameters
    ----------
    p0, v0, a0, p1, v1, a1 : numpy.ndarray
        Boundary states, (n,).
    duration : float
        Segment length [s] (> 0).

    Returns
    -------
    numpy.ndarray
        (n, 6) ascending coefficients in the time since the segment start.

    """
    t = float(duration)
    d = p1 - p0
    c3 = (20 * d - (8 * v1 + 12 * v0) * t - (3 * a0 - a1) * t * t) / (2 * t ** 3)
    c4 = (-30 * d + (14 * v1 + 16 * v0) * t + (3 * a0 - 2 * a1) * t * t) / (2 * t ** 4)
    c5 = (12 * d - 6 * (v1 + v0) * t - (a0 - a1) * t * t) / (2 * t ** 5)
    return np.stack([p0, v0, a0 / 2.0, c3, c4, c5], axis=-1)


def three_five_three(start, waypoints, durations, joint_names):
    """
    Seed 003's 3-5-3 trajectory for every joint from a start pose.

    A thin wrapper of :func:`robodyn_ros.planning.multi_segment.three_five_three`
    (cubic, quintic, cubic, from rest to rest, eqs. 7.1-7.3) with the same
    offsets added to every joint's start position.

    Parameters
    ----------
    start : array_like
        Start position per joint, (n,) [rad].
    waypoints : sequence of float
        ``(p0, p1, p2, pn)`` offsets from the start (same for every joint)
        [rad]; seed 003: 0, 5, 25, 30 degrees.
    durations : sequence of float
        ``(t1, t2, tn)`` [s]; seed 003: 2, 5, 2 s (executed 1.21 times
        faster: 900 points at 121 Hz).
    joint_names : sequence of str
        Joint names.

    Returns
    -------
    PiecewisePolynomialTrajectory
        The trajectory.

    """
    start = np.asarray(start, dtype=float)
    if len(waypoints) != 4:
        raise InputError('waypoints', f'need four waypoints, got {len(waypoints)}')
    points = np.array([start + float(w) for w in waypoints])
    return planned_three_five_three(points, durations, list(joint_names))


def square_wave(start, amplitude, period, duration, joint_names):
    """
    Square-wave set-point: ``start + amplitude`` for the first half period, then ``start``.

    Parameters
    ----------
    start : array_like
        Low level per joint, (n,) [rad].
    amplitude : float or array_like
        Step per joint [rad].
    period : float
        Period [s] (seed 003: 4.9 s).
    duration : float
        Length [s].
    joint_names : sequence of str
        Joint names.

    Returns
    -------
    PiecewisePolynomialTrajectory
        Piecewise-constant positions (zero velocity and acceleration).

    """
    start = np.asarray(start, dtype=float)
    amp = np.broadcast_to(np.asarray(amplitude, dtype=float), start.shape)
    if not (period > 0.0 and duration > 0.0):
        raise InputError('period', 'period and duration must be > 0')
    half = 0.5 * period
    count = int(math.ceil(duration / half - 1e-9))
    breaks = np.minimum(np.arange(count + 1) * half, duration)
    levels = np.array([start + amp if k % 2 == 0 else start for k in range(count)])
    return PiecewisePolynomialTrajectory(joint_names, breaks, levels[:, :, None])


def cosine_excursion(start, joint, amplitude, peak_velocity, joint_names, repeats=1):
    """
    One joint out to ``amplitude`` and back along ``(1 - cos)``, the others still (seed 002).

    ``q_j(t) = start_j + amplitude (1 - cos(w t)) / 2`` with ``w = 2
    peak_velocity / amplitude``, so the peak speed is ``peak_velocity``.

    Parameters
    ----------
    start : array_like
        Start position, (n,) [rad].
    joint : int
        Moving joint.
    amplitude : float
        Excursion [rad] (seed 002: 90 degrees).
    peak_velocity : float
        Peak speed [rad/s] (seed 002: 8 rad/s).
    joint_names : sequence of str
        Joint names.
    repeats : int
        Number of out-and-back cycles.

    Returns
    -------
    PiecewisePolynomialTrajectory
        Sampled densely and interpolated (quintic Hermite pieces).

    """
    start = np.asarray(start, dtype=float)
    if not (amplitude != 0.0 and peak_velocity > 0.0):
        raise InputError('peak_velocity', 'need a non-zero amplitude and a positive speed')
    w = 2.0 * peak_velocity / abs(amplitude)
    total = repeats * 2.0 * math.pi / w
    pieces = max(8, int(math.ceil(total / 2e-3)))
    t = np.linspace(0.0, total, pieces + 1)
    q = np.tile(start, (t.size, 1))
    qd = np.zeros_like(q)
    qdd = np.zeros_like(q)
    q[:, joint] += amplitude * (1.0 - np.cos(w * t)) / 2.0
    qd[:, joint] = amplitude * w * np.sin(w * t) / 2.0
    qdd[:, joint] = amplitude * w * w * np.cos(w * t) / 2.0
    coeffs = np.stack([hermite_quintic(q[k], qd[k], qdd[k], q[k + 1], qd[k + 1], qdd[k + 1],
                                       t[k + 1] - t[k]) for k in range(pieces)])
    return PiecewisePolynomialTrajectory(joint_names, t, coeffs)


def rest_to_rest(start, goal, duration, joint_names):
    """
    Quintic rest-to-rest motion (zero velocity and acceleration at both ends).

    Parameters
    ----------
    start, goal : array_like
        Positions, (n,) [rad or m].
    duration : float
        Length [s].
    joint_names : sequence of str
        Joint names.

    Returns
    -------
    PiecewisePolynomialTrajectory
        The trajectory.

    """
    start = np.asarray(start, dtype=float)
    goal = np.asarray(goal, dtype=float)
    zero = np.zeros_like(start)
    coeffs = hermite_quintic(start, zero, zero, goal, zero, zero, duration)[None]
    return PiecewisePolynomialTrajectory(joint_names, [0.0, float(duration)], coeffs)


def concatenate(trajectories):
    """
    Join trajectories end to end (each should start where the previous one ends).

    Parameters
    ----------
    trajectories : sequence of PiecewisePolynomialTrajectory
        The pieces, same joints.

    Returns
    -------
    PiecewisePolynomialTrajectory
        One trajectory, duration the sum of the pieces'.

    """
    breaks, coeffs, offset = [0.0], [], 0.0
    degree = max(t.coefficients.shape[2] for t in trajectories)
    for t in trajectories:
        c = t.coefficients
        c = np.concatenate([c, np.zeros(c.shape[:2] + (degree - c.shape[2],))], axis=2)
        coeffs.append(c)
        breaks.extend((t.breaks[1:] + offset).tolist())
        offset += t.duration
    return PiecewisePolynomialTrajectory(trajectories[0].joint_names, breaks,
                                         np.concatenate(coeffs))


def repeated(cycle, count):
    """
    Repeat a closed motion (one that ends where it starts) ``count`` times.

    Parameters
    ----------
    cycle : PiecewisePolynomialTrajectory
        One cycle.
    count : int
        Number of cycles (>= 1).

    Returns
    -------
    PiecewisePolynomialTrajectory
        The cycles back to back.

    """
    if int(count) < 1:
        raise InputError('count', f'must be >= 1, got {count}')
    return concatenate([cycle] * int(count))
