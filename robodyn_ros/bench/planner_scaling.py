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
``robodyn bench planner-scaling``: planning time and memory against the number of waypoints.

Two paths of 10 to 10,000 waypoints (PUMA 560, its limits, friction, no
payload), planned with the uniform and the time-optimal timing:

* ``smooth``: samples of a smooth curve (what a recorded or upstream-planned
  path looks like);
* ``walk``: a random walk of 0.02 rad steps (every waypoint a turn: the
  worst case for the friction crossings of the time-optimal timing).

Time is the median wall time of ``Planner.plan`` over a few repeats; memory
is the peak of the memory traced by ``tracemalloc`` during one more plan
(Python objects and numpy arrays). Beside them: the refusal of a goal that
ends at 1e5 s (``max_duration``), and ``planner/stop`` timed while a
``trajectory_planner`` process plans a 10,000-waypoint goal
(:func:`robodyn_ros.nodes.bench_peers.planner_stop_latency`).
"""

import statistics
import time
import tracemalloc

import numpy as np

from .dynamics import _load
from .timing import phase

COUNTS = (10, 100, 1000, 3000, 10_000)


def _path(model, count, kind, seed=0):
    home = model.home_configuration(1.0)
    if kind == 'smooth':
        s = np.linspace(0.0, 1.0, count + 1)[1:, None]
        return home, home + 0.3 * np.sin(2 * np.pi * s * np.linspace(0.5, 2.0, model.n))
    rng = np.random.default_rng(seed)
    steps = rng.choice([-0.02, 0.02], size=(count, model.n))
    return home, np.clip(home + np.cumsum(steps, axis=0), home - 0.5, home + 0.5)


def plan_scaling(robot='puma560', counts=COUNTS, kinds=('smooth', 'walk'),
                 timings=('uniform', 'optimal'), repeat=3):
    """
    Time and peak memory of plans against the number of waypoints.

    Parameters
    ----------
    robot : str
        Library robot.
    counts : sequence of int
        Waypoints per goal.
    kinds : sequence of str
        ``'smooth'`` and/or ``'walk'``.
    timings : sequence of str
        Time parameterizations.
    repeat : int
        Timed plans per case (one for 3,000 waypoints and more).

    Returns
    -------
    list of dict
        One row per case: ``time`` [s] (or ``refused`` with the reason),
        ``peak_mb`` (traced), ``duration`` [s], ``samples``.

    """
    from ..errors import RobodynError
    from ..model import load_robot
    from ..planning.efforts import ModelEffortProvider
    from ..planning.errors import TooLargeError
    from ..planning.limits import PlanningLimits
    from ..planning.planner import Planner
    from ..planning.planner_config import PlannerConfig
    model = load_robot(robot)
    limits = PlanningLimits.from_model(model)
    provider = ModelEffortProvider(model)
    rows = []
    for timing in timings:
        planner = Planner(limits, PlannerConfig(time_parameterization=timing), provider)
        start, pts = _path(model, 20, 'smooth')
        planner.plan(start, pts)                     # compiled parts loaded
        for kind in kinds:
            for count in counts:
                start, pts = _path(model, count, kind)
                row = {'timing': timing, 'path': kind, 'waypoints': count}
                began = time.perf_counter()
                try:
                    samples = []
                    for _ in range(repeat if count < 3000 else 1):
                        t0 = time.perf_counter()
                        plan = planner.plan(start, pts)
                        samples.append(time.perf_counter() - t0)
                    tracemalloc.start()
                    planner.plan(start, pts)
                    row['peak_mb'] = tracemalloc.get_traced_memory()[1] / 1e6
                    tracemalloc.stop()
                    row.update(time=statistics.median(samples), duration=plan.duration,
                               samples=len(plan.times))
                except TooLargeError as exc:
                    row['refused'] = str(exc)
                except (RobodynError, ValueError) as exc:  # reported in the table
                    row['failed'] = f'{type(exc).__name__}: {exc}'
                if 'time' not in row:
                    tracemalloc.stop()
                    row['time'] = time.perf_counter() - began
                rows.append(row)
    t0 = time.perf_counter()
    try:
        Planner(limits, PlannerConfig(), provider).plan(start, pts[:1], durations=[1e5])
        refusal = {'refused': False}
    except TooLargeError as exc:
        refusal = {'refused': True, 'reason': str(exc)}
    refusal['time'] = time.perf_counter() - t0
    return {'rows': rows, 'long_goal': refusal}


def run(quick=False, robot='puma560'):
    """
    Run the planner scaling benchmark.

    Parameters
    ----------
    quick : bool
        Fewer counts, no walk, fewer stops.
    robot : str
        Library robot.

    Returns
    -------
    dict
        ``scaling``, ``stop`` and the settings with the load averages.

    """
    from ..nodes.bench_peers import planner_stop_latency
    out = {'settings': {'robot': robot, 'load_before': _load(),
                        'date': time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}}
    counts = (10, 1000) if quick else COUNTS
    phase(f'plans of {", ".join(map(str, counts))} waypoints, uniform and time-optimal')
    out['scaling'] = plan_scaling(robot, counts, ('smooth',) if quick else ('smooth', 'walk'))
    delays = (0.05, 0.3) if quick else (0.05, 0.1, 0.2, 0.4, 0.8, 1.6)
    phase('planner/stop while a trajectory_planner process plans a large goal')
    out['stop'] = planner_stop_latency(robot, 1000 if quick else 10_000, delays)
    out['settings']['load_after'] = _load()
    return out


def format_scaling(res):
    """
    Format :func:`run`'s results as Markdown.

    Parameters
    ----------
    res : dict
        Results.

    Returns
    -------
    str
        Tables.

    """
    s = res['settings']
    lines = [f"Run {s['date']}, robot {s['robot']}, load average before "
             f"{s['load_before']}, after {s.get('load_after')}.", '',
             '| timing | path | waypoints | plan [ms] | peak traced memory [MB] | motion [s] | '
             'samples |', '|---|---|---:|---:|---:|---:|---:|']
    for r in res['scaling']['rows']:
        if 'refused' in r or 'failed' in r:
            what = f"refused: {r['refused']}" if 'refused' in r else f"failed: {r['failed']}"
            lines.append(f"| {r['timing']} | {r['path']} | {r['waypoints']:,} | "
                         f"{r['time'] * 1e3:.1f} ({what}) | | | |")
            continue
        lines.append(f"| {r['timing']} | {r['path']} | {r['waypoints']:,} | "
                     f"{r['time'] * 1e3:.1f} | {r['peak_mb']:.1f} | {r['duration']:.2f} | "
                     f"{r['samples']:,} |")
    lg = res['scaling']['long_goal']
    lines += ['', 'A one-waypoint goal at time_from_start = 1e5 s: '
                  f"{'refused' if lg['refused'] else 'NOT refused'} in {lg['time'] * 1e3:.2f} ms"
                  f" ({lg.get('reason', '')}).", '']
    st = res.get('stop')
    if st:
        lines += ['| stop called after the goal [ms] | answered in [ms] | the goal was | plans '
                  'of the goal published after the stop |', '|---:|---:|---|---:|']
        for r in st['stops']:
            state = ('being planned: cancelled' if r['cancelled'] else
                     'already planned: stopped')
            lines.append(f"| {r['delay'] * 1e3:.0f} | {r['answer'] * 1e3:.1f} | {state} | "
                         f"{r['goal_plans_after_stop']} |")
        plan = st['plan']
        alone = (f"plan out {plan['time']:.2f} s after the goal, {plan['points']:,} points"
                 if plan['time'] is not None else 'no plan (the goal was refused)')
        lines += ['', f"Stop with nothing planned: {st['idle_stop'] * 1e3:.1f} ms. The same goal "
                      f'planned without a stop: {alone}.', '']
    return '\n'.join(lines)
