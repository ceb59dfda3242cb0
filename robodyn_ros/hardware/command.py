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
From the controller's joint torque to the board's currents, safely.

:class:`CommandBuffer` holds the newest torque command with its arrival time
(thread-safe: the ROS subscription writes, the I/O thread reads); a command
that is missing, older than the timeout or contains NaN gives zero current.
:func:`limit_torque` removes the torque that pushes a joint further into its
position limit. :class:`CurrentCommand` is the per-cycle pipeline::

    tau = command (or 0) + friction compensation
    tau = joint-limit rule(tau, q)          (torque into a near limit ramps to 0)
    tau = clip(tau, -effort, effort)        (URDF effort limit)
    i   = clip(tau / (eta N Kt), -i_max, i_max)
"""

from dataclasses import dataclass
import math
import threading

import numpy as np


class CommandBuffer:
    """
    Newest joint torque command, shared between threads.

    Parameters
    ----------
    n : int
        Number of joints.

    """

    FRESH = 'fresh'
    NONE = 'none'
    STALE = 'stale'
    INVALID = 'invalid'

    def __init__(self, n):
        self.n = int(n)
        self._lock = threading.Lock()
        self._torque = None
        self._stamp = -math.inf
        self._reason = ''
        self._state = self.NONE
        self.received = 0
        self.rejected = 0

    def clear(self):
        """Forget the command (after activation, a new one is required)."""
        with self._lock:
            self._torque, self._stamp, self._state, self._reason = None, -math.inf, \
                self.NONE, ''

    def put(self, torque, stamp):
        """
        Store a new command; a wrong length or a non-finite value invalidates it.

        Parameters
        ----------
        torque : array_like
            Joint torques [N m or N], (n,).
        stamp : float
            Arrival time (monotonic) [s].

        Returns
        -------
        bool
            Whether the command was accepted.

        """
        arr = np.asarray(torque, dtype=float).reshape(-1)
        if arr.shape != (self.n,):
            return self.reject(f'joint_commands has {arr.size} efforts for {self.n} joints',
                               stamp)
        if not np.all(np.isfinite(arr)):
            bad = [i for i in range(self.n) if not math.isfinite(arr[i])]
            return self.reject(f'joint_commands effort is not finite for joint index '
                               f'{", ".join(map(str, bad))}', stamp)
        with self._lock:
            self._torque, self._stamp, self._state, self._reason = arr, stamp, self.FRESH, ''
            self.received += 1
        return True

    def reject(self, reason, stamp):
        """
        Invalidate the command (zero current until a valid one arrives).

        Parameters
        ----------
        reason : str
            Why, for diagnostics.
        stamp : float
            Time [s].

        Returns
        -------
        bool
            False.

        """
        with self._lock:
            self._torque, self._stamp, self._state, self._reason = None, stamp, \
                self.INVALID, reason
            self.rejected += 1
        return False

    def get(self, now, timeout):
        """
        Return the command to apply now.

        Parameters
        ----------
        now : float
            Current monotonic time [s].
        timeout : float
            Largest accepted age [s].

        Returns
        -------
        tuple
            ``(torque or None, state, reason)`` with state ``'fresh'``,
            ``'none'`` (never received), ``'stale'`` or ``'invalid'``.

        """
        with self._lock:
            torque, stamp, state, reason = self._torque, self._stamp, self._state, self._reason
        if state == self.FRESH and now - stamp > timeout:
            return None, self.STALE, f'joint_commands older than {timeout:g} s'
        return torque, state, reason


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


class CurrentCommand:
    """
    Per-cycle torque-to-current pipeline.

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
        self.lower = model.lower_limits
        self.upper = model.upper_limits
        self.effort = np.array([j.limits.effort for j in model.joints], dtype=float)
        self.scaling = scaling
        self.current_limit = np.asarray(current_limit, dtype=float)
        self._neg_limit = -self.current_limit
        self._neg_effort = -self.effort
        self._amps_per_torque = 1.0 / scaling.axes.torque_per_amp

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
        n = len(q)
        zero = np.zeros(n, dtype=bool)
        if command is None:
            z = np.zeros(n)
            return CurrentResult(z, z, z, zero, zero, zero)
        fric = np.zeros(n) if friction is None else friction
        tau, at_limit = limit_torque(q, command + fric, self.lower, self.upper, margin)
        clipped = np.minimum(np.maximum(tau, self._neg_effort), self.effort)
        amps = clipped * self._amps_per_torque
        limited = np.abs(amps) > self.current_limit
        amps = np.minimum(np.maximum(amps, self._neg_limit), self.current_limit)
        return CurrentResult(amps, clipped, fric, at_limit, clipped != tau, limited)
