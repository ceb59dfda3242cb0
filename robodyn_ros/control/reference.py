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
Fast sampling of a dense trajectory, one instant at a time, in a control loop.

The same interpolation as :class:`~robodyn_ros.planning.trajectory.SampledTrajectory`
(quintic Hermite pieces through the samples' position, velocity and
acceleration; missing derivatives by finite differences; outside the time
range the end position at rest), but with the coefficients of every piece
computed once and the current piece remembered, so one sample costs a
(3, 6) by (6, n) product instead of a search and a vectorised evaluation.
"""

import math

import numpy as np

from .base import JointReference
from ..errors import InputError


class ReferenceSampler:
    """
    Samples a dense trajectory at increasing (or arbitrary) times.

    Parameters
    ----------
    times : array_like
        Strictly increasing sample times, (N,) [s]; shifted to start at 0.
    q : array_like
        Positions, (N, n).
    qd, qdd : array_like, optional
        Velocities and accelerations, (N, n); finite differences if omitted.

    """

    def __init__(self, times, q, qd=None, qdd=None):
        t = np.asarray(times, dtype=float).reshape(-1)
        q = np.asarray(q, dtype=float)
        if t.size < 1 or q.ndim != 2 or q.shape[0] != t.size:
            raise InputError('q', f'expected shape ({t.size}, n), got {q.shape}')
        if t.size > 1 and np.any(np.diff(t) <= 0.0):
            raise InputError('times', 'must be strictly increasing')
        if t.size == 1:
            t = np.array([t[0], t[0]])
            q = np.vstack([q, q])
            qd = qdd = None
        t = t - t[0]
        moving = t[-1] > 0.0
        if qd is None:
            qd = np.gradient(q, t, axis=0) if moving else np.zeros_like(q)
        if qdd is None:
            qdd = np.gradient(qd, t, axis=0) if moving else np.zeros_like(q)
        qd = np.asarray(qd, dtype=float).reshape(q.shape)
        qdd = np.asarray(qdd, dtype=float).reshape(q.shape)
        for name, arr in (('times', t), ('q', q), ('qd', qd), ('qdd', qdd)):
            if not np.all(np.isfinite(arr)):
                raise InputError(name, 'must be finite')
        self.n = q.shape[1]
        self.duration = float(t[-1])
        self._t = t
        self._end = q[-1].copy()
        self._start = q[0].copy()
        self._zero = np.zeros(self.n)
        if not moving:
            self._coeffs = None
            return
        h = np.diff(t)[:, None]
        p0, v0, a0 = q[:-1], qd[:-1] * h, qdd[:-1] * h * h
        p1, v1, a1 = q[1:], qd[1:] * h, qdd[1:] * h * h
        c = np.empty((t.size - 1, 6, self.n))
        c[:, 0], c[:, 1], c[:, 2] = p0, v0, 0.5 * a0
        c[:, 3] = 10 * (p1 - p0) - 6 * v0 - 4 * v1 - 1.5 * a0 + 0.5 * a1
        c[:, 4] = -15 * (p1 - p0) + 8 * v0 + 7 * v1 + 1.5 * a0 - a1
        c[:, 5] = 6 * (p1 - p0) - 3 * v0 - 3 * v1 - 0.5 * a0 + 0.5 * a1
        self._coeffs = c
        self._h = h[:, 0]
        self._k = 0

    def sample(self, t):
        """
        Positions, velocities and accelerations at time ``t``.

        Parameters
        ----------
        t : float
            Time since the start [s].

        Returns
        -------
        tuple of numpy.ndarray
            ``(q, qd, qdd)``, each (n,).

        """
        t = float(t)
        if not math.isfinite(t):
            raise InputError('t', 'must be finite')
        if self._coeffs is None or t > self.duration:
            return self._end.copy(), self._zero.copy(), self._zero.copy()
        if t < 0.0:
            return self._start.copy(), self._zero.copy(), self._zero.copy()
        times = self._t
        last = times.size - 2
        k = self._k
        if not times[k] <= t < times[k + 1]:
            if k < last and times[k + 1] <= t < times[k + 2]:
                k += 1
            else:
                k = min(int(np.searchsorted(times, t, side='right')) - 1, last)
            self._k = k
        h = self._h[k]
        s = (t - times[k]) / h
        s2, s3 = s * s, s * s * s
        basis = np.array([[1.0, s, s2, s3, s2 * s2, s3 * s2],
                          [0.0, 1.0 / h, 2.0 * s / h, 3.0 * s2 / h, 4.0 * s3 / h,
                           5.0 * s2 * s2 / h],
                          [0.0, 0.0, 2.0 / (h * h), 6.0 * s / (h * h), 12.0 * s2 / (h * h),
                           20.0 * s3 / (h * h)]])
        out = basis @ self._coeffs[k]
        return out[0], out[1], out[2]

    def reference(self, t):
        """
        Sample as a :class:`~robodyn_ros.control.base.JointReference`.

        Parameters
        ----------
        t : float
            Time since the start [s].

        Returns
        -------
        JointReference
            The desired state.

        """
        return JointReference(*self.sample(t))
