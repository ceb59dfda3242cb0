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
From the command's joint torque to the board's currents, safely.

:func:`limit_torque` removes the torque that pushes a joint further into its
position limit. :class:`CurrentCommand` is the per-cycle pipeline::

    tau = command (or the interface's hold) + friction compensation
    tau = joint-limit rule(tau, q)          (torque into a near limit ramps to 0)
    tau = clip(tau, -effort, effort)        (URDF effort limit)
    i   = clip(tau / (eta N Kt), -i_max, i_max)

Once :data:`.current_kernel.COMPILED` is loaded (the hardware interface
loads it at configure), the pipeline runs in its compiled loop form
(:mod:`.current_kernel`), with the same numbers.
"""

from dataclasses import dataclass

import numpy as np

from .current_kernel import COMPILED


def limit_torque(q, tau, lower, upper, margin):
    """
    Ramp down the torque that pushes a joint into a position limit.

    Within ``margin`` of a limit the torque component towards it is scaled
    by the remaining distance over the margin (0 at and beyond the limit);
    torque away from the limit is untouched.

    Parameters
    ----------
    q, tau : numpy.ndarray
        Positions [rad or m] and torques [N m or N], (n,).
    lower, upper : numpy.ndarray
        Limits (``inf`` for none), (n,).
    margin : float
        Width of the ramp [rad or m] (0: cut only beyond the limit).

    Returns
    -------
    tuple
        ``(torque, mask)``: the limited torque and which joints were limited.

    """
    if margin > 0.0:
        up = np.minimum(np.maximum((upper - q) / margin, 0.0), 1.0)
        down = np.minimum(np.maximum((q - lower) / margin, 0.0), 1.0)
    else:
        up = (q < upper) * 1.0
        down = (q > lower) * 1.0
    pos = tau > 0.0
    neg = tau < 0.0
    scale = pos * up + neg * down + ~(pos | neg)
    return tau * scale, scale < 1.0


@dataclass(frozen=True, eq=False)
class CurrentResult:
    """
    Outcome of one cycle's conversion.

    Attributes
    ----------
    currents : numpy.ndarray
        Currents to send [A], (n,).
    torque : numpy.ndarray
        Joint torque they produce (before the current clamp) [N m or N], (n,).
    friction : numpy.ndarray
        Friction compensation included [N m or N], (n,).
    at_limit, effort_limited, current_limited : numpy.ndarray
        Per joint flags, (n,) bool.

    """

    currents: np.ndarray
    torque: np.ndarray
    friction: np.ndarray
    at_limit: np.ndarray
    effort_limited: np.ndarray
    current_limited: np.ndarray


class OutputLimits:
    """
    The limits every output path applies: joint-limit rule, effort, current.

    Parameters
    ----------
    model : RobotModel
        Joint limits (position and effort).
    scaling : JointScaling
        Torque-to-current conversion.
    current_limit : numpy.ndarray
        Current limit per joint [A].

    """

    def __init__(self, model, scaling, current_limit):
        # writable copies: the compiled form is made for writable arrays (the model's are not)
        self.lower = np.array(model.lower_limits, dtype=float)
        self.upper = np.array(model.upper_limits, dtype=float)
        self.effort = np.array([j.limits.effort for j in model.joints], dtype=float)
        self.scaling = scaling
        self.current_limit = np.array(current_limit, dtype=float)
        self._neg_limit = -self.current_limit
        self._neg_effort = -self.effort
        self._amps_per_torque = np.array(1.0 / scaling.axes.torque_per_amp, dtype=float)

    def limit_effort(self, q, tau, margin):
        """
        Apply the joint-limit rule, then the effort limit.

        Parameters
        ----------
        q, tau : numpy.ndarray
            Positions [rad or m] and torques [N m or N], (n,).
        margin : float
            Joint-limit ramp width [rad or m].

        Returns
        -------
        tuple
            ``(clipped, ramped, at_limit)``: the torque within both limits,
            the torque after the joint-limit rule only, and the joints that
            rule cut.

        """
        ramped, at_limit = limit_torque(q, tau, self.lower, self.upper, margin)
        return np.minimum(np.maximum(ramped, self._neg_effort), self.effort), ramped, at_limit

    def amps(self, torque):
        """
        Convert torques to currents within the current limit.

        Parameters
        ----------
        torque : numpy.ndarray
            Joint torques [N m or N], (n,).

        Returns
        -------
        tuple
            ``(amps, limited)``: currents [A] and the joints whose current
            was cut.

        """
        amps = torque * self._amps_per_torque
        limited = np.abs(amps) > self.current_limit
        return np.minimum(np.maximum(amps, self._neg_limit), self.current_limit), limited


class CurrentCommand(OutputLimits):
    """Per-cycle torque-to-current pipeline (parameters: :class:`OutputLimits`)."""

    def __call__(self, q, command, friction, margin):
        """
        Compute the currents of one cycle.

        Parameters
        ----------
        q : numpy.ndarray
            Measured positions, (n,).
        command : numpy.ndarray or None
            Controller torque (None: zero current, friction not applied).
        friction : numpy.ndarray or None
            Friction compensation torque (None: none).
        margin : float
            Joint-limit ramp width [rad or m].

        Returns
        -------
        CurrentResult
            Currents and flags.

        """
        if command is None:
            z, zero = np.zeros(len(q)), np.zeros(len(q), dtype=bool)
            return CurrentResult(z, z, z, zero, zero, zero)
        fric = np.zeros(len(q)) if friction is None else friction
        fast = COMPILED.get()
        if fast is not None:   # the loop form, compiled (current_kernel): the same numbers
            try:
                amps, clipped, at_limit, effort_limited, limited = fast[0](
                    q, command, fric, float(margin), self.lower, self.upper, self.effort,
                    self._amps_per_torque, self.current_limit)
                return CurrentResult(amps, clipped, fric, at_limit, effort_limited, limited)
            except (TypeError, ValueError):   # not float64 vectors of n: the NumPy form
                pass
        clipped, tau, at_limit = self.limit_effort(q, command + fric, margin)
        amps, limited = self.amps(clipped)
        return CurrentResult(amps, clipped, fric, at_limit, clipped != tau, limited)
