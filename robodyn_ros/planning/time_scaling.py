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
Torque-limited time scaling (Hollerbach 1984), as seed 001 ch. 8 advises.

Running a path ``q(s)`` with time stretched by ``c`` (``t = c s``) divides
velocities by ``c`` and accelerations by ``c^2``. With the inverse dynamics
split into the static part ``tau_s(q) = RNE(q, 0, 0)`` (gravity) and the
rest ``tau_d = RNE(q, qd, qdd) - tau_s`` (inertia and velocity terms), the
torque of the scaled motion is ``tau_s + tau_d / c^2``, so the smallest
``c`` that keeps ``|tau_j| <= limit_j`` at every sample follows in closed
form. Friction does not scale so (Coulomb stays, viscous friction goes with
``1 / c``): the first guess fits ``tau = a + b / c + e / c^2`` per sample
through the torques at ``c = 1, 2, 4`` (one provider call; ``a`` is the
torque of an infinitely slow motion, gravity plus Coulomb friction, and a
path where it exceeds a limit is refused), and the factor is then checked,
and if needed refined, with
the provider's true torques (each step refits ``tau = alpha + beta / c^2``
per sample from the last two evaluations) until the worst sample is within
the limits.

Friction peaks where a joint's velocity passes through zero (Coulomb and
Stribeck terms switch within a tiny speed band that an even time grid
misses, at the start and end of a move as well). The check grid therefore
gets probe states at every zero crossing and rest phase of every joint,
with that joint's velocity set to the small speed at which the provider's
friction peaks (found once by scanning speeds from 1e-5 to 0.1), capped at
the joint's peak speed in the scaled motion. Finally the torques between the
grid samples next to each joint's largest ratios are checked too.
"""

from dataclasses import dataclass
import math

import numpy as np

from .errors import InfeasibleError, LimitError
from .trajectory import Trajectory
from ..errors import InputError
from ..friction.probes import friction_peak_speeds, probe_rows


class TimeScaledTrajectory(Trajectory):
    """
    A trajectory run ``factor`` times slower (``factor < 1``: faster).

    Parameters
    ----------
    path : Trajectory
        The original trajectory.
    factor : float
        Time stretch ``c`` (> 0): the new duration is ``c`` times the old.

    """

    def __init__(self, path, factor):
        if not (math.isfinite(factor) and factor > 0.0):
            raise InputError('factor', f'must be finite and > 0, got {factor}')
        super().__init__(path.joint_names, path.duration * factor)
        self._path = path
        self._factor = float(factor)

    @property
    def path(self):
        """Original trajectory (Trajectory)."""
        return self._path

    @property
    def factor(self):
        """Time stretch ``c`` (float)."""
        return self._factor

    def _evaluate(self, times):
        c = self._factor
        q, qd, qdd = self._path.sample(times / c)
        return q, qd / c, qdd / (c * c)

    def _evaluate_jerk(self, times):
        return self._path.jerk(times / self._factor) / self._factor ** 3


@dataclass(frozen=True, eq=False)
class TimeScalingResult:
    """
    Outcome of torque-limited time scaling.

    Attributes
    ----------
    trajectory : Trajectory
        The scaled trajectory (the original one when no scaling was needed).
    factor : float
        Time stretch ``c`` (1: unchanged, > 1: slower).
    ratio_before : numpy.ndarray
        Peak ``|tau_j| / limit_j`` per joint before scaling, (n,).
    ratio_after : numpy.ndarray
        The same after scaling, (n,).
    limiting_joint : str
        Joint whose torque sets the factor.
    limiting_time : float
        Time of that joint's peak in the scaled trajectory [s].
    evaluations : int
        Calls of the effort provider.

    """

    trajectory: Trajectory
    factor: float
    ratio_before: np.ndarray
    ratio_after: np.ndarray
    limiting_joint: str
    limiting_time: float
    evaluations: int

    @property
    def peak_ratio_before(self):
        """Largest ``|tau| / limit`` before scaling (float)."""
        return float(np.max(self.ratio_before))

    @property
    def peak_ratio_after(self):
        """Largest ``|tau| / limit`` after scaling (float)."""
        return float(np.max(self.ratio_after))


def scaling_grid(trajectory, samples=120):
    """
    Choose the times at which the scaling checks the torques.

    Parameters
    ----------
    trajectory : Trajectory
        The path.
    samples : int
        Evenly spaced samples (the break points of piecewise polynomial
        trajectories are added).

    Returns
    -------
    numpy.ndarray
        Sorted times [s].

    """
    times = np.linspace(0.0, trajectory.duration, max(2, int(samples)))
    breaks = getattr(trajectory, 'breaks', None)
    if breaks is not None:
        # Both sides of every break (accelerations may jump there).
        left = breaks[1:-1] - 1e-9 * max(1.0, trajectory.duration)
        times = np.union1d(times, np.concatenate([breaks, left[left > 0.0]]))
    return times


def _around_peaks(times, ratio, count=3):
    """Path times between grid samples next to the largest torque ratios of each joint."""
    out = []
    for j in range(ratio.shape[1]):
        for k in np.argsort(ratio[:, j])[-count:]:
            lo = times[max(k - 1, 0)]
            hi = times[min(k + 1, times.size - 1)]
            out.extend([times[k] + f * (hi - times[k]) for f in (0.25, 0.5, 0.75)])
            out.extend([times[k] - f * (times[k] - lo) for f in (0.25, 0.5, 0.75)])
    return np.unique(np.clip(out, times[0], times[-1]))


def _factor_for(alpha, beta, bound):
    """Smallest c with |alpha + beta / c^2| <= bound at every sample (inf if none)."""
    with np.errstate(divide='ignore', invalid='ignore'):
        room = np.where(beta > 0.0, (bound - alpha) / beta,
                        np.where(beta < 0.0, (bound + alpha) / -beta, np.inf))
    x = float(np.min(room))
    if x <= 0.0:
        return math.inf
    return 1.0 / math.sqrt(x)


def _factor_for_quadratic(a, b, e, bound):
    """Smallest c with |a + b / c + e / c^2| <= bound for all 1 / c below the first crossing."""
    first = np.full(a.shape, np.inf)
    for sign in (1.0, -1.0):
        c0 = a - sign * bound
        with np.errstate(divide='ignore', invalid='ignore'):
            disc = b * b - 4.0 * e * c0
            root = np.sqrt(np.maximum(disc, 0.0))
            quad = np.abs(e) > 1e-12 * (np.abs(b) + np.abs(c0) + 1e-300)
            r1 = np.where(quad, (-b - root) / (2.0 * e), -c0 / b)
            r2 = np.where(quad, (-b + root) / (2.0 * e), np.inf)
            ok = ~quad | (disc >= 0.0)
        for r in (r1, r2):
            r = np.where(ok & np.isfinite(r) & (r > 0.0), r, np.inf)
            first = np.minimum(first, r)
    x = float(np.min(first))
    return 1.0 / x if x > 0.0 else math.inf


def torque_limited_scaling(trajectory, effort_limits, effort_provider, *, samples=120,
                           margin=1e-3, allow_speedup=False, velocity=None,
                           acceleration=None, max_iterations=8, probe_speeds=None):
    """
    Stretch time uniformly so that the joint torques stay within their limits.

    Parameters
    ----------
    trajectory : Trajectory
        The path (any Trajectory).
    effort_limits : array_like
        Torque or force limits per joint, (n,) [N m or N] (> 0).
    effort_provider : callable
        ``effort_provider(Q, QD, QDD) -> TAU`` for (N, n) arrays, e.g.
        :class:`~robodyn_ros.planning.efforts.ModelEffortProvider`.
    samples : int
        Samples of the check grid (break points, friction probes and, around
        the largest ratios of each joint, points between samples are added).
    margin : float
        Share of each limit kept in reserve for the torque between samples
        (the target is ``(1 - margin) limit``).
    allow_speedup : bool
        Also shorten a trajectory that is slower than it needs to be.
    velocity, acceleration : array_like, optional
        Joint speed and acceleration limits the scaled trajectory must also
        respect (they bound the factor from below).
    max_iterations : int
        Refinement steps with the true torques.
    probe_speeds : tuple of numpy.ndarray, optional
        Result of :func:`friction_peak_speeds` for this provider (computed
        when not given; pass it to save one provider call per plan).

    Returns
    -------
    TimeScalingResult
        The scaled trajectory, the factor and the peak torque ratios.

    Raises
    ------
    LimitError
        Limits at or below zero, or a static torque (gravity, holding
        friction) above a limit somewhere on the path, which no slowing can
        fix.

    """
    provider = _CountingProvider(effort_provider)
    grid = _check_grid(trajectory, effort_limits, margin, samples, provider, probe_speeds)
    fit = _first_guess(grid, provider)
    _refuse_static_overload(grid, fit.tau_static)
    lower = _speed_bound(grid, velocity, acceleration, allow_speedup)
    factor = max(lower, _factor_for_quadratic(fit.tau_static, fit.b_coef, fit.e_coef,
                                              grid.bound))
    if factor == 1.0 and not allow_speedup:
        if np.max(fit.ratio_before) < 1.0 - 5.0 * margin:
            return _result(trajectory, 1.0, fit.tau_one, grid, fit.ratio_before, grid.times,
                           provider.calls)
        best = (1.0, fit.tau_one)
    else:
        best, factor = _refine(grid, provider, fit.tau_one, factor, lower, max_iterations)
    if best is None:
        best = _grow(grid, provider, factor)
    factor, tau, times = _check_between_samples(grid, provider, *best)
    traj = trajectory if factor == 1.0 else TimeScaledTrajectory(trajectory, factor)
    return _result(traj, factor, tau, grid, fit.ratio_before, times * factor, provider.calls)


class _CountingProvider:
    """An effort provider that counts its calls and returns float arrays."""

    def __init__(self, provider):
        self.provider = provider
        self.calls = 0

    def __call__(self, q, qd, qdd):
        self.calls += 1
        return np.asarray(self.provider(q, qd, qdd), dtype=float)


@dataclass(eq=False)
class _Grid:
    """The check grid: path samples, friction probes and the limits they are held to."""

    trajectory: Trajectory
    names: list
    limit: np.ndarray
    bound: np.ndarray
    margin: float
    grid_times: np.ndarray
    times: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    offset: np.ndarray
    peak_speed: np.ndarray

    def probe_offset(self, c):
        """Probe speeds at factor ``c``: never above the joint's peak speed there."""
        return np.sign(self.offset) * np.minimum(np.abs(self.offset), self.peak_speed / c)

    def torques(self, provider, c):
        """Return the true torques on the grid at factor ``c`` (one provider call)."""
        return provider(self.q, self.qd / c + self.probe_offset(c), self.qdd / c ** 2)


