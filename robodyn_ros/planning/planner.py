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
The planning pipeline the ``trajectory_planner`` node runs (no rclpy).

A :class:`Planner` holds the joint limits, the profile kind and an effort
provider. :meth:`Planner.plan` turns a start state and waypoints (with or
without times) into a :class:`Plan`: the trajectory of the chosen kind,
torque-limited time scaling when asked, a final check of every limit, and
dense samples (positions, velocities, accelerations and feed-forward
efforts) ready for a message. :meth:`Planner.stop` plans a smooth stop.
Its settings, a :class:`~.planner_config.PlannerConfig`, and the choices
they offer live in :mod:`.planner_config` (also importable from here).
"""

from dataclasses import dataclass, field, replace
import math
import time

import numpy as np

from .efforts import ModelEffortProvider
from .errors import InfeasibleError, PlanningCancelled, TooLargeError
from .jerk_limited import jerk_limited, smooth_stop
from .limits import joint_vector
from .multi_segment import quintic_linear_quintic, stop_and_go, three_five_three
from .path_trajectory import PathParameterizedTrajectory
from .planner_config import (OPTIMAL_PROFILES, PlannerConfig, PROFILES,
                             TIME_PARAMETERIZATIONS)
from .profiles import KINDS
from .smoothing import smooth_with_stops
from .time_optimal import time_optimal, TimeOptimalSettings
from .time_scaling import TimeScaledTrajectory, torque_limited_scaling
from .trajectory import PiecewisePolynomialTrajectory
from .via_points import check_range, first_bad_rows, segment_peaks, via_points
from ..errors import InputError
from ..friction.probes import friction_peak_speeds

#: Jerk limit used where none is given, per unit of acceleration limit [1/s].
DEFAULT_JERK_PER_ACCELERATION = 10.0

#: Speed and acceleration below which a start state counts as rest.
REST_TOLERANCE = 1e-9


@dataclass(frozen=True, eq=False)
class Plan:
    """
    A planned motion with its dense samples.

    Attributes
    ----------
    trajectory : Trajectory
        The motion.
    times : numpy.ndarray
        Sample times from the start, (N,) [s].
    positions, velocities, accelerations : numpy.ndarray
        Samples, (N, n) [rad, rad/s, rad/s^2 or m, m/s, m/s^2].
    efforts : numpy.ndarray or None
        Feed-forward efforts, (N, n) [N m or N].
    scaling : TimeScalingResult, TimeOptimalResult, SmoothResult or None
        Outcome of the time parameterization (None when off or not
        applicable).
    profile : str
        Profile kind used.
    planning_time : float
        Wall-clock time spent [s].

    """

    trajectory: object
    times: np.ndarray
    positions: np.ndarray
    velocities: np.ndarray
    accelerations: np.ndarray
    efforts: np.ndarray = None
    scaling: object = None
    profile: str = ''
    planning_time: float = 0.0
    notes: tuple = field(default=())

    @property
    def duration(self):
        """Length of the motion [s] (float)."""
        return self.trajectory.duration


def exact_peaks(trajectory):
    """
    Peak speed and acceleration of each joint, exact where possible.

    Parameters
    ----------
    trajectory : Trajectory
        The motion.

    Returns
    -------
    tuple of numpy.ndarray
        ``(velocity, acceleration)`` peaks, (n,) each.

    """
    factor = 1.0
    inner = trajectory
    if isinstance(trajectory, TimeScaledTrajectory):
        factor, inner = trajectory.factor, trajectory.path
    if isinstance(inner, PiecewisePolynomialTrajectory):
        pv, pa = segment_peaks(inner)
        return pv.max(axis=0) / factor, pa.max(axis=0) / factor ** 2
    _, _, qd, qdd = trajectory.dense(max(trajectory.duration / 4000.0, 1e-4))
    return np.abs(qd).max(axis=0), np.abs(qdd).max(axis=0)


class Planner:
    """
    Plan joint motions under limits, with optional torque-limited time scaling.

    Parameters
    ----------
    limits : PlanningLimits
        Limits of the planned joints (their names fix the column order).
    config : PlannerConfig
        Settings.
    effort_provider : callable, optional
        ``(Q, QD, QDD) -> TAU`` for the planned joints; needed for time
        scaling and feed-forward efforts.

    """

    def __init__(self, limits, config=None, effort_provider=None):
        self._config = config if config is not None else PlannerConfig()
        jerk = np.where(np.isfinite(limits.jerk), limits.jerk,
                        DEFAULT_JERK_PER_ACCELERATION * limits.acceleration)
        self._limits = limits.with_values(jerk=jerk)
        self._effort = effort_provider
        self._probe_speeds = None

    @property
    def limits(self):
        """Limits in use (PlanningLimits)."""
        return self._limits

    @property
    def config(self):
        """Return the settings (PlannerConfig)."""
        return self._config

    @property
    def joint_names(self):
        """Planned joints (tuple of str)."""
        return self._limits.joint_names

    @property
    def effort_provider(self):
        """Effort provider (callable or None)."""
        return self._effort

    def with_effort_provider(self, effort_provider):
        """
        Return a copy using another effort provider for the same joints.

        Parameters
        ----------
        effort_provider : callable
            ``(Q, QD, QDD) -> TAU``.

        Returns
        -------
        Planner
            The copy (it keeps the cached friction probe speeds).

        """
        out = Planner(self._limits, self._config, effort_provider)
        out._probe_speeds = self._probe_speeds
        return out

    def plan(self, start, waypoints, durations=None, start_velocity=None,
             start_acceleration=None, cancel=None):
        """
        Plan from a start state through waypoints.

        Parameters
        ----------
        start : array_like
            Start positions, (n,) [rad or m].
        waypoints : array_like
            Waypoints, (m, n); the last one is the goal.
        durations : array_like, optional
            Time of each of the m segments [s] (default: chosen from the
            limits).
        start_velocity, start_acceleration : array_like, optional
            Start state (default rest).
        cancel : callable, optional
            ``cancel() -> bool``, asked between the stages (and the
            time-optimal repairs): True stops planning.

        Returns
        -------
        Plan
            The motion and its samples.

        Raises
        ------
        RobodynError
            ``InputError``/``LimitError`` for bad input (naming joint, value
            and bound), ``TooLargeError`` beyond ``max_waypoints`` or
            ``max_duration``, ``InfeasibleError`` and friends when the
            motion is impossible, ``PlanningCancelled`` when ``cancel`` said so.

        """
        began = time.perf_counter()
        names = self.joint_names
        n = len(names)
        q0 = joint_vector(start, n, 'start', names)
        pts = np.asarray(waypoints, dtype=float)
        if pts.ndim == 1:
            pts = pts[None, :]
        if pts.ndim != 2 or pts.shape[1] != n or pts.shape[0] < 1:
            raise InputError('waypoints', f'expected shape (m, {n}) with m >= 1, got '
                                          f'{np.shape(waypoints)}')
        if pts.shape[0] > self._config.max_waypoints:
            raise TooLargeError('max_waypoints', f'the goal has {pts.shape[0]} waypoints, more '
                                                 f'than max_waypoints = '
                                                 f'{self._config.max_waypoints}')
        for k in first_bad_rows(pts, self._limits):
            joint_vector(pts[k], n, f'waypoint {k}', names)
            self._limits.check_positions(pts[k], 'goal position', detail=f'point {k}')
        self._limits.check_positions(q0, 'start position')
        v0 = np.zeros(n) if start_velocity is None else joint_vector(
            start_velocity, n, 'start_velocity', names)
        a0 = np.zeros(n) if start_acceleration is None else joint_vector(
            start_acceleration, n, 'start_acceleration', names)
        if durations is not None:
            durations = np.asarray(durations, dtype=float).reshape(-1)
            if durations.shape != (pts.shape[0],) or not np.all(np.isfinite(durations)) or \
                    np.any(durations <= 0.0):
                raise InputError('durations', f'expected {pts.shape[0]} finite times > 0 s, '
                                              f'got {durations.tolist()}')
            self._check_duration(float(np.sum(durations)), 'the goal lasts')
        _check(cancel)
        traj = self._path(q0, np.vstack([q0, pts]), durations, v0, a0)
        _check(cancel)
        return self._finish(traj, began, given_times=durations is not None, cancel=cancel)

    def plan_line(self, model, start, goal, frame=None, **options):
        """
        Plan a straight line of a frame in task space, timed like :meth:`plan`.

        Parameters
        ----------
        model : RobotModel
            The robot (the planned joints must be all its joints, in order).
        start : array_like
            Start joint positions, (n,).
        goal : array_like
            Goal pose, 4x4, or joint positions.
        frame : str, optional
            Moving frame (default the end effector).
        **options
            Passed to :func:`~.cartesian.cartesian_line` (``task_limits``,
            a :class:`~.cartesian.CartesianLimits`, ``kind``, ``dt``, ...).

        Returns
        -------
        Plan
            The line, re-timed by the configured time parameterization.

        """
        from .cartesian import cartesian_line
        began = time.perf_counter()
        options.setdefault('limits', self._limits)
        traj = cartesian_line(model, start, goal, frame, **options)
        return self._finish(traj, began, given_times=False)

    def stop(self, position, velocity, acceleration):
        """
        Plan a smooth stop from a moving state.

        Parameters
        ----------
        position, velocity, acceleration : array_like
            Current (planned) state, (n,).

        Returns
        -------
        Plan
            Braking to rest within the acceleration and jerk limits (no
            time scaling: braking as fast as allowed).

        """
        began = time.perf_counter()
        traj = smooth_stop(position, velocity, acceleration, self._limits)
        return self._samples(traj, None, began, 'stop')

    # ------------------------------------------------------------------ internals
    def _path(self, q0, pts, durations, v0, a0):
        kind = self._config.profile
        lim = self._limits
        moving = np.any(np.abs(v0) > REST_TOLERANCE) or np.any(np.abs(a0) > REST_TOLERANCE)
        if kind == 'spline':
            return via_points(pts, durations, lim, v0, a0)
        if kind == 'ruckig':
            return jerk_limited(pts, lim, v0, a0, durations)
        if moving:
            j = int(np.argmax(np.abs(v0) + np.abs(a0)))
            raise InfeasibleError(
                f'profile {kind!r} starts at rest but joint {lim.joint_names[j]!r} moves '
                f'(velocity {v0[j]:.4g}, acceleration {a0[j]:.4g}); stop first or use the '
                'spline or ruckig profile')
        if kind in KINDS:
            return stop_and_go(pts, kind, lim, durations)
        if pts.shape[0] != 4:
            raise InputError('waypoints', f'profile {kind!r} needs exactly 3 waypoints after '
                                          f'the start, got {pts.shape[0] - 1}')
        build = (lambda h: three_five_three(pts, h, lim.joint_names)) \
            if kind == 'three_five_three' else \
            (lambda h: quintic_linear_quintic(pts, np.concatenate([[0.0], np.cumsum(h)]),
                                              lim.joint_names))
        if durations is not None:
            traj = build(durations)
        else:
            traj = self._fit_uniform(build, pts)
        check_range(traj, lim)
        return traj

    def _fit_uniform(self, build, pts):
        """Choose segment times, then scale them uniformly to the tightest limit."""
        lim = self._limits
        delta = np.abs(np.diff(pts, axis=0))
        with np.errstate(divide='ignore', invalid='ignore'):
            base = np.where(np.isfinite(lim.velocity), 15.0 / 8.0 * delta / lim.velocity, 0.0)
            base = np.maximum(base, np.where(np.isfinite(lim.acceleration),
                                             np.sqrt(5.78 * delta / lim.acceleration), 0.0))
        h = np.maximum(base.max(axis=1), 1e-3)
        traj = build(h)
        pv, pa = segment_peaks(traj)
        with np.errstate(divide='ignore', invalid='ignore'):
            ratio = max(float(np.nanmax(np.where(np.isfinite(lim.velocity),
                                                 pv.max(axis=0) / lim.velocity, 0.0))),
                        math.sqrt(float(np.nanmax(np.where(np.isfinite(lim.acceleration),
                                                           pa.max(axis=0) / lim.acceleration,
                                                           0.0)))))
        if not (np.any(np.isfinite(lim.velocity)) or np.any(np.isfinite(lim.acceleration))):
            raise InfeasibleError('choosing segment times needs finite velocity or '
                                  'acceleration limits (or give the times)')
        if not ratio > 0.0:
            return traj                 # nothing moves: the shortest segments will do
        return build(h * ratio)

    def _check_duration(self, duration, what):
        limit = self._config.max_duration
        if not duration <= limit:
            raise TooLargeError('max_duration', f'{what} {duration:.6g} s, more than '
                                                f'max_duration = {limit:g} s')

    def _optimal(self, traj, start_speed, cancel=None):
        """Time-optimal (and smoothed) timing of a path; None when not applicable."""
        cfg = self._config
        provider = self._effort if cfg.time_scaling else None
        if provider is not None and not isinstance(provider, ModelEffortProvider):
            # A remote provider's in-process twin gives the path dynamics (same model).
            provider = getattr(provider, 'local', None)
        if (self._effort is not None and cfg.time_scaling) and not (
                isinstance(provider, ModelEffortProvider)
                and np.all(np.isfinite(self._limits.effort))):
            return None
        segments = len(getattr(traj, 'breaks', ())) - 1
        settings = TimeOptimalSettings(grid=cfg.optimal_grid,
                                       check_samples=max(2000, 4 * segments))
        effort = self._limits.effort * (1.0 - cfg.effort_reserve)

        def solve(path, speed_cap=None):
            # A section between stops gets its share of the grid (at least a quarter).
            share = min(1.0, max(0.25, path.duration / traj.duration))
            grid = max(2, int(round(cfg.optimal_grid * share)))
            return time_optimal(path, self._limits, provider, start_speed=start_speed,
                                effort_limits=effort, speed_cap=speed_cap, cancel=cancel,
                                settings=settings if grid == settings.grid else
                                replace(settings, grid=grid))
        res = solve(traj)
        if cfg.time_parameterization == 'optimal_smooth' and start_speed == 0.0 and \
                isinstance(res.trajectory, PathParameterizedTrajectory):
            return smooth_with_stops(res.trajectory, self._limits,
                                     lambda path, cap: solve(path, cap).trajectory,
                                     provider, effort)
        return res

    def _finish(self, traj, began, given_times, cancel=None):
        lim = self._limits
        scaling = None
        line = type(traj).__name__ == 'CartesianLineTrajectory'
        if not given_times and traj.duration > 0.0 and self._config.time_parameterization != \
                'uniform' and (line or self._config.profile in OPTIMAL_PROFILES):
            moving = np.any(np.abs(traj.sample(0.0)[1]) > REST_TOLERANCE)
            scaling = self._optimal(traj, 1.0 if moving else 0.0, cancel)
            _check(cancel)
            if scaling is not None:
                traj = scaling.trajectory
                check = scaling.check
                for name, peaks in (('velocity', check.velocity),
                                    ('acceleration', check.acceleration)):
                    lim.check_rates(peaks * getattr(lim, name), name, f'peak {name}',
                                    tol=1e-6)
                return self._samples(traj, scaling, began, self._config.profile)
        if self._config.time_scaling and self._effort is not None and \
                np.all(np.isfinite(lim.effort)) and traj.duration > 0.0:
            if self._probe_speeds is None:
                self._probe_speeds = friction_peak_speeds(self._effort, traj.sample(0.0)[0])
            scaling = torque_limited_scaling(
                traj, lim.effort * (1.0 - self._config.effort_reserve), self._effort,
                samples=self._config.scaling_samples, probe_speeds=self._probe_speeds)
            traj = scaling.trajectory
        pv, pa = exact_peaks(traj)
        detail = 'with the given times' if given_times else ''
        lim.check_rates(pv, 'velocity', 'peak velocity', detail, tol=1e-6)
        lim.check_rates(pa, 'acceleration', 'peak acceleration', detail, tol=1e-6)
        return self._samples(traj, scaling, began, self._config.profile)

    def _samples(self, traj, scaling, began, profile):
        self._check_duration(traj.duration, 'the motion would last')
        times, q, qd, qdd = traj.dense(self._config.sample_period)
        efforts = None
        if self._config.compute_efforts and self._effort is not None:
            efforts = np.asarray(self._effort(q, qd, qdd), dtype=float)
        return Plan(traj, times, q, qd, qdd, efforts, scaling, profile,
                    time.perf_counter() - began)

    def __repr__(self):
        return (f'Planner(joints={list(self.joint_names)}, profile={self._config.profile!r}, '
                f'time_scaling={self._config.time_scaling}, '
                f'time_parameterization={self._config.time_parameterization!r})')


def _check(cancel):
    """Raise :class:`PlanningCancelled` when ``cancel()`` says so."""
    if cancel is not None and cancel():
        raise PlanningCancelled('planning cancelled')


__all__ = ['DEFAULT_JERK_PER_ACCELERATION', 'exact_peaks', 'OPTIMAL_PROFILES', 'Plan', 'Planner',
           'PlannerConfig', 'PROFILES', 'REST_TOLERANCE', 'TIME_PARAMETERIZATIONS']
