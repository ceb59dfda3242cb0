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
Periodic reference motions of the closed-loop experiments.

* :func:`square_wave`: seed 003's square-wave set-point (piecewise
  constant, so it jumps on purpose);
* :func:`cosine_excursion`: seed 002's out-and-back ``(1 - cos)`` motion of
  one joint;
* :func:`out_and_back`: a quintic rest-to-rest move out and the same back;
* :func:`repeated`: a closed cycle back to back (joined by
  :func:`~robodyn_ros.planning.multi_segment.concatenate`, which checks
  that each cycle starts where the last ended).

Rest-to-rest moves are :func:`~robodyn_ros.planning.point_to_point.point_to_point`
with ``kind='quintic'``; seed 003's 3-5-3 path is
:func:`~robodyn_ros.planning.multi_segment.three_five_three`.
"""

import math

import numpy as np

from .multi_segment import concatenate
from .point_to_point import point_to_point
from .polynomials import hermite_quintic
from .trajectory import PiecewisePolynomialTrajectory
from ..errors import InputError


def square_wave(start, amplitude, period, duration, joint_names):
    """
    Square-wave set-point: ``start + amplitude`` for the first half period, then ``start``.

    Parameters
    ----------
    start : array_like
        Low level per joint, (n,) [rad or m].
    amplitude : float or array_like
        Step per joint [rad or m].
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

    Raises
    ------
    InputError
        If the period or the duration is not positive.

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
        Sampled every 2 ms or finer and interpolated by quintic Hermite
        pieces (position, velocity and acceleration exact at the samples).

    Raises
    ------
    InputError
        If the amplitude is zero or the peak speed not positive.

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
    coeffs = hermite_quintic(q[:-1], qd[:-1], qdd[:-1], q[1:], qd[1:], qdd[1:],
                             np.diff(t)[:, None])
    return PiecewisePolynomialTrajectory(joint_names, t, coeffs)


def out_and_back(start, offset, duration, joint_names):
    """
    Quintic rest-to-rest move from ``start`` to ``start + offset`` and back.

    Parameters
    ----------
    start : array_like
        Start (and end) position, (n,) [rad or m].
    offset : array_like
        Excursion per joint, (n,) [rad or m].
    duration : float
        Length of the whole cycle [s]; each way takes half of it.
    joint_names : sequence of str
        Joint names.

    Returns
    -------
    PiecewisePolynomialTrajectory
        Two quintic pieces, at rest at both ends and at the turn.

    """
    start = np.asarray(start, dtype=float)
    far = start + np.asarray(offset, dtype=float)
    half = duration / 2
    return concatenate([point_to_point(start, far, 'quintic', duration=half,
                                       joint_names=joint_names),
                        point_to_point(far, start, 'quintic', duration=half,
                                       joint_names=joint_names)])


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

    Raises
    ------
    InputError
        If ``count`` is below 1.
    PlanningError
        If the cycle does not end where it starts.

    """
    if int(count) < 1:
        raise InputError('count', f'must be >= 1, got {count}')
    return concatenate([cycle] * int(count))
