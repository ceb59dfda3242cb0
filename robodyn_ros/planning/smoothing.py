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
the path acceleration becomes continuous and the part of the joint jerk
that comes from the jumps, ``|q'_j| |sdd_(k+1) - sdd_k| / w`` at most, is
within the jerk limits: ``w`` is the largest of these over the stage ends
and joints divided by the limit (at least two stages); the motion lasts
``w`` longer. The
result is checked densely with the true torques like every other plan and,
if it exceeds a limit, slowed down uniformly and checked again.
"""

from dataclasses import dataclass
import time

import numpy as np

from .errors import InfeasibleError
from .path_checks import dense_check
from .path_trajectory import PathParameterizedTrajectory, SmoothedPathTrajectory
from .time_optimal import slow_down


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
        Dense verification of ``trajectory``.
    slowdown : float
        Uniform time stretch applied after smoothing (1: none).
    jerk_ratio : numpy.ndarray
        Peak ``|q' sddd| / jerk limit`` per joint after smoothing, (n,).
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


def _jump_jerk(traj, jerk, samples):
    times = np.linspace(0.0, traj.duration, samples)
    lw, _, _, lddd = traj.law(times)
    s = traj.path_position(lw)
    dq = traj.base.path.sample(np.clip(s, 0.0, traj.base.path.duration))[1]
    n = np.linalg.norm(dq, axis=1)
    unit = dq / np.where(n > 1e-12, n, 1.0)[:, None]
    with np.errstate(divide='ignore', invalid='ignore'):
        ratio = np.where(np.isfinite(jerk), np.abs(unit * lddd[:, None]) / jerk, 0.0)
    return ratio.max(axis=0)


def smooth_time_optimal(base, limits, effort_provider=None, effort_limits=None, *,
                        window=None, check_samples=2000, tolerance=1e-6):
    """
    Smooth a time-optimal law so that its acceleration is continuous.

    Parameters
    ----------
    base : PathParameterizedTrajectory
        The time-optimal motion, from rest to rest.
    limits : PlanningLimits
        Limits (the jerk limits choose the window; infinite jerk limits give
        a window of two mean stage times).
    effort_provider : callable, optional
        Torques checked densely (``ModelEffortProvider``).
    effort_limits : array_like, optional
        Torque limits (default ``limits.effort``).
    window : float, optional
        Averaging window [s] (default: the smallest that meets the jerk
        limits).
    check_samples : int
        Even samples of the dense check.
    tolerance : float
        Relative excess over a limit the dense check accepts.

    Returns
    -------
    SmoothResult
        The smoothed motion, its window and check.

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
    stage = base.duration / max(1, sd.size - 1)
    samples = max(4 * sd.size, 2000)
    if window is None:
        window = max(_window_for(base, jerk), 2.0 * stage)
    traj = SmoothedPathTrajectory(base, float(window))
    ratio = _jump_jerk(traj, jerk, samples)
    bound = limits.effort if effort_limits is None else effort_limits
    check = dense_check(traj, limits, effort_provider, bound, check_samples)
    factor = 1.0
    out = traj
    if check.worst > 1.0 + tolerance:
        out, check, factor = slow_down(traj, limits, effort_provider, bound, check, tolerance,
                                       check_samples)
    return SmoothResult(out, float(window), base.duration, check, factor, ratio,
                        time.perf_counter() - began)
