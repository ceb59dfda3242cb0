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
Errors of the trajectory planners.

Every planner error derives from :class:`PlanningError` (itself a
:class:`~robodyn_ros.errors.RobodynError`). Bad arguments (NaN, wrong
lengths, limits at or below zero, goals outside the joint range) raise
:class:`LimitError` or :class:`~robodyn_ros.errors.InputError`; problems of
the motion itself (too short a duration, an unreachable or singular pose,
gravity above the torque limit) raise the other subclasses. Messages name the
joint, the value and the bound.
"""

import math

from ..errors import InputError, RobodynError


class PlanningError(RobodynError):
    """A trajectory could not be planned."""


def _fmt(value):
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    try:
        return f'{float(value):.6g}'
    except (TypeError, ValueError):
        return repr(value)


class LimitError(PlanningError, InputError):
    """
    A value of one joint breaks a bound (or a bound itself is invalid).

    Parameters
    ----------
    joint : str
        Joint name (or a Cartesian quantity such as ``'translation'``).
    quantity : str
        What was checked, e.g. ``'goal position'``, ``'velocity limit'``.
    value : float
        The offending value.
    bound : float or None
        The bound it breaks (None: no bound in the message).
    relation : str
        How it breaks it, e.g. ``'exceeds'``, ``'is below'``, ``'must be >'``.
    unit : str
        Unit of value and bound (``'rad'``, ``'N m'``, ...), optional.
    detail : str
        Extra context (time, waypoint index), optional.

    """

    def __init__(self, joint, quantity, value, bound, relation='exceeds', unit='', detail=''):
        self.joint = joint
        self.quantity = quantity
        self.value = value
        self.bound = bound
        self.relation = relation
        self.unit = unit
        self.detail = detail
        unit_text = f' {unit}' if unit else ''
        reason = f'{quantity} {_fmt(value)}{unit_text} {relation}'
        if bound is not None:
            reason += f' {_fmt(bound)}{unit_text}'
        if detail:
            reason += f' ({detail})'
        InputError.__init__(self, f'joint {joint!r}', reason)


class InfeasibleError(PlanningError, ValueError):
    """The motion cannot meet its constraints (duration, torque, limits)."""


class UnreachablePoseError(PlanningError, ValueError):
    """Inverse kinematics found no configuration for a pose."""


class SingularityError(PlanningError, ValueError):
    """A Cartesian motion passes through (or too near) a singular configuration."""


class PlanningCancelled(PlanningError):
    """Planning was stopped from outside (a stop request or a newer goal)."""


class TooLargeError(PlanningError, InputError):
    """
    A goal beyond the planner's bounds (``max_waypoints``, ``max_duration``).

    Parameters
    ----------
    parameter : str
        The bound (its parameter name).
    reason : str
        What exceeds it.

    """

    def __init__(self, parameter, reason):
        super().__init__(parameter, reason)


class RuckigError(PlanningError):
    """The ruckig library refused an input or failed to plan."""


class StaticTorqueError(InfeasibleError):
    """
    A path point needs more torque than a limit even for an infinitely slow motion.

    Parameters
    ----------
    joint : str
        Joint name.
    torque : float
        Static torque there: gravity plus the low-speed friction peak in the
        direction the joint moves [N m or N].
    limit : float
        The limit it exceeds [N m or N].
    s : float
        Path parameter of the point.
    time : float
        Time of the point on the path as given (its own time law) [s].
    position : numpy.ndarray
        Joint positions there, (n,).

    """

    def __init__(self, joint, torque, limit, s, time, position):
        self.joint, self.torque, self.limit = joint, torque, limit
        self.s, self.time, self.position = s, time, position
        q = ', '.join(f'{v:.4g}' for v in position)
        super().__init__(
            f'joint {joint!r}: static torque {torque:.6g} N m exceeds the limit {limit:.6g} '
            f'N m at path point s = {s:.6g} (t = {time:.4g} s on the given path, q = [{q}]); '
            'gravity and friction need it even for an infinitely slow motion')
