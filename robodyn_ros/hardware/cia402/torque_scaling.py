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
Torque in per mille of the rated torque, against the motor current the pipeline speaks.

The hardware interface computes motor currents (joint torque over
``eta N Kt``, limited, :class:`~robodyn_ros.hardware.current_command.CurrentCommand`);
a CiA 402 drive in cyclic synchronous torque takes its target torque 0x6071
and reports its torque actual 0x6077 in per mille of the motor's rated
torque 0x6076 (mN m). :class:`TorqueScaling` converts both ways::

    permille = round(1000 Kt i / T_rated)        i = permille T_rated / (1000 Kt)

and fixes the values configure writes: the rated torque (given, or by
default the motor torque at the actuator's current limit) and the max
torque 0x6072 that clips at that limit.
"""

import numpy as np

from ...errors import InputError

#: Rated current assumed for a joint without a current limit [A].
FALLBACK_CURRENT = 100.0


def _per_joint(values, n, name, default):
    arr = np.asarray(values if len(values) else default, dtype=float).reshape(-1)
    if arr.size == 1:
        arr = np.full(n, arr[0])
    if arr.size != n:
        raise InputError(name, f'expected one value or {n} values, got {arr.size}')
    return arr


class TorqueScaling:
    """
    Per-mille torque of each drive against motor current and joint torque.

    Parameters
    ----------
    axes : AxisParameters
        Gear ratios, torque constants, efficiencies, current limits.
    rated_torque : sequence of float
        Motor rated torque [N m] (one, one per joint, or empty for the
        default).

    Attributes
    ----------
    rated_mnm : numpy.ndarray
        Rated torque written to 0x6076 [mN m], (n,) int.
    max_permille : numpy.ndarray
        Max torque written to 0x6072 [per mille], (n,) int.
    current_limit : numpy.ndarray
        The current that max torque stands for [A], (n,).

    """

    def __init__(self, axes, rated_torque=()):
        self.axes = axes
        kt = axes.torque_constant
        limit = np.where(np.isfinite(axes.current_limit), axes.current_limit, FALLBACK_CURRENT)
        rated = _per_joint(rated_torque, axes.n, 'rated_torque', kt * limit)
        self.rated_mnm = np.maximum(np.rint(rated * 1e3), 1).astype(int)
        self._rated = self.rated_mnm * 1e-3
        self.max_permille = np.clip(np.rint(1e3 * kt * limit / self._rated), 1, 32767).astype(int)
        self.current_limit = self.amps(self.max_permille)

    def permille(self, amps):
        """
        Target torques of motor currents, clipped to the max torque.

        Parameters
        ----------
        amps : numpy.ndarray
            Motor currents [A], (n,) (non-finite: 0).

        Returns
        -------
        numpy.ndarray
            Per mille of the rated torque, (n,) int.

        """
        amps = np.where(np.isfinite(amps), amps, 0.0)
        value = np.rint(1e3 * self.axes.torque_constant * amps / self._rated)
        return np.clip(value, -self.max_permille, self.max_permille).astype(int)

    def amps(self, permille):
        """Give the motor currents of per-mille torques [A], (n,)."""
        return np.asarray(permille) * 1e-3 * self._rated / self.axes.torque_constant

    def motor_torque(self, permille):
        """Give the motor torques of per-mille values [N m], (n,)."""
        return np.asarray(permille) * 1e-3 * self._rated

    def joint_torque(self, permille):
        """Give the joint torques of per-mille values, ``eta N T_motor`` [N m or N], (n,)."""
        return self.motor_torque(permille) * self.axes.efficiency * self.axes.gear_ratio
