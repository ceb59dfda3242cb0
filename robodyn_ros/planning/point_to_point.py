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
Point-to-point joint motions: every joint follows one shared law (seed 001, ch. 8).

``q(t) = q^i + r(t) (q^f - q^i)`` with the law of
:mod:`robodyn_ros.planning.profiles`; the result is a
:class:`PointToPointTrajectory`, a piecewise polynomial that also carries
its :class:`~robodyn_ros.planning.profiles.Synchronisation`.
"""

import numpy as np

from .limits import joint_vector, PlanningLimits
from .profiles import check_kind, synchronise
from .trajectory import PiecewisePolynomialTrajectory
from ..errors import InputError


class PointToPointTrajectory(PiecewisePolynomialTrajectory):
    """
    Rest-to-rest motion of all joints under one normalised law.

    Parameters
    ----------
    joint_names : sequence of str
        Joint names.
    start, goal : numpy.ndarray
        End positions, (n,) [rad or m].
    synchronisation : Synchronisation
        The shared law and the ratios it reaches.

    """

    def __init__(self, joint_names, start, goal, synchronisation):
        profile = synchronisation.profile
        d = goal - start
        coeffs = profile.coefficients[:, None, :] * d[None, :, None]
        coeffs[:, :, 0] += start
        super().__init__(joint_names, profile.breaks, coeffs)
        self._start = start.copy()
        self._goal = goal.copy()
        self._sync = synchronisation

    @property
    def kind(self):
        """Name the profile kind, a str."""
        return self._sync.profile.kind

    @property
    def start(self):
        """Start positions, (n,) [rad or m]."""
        return self._start.copy()

    @property
    def goal(self):
        """Goal positions, (n,) [rad or m]."""
        return self._goal.copy()

    @property
    def synchronisation(self):
        """Shared law, minimum times and reached ratios (Synchronisation)."""
        return self._sync

    def _evaluate(self, times):
        q, qd, qdd = super()._evaluate(times)
        # Pin the end exactly on the goal (the polynomial sum is off by rounding).
        q[times >= self.duration] = self._goal
        return q, qd, qdd


def point_to_point(start, goal, kind='trapezoid', limits=None, duration=None,
                   joint_names=None):
    """
    Plan a synchronised rest-to-rest joint motion.

    Parameters
    ----------
    start, goal : array_like
        Start and goal positions, (n,) [rad or m].
    kind : str
        ``'linear'``, ``'cubic'``, ``'quintic'``, ``'bang_bang'``,
        ``'trapezoid'`` or ``'trapezoid_c2'``.
    limits : PlanningLimits, optional
        Velocity and acceleration limits (and the position range the goal
        must respect); without limits a duration is required.
    duration : float, optional
        Wanted duration [s] (default: the minimum time under the limits).
    joint_names : sequence of str, optional
        Names (default: those of ``limits``, else ``j0, j1, ...``).

    Returns
    -------
    PointToPointTrajectory
        The motion.

    Raises
    ------
    InputError
        NaN, wrong lengths, unknown kind.
    LimitError
        Start or goal outside the position range, a duration below the
        minimum, limits at or below zero.

    """
    check_kind(kind)
    names, limits = resolve_names(start, limits, joint_names)
    q0 = joint_vector(start, len(names), 'start', names)
    q1 = joint_vector(goal, len(names), 'goal', names)
    limits.check_positions(q0, 'start position')
    limits.check_positions(q1, 'goal position')
    sync = synchronise(kind, q1 - q0, limits.velocity, limits.acceleration, duration, names)
    return PointToPointTrajectory(names, q0, q1, sync)


def resolve_names(start, limits, joint_names):
    """
    Settle the joint names and limits of a motion.

    Parameters
    ----------
    start : array_like
        Start positions (their length counts the joints when nothing else does).
    limits : PlanningLimits or None
        Limits; None gives unlimited ones.
    joint_names : sequence of str or None
        Names; default those of ``limits``, else ``j0, j1, ...``.

    Returns
    -------
    tuple
        ``(names, limits)`` with ``limits`` covering exactly ``names``.

    Raises
    ------
    InputError
        If the limits cover another count of joints.

    """
    if joint_names is None:
        joint_names = (limits.joint_names if limits is not None
                       else [f'j{j}' for j in range(np.size(start))])
    names = [str(j) for j in joint_names]
    if limits is None:
        return names, PlanningLimits(names)
    if limits.n != len(names):
        raise InputError('limits', f'has {limits.n} joints ({", ".join(limits.joint_names)}) '
                                   f'but the motion has {len(names)}')
    return names, limits
