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
Trajectories that run a geometric path with a time law ``s(t)`` (no rclpy).

:class:`PathParameterizedTrajectory` is the output of reachability: the path
acceleration ``sdd`` is constant on each grid stage, so ``s(t)`` is
piecewise quadratic and the joint acceleration jumps at the stage ends.
:class:`SmoothedPathTrajectory` runs the same path with the moving average
of that law over a window ``w``::

    s_w(t) = (1 / w) integral_{t - w}^{t} s(tau) dtau

(``s`` held at its ends outside ``[0, T]``), so ``sd_w`` is the window
average of ``sd``, ``sdd_w(t) = (sd(t) - sd(t - w)) / w`` is continuous and
the path jerk ``(sdd(t) - sdd(t - w)) / w`` is bounded by the spread of
``sdd`` over ``w``. The motion lasts ``T + w``.
"""

import numpy as np

from .trajectory import Trajectory


class PathParameterizedTrajectory(Trajectory):
    """
    A path run with a piecewise constant path acceleration.

    Parameters
    ----------
    path : Trajectory
        Geometric path ``q(s)``, ``s`` in ``[0, path.duration]``.
    grid : numpy.ndarray
        Path grid ``s_i``, (K,).
    x : numpy.ndarray
        Squared path speeds at the grid points, (K,) [1/s^2 in path units].
    u : numpy.ndarray
        Path acceleration on each stage, (K - 1,).

    """

    def __init__(self, path, grid, x, u):
        grid = np.asarray(grid, dtype=float)
        sd = np.sqrt(np.maximum(np.asarray(x, dtype=float), 0.0))
        ds = np.diff(grid)
        with np.errstate(divide='ignore', invalid='ignore'):
            h = np.where(ds > 0.0, 2.0 * ds / (sd[:-1] + sd[1:]), 0.0)
        if not np.all(np.isfinite(h)):
            raise ValueError('a stage has zero speed at both ends')
        times = np.concatenate([[0.0], np.cumsum(h)])
        super().__init__(path.joint_names, times[-1])
        self._path = path
        self._grid, self._sd, self._u, self._t = grid, sd, np.asarray(u, dtype=float), times
        # Integral of s over each stage start, for the smoothed law.
        area = grid[:-1] * h + 0.5 * sd[:-1] * h ** 2 + self._u * h ** 3 / 6.0
        self._area = np.concatenate([[0.0], np.cumsum(area)])

    @property
    def path(self):
        """Geometric path (Trajectory)."""
        return self._path

    @property
    def grid(self):
        """Path grid, (K,) (numpy.ndarray)."""
        return self._grid.copy()

    @property
    def grid_times(self):
        """Times of the grid points [s], (K,) (numpy.ndarray)."""
        return self._t.copy()

    @property
    def path_speed(self):
        """Path speeds at the grid points, (K,) (numpy.ndarray)."""
        return self._sd.copy()

    @property
    def path_acceleration(self):
        """Path acceleration per stage, (K - 1,) (numpy.ndarray)."""
        return self._u.copy()

    def law(self, times):
        """
        Path position, speed and acceleration at given times.

        Parameters
        ----------
        times : numpy.ndarray
            Times within ``[0, duration]`` [s].

        Returns
        -------
        tuple of numpy.ndarray
            ``(s, sd, sdd)``, each (N,).

        """
        t = np.clip(times, 0.0, self.duration)
        k = np.clip(np.searchsorted(self._t, t, side='right') - 1, 0, self._u.size - 1)
        tau = t - self._t[k]
        u = self._u[k]
        s = self._grid[k] + self._sd[k] * tau + 0.5 * u * tau ** 2
        s = np.clip(s, self._grid[k], self._grid[k + 1])
        sd = np.maximum(self._sd[k] + u * tau, 0.0)
        return s, sd, u

    def law_integral(self, times):
        """Integral of ``s`` from 0 to each time, ``s`` held outside ``[0, duration]``."""
        t = np.asarray(times, dtype=float)
        tc = np.clip(t, 0.0, self.duration)
        k = np.clip(np.searchsorted(self._t, tc, side='right') - 1, 0, self._u.size - 1)
        tau = tc - self._t[k]
        out = (self._area[k] + self._grid[k] * tau + 0.5 * self._sd[k] * tau ** 2
               + self._u[k] * tau ** 3 / 6.0)
        return out + np.where(t > self.duration, self._grid[-1] * (t - self.duration), 0.0) \
            + np.where(t < 0.0, self._grid[0] * t, 0.0)

    def _run(self, s, sd, sdd):
        q, dq, ddq = self._path.sample(np.clip(s, 0.0, self._path.duration))
        return q, dq * sd[:, None], dq * np.asarray(sdd)[..., None] + ddq * (sd ** 2)[:, None]

    def _evaluate(self, times):
        return self._run(*self.law(times))


class SmoothedPathTrajectory(Trajectory):
    """
    A path run with the moving average of a piecewise constant acceleration law.

    Parameters
    ----------
    base : PathParameterizedTrajectory
        The time-optimal law (starting and ending at rest).
    window : float
        Averaging window ``w`` [s] (> 0).

    """

    def __init__(self, base, window):
        super().__init__(base.joint_names, base.duration + window)
        self._base = base
        self._w = float(window)

    @property
    def base(self):
        """Law before smoothing (PathParameterizedTrajectory)."""
        return self._base

    @property
    def window(self):
        """Averaging window [s] (float)."""
        return self._w

    def law(self, times):
        """
        Smoothed path position, speed, acceleration and jerk at given times.

        Parameters
        ----------
        times : numpy.ndarray
            Times [s].

        Returns
        -------
        tuple of numpy.ndarray
            ``(s, sd, sdd, sddd)``, each (N,).

        """
        b, w = self._base, self._w
        t = np.asarray(times, dtype=float)
        s = (b.law_integral(t) - b.law_integral(t - w)) / w

        def parts(tt):
            inside = (tt >= 0.0) & (tt <= b.duration)
            ls, lsd, lsdd = b.law(tt)
            ls = np.where(tt < 0.0, b.grid[0], np.where(tt > b.duration, b.grid[-1], ls))
            return ls, np.where(inside, lsd, 0.0), np.where(inside, lsdd, 0.0)

        s1, sd1, sdd1 = parts(t)
        s0, sd0, sdd0 = parts(t - w)
        return s, (s1 - s0) / w, (sd1 - sd0) / w, (sdd1 - sdd0) / w

    def _evaluate(self, times):
        s, sd, sdd, _ = self.law(times)
        return self._base._run(s, sd, sdd)
