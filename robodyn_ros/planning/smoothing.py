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
The jerk-limited variant of the time-optimal law: a moving-average pass (no rclpy).

The time-optimal law has a piecewise constant path acceleration, so the joint
accelerations jump. :func:`smooth_time_optimal` replaces ``s(t)`` by its
moving average over a window ``w`` (:class:`~.path_trajectory.SmoothedPathTrajectory`):
the path acceleration becomes continuous and the joint jerk finite. The full
joint jerk ``q' sddd + 3 q'' sd sdd + q^(3) sd^3`` has two parts: the jumps
spread over the window (``|q'_j| |sdd_(k+1) - sdd_k| / w`` at most, which
gives the smallest window ``w_0``, at least two stages) and the curvature
terms, which do not shrink with ``w``. A uniform time stretch ``k`` divides
all of them by ``k^3``. The pass tries the windows ``w_0`` times
:data:`WINDOW_FACTORS`, computes for each the stretch that brings the peak
full jerk (dense samples) to the limit, and keeps the shortest motion
``(T + w) k``. Given a ``resolve`` callable, it first lowers the path speed
where the jerk is over its limit, by the cube root of the excess, and has
the time-optimal law solved again with that cap (:data:`LOCAL_ROUNDS`
rounds; the shortest motion of all rounds is kept). The result is checked
densely, jerk included, with the true torques like every other plan and, if
it exceeds a limit, slowed down uniformly further and checked again.
"""

from dataclasses import dataclass
import time

import numpy as np

from .errors import InfeasibleError
from .path_checks import dense_check, jerk_peaks
from .path_trajectory import PathParameterizedTrajectory, SmoothedPathTrajectory
from .rest_stops import path_stops, PathSection, RestChain
from .time_optimal import slow_down
from .time_scaling import TimeScaledTrajectory

#: Windows tried, as multiples of the smallest window of the acceleration jumps.
WINDOW_FACTORS = (1.0, 1.5, 2.0, 3.0)

#: Share of the jerk limit kept free when the stretch is chosen (for peaks between samples).
JERK_MARGIN = 1e-4

#: Rounds of local speed caps (each re-solves the time-optimal law), when a re-solve is given.
LOCAL_ROUNDS = 4

#: Relative excess over the limit a local cap aims below (the re-solved law moves a little).
LOCAL_MARGIN = 0.02


@dataclass(frozen=True, eq=False)
class SmoothResult:
    """
    Outcome of the smoothing pass.

    Attributes
    ----------
    trajectory : Trajectory
        The smoothed motion (possibly uniformly slowed down).
    window : float
        Averaging window [s].
    optimal_duration : float
        Duration of the time-optimal law [s].
    check : DenseCheck
        Dense verification of ``trajectory``, full joint jerk included.
    slowdown : float
        Uniform time stretch applied after smoothing (1: none).
    jerk_ratio : numpy.ndarray
        Peak ``|full joint jerk| / jerk limit`` per joint of ``trajectory``
        at the dense samples, (n,).
    total_time : float
        Wall-clock time of the pass [s].

    """

    trajectory: object
    window: float
    optimal_duration: float
    check: object
    slowdown: float
    jerk_ratio: np.ndarray
    total_time: float

    @property
    def duration(self):
        """Length of the motion [s] (float)."""
        return self.trajectory.duration

    @property
    def cost(self):
        """Relative duration increase over the time-optimal law (float)."""
        return self.duration / self.optimal_duration - 1.0


def _window_for(base, jerk):
    """Smallest window whose spread of the acceleration jumps meets the jerk limits."""
    s = base.grid
    dq = base.path.sample(s[1:-1])[1]
    du = np.abs(np.diff(base.path_acceleration))
    with np.errstate(divide='ignore', invalid='ignore'):
        need = np.where(np.isfinite(jerk), np.abs(dq) * du[:, None] / jerk, 0.0)
    return float(np.max(need)) if need.size else 0.0


def _jerk_stretch(traj, jerk, samples):
    """Uniform stretch that brings the peak full jerk at dense samples to the limits."""
    finite = np.isfinite(jerk)
    if not np.any(finite):
        return 1.0
    peak = np.max(jerk_peaks(traj, jerk, samples)[0])
    return max(1.0, float(np.cbrt(peak / (1.0 - JERK_MARGIN))))


def _best_window(base, jerk, windows, samples):
    """Window and stretch of the shortest smoothed motion within the jerk limits."""
    best = None
    for w in windows:
        traj = SmoothedPathTrajectory(base, float(w))
        k = _jerk_stretch(traj, jerk, samples)
        if best is None or traj.duration * k < best[0].duration * best[1]:
            best = (traj, k)
    return best


def _lowered_caps(traj, jerk, samples, caps):
    """
    Lower the path speed caps where the full jerk of a smoothed law is over its limit.

    The jerk at time ``t`` comes from the base law on ``[t - w, t]``; every
    grid point there gets the cap ``sd r^(-1/3)`` (the jerk scales with the
    cube of the speed), ``r`` the largest jerk ratio it contributes to.
    Returns the new caps on the base law's grid, or None when none is over.
    """
    law = traj.base
    finite = np.isfinite(jerk)
    times = np.linspace(0.0, traj.duration, samples)
    ratio = np.max(np.abs(traj.jerk(times))[:, finite] / jerk[finite], axis=1)
    over = np.nonzero(ratio > 1.0)[0]
    if over.size == 0:
        return None
    gt = law.grid_times
    lo = np.clip(np.searchsorted(gt, times[over] - traj.window, side='right') - 1, 0,
                 gt.size - 1)
    hi = np.clip(np.searchsorted(gt, times[over], side='left'), 0, gt.size - 1)
    scale = np.ones(gt.size)
    wanted = (ratio[over] * (1.0 + LOCAL_MARGIN)) ** (-1.0 / 3.0)
    for d in range(int(np.max(hi - lo)) + 1):
        inside = lo + d <= hi
        np.minimum.at(scale, (lo + d)[inside], wanted[inside])
    grid = law.grid
    cap = scale * law.path_speed
    if caps is not None:
        cap = np.minimum(cap, np.interp(grid, *caps))
    return grid, cap


def _local_rounds(base, jerk, samples, window, resolve):
    """Smoothed motion and stretch of the best round of local speed caps (first: none)."""
    law, caps, best = base, None, None
    for _ in range(LOCAL_ROUNDS + 1 if resolve is not None else 1):
        stage = law.duration / max(1, law.grid.size - 1)
        smallest = max(_window_for(law, jerk), 2.0 * stage)
        windows = [smallest * f for f in WINDOW_FACTORS] if window is None else [window]
        traj, k = _best_window(law, jerk, windows, samples)
        if best is None or traj.duration * k < best[0].duration * best[1]:
            best = (traj, k)
        if resolve is None or k <= 1.0:
            break
        lowered = _lowered_caps(traj, jerk, samples, caps)
        if lowered is None:
            break
        caps = lowered
        law = resolve(lambda s, c=caps: np.interp(s, *c))
        if not isinstance(law, PathParameterizedTrajectory):
            break
    return best


def smooth_time_optimal(base, limits, effort_provider=None, effort_limits=None, *,
                        window=None, check_samples=2000, tolerance=1e-6, resolve=None):
    """
    Smooth a time-optimal law so that its acceleration is continuous and its jerk limited.

    Parameters
    ----------
    base : PathParameterizedTrajectory
        The time-optimal motion, from rest to rest.
    limits : PlanningLimits
        Limits (the jerk limits choose the window and the stretch; infinite
        jerk limits give a window of two mean stage times and no stretch).
    effort_provider : callable, optional
        Torques checked densely (``ModelEffortProvider``).
    effort_limits : array_like, optional
        Torque limits (default ``limits.effort``).
    window : float, optional
        Averaging window [s] (default: the one of :data:`WINDOW_FACTORS`
        that gives the shortest motion).
    check_samples : int
        Even samples of the dense check (at least four per grid point are
        used).
    tolerance : float
        Relative excess over a limit the dense check accepts.
    resolve : callable, optional
        ``resolve(speed_cap) -> Trajectory``: the time-optimal law of the same
        path and limits with a further path speed cap (``time_optimal(...,
        speed_cap=speed_cap).trajectory``). Given, the speed is lowered
        locally where the jerk is over its limit (:data:`LOCAL_ROUNDS`
        rounds) before any uniform stretch; the shortest motion is kept.

    Returns
    -------
    SmoothResult
        The smoothed motion, its window and check (jerk included).

    Raises
    ------
    InfeasibleError
        When the law does not start and end at rest.

    """
    began = time.perf_counter()
    if not isinstance(base, PathParameterizedTrajectory):
        raise InfeasibleError('only a time-optimal law (PathParameterizedTrajectory) can be '
                              'smoothed')
    sd = base.path_speed
    if sd[0] > 0.0 or sd[-1] > 0.0:
        raise InfeasibleError('smoothing needs a law that starts and ends at rest')
    jerk = np.asarray(limits.jerk, dtype=float)
    samples = max(4 * sd.size, int(check_samples))
    traj, factor = _local_rounds(base, jerk, samples, None if window is None else float(window),
                                 resolve if np.any(np.isfinite(jerk)) else None)
    bound = limits.effort if effort_limits is None else effort_limits
    out = TimeScaledTrajectory(traj, factor) if factor > 1.0 else traj
    check = dense_check(out, limits, effort_provider, bound, samples, jerk=True)
    if check.worst > 1.0 + tolerance:
        out, check, factor = slow_down(traj, limits, effort_provider, bound, check, tolerance,
                                       samples, start=factor)
    return SmoothResult(out, traj.window, base.duration, check, factor, check.jerk.copy(),
                        time.perf_counter() - began)


def smooth_with_stops(base, limits, solve, effort_provider=None, effort_limits=None, *,
                      check_samples=2000, tolerance=1e-6):
    """
    Smooth a time-optimal law, stopping where its path comes back on itself.

    At every stop of :func:`~.rest_stops.path_stops` (a reversal or a
    repeated waypoint: ``q'`` nearly vanishes and the direction turns by more
    than 90 degrees) the path is split; each section is timed at rest at
    both ends by ``solve`` and smoothed on its own
    (:func:`smooth_time_optimal`, with local speed caps), and the sections
    are run one after the other (:class:`~.rest_stops.RestChain`). Without a
    stop (or when a section's law is only a uniformly slowed one) this is
    :func:`smooth_time_optimal` of ``base``.

    Parameters
    ----------
    base : PathParameterizedTrajectory
        The time-optimal motion of the whole path, from rest to rest.
    limits : PlanningLimits
        Limits, jerk included.
    solve : callable
        ``solve(path, speed_cap) -> Trajectory``: the time-optimal law of a
        path (a section of ``base.path``) from rest to rest with a further
        path speed cap (None: none).
    effort_provider : callable, optional
        Torques checked densely (``ModelEffortProvider``).
    effort_limits : array_like, optional
        Torque limits (default ``limits.effort``).
    check_samples : int
        Even samples of the dense check of the chained motion.
    tolerance : float
        Relative excess over a limit the dense check accepts.

    Returns
    -------
    SmoothResult
        The smoothed motion (a ``RestChain`` when the path has stops); its
        ``optimal_duration`` is the one of ``base``.

    """
    began = time.perf_counter()
    path = base.path
    ends = np.concatenate([[0.0], path_stops(path), [path.duration]])
    sections = [PathSection(path, a, b) for a, b in zip(ends[:-1], ends[1:])]
    laws = [solve(p, None) for p in sections] if len(sections) > 1 else []
    if not all(isinstance(law, PathParameterizedTrajectory) for law in laws) or not laws:
        # No stop, or a section the time-optimal law could only slow down uniformly.
        return smooth_time_optimal(base, limits, effort_provider, effort_limits,
                                   check_samples=check_samples, tolerance=tolerance,
                                   resolve=lambda cap: solve(path, cap))
    pieces, windows = [], []
    for section, law in zip(sections, laws):
        part = smooth_time_optimal(law, limits, effort_provider, effort_limits,
                                   check_samples=check_samples, tolerance=tolerance,
                                   resolve=lambda cap, p=section: solve(p, cap))
        pieces.append(part.trajectory)
        windows.append(part.window)
    chain = RestChain(pieces)
    bound = limits.effort if effort_limits is None else effort_limits
    samples = max(int(check_samples), 4 * base.grid.size * len(pieces))
    check = dense_check(chain, limits, effort_provider, bound, samples, jerk=True)
    out, factor = chain, 1.0
    if check.worst > 1.0 + tolerance:
        out, check, factor = slow_down(chain, limits, effort_provider, bound, check, tolerance,
                                       samples)
    return SmoothResult(out, float(max(windows)), base.duration, check, factor,
                        check.jerk.copy(), time.perf_counter() - began)
