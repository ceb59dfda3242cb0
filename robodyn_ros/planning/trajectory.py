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
The trajectory value shared by the planner, the controllers and the nodes.

A :class:`Trajectory` maps time [s] to joint positions, velocities and
accelerations (and, through :meth:`Trajectory.jerk`, jerks); it is
immutable and can be sampled at any time. Before the start it holds the
initial position, after the end the final position, both with zero velocity
and acceleration.
"""

from abc import ABC, abstractmethod
import math

import numpy as np

from . import piecewise_kernel
from ..errors import InputError


class Trajectory(ABC):
    """
    Joint trajectory over ``[0, duration]``.

    Parameters
    ----------
    joint_names : sequence of str
        Joint names, in column order.
    duration : float
        Length [s].

    """

    def __init__(self, joint_names, duration):
        self._joint_names = tuple(joint_names)
        if not (math.isfinite(duration) and duration >= 0.0):
            raise InputError('duration', f'must be finite and >= 0, got {duration}')
        self._duration = float(duration)

    @property
    def joint_names(self):
        """Joint names, in column order (tuple of str)."""
        return self._joint_names

    @property
    def n(self):
        """Count the joints (int)."""
        return len(self._joint_names)

    @property
    def duration(self):
        """Length of the trajectory [s]."""
        return self._duration

    def sample(self, t):
        """
        Positions, velocities and accelerations at given times.

        Parameters
        ----------
        t : float or array_like
            Time(s) [s]; outside ``[0, duration]`` the end position is held
            with zero velocity and acceleration.

        Returns
        -------
        tuple of numpy.ndarray
            ``(q, qd, qdd)``: shape (n,) for a scalar ``t``, (N, n) for an
            array of N times [rad, rad/s, rad/s^2 or m, m/s, m/s^2].

        """
        scalar = np.ndim(t) == 0
        times = np.atleast_1d(np.asarray(t, dtype=float))
        if not np.all(np.isfinite(times)):
            raise InputError('t', 'times must be finite')
        q, qd, qdd = self._evaluate(np.clip(times, 0.0, self._duration))
        outside = (times < 0.0) | (times > self._duration)
        qd[outside] = 0.0
        qdd[outside] = 0.0
        if scalar:
            return q[0], qd[0], qdd[0]
        return q, qd, qdd

    def jerk(self, t):
        """
        Jerks (third time derivatives of the positions) at given times.

        Parameters
        ----------
        t : float or array_like
            Time(s) [s]; outside ``[0, duration]`` the jerk is zero.

        Returns
        -------
        numpy.ndarray
            Jerks, (n,) for a scalar ``t``, (N, n) for N times [rad/s^3 or m/s^3].

        """
        scalar = np.ndim(t) == 0
        times = np.atleast_1d(np.asarray(t, dtype=float))
        if not np.all(np.isfinite(times)):
            raise InputError('t', 'times must be finite')
        out = self._evaluate_jerk(np.clip(times, 0.0, self._duration))
        out[(times < 0.0) | (times > self._duration)] = 0.0
        return out[0] if scalar else out

    def _evaluate_jerk(self, times):
        """Jerk by a central difference of the accelerations (subclasses give it exactly)."""
        h = 1e-5 * max(self._duration, 1e-3)
        lo = np.clip(times - h, 0.0, self._duration)
        hi = np.clip(times + h, 0.0, self._duration)
        span = np.where(hi > lo, hi - lo, 1.0)[:, None]
        return (self._evaluate(hi)[2] - self._evaluate(lo)[2]) / span

    @property
    def starts_at_rest(self):
        """Whether velocity and acceleration are zero at t = 0 (bool)."""
        _, qd, qdd = self._evaluate(np.zeros(1))
        return bool(np.allclose(qd, 0.0, atol=1e-12) and np.allclose(qdd, 0.0, atol=1e-9))

    @property
    def ends_at_rest(self):
        """Whether velocity and acceleration are zero at the end (bool)."""
        _, qd, qdd = self._evaluate(np.array([self._duration]))
        return bool(np.allclose(qd, 0.0, atol=1e-12) and np.allclose(qdd, 0.0, atol=1e-9))

    def dense(self, dt):
        """
        Sample on a regular grid that includes the end point.

        Parameters
        ----------
        dt : float
            Grid step [s] (> 0).

        Returns
        -------
        tuple of numpy.ndarray
            ``(times, q, qd, qdd)``.

        """
        if not (math.isfinite(dt) and dt > 0.0):
            raise InputError('dt', f'must be a positive time step, got {dt}')
        count = max(1, int(math.ceil(self._duration / dt - 1e-9)))
        times = np.linspace(0.0, self._duration, count + 1) if self._duration > 0 else \
            np.zeros(1)
        q, qd, qdd = self.sample(times)
        return times, q, qd, qdd

    def check_limits(self, lower=None, upper=None, velocity=None, acceleration=None, dt=1e-3,
                     tol=1e-9):
        """
        Find limit violations on a dense grid.

        Parameters
        ----------
        lower, upper : array_like, optional
            Position limits per joint.
        velocity, acceleration : array_like, optional
            Symmetric speed and acceleration limits per joint.
        dt : float
            Grid step [s].
        tol : float
            Relative tolerance.

        Returns
        -------
        list of str
            One line per violated limit: joint, quantity, worst value, bound.

        """
        _, q, qd, qdd = self.dense(dt)
        problems = []
        checks = [('position', q, lower, 'min'), ('position', q, upper, 'max'),
                  ('velocity', np.abs(qd), velocity, 'max'),
                  ('acceleration', np.abs(qdd), acceleration, 'max')]
        for label, values, bound, kind in checks:
            if bound is None:
                continue
            bound = np.broadcast_to(np.asarray(bound, dtype=float), (self.n,))
            for j in range(self.n):
                if not math.isfinite(bound[j]):
                    continue
                slack = tol * max(1.0, abs(bound[j]))
                if kind == 'max' and values[:, j].max() > bound[j] + slack:
                    problems.append(f'joint {self._joint_names[j]}: {label} '
                                    f'{values[:, j].max():.6g} exceeds {bound[j]:.6g}')
                if kind == 'min' and values[:, j].min() < bound[j] - slack:
                    problems.append(f'joint {self._joint_names[j]}: {label} '
                                    f'{values[:, j].min():.6g} below {bound[j]:.6g}')
        return problems

    @abstractmethod
    def _evaluate(self, times):
        """Return ``(q, qd, qdd)`` arrays (N, n) for times within ``[0, duration]``."""

    def __repr__(self):
        return (f'{type(self).__name__}(joints={list(self._joint_names)}, '
                f'duration={self._duration:.6g})')


class PiecewisePolynomialTrajectory(Trajectory):
    """
    Per-joint polynomials on consecutive segments.

    Parameters
    ----------
    joint_names : sequence of str
        Joint names.
    breaks : array_like
        Segment boundaries, (S + 1,), increasing, starting at 0 [s].
    coefficients : array_like
        (S, n, d + 1): for segment s and joint j, ``c[0] + c[1] tau + ... +
        c[d] tau^d`` with ``tau`` the time since the segment start [s].

    """

    def __init__(self, joint_names, breaks, coefficients):
        breaks = np.asarray(breaks, dtype=float)
        coeffs = np.asarray(coefficients, dtype=float)
        if breaks.ndim != 1 or breaks.size < 2 or breaks[0] != 0.0 or np.any(
                np.diff(breaks) < 0.0):
            raise InputError('breaks', 'must increase from 0 with at least two entries')
        if coeffs.ndim != 3 or coeffs.shape[0] != breaks.size - 1 or coeffs.shape[1] != len(
                joint_names):
            raise InputError('coefficients', f'expected shape ({breaks.size - 1}, '
                                             f'{len(joint_names)}, d + 1), got {coeffs.shape}')
        if not (np.all(np.isfinite(breaks)) and np.all(np.isfinite(coeffs))):
            raise InputError('coefficients', 'must be finite')
        super().__init__(joint_names, breaks[-1])
        self._breaks = np.ascontiguousarray(breaks)
        self._coeffs = np.ascontiguousarray(coeffs)
        powers = np.arange(coeffs.shape[2])
        self._d1 = coeffs[:, :, 1:] * powers[1:]
        self._d2 = self._d1[:, :, 1:] * powers[1:-1] if coeffs.shape[2] > 2 else \
            np.zeros(coeffs.shape[:2] + (1,))
        self._d3 = self._d2[:, :, 1:] * powers[1:-2] if coeffs.shape[2] > 3 else \
            np.zeros(coeffs.shape[:2] + (1,))
        self._tables = piecewise_kernel.stack(self._coeffs, self._d1, self._d2)
        self._jerk_table = piecewise_kernel.stack(self._d3)

    @property
    def breaks(self):
        """Segment boundaries [s] (numpy.ndarray)."""
        return self._breaks.copy()

    @property
    def coefficients(self):
        """Polynomial coefficients, (S, n, d + 1) (numpy.ndarray)."""
        return self._coeffs.copy()

    def _evaluate(self, times):
        if piecewise_kernel.COMPILED:
            q, qd, qdd = piecewise_kernel.evaluate(self._breaks, self._tables, times)
            return q, qd, qdd
        seg = np.clip(np.searchsorted(self._breaks, times, side='right') - 1, 0,
                      len(self._breaks) - 2)
        tau = times - self._breaks[seg]
        return (_polyval(self._coeffs[seg], tau), _polyval(self._d1[seg], tau),
                _polyval(self._d2[seg], tau))

    def _evaluate_jerk(self, times):
        if piecewise_kernel.COMPILED:
            return piecewise_kernel.evaluate(self._breaks, self._jerk_table, times)[0]
        seg = np.clip(np.searchsorted(self._breaks, times, side='right') - 1, 0,
                      len(self._breaks) - 2)
        return _polyval(self._d3[seg], times - self._breaks[seg])


def _polyval(coeffs, tau):
    """Evaluate (N, n, k) ascending coefficients at (N,) times."""
    out = np.zeros(coeffs.shape[:2])
    for k in range(coeffs.shape[2] - 1, -1, -1):
        out = out * tau[:, None] + coeffs[:, :, k]
    return out


class SampledTrajectory(Trajectory):
    """
    A trajectory given by dense samples, interpolated by quintic Hermite pieces.

    Between samples the position is the quintic matching position, velocity
    and acceleration at both ends (missing velocities and accelerations are
    estimated by finite differences). This reproduces any piecewise quintic
    (or lower) trajectory sampled at its knots exactly.

    Parameters
    ----------
    joint_names : sequence of str
        Joint names.
    times : array_like
        Strictly increasing sample times starting at 0, (N,) [s].
    q : array_like
        Positions, (N, n).
    qd, qdd : array_like, optional
        Velocities and accelerations, (N, n).

    """

    def __init__(self, joint_names, times, q, qd=None, qdd=None):
        t = np.asarray(times, dtype=float)
        q = np.asarray(q, dtype=float)
        n = len(joint_names)
        if t.ndim != 1 or t.size < 1 or (t.size > 1 and np.any(np.diff(t) <= 0.0)):
            raise InputError('times', 'must be strictly increasing')
        if q.shape != (t.size, n):
            raise InputError('q', f'expected shape ({t.size}, {n}), got {q.shape}')
        if t.size == 1:
            t = np.array([0.0, 0.0])
            q = np.vstack([q, q])
        if qd is None:
            qd = np.gradient(q, t, axis=0) if t[-1] > 0 else np.zeros_like(q)
        if qdd is None:
            qdd = np.gradient(qd, t, axis=0) if t[-1] > 0 else np.zeros_like(q)
        qd = np.asarray(qd, dtype=float).reshape(q.shape)
        qdd = np.asarray(qdd, dtype=float).reshape(q.shape)
        for name, arr in (('times', t), ('q', q), ('qd', qd), ('qdd', qdd)):
            if not np.all(np.isfinite(arr)):
                raise InputError(name, 'must be finite')
        super().__init__(joint_names, t[-1] - t[0])
        self._t = t - t[0]
        self._q, self._qd, self._qdd = q, qd, qdd

    def _evaluate(self, times):
        t = self._t
        if t[-1] == 0.0:
            k = np.zeros(times.size, dtype=int)
            return self._q[k], self._qd[k] * 0.0, self._qdd[k] * 0.0
        k = np.clip(np.searchsorted(t, times, side='right') - 1, 0, t.size - 2)
        h = (t[k + 1] - t[k])[:, None]
        s = ((times - t[k])[:, None]) / h
        p0, v0, a0 = self._q[k], self._qd[k] * h, self._qdd[k] * h * h
        p1, v1, a1 = self._q[k + 1], self._qd[k + 1] * h, self._qdd[k + 1] * h * h
        # Quintic Hermite in normalised time s in [0, 1].
        c3 = 10 * (p1 - p0) - 6 * v0 - 4 * v1 - 1.5 * a0 + 0.5 * a1
        c4 = -15 * (p1 - p0) + 8 * v0 + 7 * v1 + 1.5 * a0 - a1
        c5 = 6 * (p1 - p0) - 3 * v0 - 3 * v1 - 0.5 * a0 + 0.5 * a1
        c2 = 0.5 * a0
        pos = p0 + s * (v0 + s * (c2 + s * (c3 + s * (c4 + s * c5))))
        vel = v0 + s * (2 * c2 + s * (3 * c3 + s * (4 * c4 + s * 5 * c5)))
        acc = 2 * c2 + s * (6 * c3 + s * (12 * c4 + s * 20 * c5))
        return pos, vel / h, acc / (h * h)
