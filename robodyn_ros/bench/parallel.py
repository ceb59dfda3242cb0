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
``robodyn bench parallel``: the parallel-dynamics schemes, measured beside their models.

In one run, interleaved where compared, medians over repeats:

* batch partitioning: ``parallel_inverse_dynamics`` over 1 and 2 threads
  against Pinocchio's ``rneaInParallel`` at the same thread counts, with the
  machine reference of :mod:`robodyn_ros.bench.dynamics` (sha256 over 1 and
  2 threads) and the same C kernel split over 1 and 2 processes
  (:mod:`robodyn_ros.bench.kernel_processes`: what the machine gives this work
  without threads);
* the service over DDS: round trips to a ``parallel_dynamics`` process, with
  and without 2 worker processes, chunks straight to a worker and the planner
  (see :mod:`robodyn_ros.bench.service`);
* the per-sample schemes on real threads: seed 004's scheduled subtasks,
  seed 003's row partition and seed 000's per-link prediction workers, time
  per sample against the serial recursion, beside the modelled figures
  (levels, operation counts, speed-up formulas), each labelled.
"""

import os
import statistics
import time

import numpy as np

from .dynamics import _hash_rows, _inputs, _load, _ref_key
from .kernel_processes import KernelProcesses
from .timing import phase, time_calls
from ..model import load_robot


def _process_key(processes):
    return f'machine reference: the same kernel in {processes} process(es), no threads'


def batch_section(robot, count, repeat):
    """
    Time the batch partitioning against ``rneaInParallel`` at 1 and 2 threads.

    Parameters
    ----------
    robot : str
        Robot.
    count : int
        States N.
    repeat : int
        Rounds.

    Returns
    -------
    dict
        Timings [s] per name and the ratios.

    """
    import pinocchio as pin
    from ..dynamics.codegen.threads import BatchRunner
    from ..parallel.batch import parallel_inverse_dynamics
    from ..pinocchio_bridge import PinocchioBridge
    model = load_robot(robot)
    bridge = PinocchioBridge(model)
    q, qd, qdd = _inputs(model, count, np.random.default_rng(2))
    funcs = {}
    for t in (1, 2):
        funcs[f'ours, {t} thread(s)'] = (
            lambda t=t: parallel_inverse_dynamics(model, q, qd, qdd, threads=t, friction=False))
    pool = pin.ModelPool(bridge.pin_model, 2)
    pq = np.asfortranarray(np.array([bridge.q(x) for x in q]).T)
    pv = np.asfortranarray(np.array([bridge.v(x) for x in qd]).T)
    pa = np.asfortranarray(np.array([bridge.v(x) for x in qdd]).T)
    ptau = np.asfortranarray(np.empty((bridge.pin_model.nv, count)))
    for t in (1, 2):
        funcs[f'pinocchio rneaInParallel, {t} thread(s)'] = (
            lambda t=t: pin.rneaInParallel(t, pool, pq, pv, pa, ptau))
    data = np.random.default_rng(3).integers(0, 256, 160 * count, dtype=np.uint8)
    runners = {t: BatchRunner(t) for t in (1, 2)}
    for t, runner in runners.items():
        funcs[_ref_key(count, t)] = lambda r=runner: r.run(_hash_rows, (data,), None)
    groups = {}
    try:
        for t in (1, 2):
            groups[t] = KernelProcesses(robot, count, 2, t)
            funcs[_process_key(t)] = groups[t].run
        res = time_calls(funcs, repeat)
    finally:
        for group in groups.values():
            group.close()
        for runner in runners.values():
            runner.close()
    med = {k: v['median'] for k, v in res.items()}
    ratios = {
        'throughput_vs_pinocchio_1': med['pinocchio rneaInParallel, 1 thread(s)']
        / med['ours, 1 thread(s)'],
        'throughput_vs_pinocchio_2': med['pinocchio rneaInParallel, 2 thread(s)']
        / med['ours, 2 thread(s)'],
        'speedup_ours': med['ours, 1 thread(s)'] / med['ours, 2 thread(s)'],
        'speedup_pinocchio': med['pinocchio rneaInParallel, 1 thread(s)']
        / med['pinocchio rneaInParallel, 2 thread(s)'],
        'speedup_machine': med[_ref_key(count, 1)] / med[_ref_key(count, 2)],
        'speedup_processes': med[_process_key(1)] / med[_process_key(2)]}
    return {'robot': robot, 'states': count,
            'times': {k: {'median': v['median'], 'min': v['min']} for k, v in res.items()},
            'ratios': ratios}


def service_section(robot, repeat, quick):
    """
    Round trips to a ``parallel_dynamics`` process, with and without 2 workers, and the planner.

    The sections ``round_trips``, ``chunks`` and ``planner`` of
    :mod:`robodyn_ros.bench.service` (``robodyn bench service`` runs them all).

    Parameters
    ----------
    robot : str
        Robot.
    repeat : int
        Requests per case.
    quick : bool
        Fewer cases.

    Returns
    -------
    dict
        The results of :func:`robodyn_ros.bench.service.run`.

    """
    from . import service
    return service.run(quick=quick, sections=('round_trips', 'chunks', 'planner'), robot=robot)


def _per_call(func, repeat, inner=1):
    samples = []
    func()
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(inner):
            func()
        samples.append((time.perf_counter() - t0) / inner)
    return statistics.median(samples)


def task_graph_section(robot, repeat, batch):
    """
    Seed 004's schedule on p real threads: per state and per batch, beside the levels.

    Parameters
    ----------
    robot : str
        Robot.
    repeat : int
        Rounds.
    batch : int
        States of the batch case.

    Returns
    -------
    dict
        Per p: measured time per state [s] (one state; a batch) and the
        modelled levels and speed-up; serial references.

    """
    from ..dynamics import inverse_dynamics
    from ..dynamics.codegen import kernels
    from ..parallel.taskexec import ScheduledDynamics
    model = load_robot(robot)
    q, qd, qdd = _inputs(model, batch, np.random.default_rng(5))
    rows = []
    for p in (1, 2, 4):
        with ScheduledDynamics(model, p, customized=True) as sd:
            one = _per_call(lambda: sd.run(q[:1], qd[:1], qdd[:1]), repeat)
            many = _per_call(lambda: sd.run(q, qd, qdd), max(3, repeat // 10)) / batch
            rows.append({'p': p, 'levels': sd.schedule.length, 'tasks': sd.program.graph.size,
                         'modelled_speedup': sd.schedule.speedup, 'one_state': one,
                         'batch_per_state': many})
    k = kernels(model)
    serial = {'numpy RNE, one state': _per_call(
        lambda: inverse_dynamics(model, q[0], qd[0], qdd[0]), repeat, 20),
        'C kernel, one state': _per_call(
        lambda: k.inverse_dynamics(q[0], qd[0], qdd[0]), repeat, 2000)}
    return {'robot': robot, 'batch': batch, 'rows': rows, 'serial': serial}


def rows_section(robot, states, batch, repeat):
    """
    Seed 003's configurations on real threads, per sample and per batch.

    Parameters
    ----------
    robot : str
        Robot.
    states : int
        States of the per-sample runs.
    batch : int
        States of the batch runs.
    repeat : int
        Repeats per configuration.

    Returns
    -------
    list of dict
        One per configuration and mode: measured and modelled figures.

    """
    from ..parallel.rows import RowPartition
    model = load_robot(robot)
    out = []
    with RowPartition(model) as rp:
        for mode, count in (('sample', states), ('batch', batch)):
            q, qd, _ = _inputs(model, count, np.random.default_rng(6))
            names = ['serial', 'rows', 'elements', 'elements_symmetric', 'row_split0']
            if mode == 'batch':
                names = ['serial', 'rows', 'row_split0']
            for name in names:
                run = rp.run(name, q, qd, mode, repeat)
                out.append({'robot': robot, 'configuration': name, 'mode': mode,
                            'workers': len(run.workers), 'per_state': run.wall / count,
                            'serial_per_state': run.serial / count, 'speedup': run.speedup,
                            'efficiency': run.efficiency,
                            'busy_fraction': list(run.busy_fraction),
                            'ops': list(run.ops), 'serial_ops': run.serial_ops,
                            'modelled_speedup': run.modelled_speedup,
                            'modelled_busy_fraction': list(run.modelled_busy_fraction)})
    return out


def prediction_section(duration, repeat):
    """
    Seed 000's per-link workers on the Stanford arm, Trajectory 1, against the serial recursion.

    Parameters
    ----------
    duration : float
        Trajectory duration [s] (5 ms samples).
    repeat : int
        Runs per method.

    Returns
    -------
    dict
        Per method: time per sample [s], measured speed-up against the serial
        recursion, modelled speed-up of seed 000.

    """
    from ..dynamics.codegen import kernels
    from ..parallel.linkframes import link_frames
    from ..parallel.predworkers import PredictionWorkers
    from ..reproductions.parallel_figures import PER_LINK_MODELLED_SPEEDUP
    from ..reproductions.stanford_prediction import thesis_model, trajectory
    model = thesis_model()
    fr = link_frames(model, 'dh')
    s = trajectory(1, duration)
    n = model.n
    names = {'exact': 'serial with buffers', 'zero': 'zero-order prediction',
             'first': 'first-order prediction', 'hybrid': 'hybrid prediction'}
    times = {m: [] for m in names}
    workers = {m: PredictionWorkers(fr, m) for m in names}
    try:
        for _ in range(repeat):
            for m, w in workers.items():
                times[m].append(w.run(s.q, s.qd, s.qdd).per_sample)
    finally:
        for w in workers.values():
            w.close()
    med = {m: statistics.median(v) for m, v in times.items()}
    k = kernels(model)
    c_kernel = _per_call(lambda: k.inverse_dynamics_rigid(s.q[5], s.qd[5], s.qdd[5]), repeat,
                         2000)
    rows = [{'method': m, 'threads': 1 if m == 'exact' else n, 'per_sample': med[m],
             'measured_speedup': med['exact'] / med[m],
             'modelled_speedup': PER_LINK_MODELLED_SPEEDUP[label](n)}
            for m, label in names.items()]
    return {'samples': len(s.t), 'duration': duration, 'rows': rows,
            'c_kernel_per_sample': c_kernel}


SECTIONS = ('batch', 'service', 'task_graph', 'rows', 'prediction')


def run(quick=False, states=None, sections=SECTIONS, repeat=None):
    """
    Run the bench (every section, or some).

    Parameters
    ----------
    quick : bool
        Smaller batches, fewer repeats.
    states : int, optional
        Batch size of the batch section (default 100000; 20000 when quick).
    sections : sequence of str
        Sections to run, from :data:`SECTIONS`.
    repeat : int, optional
        Rounds of the batch section (default 11; 3 when quick).

    Returns
    -------
    dict
        The sections run, settings and load averages.

    """
    count = int(states) if states else (20_000 if quick else 100_000)
    repeat = int(repeat) if repeat else (3 if quick else 11)
    out = {'settings': {'batch_states': count, 'repeat': repeat, 'cpus': os.cpu_count(),
                        'load_before': _load()}}
    if 'batch' in sections:
        phase(f'batch section: {count} states, puma560 and ur5, 1 and 2 threads')
        out['batch'] = [batch_section(r, count, repeat) for r in ('puma560', 'ur5')]
    if 'service' in sections:
        phase('service section: parallel_dynamics round trips over DDS')
        out['service'] = service_section('puma560', 20 if quick else 200, quick)
    if 'task_graph' in sections:
        phase('task_graph section: the task-graph schedule on threads')
        out['task_graph'] = task_graph_section('stanford', 5 if quick else 30,
                                               2000 if quick else 20000)
    if 'rows' in sections:
        phase('rows section: row partitions of the mass matrix')
        out['rows'] = (rows_section('ma3000', 100 if quick else 500, count, 1 if quick else 3)
                       + rows_section('puma560', 100 if quick else 500, count,
                                      1 if quick else 3))
    if 'prediction' in sections:
        phase('prediction section: prediction-decoupled pipelining')
        out['prediction'] = prediction_section(2.0, 1 if quick else 5)
    out['settings']['load_after'] = _load()
    return out
