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
Velocity and acceleration estimation from sampled positions.

:class:`StateVariableFilter` is seed 003's state-variable filter (Appendix
B, the ``Cs`` filter of the real-time controller): a signal ``y`` is passed
through ``1 / C(s)`` and the filter states give the filtered signal and its
derivatives, ``s^i y / C(s)`` for ``i = 0 .. deg C``. With the thesis's
``C(s) = 0.01 s^2 + 0.2 s + 1 = (0.1 s + 1)^2`` (coefficients highest power
first, as in the thesis) the outputs are the filtered angle, velocity and
acceleration, each delayed by the same low-pass filter (double pole at
-10 rad/s), which is what a least-squares estimator needs. The filter is
discretised exactly (matrix exponential) rather than by the thesis's
fifth-order Taylor series, with the input either held constant over a
sample (``hold='zero'``, exact for a zero-order-held torque) or linearly
interpolated (``hold='linear'``, the thesis's ``ConstantBetweenSamples =
FALSE``, better for a sampled position).

:class:`FilteredDifference` is the simple alternative: backward differences
smoothed by a first-order low-pass filter.
"""

import math

import numpy as np
from scipy.linalg import expm

from ..errors import InputError

#: Seed 003 Appendix B: C(s) = 0.01 s^2 + 0.2 s + 1 (real-time controller).
SEED003_REALTIME = (0.01, 0.2, 1.0)
#: Seed 003 Ch. 4.6: C(s) = 0.001 s^3 + 0.03 s^2 + 0.3 s + 1 (off-line, 100 Hz).
SEED003_OFFLINE = (0.001, 0.03, 0.3, 1.0)


class StateVariableFilter:
    """
    ``s^i / C(s)`` filters of one or more channels, discretised exactly.

    Parameters
    ----------
    coefficients : sequence of float
        ``C(s)`` coefficients, highest power first; degree >= 1, leading
        and trailing coefficients non-zero, stable.
    period : float
        Sample period [s].
    channels : int
        Number of signals filtered in parallel (e.g. joints).
    hold : {'linear', 'zero'}
        Input between samples: linear interpolation of the samples, or the
        value given to :meth:`update` held over the sample that just ended.

    """

    def __init__(self, coefficients, period, channels=1, hold='linear'):
        c = np.asarray(coefficients, dtype=float)
        if c.ndim != 1 or c.size < 2 or not np.all(np.isfinite(c)) or c[0] == 0.0 or c[-1] == 0.0:
            raise InputError('coefficients', 'need a polynomial of degree >= 1 with non-zero '
                                             f'leading and constant terms, got {coefficients!r}')
        if np.any(np.real(np.roots(c)) >= 0.0):
            raise InputError('coefficients', f'C(s) = {c.tolist()} is not stable')
        if not (math.isfinite(period) and period > 0.0):
            raise InputError('period', f'must be finite and > 0, got {period}')
        if int(channels) < 1:
            raise InputError('channels', f'must be >= 1, got {channels}')
        if hold not in ('linear', 'zero'):
            raise InputError('hold', f"must be 'linear' or 'zero', got {hold!r}")
        self.coefficients = tuple(float(v) for v in c)
        self.order = k = c.size - 1
        self.period = float(period)
        self.channels = int(channels)
        self.hold = hold
        a = np.zeros((k, k))
        a[:-1, 1:] = np.eye(k - 1)
        # Companion row: z^(k) = (u - c_k z - ... - c_1 z^(k-1)) / c_0.
        self._row = -c[:0:-1] / c[0]
        a[-1] = self._row
        b = np.zeros(k)
        b[-1] = 1.0 / c[0]
        self._b_last = 1.0 / c[0]
        aug = np.zeros((k + 2, k + 2))
        aug[:k, :k] = a
        aug[:k, k] = b
        aug[k, k + 1] = 1.0
        e = expm(aug * self.period)
        self._phi = e[:k, :k].copy()
        self._g0 = e[:k, k].copy()
        self._g1 = e[:k, k + 1].copy() / self.period
        self._dc = 1.0 / c[-1]
        self._g0c = self._g0[:, None]
        self._g1c = self._g1[:, None]
        self._shape = (self.channels,)
        self._x = None
        self._u = None

    def reset(self, u=None):
        """
        Restart at the steady state of a constant input (or empty).

        Parameters
        ----------
        u : array_like, optional
            Input value per channel; None to start at the next update.

        """
        if u is None:
            self._x = None
            self._u = None
            return
        u = self._check(u)
        self._x = np.zeros((self.order, self.channels))
        self._x[0] = u * self._dc
        self._u = u.copy()

    def _check(self, u):
        if type(u) is np.ndarray and u.shape == self._shape and u.dtype == float:
            return u
        arr = np.asarray(u, dtype=float).reshape(-1)
        if arr.shape != (self.channels,):
            raise InputError('u', f'expected {self.channels} values, got {arr.shape}')
        return arr

    def update(self, u):
        """
        Advance one sample and return the outputs.

        Parameters
        ----------
        u : array_like
            New sample (``'linear'``) or the value held over the sample that
            just ended (``'zero'``), one per channel.

        Returns
        -------
        numpy.ndarray
            (order + 1, channels): row i is ``s^i y / C(s)`` (row 0 the
            filtered signal, row 1 its derivative [unit/s], ...).

        """
        u = self._check(u)
        if self._x is None:
            self.reset(u)
            return self.outputs(u)
        if self.hold == 'linear':
            self._x = self._phi @ self._x + self._g0c * self._u + self._g1c * (u - self._u)
        else:
            self._x = self._phi @ self._x + self._g0c * u
        self._u = u
        return self.outputs(u)

    def outputs(self, u=None):
        """
        Compute the outputs for the current state.

        Parameters
        ----------
        u : array_like, optional
            Current input (default: the last one given).

        Returns
        -------
        numpy.ndarray
            (order + 1, channels); zeros before the first update.

        """
        if self._x is None:
            return np.zeros((self.order + 1, self.channels))
        u = self._u if u is None else u
        out = np.empty((self.order + 1, self.channels))
        out[:-1] = self._x
        out[-1] = self._row @ self._x + self._b_last * u
        return out

    def predict(self, u):
        """
        Predict the outputs one sample ahead with ``u`` held (state unchanged).

        Parameters
        ----------
        u : array_like
            Held input per channel.

        Returns
        -------
        numpy.ndarray
            (order + 1, channels).

        """
        u = self._check(u)
        x = self._g0c * u if self._x is None else self._phi @ self._x + self._g0c * u
        out = np.empty((self.order + 1, self.channels))
        out[:-1] = x
        out[-1] = self._row @ x + self._b_last * u
        return out

    def unit_response(self):
        """
        Compute the outputs after one sample of a held unit input from rest.

        Returns
        -------
        numpy.ndarray
            (order + 1,): the change of each output per unit of held input.

        """
        return np.concatenate([self._g0, [self._row @ self._g0 + self._b_last]])

    def __repr__(self):
        return (f'StateVariableFilter(C={list(self.coefficients)}, period={self.period:g}, '
                f'channels={self.channels}, hold={self.hold!r})')


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
