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
Is a measured joint state believable? Limits, speeds and jumps.

A finite state can still be nonsense: a position far outside the joint's
range (1e30 rad from a broken encoder or a rogue publisher), a velocity no
motor can reach, or a position that moved farther since the last sample
than the velocity limit allows in the time between them. A controller fed
such a state commands saturated torque into the joint limits. The
:class:`StatePlausibility` check says what is wrong with a state, so that
the controller stops commanding (the hardware interface then holds the arm
where it is) instead.

Rules, per joint ``j`` with limits ``[lo_j, hi_j]``, velocity limit
``v_j`` and the time ``dt`` since the last accepted sample:

* ``lo_j - margin <= q_j <= hi_j + margin``;
* ``|qd_j| <= speed_factor * v_j``;
* ``|q_j - q_prev_j| <= speed_factor * v_j * dt + margin`` (the margin
  absorbs encoder noise and one sample of timing jitter).

Joints without a limit (infinite) skip that rule.

The rules run in loop form (:func:`first_violation`), compiled by numba
(:data:`COMPILED`, loaded when a :class:`StatePlausibility` is made); the
NumPy form is the fallback and the reference, and words a violation
(``test/test_state_check.py``).
"""

import math

import numpy as np

from ..errors import InputError
from ..realtime.compiled_functions import CompiledFunctions

#: What :func:`first_violation` found: nothing, a position, a velocity, a jump.
NONE, POSITION, VELOCITY, JUMP = range(4)
_ABSENT = np.empty(0)    # no velocity, or no previous sample


def first_violation(q, qd, last_q, dt, lower, upper, speed, margin):
    """
    Find the first broken rule, position rules first (loop form).

    Parameters
    ----------
    q : numpy.ndarray
        Positions, (n,).
    qd, last_q : numpy.ndarray
        Velocities and the last accepted positions, (n,) each, or empty
        when there are none.
    dt : float
        Time since the last accepted sample [s] (>= 0).
    lower, upper, speed : numpy.ndarray
        Position bounds (margin included) and velocity bounds, (n,).
    margin : float
        Jump allowance [rad or m].

    Returns
    -------
    tuple of int
        ``(rule, joint)``: :data:`NONE` (joint 0), :data:`POSITION`,
        :data:`VELOCITY` or :data:`JUMP`, and the first joint breaking it.

    Raises
    ------
    ValueError
        If the arrays differ in length.

    """
    n = q.shape[0]
    for arr in (lower, upper, speed):
        if arr.shape[0] != n:
            raise ValueError('state and bounds differ in length')
    for arr in (qd, last_q):
        if arr.shape[0] != n and arr.shape[0] != 0:
            raise ValueError('state and bounds differ in length')
    for j in range(n):
        if q[j] < lower[j] or q[j] > upper[j]:
            return POSITION, j
    for j in range(qd.shape[0]):
        if abs(qd[j]) > speed[j]:
            return VELOCITY, j
    for j in range(last_q.shape[0]):
        if abs(q[j] - last_q[j]) > speed[j] * dt + margin:
            return JUMP, j
    return NONE, 0


def _warm(compiled):
    one = np.ones(1)
    compiled[0](one, one, one, 0.001, -one, one, one, 0.1)
    compiled[0](one, _ABSENT, _ABSENT, 0.0, -one, one, one, 0.1)


#: The compiled :func:`first_violation` (``COMPILED.get()``: a 1-tuple, or None).
COMPILED = CompiledFunctions('the state plausibility check', (first_violation,), _warm)


class StatePlausibility:
    """
    Limit, speed and jump checks of measured joint states.

    Parameters
    ----------
    model : RobotModel
        Joint names, position and velocity limits.
    margin : float
        Position margin beyond the limits, and the jump allowance [rad or m].
    speed_factor : float
        Multiple of the velocity limit still believed (>= 1).

    """

    def __init__(self, model, margin=0.1, speed_factor=1.5):
        if not (math.isfinite(margin) and margin > 0.0):
            raise InputError('plausibility_margin', f'must be finite and > 0, got {margin}')
        if not (math.isfinite(speed_factor) and speed_factor >= 1.0):
            raise InputError('plausibility_speed_factor', f'must be >= 1, got {speed_factor}')
        self.names = tuple(model.joint_names)
        self.margin = float(margin)
        self.speed_factor = float(speed_factor)
        self.lower = np.asarray(model.lower_limits, dtype=float) - self.margin
        self.upper = np.asarray(model.upper_limits, dtype=float) + self.margin
        self.speed = self.speed_factor * np.asarray(model.velocity_limits, dtype=float)
        self._q = None
        self._t = None
        COMPILED.load()     # here (at configure), never in a cycle

    def reset(self):
        """Forget the last sample (the next one is not checked for a jump)."""
        self._q = None
        self._t = None

    def check(self, q, qd, t):
        """
        Check a state; remember it when it is believable.

        Parameters
        ----------
        q, qd : numpy.ndarray
            Finite positions and velocities, (n,) [rad, rad/s or m, m/s];
            ``qd`` may be None.
        t : float
            Its time [s, monotonic].

        Returns
        -------
        str
            Empty when believable, else what is wrong (naming the joint).

        """
        fast = COMPILED.get()
        if fast is not None:
            try:
                dt = max(t - self._t, 0.0) if self._q is not None else 0.0
                rule, j = fast[0](q, _ABSENT if qd is None else qd,
                                  _ABSENT if self._q is None else self._q, dt, self.lower,
                                  self.upper, self.speed, self.margin)
            except (TypeError, ValueError):   # not float64 vectors of n: the NumPy form
                rule = None
            if rule == NONE:
                self._q = np.array(q, dtype=float)
                self._t = t
                return ''
        return self._numpy_check(q, qd, t)   # the reference; it also words a violation

    def _numpy_check(self, q, qd, t):
        bad = (q < self.lower) | (q > self.upper)
        if bad.any():
            j = int(np.argmax(bad))
            return (f'joint {self.names[j]} position {q[j]:.6g} is outside its limits '
                    f'[{self.lower[j] + self.margin:.6g}, {self.upper[j] - self.margin:.6g}] '
                    f'by more than {self.margin:g}')
        if qd is not None:
            fast = np.abs(qd) > self.speed
            if fast.any():
                j = int(np.argmax(fast))
                limit = self.speed[j] / self.speed_factor
                return (f'joint {self.names[j]} velocity {qd[j]:.6g} exceeds '
                        f'{self.speed_factor:g} x its limit {limit:.6g}')
        if self._q is not None:
            dt = max(t - self._t, 0.0)
            jump = np.abs(q - self._q) > self.speed * dt + self.margin
            if jump.any():
                j = int(np.argmax(jump))
                return (f'joint {self.names[j]} jumped {q[j] - self._q[j]:.6g} in '
                        f'{dt * 1e3:.3g} ms, faster than {self.speed_factor:g} x its velocity '
                        'limit allows')
        self._q = np.array(q, dtype=float)
        self._t = t
        return ''

    def __repr__(self):
        return (f'StatePlausibility(margin={self.margin:g}, '
                f'speed_factor={self.speed_factor:g})')