@dataclass(frozen=True, eq=False)
class _FirstGuess:
    """Per-sample fit ``tau = a + b / c + e / c^2`` through ``c = 1, 2, 4``."""

    tau_one: np.ndarray
    tau_static: np.ndarray
    b_coef: np.ndarray
    e_coef: np.ndarray
    ratio_before: np.ndarray


def _check_grid(trajectory, effort_limits, margin, samples, provider, probe_speeds):
    """Phase 1: check the limits and margin, sample the grid and add the friction probes."""
    names = list(trajectory.joint_names)
    n = len(names)
    limit = np.broadcast_to(np.asarray(effort_limits, dtype=float), (n,)).copy()
    for j in range(n):
        if not limit[j] > 0.0:
            raise LimitError(names[j], 'effort limit', limit[j], 0.0, 'must be >')
    if not (0.0 <= margin < 1.0):
        raise InputError('margin', f'must be in [0, 1), got {margin}')
    times = grid_times = scaling_grid(trajectory, samples)
    q, qd, qdd = trajectory.sample(times)
    if probe_speeds is None:
        probe_speeds = friction_peak_speeds(provider, q[0])
    # A probe's speed never exceeds the joint's peak speed at the factor tried.
    peak_speed = np.max(np.abs(qd), axis=0)
    offset = np.zeros_like(q)
    probes = probe_rows(trajectory, times, qd, probe_speeds)
    if probes is not None:
        t0, pq, pv, pa, poff = probes
        times = np.concatenate([times, t0])
        q, qd, qdd = np.vstack([q, pq]), np.vstack([qd, pv]), np.vstack([qdd, pa])
        offset = np.vstack([offset, poff])
    return _Grid(trajectory, names, limit, limit * (1.0 - margin), margin, grid_times, times,
                 q, qd, qdd, offset, peak_speed)


