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
of that law over a window ``w`` (in joint distance along the path), so the
acceleration is continuous and the jerk of the jumps is spread over ``w``;
the motion lasts ``T + w``.
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
        """Return the geometric path q(s), a Trajectory."""
        return self._path

    @property
    def grid(self):
        """Path grid, (K,) (numpy.ndarray)."""
        return self._grid.copy()

    @property
    def grid_times(self):
        """Return the times of the grid points [s], (K,) (numpy.ndarray)."""
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

    def _evaluate_jerk(self, times):
        """Jerk inside the stages, ``3 q'' sd sdd + q^(3) sd^3`` (the jumps are not finite)."""
        s, sd, sdd = self.law(times)
        s = np.clip(s, 0.0, self._path.duration)
        ddq = self._path.sample(s)[2]
        return 3.0 * ddq * (sd * sdd)[:, None] + self._path.jerk(s) * (sd ** 3)[:, None]


#: Floor of the joint-distance rate, as a share of its largest value on the path.
DISTANCE_FLOOR = 1e-3


class SmoothedPathTrajectory(Trajectory):
    """
    A path run with the moving average of a time-optimal law in joint distance.

    The law is averaged in the joint distance ``l(s) = integral n ds`` with
    ``n = sqrt(|q'|^2 + delta^2)`` rather than in ``s``, so that grid stages
    where the path parameter moves fast but the joints hardly move (``q'``
    near zero at a path's rest ends) do not spread their large ``sdd`` over
    the window::

        l_w(t) = (1 / w) integral_{t - w}^{t} l(s(tau)) dtau,   s_w = l^-1(l_w)

    The floor ``delta`` (:data:`DISTANCE_FLOOR` times the largest ``|q'|``)
    keeps ``l^-1`` well conditioned where ``q'`` vanishes, so that the path
    rates ``sd = ld / n`` stay consistent with the tabulated ``s_w``.
    ``ld_w = (l(t) - l(t - w)) / w``, ``ldd_w = (ld(t) - ld(t - w)) / w`` and
    ``lddd_w = (ldd(t) - ldd(t - w)) / w`` are exact; ``l_w`` comes from a
    cumulative table (20,000 steps) and ``l^-1`` from a table of 20 points
    per grid stage (linear interpolation). :meth:`jerk` is the full joint
    jerk ``q' sddd + 3 q'' sd sdd + q''' sd^3``.

    Parameters
    ----------
    base : PathParameterizedTrajectory
        The time-optimal law (starting and ending at rest).
    window : float
        Averaging window ``w`` [s] (> 0).

    """

    def __init__(self, base, window, steps=20000):
        super().__init__(base.joint_names, base.duration + window)
        self._base = base
        self._w = float(window)
        path = base.path
        self._s_tab = np.linspace(0.0, path.duration, 20 * base.grid.size + 1)
        _, dq, ddq = path.sample(self._s_tab)
        self._delta = DISTANCE_FLOOR * max(float(np.max(np.linalg.norm(dq, axis=1))), 1e-12)
        self._n_tab, dn = self._rate(dq, ddq)
        self._l_tab = _cumulative(self._s_tab, self._n_tab, dn)
        self._t_tab = np.linspace(0.0, base.duration, steps + 1)
        lt, ldt, _ = self._parts(self._t_tab)
        self._lt_tab = lt
        self._int_tab = _cumulative(self._t_tab, lt, ldt)

    @property
    def base(self):
        """Law before smoothing (PathParameterizedTrajectory)."""
        return self._base

    @property
    def window(self):
        """Averaging window [s] (float)."""
        return self._w

    def _l_of_s(self, s):
        return _hermite(s, self._s_tab, self._l_tab, self._n_tab)

    def _integral(self, t):
        b = self._base
        out = _hermite(np.clip(t, 0.0, b.duration), self._t_tab, self._int_tab, self._lt_tab)
        return out + np.where(t > b.duration, self._l_tab[-1] * (t - b.duration), 0.0)

    def _rate(self, dq, ddq, dddq=None):
        """Distance rate ``n`` and its s-derivatives ``n'`` (and ``n''``) along the path."""
        n = np.sqrt(np.sum(dq * dq, axis=1) + self._delta ** 2)
        dn = np.sum(dq * ddq, axis=1) / n
        if dddq is None:
            return n, dn
        return n, dn, (np.sum(ddq * ddq, axis=1) + np.sum(dq * dddq, axis=1) - dn ** 2) / n

    def _parts(self, t):
        """Joint distance, its rate and its second derivative of the base law at t."""
        b = self._base
        inside = (t >= 0.0) & (t <= b.duration)
        s, sd, sdd = b.law(t)
        _, dq, ddq = b.path.sample(np.clip(s, 0.0, b.path.duration))
        n, dn = self._rate(dq, ddq)
        ld = n * sd
        ldd = n * sdd + dn * sd ** 2
        lv = np.where(t < 0.0, 0.0, np.where(t > b.duration, self._l_tab[-1], self._l_of_s(s)))
        return lv, np.where(inside, ld, 0.0), np.where(inside, ldd, 0.0)

    def law(self, times):
        """
        Smoothed joint distance, its rate, acceleration and jerk at given times.

        Parameters
        ----------
        times : numpy.ndarray
            Times [s].

        Returns
        -------
        tuple of numpy.ndarray
            ``(l, ld, ldd, lddd)``, each (N,).

        """
        t = np.asarray(times, dtype=float)
        w = self._w
        l1, ld1, ldd1 = self._parts(t)
        l0, ld0, ldd0 = self._parts(t - w)
        lw = (self._integral(t) - self._integral(t - w)) / w
        return lw, (l1 - l0) / w, (ld1 - ld0) / w, (ldd1 - ldd0) / w

    def path_position(self, distance):
        """
        Path parameter at a given joint-space distance along the path.

        Parameters
        ----------
        distance : numpy.ndarray
            Joint distance ``l`` from the start [rad].

        Returns
        -------
        numpy.ndarray
            Path parameter s (the base path's time) [s].

        """
        return _hermite(distance, self._l_tab, self._s_tab, 1.0 / self._n_tab)

    def _rates(self, times, third):
        """Path derivatives and the path rates ``sd``, ``sdd`` (and ``sddd``) at times."""
        lw, ld, ldd, lddd = self.law(times)
        path = self._base.path
        s = np.clip(self.path_position(lw), 0.0, path.duration)
        q, dq, ddq = path.sample(s)
        if not third:
            n, dn = self._rate(dq, ddq)
            sd = ld / n
            return q, dq, ddq, sd, (ldd - dn * sd ** 2) / n
        dddq = path.jerk(s)
        n, dn, ddn = self._rate(dq, ddq, dddq)
        sd = ld / n
        sdd = (ldd - dn * sd ** 2) / n
        sddd = (lddd - 3.0 * dn * sd * sdd - ddn * sd ** 3) / n
        return dq, ddq, dddq, sd, sdd, sddd

    def _evaluate(self, times):
        q, dq, ddq, sd, sdd = self._rates(times, False)
        return q, dq * sd[:, None], dq * sdd[:, None] + ddq * (sd ** 2)[:, None]

    def _evaluate_jerk(self, times):
        """Return the full joint jerk ``q' sddd + 3 q'' sd sdd + q''' sd^3``."""
        dq, ddq, dddq, sd, sdd, sddd = self._rates(times, True)
        return dq * sddd[:, None] + 3.0 * ddq * (sd * sdd)[:, None] + dddq * (sd ** 3)[:, None]


def _cumulative(x, y, dy):
    """Integral of y from x[0] at each x, exact for cubic pieces (y and dy at the nodes)."""
    h = np.diff(x)
    piece = 0.5 * h * (y[1:] + y[:-1]) + h ** 2 * (dy[:-1] - dy[1:]) / 12.0
    return np.concatenate([[0.0], np.cumsum(piece)])


def _hermite(x, xs, ys, slopes):
    """Cubic Hermite interpolation of (xs, ys) with given slopes, held beyond the ends."""
    x = np.clip(x, xs[0], xs[-1])
    k = np.clip(np.searchsorted(xs, x, side='right') - 1, 0, xs.size - 2)
    h = xs[k + 1] - xs[k]
    u = (x - xs[k]) / h
    u2, u3 = u * u, u * u * u
    return ((2.0 * u3 - 3.0 * u2 + 1.0) * ys[k] + (u3 - 2.0 * u2 + u) * h * slopes[k]
            + (3.0 * u2 - 2.0 * u3) * ys[k + 1] + (u3 - u2) * h * slopes[k + 1])
