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
Per-joint limits the planners respect.

Position range, velocity, acceleration, jerk and effort.

:class:`PlanningLimits` is an immutable record with one entry per planned
joint; ``inf`` means "no limit". It validates itself (no NaN, rates > 0,
lower <= upper) and checks goals, raising :class:`LimitError` with the
joint, value and bound.
"""

from dataclasses import dataclass, fields, replace
import math

import numpy as np

from .errors import LimitError
from ..errors import InputError

#: Fields holding rates that must be strictly positive (inf = unlimited).
RATE_FIELDS = ('velocity', 'acceleration', 'jerk', 'effort')

_UNITS = {'velocity': 'rad/s or m/s', 'acceleration': 'rad/s^2 or m/s^2',
          'jerk': 'rad/s^3 or m/s^3', 'effort': 'N m or N'}


def joint_vector(value, n, argument, names=None):
    """
    Validate one finite vector of joint values.

    Parameters
    ----------
    value : array_like
        The values, (n,).
    n : int
        Expected length.
    argument : str
        Argument name for messages.
    names : sequence of str, optional
        Joint names for messages.

    Returns
    -------
    numpy.ndarray
        Float copy, (n,).

    Raises
    ------
    InputError
        Wrong length or a non-finite entry (naming the joint).

    """
    try:
        arr = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise InputError(argument, f'must be numbers, got {type(value).__name__}') from None
    if arr.shape != (n,):
        raise InputError(argument, f'expected {n} values (one per joint), got shape '
                                   f'{arr.shape}')
    bad = np.flatnonzero(~np.isfinite(arr))
    if bad.size:
        j = int(bad[0])
        who = names[j] if names is not None else str(j)
        raise InputError(argument, f'joint {who!r} is {arr[j]} (must be finite)')
    return arr


def _broadcast(value, n, name):
    if value is None:
        return np.full(n, math.inf if name != 'lower' else -math.inf)
    arr = np.array(value, dtype=float)
    if arr.ndim == 0:
        arr = np.full(n, float(arr))
    if arr.shape != (n,):
        raise InputError(name, f'expected one value or {n} values, got shape {arr.shape}')
    return arr


@dataclass(frozen=True, eq=False)
class PlanningLimits:
    """
    Limits of the planned joints (``inf`` = unlimited).

    Attributes
    ----------
    joint_names : tuple of str
        Planned joints, in column order.
    lower, upper : numpy.ndarray
        Position range, (n,) [rad or m].
    velocity : numpy.ndarray
        Speed limits, (n,) [rad/s or m/s].
    acceleration : numpy.ndarray
        Acceleration limits, (n,) [rad/s^2 or m/s^2].
    jerk : numpy.ndarray
        Jerk limits, (n,) [rad/s^3 or m/s^3].
    effort : numpy.ndarray
        Torque or force limits, (n,) [N m or N].

    """

    joint_names: tuple
    lower: np.ndarray = None
    upper: np.ndarray = None
    velocity: np.ndarray = None
    acceleration: np.ndarray = None
    jerk: np.ndarray = None
    effort: np.ndarray = None

    def __post_init__(self):
        names = tuple(str(j) for j in self.joint_names)
        if len(set(names)) != len(names):
            raise InputError('joint_names', f'duplicate joint names in {list(names)}')
        object.__setattr__(self, 'joint_names', names)
        n = len(names)
        for f in fields(self)[1:]:
            arr = _broadcast(getattr(self, f.name), n, f.name)
            arr.setflags(write=False)
            object.__setattr__(self, f.name, arr)
        for j, name in enumerate(names):
            for field in ('lower', 'upper') + RATE_FIELDS:
                value = getattr(self, field)[j]
                if math.isnan(value):
                    raise LimitError(name, f'{field} limit', value, None,
                                     'is not a number')
            if self.lower[j] > self.upper[j]:
                raise LimitError(name, 'lower position limit', self.lower[j], self.upper[j],
                                 'is above the upper limit')
            for field in RATE_FIELDS:
                value = getattr(self, field)[j]
                if not value > 0.0:
                    raise LimitError(name, f'{field} limit', value, 0.0, 'must be >')

    @property
    def n(self):
        """Count the planned joints (int)."""
        return len(self.joint_names)

    @classmethod
    def from_model(cls, model, joints=None, *, velocity=None, acceleration=None, jerk=None,
                   effort=None, lower=None, upper=None, velocity_scale=1.0,
                   acceleration_scale=1.0):
        """
        Take the limits of a robot model, with optional overrides.

        Parameters
        ----------
        model : RobotModel
            The robot.
        joints : sequence of str, optional
            Planned joints (default: all, in model order).
        velocity, acceleration, jerk, effort, lower, upper : float or array_like, optional
            Overrides (one value for all joints or one per joint); ``None``
            keeps the model's value (jerk: unlimited).
        velocity_scale, acceleration_scale : float
            Factors in (0, 1] applied to the velocity and acceleration
            (and jerk) limits.

        Returns
        -------
        PlanningLimits
            The limits.

        Raises
        ------
        LimitError, InputError
            On invalid values or unknown joints.

        """
        names = list(joints) if joints else model.joint_names
        idx = [model.joint_index(name) for name in names]
        for label, scale in (('velocity_scale', velocity_scale),
                             ('acceleration_scale', acceleration_scale)):
            if not (math.isfinite(scale) and 0.0 < scale <= 1.0):
                raise InputError(label, f'must be in (0, 1], got {scale}')

        def pick(override, model_values):
            if override is not None:
                return _broadcast(override, len(names), 'override')
            return np.asarray(model_values, dtype=float)[idx]

        return cls(names, lower=pick(lower, model.lower_limits),
                   upper=pick(upper, model.upper_limits),
                   velocity=pick(velocity, model.velocity_limits) * velocity_scale,
                   acceleration=pick(acceleration, model.acceleration_limits)
                   * acceleration_scale,
                   jerk=(pick(jerk, np.full(model.n, math.inf)) * acceleration_scale),
                   effort=pick(effort, model.effort_limits))

    def with_values(self, **changes):
        """
        Return a copy with some fields replaced.

        Parameters
        ----------
        **changes
            Field values (scalars broadcast to every joint).

        Returns
        -------
        PlanningLimits
            The new limits.

        """
        return replace(self, **changes)

    def require_finite(self, field, why):
        """
        Check that a rate limit is finite for every joint.

        Parameters
        ----------
        field : str
            ``'velocity'``, ``'acceleration'``, ``'jerk'`` or ``'effort'``.
        why : str
            What needs it (for the message).

        Raises
        ------
        LimitError
            Naming the first joint whose limit is infinite.

        """
        values = getattr(self, field)
        for j, name in enumerate(self.joint_names):
            if not math.isfinite(values[j]):
                raise LimitError(name, f'{field} limit', values[j], None,
                                 f'is not finite; {why} needs a finite limit')

    def check_positions(self, q, what='goal position', detail=''):
        """
        Check positions against the joint range.

        Parameters
        ----------
        q : array_like
            Positions, (n,) [rad or m].
        what : str
            Name of the quantity in the message.
        detail : str
            Extra context (waypoint index, time).

        Raises
        ------
        InputError
            Wrong length or non-finite values.
        LimitError
            First joint outside its range (joint, value and bound).

        """
        q = joint_vector(q, self.n, what, self.joint_names)
        for j, name in enumerate(self.joint_names):
            if q[j] < self.lower[j]:
                raise LimitError(name, what, q[j], self.lower[j], 'is below the lower limit',
                                 detail=detail)
            if q[j] > self.upper[j]:
                raise LimitError(name, what, q[j], self.upper[j], 'exceeds the upper limit',
                                 detail=detail)

    def check_rates(self, values, field, what, detail='', tol=1e-9):
        """
        Check absolute velocities, accelerations or efforts against the limits.

        Parameters
        ----------
        values : array_like
            Values, (n,) or (N, n).
        field : str
            Limit field (``'velocity'``, ``'acceleration'``, ``'jerk'``, ``'effort'``).
        what : str
            Name of the quantity in the message.
        detail : str
            Extra context.
        tol : float
            Relative tolerance.

        Raises
        ------
        LimitError
            First joint whose peak absolute value exceeds its limit.

        """
        peak = np.max(np.abs(np.atleast_2d(np.asarray(values, dtype=float))), axis=0)
        bound = getattr(self, field)
        for j, name in enumerate(self.joint_names):
            if peak[j] > bound[j] * (1.0 + tol):
                raise LimitError(name, what, peak[j], bound[j], 'exceeds the limit',
                                 _UNITS[field], detail)

    def __repr__(self):
        return (f'PlanningLimits(joints={list(self.joint_names)}, '
                f'velocity={self.velocity.tolist()}, acceleration={self.acceleration.tolist()}, '
                f'jerk={self.jerk.tolist()}, effort={self.effort.tolist()})')


def estimate_acceleration_limits(model, joints=None, samples=64, seed=0):
    """
    Estimate acceleration limits from the effort limits (seed 001, ch. 8).

    ``k_a,j = effort_j / max_q A_jj(q)``: the acceleration the actuator can
    give the joint alone when its inertia is largest, over random
    configurations within the joint range (gravity and coupling are
    ignored, as in the seed's rule of thumb).

    Parameters
    ----------
    model : RobotModel
        The robot.
    joints : sequence of str, optional
        Joints (default all).
    samples : int
        Random configurations.
    seed : int
        Random seed.

    Returns
    -------
    numpy.ndarray
        Acceleration limits, (n,) [rad/s^2 or m/s^2]; ``inf`` where the
        effort limit is infinite.

    """
    from ..dynamics import mass_matrix
    names = list(joints) if joints else model.joint_names
    idx = [model.joint_index(name) for name in names]
    rng = np.random.default_rng(seed)
    q = np.array([model.random_configuration(rng) for _ in range(max(1, int(samples)))])
    diag = np.diagonal(mass_matrix(model, q), axis1=1, axis2=2).max(axis=0)
    return np.asarray(model.effort_limits, dtype=float)[idx] / diag[idx]