def _first_guess(grid, provider):
    """Phase 2: one provider call at full, half and quarter speed, and the fit through them."""
    # a: gravity and Coulomb friction, the torque of an infinitely slow motion;
    # b: viscous-like; e: inertia and velocity products.
    rows = len(grid.times)
    q, qd, qdd = grid.q, grid.qd, grid.qdd
    tau = provider(np.vstack([q, q, q]),
                   np.vstack([qd + grid.probe_offset(1.0), qd / 2.0 + grid.probe_offset(2.0),
                              qd / 4.0 + grid.probe_offset(4.0)]),
                   np.vstack([qdd, qdd / 4.0, qdd / 16.0]))
    tau_one, tau_2, tau_4 = tau[:rows], tau[rows:2 * rows], tau[2 * rows:]
    # Solve a + b x + e x^2 through x = 1, 1/2, 1/4.
    e_coef = 8.0 / 3.0 * (tau_one - 3.0 * tau_2 + 2.0 * tau_4)
    b_coef = 2.0 * (tau_one - tau_2) - 1.5 * e_coef
    return _FirstGuess(tau_one, tau_one - b_coef - e_coef, b_coef, e_coef,
                       np.max(np.abs(tau_one), axis=0) / grid.limit)


def _refuse_static_overload(grid, tau_static):
    """Phase 3: refuse a path whose static torque alone exceeds a usable limit."""
    bound = grid.bound
    over = np.abs(tau_static) > bound
    if np.any(over):
        k, j = np.argwhere(over)[np.argmax((np.abs(tau_static) / bound)[over])]
        raise LimitError(grid.names[j], 'static torque', tau_static[k, j], bound[j],
                         'exceeds the usable limit', 'N m or N',
                         f'at t = {grid.times[k]:.4g} s; gravity and friction need it even '
                         'for an infinitely slow motion, so no time scaling can help')


