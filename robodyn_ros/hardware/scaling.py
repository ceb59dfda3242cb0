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
Joint-side quantities versus the board's motor-side ones.

For joint ``i`` with gear ratio ``N`` (motor speed over joint speed, signed),
torque constant ``Kt`` [N m/A], constant transmission efficiency ``eta`` and
an encoder of ``cpr`` counts per motor revolution::

    q   = 2 pi counts / (cpr N)          [rad, or m for prismatic joints]
    tau = eta N Kt i                     [N m, or N]
    i   = tau / (eta N Kt)               [A]

A joint without a torque constant in the model (NaN) is treated as a *unit
torque axis*: ``Kt = 1 N m/A`` at the joint side, so the board's current is
the joint torque in N m. The host and the simulated board apply the same rule,
and the host reports which joints it applied to.
"""

from dataclasses import dataclass
import math

import numpy as np

from .board.messages import PROTOCOL_VERSION
from .errors import BoardMismatch
from ..errors import InputError


@dataclass(frozen=True, eq=False)
class AxisParameters:
    """
    Actuator data of every joint, as the host (or the simulated board) uses it.

    Attributes
    ----------
    names : tuple of str
        Joint names.
    gear_ratio, torque_constant, efficiency : numpy.ndarray
        ``N``, ``Kt`` [N m/A] and ``eta`` per joint, (n,).
    current_limit : numpy.ndarray
        Largest current allowed per joint [A] (``inf`` if unknown), (n,).
    effort_limit : numpy.ndarray
        Joint torque limit [N m or N] (``inf`` if none), (n,).
    unit_torque : tuple of str
        Joints without a torque constant, driven as unit torque axes.

    """

    names: tuple
    gear_ratio: np.ndarray
    torque_constant: np.ndarray
    efficiency: np.ndarray
    current_limit: np.ndarray
    effort_limit: np.ndarray
    unit_torque: tuple

    @property
    def n(self):
        """Give the number of joints (int)."""
        return len(self.names)

    @property
    def torque_per_amp(self):
        """Joint torque per motor ampere, ``eta N Kt``, (n,) [N m/A or N/A]."""
        return self.efficiency * self.gear_ratio * self.torque_constant


def _per_joint(value, n, name):
    arr = np.asarray(value, dtype=float).reshape(-1)
    if arr.size == 1:
        arr = np.full(n, float(arr[0]))
    if arr.shape != (n,):
        raise InputError(name, f'expected one value or {n} values, got {arr.size}')
    return arr


def axis_parameters(model, efficiency=1.0):
    """
    Read the actuator data of a model.

    Parameters
    ----------
    model : RobotModel
        The model (``actuator`` and ``limits`` of each joint).
    efficiency : float or array_like
        Constant transmission efficiency, one value or one per joint, in (0, 1].

    Returns
    -------
    AxisParameters
        The data; the current limit is the smallest of the actuator's
        ``current_limit`` and ``effort / |eta N Kt|``.

    Raises
    ------
    InputError
        If an efficiency is outside (0, 1] or a gear ratio is zero.

    """
    n = model.n
    eta = _per_joint(efficiency, n, 'efficiency')
    bad = [model.joint_names[i] for i in range(n) if not 0.0 < eta[i] <= 1.0]
    if bad:
        raise InputError('efficiency', f'must be in (0, 1] (joints {", ".join(bad)})')
    gear = np.array([j.actuator.gear_ratio for j in model.joints], dtype=float)
    zero = [model.joint_names[i] for i in range(n) if not (math.isfinite(gear[i]) and gear[i])]
    if zero:
        raise InputError('gear_ratio', f'must be finite and non-zero (joints {", ".join(zero)})')
    kt = np.array([j.actuator.torque_constant for j in model.joints], dtype=float)
    unit = tuple(model.joint_names[i] for i in range(n) if not (kt[i] > 0.0))
    kt = np.where(kt > 0.0, kt, 1.0 / np.abs(gear))
    effort = np.array([j.limits.effort for j in model.joints], dtype=float)
    limit = np.array([j.actuator.current_limit for j in model.joints], dtype=float)
    limit = np.minimum(limit, effort / np.abs(eta * gear * kt))
    return AxisParameters(tuple(model.joint_names), gear, kt, eta, limit, effort, unit)


@dataclass(frozen=True, eq=False)
class JointScaling:
    """
    Conversions for one host-board pair (after identification).

    Attributes
    ----------
    axes : AxisParameters
        Actuator data.
    encoder_counts : numpy.ndarray
        Counts per motor revolution, (n,).
    current_limit : numpy.ndarray
        Limit sent to the board: the actuator limit capped by the board's rating [A].

    """

    axes: AxisParameters
    encoder_counts: np.ndarray
    current_limit: np.ndarray

    @property
    def rad_per_count(self):
        """Joint motion per count, ``2 pi / (cpr N)``, (n,) [rad or m]."""
        return 2.0 * math.pi / (self.encoder_counts * self.axes.gear_ratio)

    def position(self, counts):
        """
        Joint positions of encoder counts.

        Parameters
        ----------
        counts : array_like
            Counts, (n,).

        Returns
        -------
        numpy.ndarray
            Positions [rad or m].

        """
        return np.asarray(counts, dtype=float) * self.rad_per_count

    def torque(self, currents):
        """
        Joint torques of motor currents.

        Parameters
        ----------
        currents : array_like
            Currents [A], (n,).

        Returns
        -------
        numpy.ndarray
            Torques [N m or N].

        """
        return np.asarray(currents, dtype=float) * self.axes.torque_per_amp

    def current(self, torque):
        """
        Motor currents for joint torques (not limited).

        Parameters
        ----------
        torque : array_like
            Torques [N m or N], (n,).

        Returns
        -------
        numpy.ndarray
            Currents [A].

        """
        return np.asarray(torque, dtype=float) / self.axes.torque_per_amp


def joint_scaling(axes, identity, expected_counts=None):
    """
    Check a board's identity against the model and build the conversions.

    Parameters
    ----------
    axes : AxisParameters
        The model's actuator data.
    identity : Identify
        The board's identify message.
    expected_counts : array_like, optional
        Encoder counts per motor revolution the robot is known to have
        (one value or one per joint); ``None`` accepts the board's.

    Returns
    -------
    JointScaling
        The conversions.

    Raises
    ------
    BoardMismatch
        If the protocol version, the axis count or an encoder resolution differs.

    """
    if identity.protocol_version != PROTOCOL_VERSION:
        raise BoardMismatch(f'board speaks protocol version {identity.protocol_version}, this '
                            f'host version {PROTOCOL_VERSION}')
    if identity.axis_count != axes.n:
        raise BoardMismatch(f'board has {identity.axis_count} axes, the model has {axes.n} '
                            f'joints ({", ".join(axes.names)})')
    counts = np.array(identity.encoder_counts, dtype=float)
    if expected_counts is not None and len(np.atleast_1d(expected_counts)):
        want = _per_joint(expected_counts, axes.n, 'encoder_counts')
        for i in range(axes.n):
            if want[i] != counts[i]:
                raise BoardMismatch(f'joint {axes.names[i]!r}: board axis {i} has '
                                    f'{int(counts[i])} encoder counts per revolution, '
                                    f'expected {int(want[i])}')
    limit = np.minimum(axes.current_limit, np.array(identity.max_current, dtype=float))
    return JointScaling(axes, counts, limit)
