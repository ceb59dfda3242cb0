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
``robodyn bench service``: the parallel-dynamics service over DDS, measured (no rclpy here).

Every case starts ``parallel_dynamics`` (and ``parallel_dynamics_worker``
processes) as real processes and drives them with the peer of
:mod:`robodyn_ros.nodes.dynamics_roundtrip`, itself a process (so that it can
run inside a network namespace). Sections:

* ``round_trips``: 10 to 100,000 points, the service alone on 1 and 2
  threads, with 2 worker processes, beside the in-process computation;
* ``flood``: 200 back-to-back 500-point requests (every answer counted,
  throughput, the service's peak RSS), with the default queue and a small one;
* ``oversize``: 250,000 and 1,000,000-point requests (refused from their size):
  time to the answer and the service's peak RSS;
* ``killed_worker``: a worker frozen and killed while its chunk is out;
* ``chunks``: chunks straight to one worker;
* ``planner``: plans with efforts from the service and in-process;
* ``cross_link``: the service in one network namespace, 2 workers in another
  (:mod:`.netns`): round trips across the link and the link cut mid-request.

The processes of a case are a :class:`~.service_graph.Graph`.
"""

import os
import signal
import time

import numpy as np

from .dynamics import _load
from .netns import HostPair, unavailable
from .service_graph import Graph, peak_rss
from .timing import phase

SECTIONS = ('round_trips', 'flood', 'oversize', 'killed_worker', 'chunks', 'planner',
            'cross_link')


def in_process(robot, points, threads, repeat):
    """Median time of the same computation in this process [s]."""
    from ..model import load_robot
    from ..nodes.dynamics_roundtrip import states
    from ..parallel.batch import parallel_inverse_dynamics
    model = load_robot(robot)
    q, qd, qdd = states(model, points)
    parallel_inverse_dynamics(model, q, qd, qdd, threads=threads)
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        parallel_inverse_dynamics(model, q, qd, qdd, threads=threads)
        samples.append(time.perf_counter() - t0)
    return float(np.median(samples))


def _repeats(sizes, repeat):
    """Choose the requests per size: ``repeat`` up to 4,000 points, fewer above (>= 10)."""
    return {n: min(repeat, max(10, repeat * 4000 // max(n, 4000))) for n in sizes}


#: Configurations of the round trips: service parameters and worker processes.
CONFIGS = {'service, 1 thread': ({'scheme': 'threads', 'threads': 1}, 0),
           'service, 2 threads': ({'scheme': 'threads', 'threads': 2}, 0),
           'service + 2 worker processes': ({'scheme': 'workers', 'threads': 1,
                                             'min_chunk': 100, 'worker_timeout': 5.0}, 2)}


def round_trips(robot, sizes, repeat, configs=tuple(CONFIGS)):
    """
    Round trips for each size: service alone (1 and 2 threads), with 2 workers, in-process.

    Parameters
    ----------
    robot : str
        Library robot.
    sizes : sequence of int
        Points per request.
    repeat : int
        Requests per size (fewer for the large ones).
    configs : sequence of str
        Keys of :data:`CONFIGS`.

    Returns
    -------
    dict
        Configuration -> size -> round-trip summary [s]; ``in_process``.

    """
    reps = _repeats(sizes, repeat)
    out = {}
    for label in configs:
        params, workers = CONFIGS[label]
        with Graph(robot) as g:
            g.service(side=0, **params)
            for k in range(workers):
                g.worker(k)
            steps = [{'op': 'wait', 'workers': workers}]
            steps += [{'op': 'round_trips', 'points': n, 'repeat': reps[n],
                       'warmup': 3 if n >= 10000 else 5} for n in sizes]
            steps.append({'op': 'stats'})
            res = g.peer(steps)
        out[label] = {str(r['step']['points']): r for r in res[1:-1]}
        out[label]['service_counters'] = res[-1]
    out['in_process'] = {str(n): {f'{t} thread(s)': in_process(robot, n, t, reps[n])
                                  for t in (1, 2)} for n in sizes}
    return out


def flood(robot, count=200, points=500, small_queue=2000, runs=('default', 'small_queue')):
    """
    Back-to-back requests: every answer, throughput, the service's peak RSS.

    Parameters
    ----------
    robot : str
        Library robot.
    count, points : int
        Requests and their size.
    small_queue : int
        ``max_queued_points`` of the second run.
    runs : sequence of str
        ``'default'`` and/or ``'small_queue'``.

    Returns
    -------
    dict
        ``default`` and ``small_queue``: flood results and RSS [MB].

    """
    out = {}
    for label in runs:
        params = {'max_queued_points': small_queue} if label == 'small_queue' else {}
        with Graph(robot) as g:
            svc = g.service(**params)
            marks = {}
            res = g.peer([{'op': 'wait'}, {'op': 'round_trips', 'points': points, 'repeat': 1,
                                           'warmup': 2}, {'op': 'mark', 'label': 'before'},
                          {'op': 'flood', 'points': points, 'count': count}, {'op': 'stats'}],
                         on_line=_rss_marks(svc, marks))
            out[label] = dict(res[3], rss_before=marks['before'], rss=peak_rss(svc),
                              params=params, service_counters=res[4])
    return out


def _rss_marks(proc, marks):
    def on_line(line):
        if line.startswith('MARK '):
            marks[line[5:]] = peak_rss(proc)
    return on_line


def oversize(robot, sizes=(250_000, 1_000_000), max_points=200_000):
    """
    Send requests above ``max_points``: time to the refusal and the service's peak RSS.

    Parameters
    ----------
    robot : str
        Library robot.
    sizes : sequence of int
        Points per request.
    max_points : int
        The service's ``max_points``.

    Returns
    -------
    dict
        Per size: answer code and time [s]; RSS of the service [MB].

    """
    with Graph(robot) as g:
        svc = g.service(max_points=max_points)
        steps = [{'op': 'wait'}, {'op': 'mark', 'label': 'before'}]
        for n in sizes:
            steps += [{'op': 'oversize', 'points': n}, {'op': 'sleep', 'seconds': 1.0},
                      {'op': 'mark', 'label': str(n)}]
        marks = {}
        res = g.peer(steps, on_line=_rss_marks(svc, marks))
        out = {'rss_before': marks['before']}
        for r in res:
            if r['step']['op'] == 'oversize':
                n = str(r['step']['points'])
                out[n] = dict(r, rss=marks[n])
        return out


def _freeze_then_kill(proc, delay):
    def on_line(line):
        if line == 'READY':
            proc.send_signal(signal.SIGSTOP)     # alive for DDS, never answers
            time.sleep(delay)
            proc.kill()
    return on_line


def killed_worker(robot, points=1000, timeout=0.5):
    """
    Freeze and kill a worker while its chunk is out; the other stays.

    Parameters
    ----------
    robot : str
        Library robot.
    points : int
        Points of the request.
    timeout : float
        The service's ``worker_timeout`` [s].

    Returns
    -------
    dict
        The check before, the check across the kill (round trip, counters).

    """
    with Graph(robot) as g:
        g.service(scheme='workers', min_chunk=100, worker_timeout=timeout)
        workers = [g.worker(k) for k in range(2)]
        res = g.peer([{'op': 'wait', 'workers': 2}, {'op': 'check', 'points': points},
                      {'op': 'signal', 'points': points, 'seed': 1, 'delay': 0.3},
                      {'op': 'round_trips', 'points': points, 'repeat': 20}],
                     on_line=_freeze_then_kill(workers[0], 0.1))
        return {'before': res[1], 'killed': res[2], 'after': res[3], 'worker_timeout': timeout}


def chunks(robot, points=(500, 50_000), repeat=50):
    """Chunks straight to one worker process: round trips [s] per size."""
    with Graph(robot) as g:
        g.worker(0, side=0)
        steps = [{'op': 'chunks', 'worker': g.worker_name(0), 'points': n,
                  'repeat': repeat if n < 10000 else max(5, repeat // 5)} for n in points]
        return {str(r['step']['points']): r for r in g.peer(steps)}


def planner(robot, repeat=15, timings=('optimal', 'uniform')):
    """Plans with efforts from the service and in-process, per time parameterization."""
    with Graph(robot) as g:
        g.service()
        res = g.peer([{'op': 'wait'}] + [{'op': 'plan', 'repeat': repeat,
                                          'parameterization': p} for p in timings])
        return {r['parameterization']: r for r in res[1:]}


def cross_link(robot, sizes=(10, 1000, 10_000, 100_000), repeat=30):
    """
    Run the service in one namespace, 2 workers in the other: round trips, identity, a cut.

    Parameters
    ----------
    robot : str
        Library robot.
    sizes : sequence of int
        Points per request.
    repeat : int
        Requests per size (fewer for the large ones).

    Returns
    -------
    dict
        Round trips per size, the identity check and the cut; or
        ``{'skipped': reason}``.

    """
    reason = unavailable()
    if reason:
        return {'skipped': reason}
    reps = _repeats(sizes, repeat)
    with HostPair() as hosts, Graph(robot, hosts) as g:
        g.service(side=0, scheme='workers', threads=1, min_chunk=100, worker_timeout=2.0)
        for k in range(2):
            g.worker(k, side=1)
        steps = [{'op': 'wait', 'workers': 2}, {'op': 'check', 'points': 10000, 'seed': 3}]
        steps += [{'op': 'round_trips', 'points': n, 'repeat': reps[n],
                   'warmup': 3} for n in sizes]
        res = g.peer(steps, side=0)
        out = {'identical': res[1], 'round_trips': {str(r['step']['points']): r
                                                    for r in res[2:]}}
        out['cut'] = cut_mid_request(hosts, g)
        out['addresses'] = list(hosts.addresses)
    return out


def cut_mid_request(hosts, graph, points=100_000, tries=3):
    """
    Take the link down while a request's chunks cross it; the answer comes from the service.

    Parameters
    ----------
    hosts : HostPair
        The namespaces (service and peer in ``a``, workers in ``b``).
    graph : Graph
        Running service and workers.
    points : int
        Points of the request (large: its chunks take a while to cross).
    tries : int
        Attempts when the request finished before the link went down.

    Returns
    -------
    dict
        The peer's check (round trip, identical, counters before and after)
        and how many bytes had crossed when the link went down.

    """
    for attempt in range(tries):
        state = {}

        def on_line(line):
            if line != 'READY':
                return
            start = hosts.link_bytes(0)[0]
            deadline = time.monotonic() + 5.0
            while time.monotonic() < deadline:
                crossed = hosts.link_bytes(0)[0] - start
                if crossed > 1_000_000:
                    break
            hosts.cut()
            state['crossed'] = crossed
        res = graph.peer([{'op': 'wait', 'workers': 2},
                          {'op': 'signal', 'points': points, 'seed': 10 + attempt,
                           'timeout': 60.0}], side=0, on_line=on_line)[1]
        res['crossed_bytes'] = state.get('crossed')
        before, after = res['before'], res['after']
        res['chunks_local'] = int(after.get('chunks_local', 0)) - int(
            before.get('chunks_local', 0))
        res['attempt'] = attempt + 1
        if res['chunks_local'] > 0 or attempt == tries - 1:
            return res
        hosts.restore()
        time.sleep(3.0)                          # the workers are seen again
    return res


def run(quick=False, sections=SECTIONS, robot='puma560'):
    """
    Run the service benchmark.

    Parameters
    ----------
    quick : bool
        Fewer sizes and repeats.
    sections : sequence of str
        Sections from :data:`SECTIONS`.
    robot : str
        Library robot.

    Returns
    -------
    dict
        Results per section, with the load averages.

    """
    date = time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())
    out = {'settings': {'robot': robot, 'quick': quick, 'cpus': os.cpu_count(),
                        'load_before': _load(), 'date': date}}
    sizes = (10, 1000) if quick else (10, 100, 1000, 10_000, 100_000)
    repeat = 10 if quick else 100
    if 'round_trips' in sections:
        phase(f'round trips of {", ".join(map(str, sizes))} points: service alone, with 2 '
              'workers, in-process')
        out['round_trips'] = round_trips(robot, sizes, repeat)
    if 'flood' in sections:
        phase('flood: requests back to back, default and small queue')
        out['flood'] = flood(robot, 40 if quick else 200)
    if 'oversize' in sections:
        phase('requests above max_points')
        out['oversize'] = oversize(robot, (250_000,) if quick else (250_000, 1_000_000))
    if 'killed_worker' in sections:
        phase('a worker killed while its chunk is out')
        out['killed_worker'] = killed_worker(robot)
    if 'chunks' in sections:
        phase('chunks straight to a worker')
        out['chunks'] = chunks(robot, (500,) if quick else (500, 50_000), 10 if quick else 50)
    if 'planner' in sections:
        phase('the planner with the service and in-process')
        out['planner'] = planner(robot, 3 if quick else 15)
    if 'cross_link' in sections:
        phase('two network namespaces: round trips across the link, the link cut')
        out['cross_link'] = cross_link(robot, (10, 1000) if quick else
                                       (10, 1000, 10_000, 100_000), 10 if quick else 50)
    out['settings']['load_after'] = _load()
    return out