def _speed_bound(grid, velocity, acceleration, allow_speedup):
    """Phase 4: the smallest factor the speed and acceleration limits (and no speed-up) allow."""
    lower = 0.0 if allow_speedup else 1.0
    n = len(grid.names)
    for peak_vals, bounds, power in ((grid.qd, velocity, 1.0), (grid.qdd, acceleration, 0.5)):
        if bounds is not None:
            bounds = np.broadcast_to(np.asarray(bounds, dtype=float), (n,))
            with np.errstate(divide='ignore', invalid='ignore'):
                need = (np.max(np.abs(peak_vals), axis=0) / bounds) ** power
            lower = max(lower, float(np.nanmax(np.where(np.isfinite(bounds), need, 0.0))))
    return lower


def _refine(grid, provider, tau_one, factor, lower, max_iterations):
    """
    Phase 5: refine the factor with the true torques.

    Returns ``(best, factor)``: the best fitting ``(factor, torques)`` (None
    if none fitted) and the last factor tried or proposed.
    """
    margin = grid.margin
    points = [(1.0, tau_one)]
    best = None
    for _ in range(max(1, int(max_iterations))):
        if not math.isfinite(factor) or factor > 1e6:
            raise InfeasibleError('no finite time scaling keeps the torques within the limits')
        tau = grid.torques(provider, factor)
        worst = float(np.max(np.abs(tau) / grid.limit))
        if worst <= 1.0:
            if worst >= 1.0 - 3.0 * margin or factor <= lower * (1.0 + 1e-12):
                return (factor, tau), factor
            if best is None or factor < best[0]:
                best = (factor, tau)
        points.append((factor, tau))
        (c_a, t_a), (c_b, t_b) = points[-2], points[-1]
        new = math.nan
        if abs(c_a - c_b) > 1e-12 * c_b:
            # Refit tau = alpha + beta / c^2 per sample through the last two factors.
            beta = (t_a - t_b) / (1.0 / c_a ** 2 - 1.0 / c_b ** 2)
            alpha = t_b - beta / c_b ** 2
            new = _factor_for(alpha, beta, grid.bound)
        if not math.isfinite(new) or abs(new - factor) <= 1e-12 * factor:
            new = factor * (1.0 + max(margin, 1e-3)) if worst > 1.0 else \
                factor * (1.0 - max(margin, 1e-3))
        factor = max(lower, new)
    return best, factor


def _grow(grid, provider, factor):
    """Phase 6 (fallback): grow the factor by 5 % steps until the true torques fit."""
    for _ in range(200):
        factor *= 1.05
        tau = grid.torques(provider, factor)
        if np.max(np.abs(tau) / grid.limit) <= 1.0:
            return factor, tau
    raise InfeasibleError('no time scaling found that keeps the torques within the limits')


def _check_between_samples(grid, provider, factor, tau):
    """Phase 7: check the torques between the grid samples next to each joint's peaks."""
    size = len(grid.grid_times)
    for _ in range(5):
        extra = _around_peaks(grid.grid_times, np.abs(tau[:size]) / grid.limit)
        eq, eqd, eqdd = grid.trajectory.sample(extra)
        tau_extra = provider(eq, eqd / factor, eqdd / factor ** 2)
        worst = float(np.max(np.abs(tau_extra) / grid.limit))
        if worst <= 1.0:
            return (factor, np.vstack([tau, tau_extra]),
                    np.concatenate([grid.times, extra]))
        factor *= 1.0 + 2.0 * (worst - 1.0) + 1e-6
        tau = grid.torques(provider, factor)
    raise InfeasibleError('the torque between grid samples keeps exceeding the limits; '
                          'use more samples')


def _result(traj, factor, tau, grid, ratio_before, times, calls):
    ratio = np.abs(tau) / grid.limit
    k, j = np.unravel_index(int(np.argmax(ratio)), ratio.shape)
    return TimeScalingResult(traj, float(factor), ratio_before, ratio.max(axis=0),
                             grid.names[j], float(times[k]), calls)
