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
Time-optimal motion along a path under velocity, acceleration and torque limits.

Seed 001 (section 8) names the methods that replace acceleration limits by
torque limits with the dynamic model [Shin 85], [Shiller 94]; this module
implements one of them, reachability analysis (Pham and Pham 2018, the
method of TOPP-RA), on a grid of the path ``q(s)``:

1. the torque coefficients along the path come from the compiled inverse
   dynamics of the model with its payload (:mod:`.path_dynamics`);
2. backward, the controllable sets ``K_i`` of ``x = sd^2``; forward, the
   largest path acceleration that keeps the next state controllable
   (:mod:`.reachability`);
3. the law is checked on a dense time grid with the true torques
   (:mod:`.path_checks`); where the motion between grid points exceeds a
   limit, the bounds of the grid points around it are tightened by the
   excess and the law recomputed (at most ``repairs`` times, then a uniform
   slow-down, re-checked).

Friction is handled exactly, not by a margin: at every trial ``x`` the
velocity friction is evaluated at the joint speeds ``q' sqrt(x)`` it
implies, sign included, and the load-dependent friction from the affine
reaction wrench (see :mod:`.reachability`). Where a joint's speed passes
through zero (its ``q'`` changes sign, found by bisection and inserted into
the grid, and at a start or end at rest) the friction sweeps through its
low-speed peak: probe rows there require the torque to hold for the peak in
the direction(s) the joint moves, which is the torque the motion really
needs there. A static torque (gravity plus the low-speed friction peak)
above a limit makes the path infeasible (:class:`StaticTorqueError`).
"""

from dataclasses import dataclass
import math
import time

import numpy as np

from . import reachability as core
from .errors import InfeasibleError, PlanningCancelled, StaticTorqueError
from .path_checks import dense_check
from .path_dynamics import path_dynamics
from .path_trajectory import PathParameterizedTrajectory
from .time_scaling import TimeScaledTrajectory
from ..errors import InputError


@dataclass(frozen=True, eq=False)
class TimeOptimalResult:
    """
    Outcome of the time-optimal parameterization.

    Attributes
    ----------
    trajectory : Trajectory
        The motion (``PathParameterizedTrajectory``, or a uniformly slowed
        copy when the repairs did not suffice).
    grid : numpy.ndarray
        Path grid used, (K,).
    check : DenseCheck
        Dense verification of ``trajectory``.
    repairs : int
        Recomputations after the dense check tightened grid bounds.
    slowdown : float
        Uniform time stretch applied at the end (1: none).
    solve_time : float
        Wall-clock time of the first solution (dynamics and both passes) [s].
    total_time : float
        Wall-clock time including checks and repairs [s].

    """

    trajectory: object
    grid: np.ndarray
    check: object
    repairs: int
    slowdown: float
    solve_time: float
    total_time: float

    @property
    def duration(self):
        """Length of the motion [s] (float)."""
        return self.trajectory.duration


#: Discretizations of the reachability passes (see :class:`TimeOptimalSettings`).
DISCRETIZATIONS = ('interpolation', 'collocation')


@dataclass(frozen=True)
class TimeOptimalSettings:
    """
    Numerical settings of the time-optimal parameterization: its grid and its dense check.

    Every field is checked when the record is made.

    Attributes
    ----------
    grid : int
        Grid points (>= 2); zero crossings of ``q'`` are added with friction.
    discretization : {'interpolation', 'collocation'}
        ``'interpolation'``: each stage's path acceleration must hold the
        limits at both ends of the stage; ``'collocation'``: at its start only.
    margin : float
        Share of each limit the grid solution keeps free, in [0, 1), so that
        the motion between grid and check samples stays within the limit itself.
    check_samples : int
        Even samples of the dense check (>= 2).
    tolerance : float
        Relative excess over a limit the dense check accepts (>= 0).
    repairs : int
        Largest number of recomputations after the dense check (>= 0).

    """

    grid: int = 400
    discretization: str = 'interpolation'
    margin: float = 1e-4
    check_samples: int = 2000
    tolerance: float = 1e-6
    repairs: int = 6

    def __post_init__(self):
        if int(self.grid) < 2:
            raise InputError('grid', f'must be >= 2 points, got {self.grid}')
        if self.discretization not in DISCRETIZATIONS:
            raise InputError('discretization', f"must be 'interpolation' or 'collocation', "
                                               f'got {self.discretization!r}')
        if not (math.isfinite(self.margin) and 0.0 <= self.margin < 1.0):
            raise InputError('margin', f'must be in [0, 1), got {self.margin}')
        if int(self.check_samples) < 2:
            raise InputError('check_samples', f'must be >= 2, got {self.check_samples}')
        if not (math.isfinite(self.tolerance) and self.tolerance >= 0.0):
            raise InputError('tolerance', f'must be finite and >= 0, got {self.tolerance}')
        if int(self.repairs) < 0:
            raise InputError('repairs', f'must be >= 0, got {self.repairs}')


#: The defaults, which :func:`time_optimal` uses when given no settings.
_DEFAULT = TimeOptimalSettings()


def _crossings(path, grid, dq, tol):
    """Path points where some joint's q' changes sign (bisection, all at once), as (s, joint)."""
    ks, js = np.nonzero(dq[:-1] * dq[1:] < 0.0)
    order = np.lexsort((ks, js))                         # joint by joint, along the path
    ks, js = ks[order], js[order]
    lo, hi, f_lo = grid[ks], grid[ks + 1], dq[ks, js]
    rows = np.arange(ks.size)
    for _ in range(60):
        active = hi - lo > tol
        if not np.any(active):
            break
        mid = 0.5 * (lo + hi)
        f_mid = path.sample(mid[active])[1][rows[:active.sum()], js[active]]
        same = np.zeros_like(active)
        same[active] = (f_mid < 0.0) == (f_lo[active] < 0.0)
        lo = np.where(same, mid, lo)
        f_lo[active] = np.where(same[active], f_mid, f_lo[active])
        hi = np.where(active & ~same, mid, hi)
    return [(float(c), int(j)) for c, j in zip(0.5 * (lo + hi), js)]


def _probes(dq, peak, crossings, start_rest, end_rest):
    """Probe rows (stage, grid point, joint, sign, friction, at x = 0)."""
    rows = []
    count, n = dq.shape

    def direction(k0, step, j):
        k = k0
        while 0 <= k < count and dq[k, j] == 0.0:
            k += step
        return 0.0 if not 0 <= k < count else float(np.sign(dq[k, j]))

    for j in range(n):
        if start_rest:
            sg = direction(0, 1, j)
            if sg != 0.0:
                rows.append((0, 0, j, sg, sg * peak[j, 0 if sg > 0 else 1], True))
        if end_rest:
            sg = direction(count - 1, -1, j)
            if sg != 0.0:
                rows.append((count - 2, count - 1, j, sg, sg * peak[j, 0 if sg > 0 else 1],
                             True))
    for k, j in crossings:
        if k < count - 1:
            rows.append((k, k, j, 1.0, peak[j, 0], False))
            rows.append((k, k, j, -1.0, -peak[j, 1], False))
    if not rows:
        return core.empty_probes()
    rows.sort(key=lambda r: r[0])
    cols = list(zip(*rows))
    return (np.array(cols[0], dtype=np.int64), np.array(cols[1], dtype=np.int64),
            np.array(cols[2], dtype=np.int64), np.array(cols[3], dtype=float),
            np.array(cols[4], dtype=float), np.array(cols[5], dtype=np.bool_))


def _static_check(data, pd, names, path_times, tau_lo, tau_hi):
    """Raise StaticTorqueError where gravity plus low-speed friction exceeds a limit."""
    sg = np.sign(pd.dq)
    tau = pd.c.copy()
    if pd.friction:
        tau += sg * np.where(sg > 0, pd.peak[:, 0], pd.peak[:, 1])
        for k, j in np.argwhere(np.broadcast_to(pd.load, tau.shape)):
            tau[k, j] = core.load_torque(data, k, j, 0.0, 0.0, sg[k, j],
                                         sg[k, j] * pd.peak[j, 0 if sg[k, j] > 0 else 1])
    bad = np.argwhere((tau < tau_lo) | (tau > tau_hi))
    if bad.size:
        k, j = bad[0]
        limit = tau_hi[k, j] if tau[k, j] > 0 else -tau_lo[k, j]
        raise StaticTorqueError(names[j], float(tau[k, j]), float(limit), float(pd.s[k]),
                                float(path_times[k]), pd.q[k].copy())


def _solve(data, probes, deltas, xcap, x0, x1, slack=1.0):
    count = deltas.size + 1
    klo, khi = np.zeros(count), np.zeros(count)
    failed = core.backward(data, probes, deltas, xcap, x1, klo, khi)
    if failed >= 0:
        return None, failed, klo, khi
    xs, us = np.zeros(count), np.zeros(count - 1)
    if not (klo[0] * (1.0 - 1e-9) - 1e-12 <= x0 <= khi[0] * slack * (1.0 + 1e-9) + 1e-12):
        return None, -2, klo, khi
    core.forward(data, probes, deltas, max(x0, klo[0]), klo, khi, xs, us)
    return (xs, us), -1, klo, khi


def time_optimal(path, limits, effort_provider=None, *, start_speed=0.0, end_speed=0.0,
                 effort_limits=None, settings=None, cancel=None, speed_cap=None):
    """
    Run a path in minimum time within velocity, acceleration and torque limits.

    Parameters
    ----------
    path : Trajectory
        Geometric path ``q(s)``, ``s`` in ``[0, path.duration]`` (any
        trajectory of the planners; only its shape matters).
    limits : PlanningLimits
        Velocity, acceleration (and effort) limits of the path's joints.
    effort_provider : ModelEffortProvider, optional
        Model (payload, friction, fixed joints) whose torques are limited;
        None: only velocity and acceleration limits.
    start_speed, end_speed : float
        Path speeds ``sd`` at the ends (default rest) [path units / s]; ``1``
        keeps the path's own speed there.
    effort_limits : array_like, optional
        Torque limits, (n,) [N m or N] (default ``limits.effort``).
    settings : TimeOptimalSettings, optional
        Grid, discretization, margin and dense check (default
        ``TimeOptimalSettings()``: 400 grid points, interpolation).
    cancel : callable, optional
        ``cancel() -> bool``, asked before each repair: True stops
        (:class:`~.errors.PlanningCancelled`).
    speed_cap : callable, optional
        ``speed_cap(s) -> sd_max``: a further cap on the path speed at path
        points ``s`` [path units / s] (the jerk-limited variant lowers the
        speed where the path's curvature makes the jerk exceed its limit).

    Returns
    -------
    TimeOptimalResult
        The motion and its check.

    Raises
    ------
    StaticTorqueError
        Gravity plus low-speed friction exceeds a torque limit at a path
        point (naming the joint, ``s``, the path's time and ``q``).
    InfeasibleError
        A start or end speed that no motion within the limits allows.

    """
    began = time.perf_counter()
    cfg = _DEFAULT if settings is None else settings
    names = list(path.joint_names)
    n = len(names)
    ends = cfg.discretization == 'interpolation'
    tolerance, check_samples = cfg.tolerance, int(cfg.check_samples)
    for label, value in (('start_speed', start_speed), ('end_speed', end_speed)):
        if not (math.isfinite(value) and value >= 0.0):
            raise InputError(label, f'must be finite and >= 0, got {value}')
    bound = limits.effort if effort_limits is None else np.broadcast_to(
        np.asarray(effort_limits, dtype=float), (n,))
    torque = effort_provider is not None and bool(np.all(np.isfinite(bound)))
    friction = torque and bool(getattr(effort_provider, 'friction', False))
    s = np.linspace(0.0, path.duration, int(cfg.grid))
    q, dq, ddq = path.sample(s)
    found = []
    if friction:
        found = _crossings(path, s, dq, 1e-12 * max(path.duration, 1.0))
        step = path.duration / (s.size - 1)
        near = [c for c, _ in found if np.min(np.abs(s - c)) > 1e-3 * step]
        if near:
            s = np.unique(np.concatenate([s, near]))
            q, dq, ddq = path.sample(s)
    index = [(int(np.argmin(np.abs(s - c))), j) for c, j in found]
    for k, j in index:
        dq[k, j] = 0.0
    if torque:
        model = effort_provider.model
        pd = path_dynamics(model, effort_provider.indices, effort_provider.fixed_positions, s, q,
                           dq, ddq, friction)
    else:
        pd = _kinematic(s, q, dq, ddq)
    count = s.size
    keep = 1.0 - cfg.margin
    tau_hi = np.tile(np.asarray(bound, dtype=float) * keep, (count, 1))
    amax = np.tile(np.asarray(limits.acceleration, dtype=float) * keep, (count, 1))
    with np.errstate(divide='ignore', over='ignore'):       # tiny q': no speed bound
        vcap = np.where(np.abs(dq) > 0.0, (keep * limits.velocity / np.abs(dq)) ** 2, np.inf)
    xcap = np.min(np.where(np.isfinite(vcap), vcap, np.inf), axis=1)
    if speed_cap is not None:
        xcap = np.minimum(xcap, np.asarray(speed_cap(s), dtype=float) ** 2)
    probes = _probes(dq, pd.peak, index, start_speed == 0.0, end_speed == 0.0) if friction \
        else core.empty_probes()
    deltas = np.diff(s)
    x0, x1 = start_speed ** 2, end_speed ** 2
    data = core.pack(pd, -tau_hi, tau_hi, amax, torque, ends)
    if torque:
        _static_check(data, pd, names, s, -tau_hi, tau_hi)
    sol, failed, klo, khi = _solve(data, probes, deltas, xcap, x0, x1, 1.0 / keep ** 2)
    if sol is None:
        _raise_infeasible(failed, klo, khi, x0, s, names, pd)
    solve_time = time.perf_counter() - began
    traj = PathParameterizedTrajectory(path, s, *sol)
    check = dense_check(traj, limits, effort_provider if torque else None, bound, check_samples)
    done = 0
    while check.worst > 1.0 + tolerance and done < int(cfg.repairs):
        if cancel is not None and cancel():
            raise PlanningCancelled('planning cancelled during the time-optimal repairs')
        if not _tighten(check, traj, s, tau_hi, amax, xcap, tolerance):
            break
        data = core.pack(pd, -tau_hi, tau_hi, amax, torque, ends)
        sol, failed, klo, khi = _solve(data, probes, deltas, xcap, x0, x1, 1.0 / keep ** 2)
        if sol is None:
            break
        done += 1
        traj = PathParameterizedTrajectory(path, s, *sol)
        check = dense_check(traj, limits, effort_provider if torque else None, bound,
                            check_samples)
    factor = 1.0
    if check.worst > 1.0 + tolerance:
        traj, check, factor = slow_down(traj, limits, effort_provider if torque else None,
                                        bound, check, tolerance, check_samples)
    return TimeOptimalResult(traj, s, check, done, factor, solve_time,
                             time.perf_counter() - began)


def _kinematic(s, q, dq, ddq):
    """Path data without dynamics (velocity and acceleration limits only)."""
    from .path_dynamics import PathDynamics
    count, n = q.shape
    z = np.zeros((count, n))
    w = np.zeros((count, n, 6))
    return PathDynamics(s, q, dq, ddq, z, z, z, False, np.zeros(n, dtype=bool), z, z, z, w, w, w,
                        np.tile([0, 0, 0, 0, 0, 0, 1.0, 1.0], (n, 1)), np.zeros((n, 4)),
                        np.zeros((n, 3)), np.tile([0.0, 1.0], (n, 1)), np.ones((n, 2)),
                        np.zeros(n), np.zeros((n, 2)))


def _raise_infeasible(failed, klo, khi, x0, s, names, pd):
    if failed == -2:
        raise InfeasibleError(
            f'start path speed {math.sqrt(x0):.6g} is outside what the limits allow from the '
            f'start ([{math.sqrt(klo[0]):.6g}, {math.sqrt(khi[0]):.6g}] in path units per s)')
    k = int(failed)
    raise InfeasibleError(
        f'no motion within the limits passes path point s = {s[k]:.6g} (grid point {k}, '
        f'q = {np.array2string(pd.q[k], precision=4)}) and reaches the end at the requested '
        'end speed')


def _tighten(check, traj, s, tau_hi, amax, xcap, tolerance):
    """Tighten the bounds of the grid points around every sample over a limit."""
    changed = False
    rows = check.velocity_ratio.shape[0]
    for ratio, kind in ((check.torque_ratio, 'tau'), (check.velocity_ratio, 'v'),
                        (check.acceleration_ratio, 'a')):
        over = np.argwhere(ratio > 1.0 + tolerance)
        if over.size == 0:
            continue
        times = check.times if kind == 'tau' else check.times[:rows]
        sp = traj.law(times[over[:, 0]])[0]
        stage = np.clip(np.searchsorted(s, sp, side='right') - 1, 0, s.size - 2)
        for (r, j), k in zip(over, stage):
            excess = ratio[r, j] * (1.0 + 10.0 * tolerance) + 1e-9
            for g in (k, k + 1):
                if kind == 'tau':
                    tau_hi[g, j] /= excess
                elif kind == 'a':
                    amax[g, j] /= excess
                else:
                    xcap[g] /= excess ** 2
            changed = True
    return changed


def slow_down(traj, limits, effort_provider, bound, check, tolerance, samples, start=1.0):
    """
    Stretch time uniformly until the dense check passes.

    A stretch ``k`` divides the velocities by ``k``, the accelerations (and
    the inertial torques) by ``k^2`` and the jerks by ``k^3``; each step
    stretches by the largest of these roots of the ratios (the square root
    for the torque, whose static part does not scale). The jerk is checked
    when ``check`` checked it. ``start`` is a stretch already in ``check``.

    Returns ``(trajectory, check, factor)``.
    """
    factor = float(start)
    jerk = check.jerk is not None
    for _ in range(60):
        if check.worst <= 1.0 + tolerance:
            break
        step = max(np.max(check.velocity), math.sqrt(np.max(check.acceleration)),
                   math.sqrt(np.max(check.torque)),
                   np.cbrt(np.max(check.jerk)) if jerk else 0.0)
        factor *= max(float(step), 1.0 + 1e-4) * (1.0 + tolerance)
        check = dense_check(TimeScaledTrajectory(traj, factor), limits, effort_provider, bound,
                            samples, jerk=jerk)
    else:
        raise InfeasibleError('no uniform slow-down brings the motion within the limits')
    return (TimeScaledTrajectory(traj, factor) if factor != 1.0 else traj), check, factor
