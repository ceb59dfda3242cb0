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
From an impedance set-point to the board's impedance frame, safely (impedance mode).

The board closes ``tau = kp (q_ref + qd_ref (t - t_s) - q) + kd (qd_ref -
qd) + tau_ff`` itself, at its inner rate, with its current clamped
(``docs/driver_board_protocol.md`` §5.1); it adds nothing else. The host's
part, per cycle, mirrors :class:`~.current_command.CurrentCommand`'s for the
feed-forward::

    tau_ff = set-point tau_ff + friction compensation along the reference (q_ref, qd_ref)
    tau_ff = joint-limit rule(tau_ff, q)      (feed-forward into a near limit ramps to 0)
    tau_ff = clip(tau_ff, -effort, effort)    (URDF effort limit)

The PD part pulls towards the reference, which the planner keeps inside the
joint limits; the board's current clamp bounds the sum.
"""

from dataclasses import dataclass

import numpy as np

from .current_command import OutputLimits


@dataclass(frozen=True, eq=False)
class ImpedanceResult:
    """
    Outcome of one cycle's impedance frame.

    Attributes
    ----------
    setpoint : ImpedanceSetpoint
        What was sent (joint side; ``tau_ff`` with friction and limits).
    torque : numpy.ndarray
        Torque the board's PD gives at the cycle's sample (``t = t_s``, the
        host's position and velocity estimate) [N m or N], (n,).
    currents : numpy.ndarray
        That torque as current, clamped to the board's limit [A], (n,).
    friction : numpy.ndarray
        Friction compensation in the feed-forward [N m or N], (n,).
    at_limit, effort_limited, current_limited : numpy.ndarray
        Per joint flags, (n,) bool: the feed-forward was cut by the
        joint-limit rule or the effort limit; the PD's torque at the sample
        exceeds the current limit.

    """

    setpoint: object
    torque: np.ndarray
    currents: np.ndarray
    friction: np.ndarray
    at_limit: np.ndarray
    effort_limited: np.ndarray
    current_limited: np.ndarray


class ImpedanceCommand(OutputLimits):
    """
    Per-cycle impedance pipeline: the feed-forward's limits, the report.

    Parameters as :class:`~.current_command.OutputLimits`.
    """

    def __call__(self, q, qd, setpoint, friction, margin):
        """
        Limit one cycle's set-point.

        Parameters
        ----------
        q, qd : numpy.ndarray
            Measured positions and velocity estimate, (n,).
        setpoint : ImpedanceSetpoint
            The command (checked: sizes, finite, gains >= 0).
        friction : numpy.ndarray or None
            Friction compensation along the reference [N m or N] (None: none).
        margin : float
            Joint-limit ramp width [rad or m].

        Returns
        -------
        ImpedanceResult
            The set-point to send and the flags.

        """
        fric = np.zeros(len(q)) if friction is None else friction
        clipped, ff, at_limit = self.limit_effort(q, setpoint.tau_ff + fric, margin)
        sent = setpoint.with_feedforward(clipped)
        torque = sent.torque(q, qd)
        amps, limited = self.amps(torque)
        return ImpedanceResult(sent, torque, amps, fric, at_limit, clipped != ff, limited)
