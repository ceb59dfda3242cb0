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
``robodyn bench planner``: planning times and durations of the trajectory planner.

Two benchmarks (not tests; numbers depend on the machine):

* the issue's case: a 6-joint, 5-waypoint plan (PUMA 560 with its friction
  models and a 2 kg payload, and the friction-free UR5) through the whole
  pipeline: minimum-jerk spline with chosen times, torque-limited time
  scaling, dense samples with feed-forward efforts; once with the robot's
  effort limits and once with 55 % of them (so that scaling acts);
* our point-to-point profiles beside ruckig's jerk-limited time-optimal
  motion on the same random rest-to-rest moves: duration reached (ratio to
  ruckig) and planning time.

Timings are medians over interleaved repeats (the order rotates between
repeats), wall clock, one thread.
"""

import json
import statistics
import time

import numpy as np

from ..bench.topp import bench_toppra, format_toppra

#: Profiles compared with ruckig on point-to-point moves.
P2P_KINDS = ('bang_bang', 'trapezoid', 'trapezoid_c2', 'cubic', 'quintic', 'spline')


#: Help of ``robodyn bench planner``.
HELP = 'trajectory planner, time-optimal vs TOPP-RA'
#: Description of the planner benchmark.
DESCRIPTION = ('Planning time of a 6-joint, 5-waypoint plan with torque-limited time scaling, '
               'our point-to-point profiles beside ruckig on the same moves, and the '
               'time-optimal parameterization beside TOPP-RA.')


def _interleaved(funcs, repeat):
    """Median wall time per call of each callable, interleaved with rotating order [s]."""
    names = list(funcs)
    samples = {name: [] for name in names}
    for name in names:
        funcs[name]()
    for r in range(repeat):
        k = r % len(names)
        for name in names[k:] + names[:k]:
            t0 = time.perf_counter()
            funcs[name]()
            samples[name].append(time.perf_counter() - t0)
    return {name: statistics.median(v) for name, v in samples.items()}


class _TimedProvider:
    """Effort provider wrapper that adds up the time spent in the dynamics [s]."""

    def __init__(self, provider):
        self.provider = provider
        self.spent = 0.0

    def __call__(self, q, qd, qdd):
        t0 = time.perf_counter()
        try:
            return self.provider(q, qd, qdd)
        finally:
            self.spent += time.perf_counter() - t0


def _waypoints(model, rng, count, share=0.3):
    mid = model.home_configuration(1.0)
    return np.array([mid + share * (model.random_configuration(rng) - mid)
                     for _ in range(count)])


def bench_pipeline(repeat, seed):
    """
    Time the whole pipeline on a 6-joint, 5-waypoint plan.

    Parameters
    ----------
    repeat : int
        Interleaved repeats.
    seed : int
        Random seed of the waypoints.

    Returns
    -------
    list of dict
        One row per case: robot, effort share, median times [ms] of the
        path, the scaling and the whole plan, the share of the plan spent in
        the dynamics (effort provider), the time factor and torque ratios.

    """
    from ..model import load_robot
    from ..planning.efforts import ModelEffortProvider, Payload
    from ..planning.limits import estimate_acceleration_limits, PlanningLimits
    from ..planning.planner import Planner
    from ..planning.planner_config import PlannerConfig
    from ..friction.probes import friction_peak_speeds
    from ..planning.time_scaling import torque_limited_scaling
    from ..planning.via_points import via_points
    rows = []
    funcs = {}
    cases = []
    for robot in ('puma560', 'ur5'):
        model = load_robot(robot)
        lim = PlanningLimits.from_model(model)
        if not np.all(np.isfinite(lim.acceleration)):
            lim = lim.with_values(acceleration=estimate_acceleration_limits(model))
        provider = ModelEffortProvider(model, payload=Payload(2.0, (0.0, 0.0, 0.05)))
        pts = _waypoints(model, np.random.default_rng(seed), 6)
        for share in (1.0, 0.55):
            limits = lim.with_values(effort=lim.effort * share)
            timed = _TimedProvider(provider)
            planner = Planner(limits, PlannerConfig(profile='spline'), timed)
            plan = planner.plan(pts[0], pts[1:])
            spent = []
            for _ in range(max(3, repeat // 3)):
                timed.spent = 0.0
                t0 = time.perf_counter()
                planner.plan(pts[0], pts[1:])
                spent.append((timed.spent, time.perf_counter() - t0))
            path = via_points(pts, limits=limits)
            probes = friction_peak_speeds(provider, pts[0])
            key = f'{robot}@{share:g}'
            plain = Planner(limits, PlannerConfig(profile='spline'), provider)
            plain.plan(pts[0], pts[1:])
            funcs[key + ':plan'] = (lambda p=plain, pp=pts: p.plan(pp[0], pp[1:]))
            funcs[key + ':path'] = (lambda lm=limits, pp=pts: via_points(pp, limits=lm))
            funcs[key + ':scaling'] = (
                lambda pa=path, lm=limits, pr=provider, pb=probes: torque_limited_scaling(
                    pa, lm.effort, pr, probe_speeds=pb))
            share_dyn = statistics.median(d / t for d, t in spent)
            cases.append((key, robot, share, plan, share_dyn))
    med = _interleaved(funcs, repeat)
    for key, robot, share, plan, share_dyn in cases:
        sc = plan.scaling
        rows.append({'robot': robot, 'effort_share': share, 'waypoints': 5,
                     'plan_ms': med[key + ':plan'] * 1e3, 'path_ms': med[key + ':path'] * 1e3,
                     'dynamics_share': share_dyn,
                     'scaling_ms': med[key + ':scaling'] * 1e3,
                     'duration_s': plan.duration, 'time_factor': sc.factor,
                     'ratio_before': sc.peak_ratio_before, 'ratio_after': sc.peak_ratio_after,
                     'effort_calls': sc.evaluations, 'points': len(plan.times)})
    return rows


def bench_profiles(moves, repeat, seed):
    """
    Compare our point-to-point profiles with ruckig on the same moves.

    Parameters
    ----------
    moves : int
        Random rest-to-rest moves (PUMA 560 limits, jerk 10 x acceleration).
    repeat : int
        Interleaved repeats for the timing.
    seed : int
        Random seed.

    Returns
    -------
    dict
        Per method: median duration ratio to ruckig, median duration [s],
        median planning time [ms]; and the move count.

    """
    from ..model import load_robot
    from ..planning.jerk_limited import jerk_limited
    from ..planning.limits import PlanningLimits
    from ..planning.point_to_point import point_to_point
    from ..planning.via_points import via_points
    model = load_robot('puma560')
    lim = PlanningLimits.from_model(model)
    lim = lim.with_values(jerk=10.0 * lim.acceleration)
    steep = lim.with_values(jerk=1e4 * lim.acceleration)
    rng = np.random.default_rng(seed)
    pairs = [_waypoints(model, rng, 2, 0.6) for _ in range(max(1, moves))]
    methods = {kind: (lambda a, b, k=kind: point_to_point(a, b, k, lim)) for kind in P2P_KINDS
               if kind != 'spline'}
    methods['spline'] = lambda a, b: via_points(np.vstack([a, b]), limits=lim)
    methods['ruckig'] = lambda a, b: jerk_limited(np.vstack([a, b]), lim)
    methods['ruckig_steep_jerk'] = lambda a, b: jerk_limited(np.vstack([a, b]), steep)
    durations = {name: np.array([f(a, b).duration for a, b in pairs])
                 for name, f in methods.items()}
    timing = _interleaved({name: (lambda f=f: [f(a, b) for a, b in pairs])
                           for name, f in methods.items()}, repeat)
    ref = durations['ruckig']
    out = {'moves': len(pairs), 'jerk_per_acceleration': 10.0, 'methods': {}}
    for name in methods:
        out['methods'][name] = {
            'duration_ratio_to_ruckig': float(np.median(durations[name] / ref)),
            'median_duration_s': float(np.median(durations[name])),
            'planning_ms': timing[name] / len(pairs) * 1e3}
    return out


def run_benchmark(repeat=15, moves=20, seed=0, topp_paths=0):
    """
    Run both benchmarks.

    Parameters
    ----------
    repeat : int
        Interleaved repeats.
    moves : int
        Moves of the profile comparison.
    seed : int
        Random seed.
    topp_paths : int
        Paths of the comparison with TOPP-RA (0: skipped).

    Returns
    -------
    dict
        ``pipeline`` rows, ``profiles`` comparison and ``toppra`` section.

    """
    import os

    from .timing import phase
    out = {'load_average': list(os.getloadavg()), 'repeat': repeat}
    phase('planning pipeline: 6 joints, 5 waypoints, torque-limited scaling')
    out['pipeline'] = bench_pipeline(repeat, seed)
    phase(f'point-to-point profiles beside ruckig on {moves} moves')
    out['profiles'] = bench_profiles(moves, repeat, seed)
    if topp_paths > 0:
        phase(f'time-optimal parameterization beside TOPP-RA on {topp_paths} paths')
        out['toppra'] = bench_toppra(topp_paths, seed=seed)
    return out


def format_report(res):
    """
    Format the results as text tables.

    Parameters
    ----------
    res : dict
        Output of :func:`run_benchmark`.

    Returns
    -------
    str
        The report.

    """
    lines = [f'load average {", ".join(f"{x:.2f}" for x in res["load_average"])}; '
             f'medians of {res["repeat"]} interleaved repeats', '',
             '6-joint, 5-waypoint plan (spline, torque-limited scaling, 2 kg payload, '
             'dense samples with efforts)',
             f'{"robot":<9}{"effort":>7}{"plan ms":>9}{"dyn %":>7}{"path ms":>9}'
             f'{"scale ms":>10}{"T [s]":>8}{"x time":>8}{"tau/lim before":>16}{"after":>7}'
             f'{"calls":>6}']
    for r in res['pipeline']:
        lines.append(f'{r["robot"]:<9}{r["effort_share"] * 100:>6.0f}%{r["plan_ms"]:>9.1f}'
                     f'{r["dynamics_share"] * 100:>6.0f}%{r["path_ms"]:>9.1f}'
                     f'{r["scaling_ms"]:>10.1f}{r["duration_s"]:>8.3f}'
                     f'{r["time_factor"]:>8.3f}{r["ratio_before"]:>16.3f}'
                     f'{r["ratio_after"]:>7.3f}{r["effort_calls"]:>6d}')
    prof = res['profiles']
    lines += ['', f'Point-to-point on {prof["moves"]} random PUMA 560 moves (jerk limit '
                  f'{prof["jerk_per_acceleration"]:g} x acceleration limit for ruckig)',
              f'{"method":<20}{"duration / ruckig":>18}{"median T [s]":>14}{"plan ms":>9}']
    for name, r in prof['methods'].items():
        lines.append(f'{name:<20}{r["duration_ratio_to_ruckig"]:>18.3f}'
                     f'{r["median_duration_s"]:>14.3f}{r["planning_ms"]:>9.3f}')
    if 'toppra' in res:
        lines += format_toppra(res['toppra'])
    return '\n'.join(lines)


def run(args):
    """
    Execute ``robodyn bench planner``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        Exit code (0).

    """
    repeat, moves = (3, 4) if args.quick else (max(1, args.repeat), max(1, args.moves))
    topp = 0 if args.no_toppra else (3 if args.quick else max(1, args.topp_paths))
    res = run_benchmark(repeat, moves, args.seed, topp)
    print(json.dumps(res, indent=2) if args.json else format_report(res))
    return 0
