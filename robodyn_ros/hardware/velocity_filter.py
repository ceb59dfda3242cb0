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
State-variable filter: joint velocity and acceleration from encoder positions.

As in seed 003 (Appendix B), the measured angle drives a low-pass filter
whose states are the filtered angle and its derivatives::

    p_f'' + 2 zeta w p_f' + w^2 p_f = w^2 q        (w = 2 pi f_c)

so ``p_f`` is the filtered position, ``v = p_f'`` the velocity estimate and
``a = p_f''`` the acceleration estimate. The filter is discretised exactly
for a zero-order-hold input over each sample interval (the board time step),
so it stays correct when reports are lost. Its DC gain is one; the
estimates lag by about ``2 zeta / w`` seconds at low frequencies. The
velocity and acceleration returned are the means of ``p_f'`` and ``p_f''``
over the last sample interval, ``(p_k - p_{k-1}) / dt`` and
``(v_k - v_{k-1}) / dt``: with a held (staircase) input the end-of-interval
derivatives ripple (the acceleration is biased by ``w^2 dt v / 2`` on a
ramp, the velocity by about ``(w dt)^2 / 12``), the interval means are
exact for a ramp.
"""

import math

import numpy as np
from scipy.linalg import expm

from ..errors import InputError


class StateVariableFilter:
    """
    Second-order state-variable filter for ``n`` joints.

    Parameters
    ----------
    n : int
        Number of joints.
    bandwidth : float
        Natural frequency ``f_c`` [Hz].
    damping : float
        Damping ratio ``zeta`` (1: critically damped double pole, as in seed 003).
    max_gap : float
        A sample interval longer than this resets the filter [s].

    """

    def __init__(self, n, bandwidth=30.0, damping=1.0, max_gap=0.1):
        if not (math.isfinite(bandwidth) and bandwidth > 0.0):
            raise InputError('bandwidth', f'must be a positive frequency [Hz], got {bandwidth}')
        if not (math.isfinite(damping) and damping > 0.0):
            raise InputError('damping', f'must be positive, got {damping}')
        self.n = int(n)
        self.bandwidth = float(bandwidth)
        self.damping = float(damping)
        self.max_gap = float(max_gap)
        w = 2.0 * math.pi * self.bandwidth
        self._w2 = w * w
        self._state = np.zeros((2, self.n))
        self._a = np.array([[0.0, 1.0], [-w * w, -2.0 * self.damping * w]])
        self._cache = {}
        self.position = None
        self.velocity = np.zeros(self.n)
        self.acceleration = np.zeros(self.n)

    def __repr__(self):
        return (f'StateVariableFilter(n={self.n}, bandwidth={self.bandwidth:g} Hz, '
                f'damping={self.damping:g})')

    def _discrete(self, dt):
        key = round(dt * 1e7)
        m = self._cache.get(key)
        if m is None:
            ad = expm(self._a * dt)
            bd = np.linalg.solve(self._a, (ad - np.eye(2)) @ np.array([0.0, self._w2]))
            if len(self._cache) > 64:
                self._cache.clear()
            m = self._cache[key] = (ad, bd)
        return m

    def reset(self, q=None):
        """
        Forget the history; the next sample starts the filter at rest there.

        Parameters
        ----------
        q : array_like, optional
            Start at this position now instead [rad or m].

        """
        self.position = None if q is None else np.array(q, dtype=float)
        self.velocity = np.zeros(self.n)
        self.acceleration = np.zeros(self.n)
        if q is not None:
            self._state = np.array([self.position, self.velocity])

    def update(self, q, dt):
        """
        Feed one position sample.

        Parameters
        ----------
        q : numpy.ndarray
            Measured positions, (n,) [rad or m].
        dt : float
            Time since the previous sample [s].

        Returns
        -------
        tuple of numpy.ndarray
            Filtered position, velocity [rad/s or m/s] and acceleration
            [rad/s^2 or m/s^2], (n,) each (new arrays every call).

        """
        q = np.asarray(q, dtype=float)
        if self.position is None or not (0.0 < dt <= self.max_gap):
            self.reset(q)
            return self.position, self.velocity, self.acceleration
        ad, bd = self._discrete(dt)
        state = ad @ self._state + bd[:, None] * q
        self.velocity = (state[0] - self._state[0]) / dt
        self.acceleration = (state[1] - self._state[1]) / dt
        self._state = state
        self.position = state[0]
        return self.position, self.velocity, self.acceleration
