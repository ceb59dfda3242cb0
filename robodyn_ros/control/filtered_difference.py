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
Velocity and acceleration by backward differences and a first-order low-pass filter.

The simple alternative to :class:`~.filters.StateVariableFilter`: no delay
matching between the position and its derivatives, one pole per signal.
"""

import math

import numpy as np

from ..errors import InputError


class FilteredDifference:
    """
    Velocity and acceleration by backward differences and a first-order low-pass filter.

    Parameters
    ----------
    period : float
        Sample period [s].
    cutoff : float
        Cut-off frequency of the low-pass filters [Hz] (below Nyquist).
    channels : int
        Number of signals.

    """

    def __init__(self, period, cutoff, channels=1):
        if not (math.isfinite(period) and period > 0.0):
            raise InputError('period', f'must be finite and > 0, got {period}')
        if not (math.isfinite(cutoff) and 0.0 < cutoff < 0.5 / period):
            raise InputError('cutoff', f'must be in (0, {0.5 / period:g}) Hz, got {cutoff}')
        self.period = float(period)
        self.cutoff = float(cutoff)
        self.channels = int(channels)
        self._alpha = math.exp(-2.0 * math.pi * cutoff * period)
        self._q = None
        self._v = None
        self._a = None

    def reset(self):
        """Forget the history (the next sample restarts at rest)."""
        self._q = None

    def update(self, q):
        """
        Add a sample.

        Parameters
        ----------
        q : array_like
            Positions, one per channel.

        Returns
        -------
        tuple of numpy.ndarray
            ``(q, velocity, acceleration)`` estimates [unit, unit/s, unit/s^2].

        """
        q = np.asarray(q, dtype=float).reshape(-1)
        if q.shape != (self.channels,):
            raise InputError('q', f'expected {self.channels} values, got {q.shape}')
        if self._q is None:
            self._q = q.copy()
            self._v = np.zeros(self.channels)
            self._a = np.zeros(self.channels)
            return q.copy(), self._v.copy(), self._a.copy()
        al = self._alpha
        v = al * self._v + (1.0 - al) * (q - self._q) / self.period
        self._a = al * self._a + (1.0 - al) * (v - self._v) / self.period
        self._v = v
        self._q = q.copy()
        return q.copy(), v.copy(), self._a.copy()

    def __repr__(self):
        return f'FilteredDifference(period={self.period:g}, cutoff={self.cutoff:g} Hz)'
