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
Round trips to the dynamics service over DDS, measured (for ``robodyn bench parallel``).

Starts ``parallel_dynamics`` (and, if asked, ``parallel_dynamics_worker``
processes) as real processes, sends requests from this process with
:class:`~robodyn_ros.nodes.dynamics_client.DynamicsClient` and times each
request from building the message to having the efforts back as an array.
:func:`chunk_round_trips` times chunks sent straight to one worker: the
cost of handing a chunk to another process.
"""

import contextlib
import os
import signal
import statistics
import subprocess
import sys
import threading
import time

import numpy as np

from ..ros_env import apply_ros_env_defaults


def _summary(samples):
    arr = np.sort(np.asarray(samples))
    return {'p50': float(np.percentile(arr, 50)), 'p99': float(np.percentile(arr, 99)),
            'min': float(arr[0]), 'max': float(arr[-1]), 'mean': float(statistics.fmean(arr)),
            'count': int(arr.size)}


def _start(module, args):
    return subprocess.Popen([sys.executable, '-m', f'robodyn_ros.nodes.{module}', '--ros-args',
                             *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env=dict(os.environ))


def _stop(procs):
    for p in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGINT)
    for p in procs:
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


@contextlib.contextmanager
def _ros():
    apply_ros_env_defaults()
    import rclpy
    context = rclpy.context.Context()
    rclpy.init(context=context)
    try:
        yield context
    finally:
        rclpy.try_shutdown(context=context)


def _wait(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(f'{what} within {timeout:g} s')
        time.sleep(0.05)


def _states(model, points, seed=0):
    rng = np.random.default_rng(seed)
    q = np.array([model.random_configuration(rng) for _ in range(points)])
    return q, rng.uniform(-1, 1, q.shape), rng.uniform(-2, 2, q.shape)


def service_round_trips(robot, points, repeat, scheme='threads', threads=2, workers=0,
                        min_chunk=100, warmup=10):
    """
    Time requests to a ``parallel_dynamics`` process.

    Parameters
    ----------
    robot : str
        Library robot.
    points : int
        Points per request.
    repeat : int
        Timed requests.
    scheme : str
        Scheme of the service.
    threads : int
        Its threads.
    workers : int
        Worker processes to start (the scheme should then be ``workers``).
    min_chunk : int
        Smallest chunk the service sends to a worker.
    warmup : int
        Untimed requests first.

    Returns
    -------
    dict
        Round-trip summary [s] (``p50``, ``p99``, ...), and the service's
        counters (``service``) from its diagnostics.

    """
    from diagnostic_msgs.msg import DiagnosticArray
    from std_msgs.msg import String
    from . import dynamics_protocol as proto
    from .dynamics_client import DynamicsClient
    from ..model import load_robot
    model = load_robot(robot)
    tag = f'{os.getpid()}_{int(time.monotonic() * 1e3) % 100000}'
    procs = [_start('parallel_dynamics_node',
                    ['-r', f'__node:=bench_service_{tag}', '-p', f'robot:={robot}',
                     '-p', f'scheme:={scheme}', '-p', f'threads:={threads}',
                     '-p', f'min_chunk:={min_chunk}', '-p', 'worker_timeout:=2.0'])]
    procs += [_start('parallel_dynamics_worker_node',
                     ['-r', f'__node:=bench_worker_{tag}_{k}', '-p', f'robot:={robot}'])
              for k in range(workers)]
    try:
        with _ros() as context:
            client = DynamicsClient(context)
            seen, diags = set(), []
            node = client._node
            node.create_subscription(String, proto.WORKERS_TOPIC,
                                     lambda m: seen.add((proto.parse_json(m) or {}).get('node')),
                                     10)
            node.create_subscription(DiagnosticArray, 'diagnostics', diags.append, 10)
            try:
                _wait(client.available, 30.0, 'no parallel_dynamics service')
                _wait(lambda: len(seen - {None}) >= workers, 30.0, f'fewer than {workers} '
                                                                   'workers')
                time.sleep(2.0 if workers else 0.2)
                q, qd, qdd = _states(model, points)
                names = list(model.joint_names)
                for _ in range(warmup):
                    client.request(names, q, qd, qdd, timeout=10.0)
                samples = []
                for _ in range(repeat):
                    t0 = time.perf_counter()
                    client.request(names, q, qd, qdd, timeout=10.0)
                    samples.append(time.perf_counter() - t0)
                time.sleep(1.2)
                counters = {}
                for d in diags:
                    for s in d.status:
                        if s.name.endswith(f'bench_service_{tag}') and s.values:
                            counters = {kv.key: kv.value for kv in s.values}
                out = _summary(samples)
                out['service'] = counters
                return out
            finally:
                client.close()
    finally:
        _stop(procs)


def chunk_round_trips(robot, points, repeat, warmup=10):
    """
    Time chunks sent straight to one ``parallel_dynamics_worker`` process.

    Parameters
    ----------
    robot : str
        Library robot.
    points : int
        Points per chunk.
    repeat : int
        Timed chunks.
    warmup : int
        Untimed chunks first.

    Returns
    -------
    dict
        Round-trip summary [s].

    """
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.node import Node
    from std_msgs.msg import String
    from trajectory_msgs.msg import JointTrajectory
    from . import dynamics_protocol as proto
    from ..model import load_robot
    model = load_robot(robot)
    name = f'bench_chunk_worker_{os.getpid()}'
    procs = [_start('parallel_dynamics_worker_node', ['-r', f'__node:={name}',
                                                      '-p', f'robot:={robot}'])]
    try:
        with _ros() as context:
            node = Node(f'bench_chunk_client_{os.getpid()}', context=context)
            got = {}
            event = threading.Event()
            beats = []

            def on_reply(msg):
                got[msg.header.frame_id] = msg
                event.set()
            node.create_subscription(JointTrajectory, proto.CHUNK_RESPONSE_TOPIC, on_reply,
                                     proto.DATA_QOS)
            node.create_subscription(String, proto.WORKERS_TOPIC, beats.append, 10)
            pub = node.create_publisher(JointTrajectory, f'/{name}/{proto.CHUNK_REQUEST_SUFFIX}',
                                        proto.DATA_QOS)
            executor = SingleThreadedExecutor(context=context)
            executor.add_node(node)
            stop = threading.Event()

            def spin_until_stopped():
                while not stop.is_set():
                    executor.spin_once(timeout_sec=0.05)
            spin = threading.Thread(target=spin_until_stopped, daemon=True)
            spin.start()
            try:
                _wait(lambda: beats and pub.get_subscription_count() > 0, 30.0, 'no worker')
                q, qd, qdd = _states(model, points)
                stamp = node.get_clock().now().to_msg()
                samples = []
                for k in range(warmup + repeat):
                    event.clear()
                    t0 = time.perf_counter()
                    msg = proto.chunk_request('bench', k, True, stamp, model.joint_names, q, qd,
                                              qdd)
                    pub.publish(msg)
                    if not event.wait(10.0):
                        raise TimeoutError('the worker did not answer a chunk within 10 s')
                    proto.response_efforts(got.pop(msg.header.frame_id), model.joint_names)
                    if k >= warmup:
                        samples.append(time.perf_counter() - t0)
                return _summary(samples)
            finally:
                stop.set()
                spin.join(timeout=2.0)
                executor.shutdown()
                node.destroy_node()
    finally:
        _stop(procs)


def planner_plan_times(robot, repeat, seed=0, effort_share=0.55):
    """
    Time the planner's plan with efforts from the service and computed in-process.

    A 5-waypoint spline with torque-limited time scaling (effort limits at
    ``effort_share`` of the model's, so the scaling works), planned
    alternately with :class:`RemoteEffortProvider` (service running in its
    own process) and :class:`ModelEffortProvider`.

    Parameters
    ----------
    robot : str
        Library robot.
    repeat : int
        Plans per provider.
    seed : int
        Seed of the waypoints.
    effort_share : float
        Share of the model's effort limits given to the planner.

    Returns
    -------
    dict
        ``service`` and ``local``: plan-time summaries [s]; ``calls``: effort
        requests per plan; ``served``: whether the service answered.

    """
    from .dynamics_client import DynamicsClient, RemoteEffortProvider
    from ..model import load_robot
    from ..planning.efforts import ModelEffortProvider
    from ..planning.limits import estimate_acceleration_limits, PlanningLimits
    from ..planning.planner import Planner, PlannerConfig
    model = load_robot(robot)
    limits = PlanningLimits.from_model(model)
    if not np.all(np.isfinite(limits.acceleration)):
        limits = limits.with_values(acceleration=estimate_acceleration_limits(model))
    limits = limits.with_values(effort=limits.effort * effort_share)
    rng = np.random.default_rng(seed)
    mid = model.home_configuration(1.0)
    pts = np.array([mid + 0.3 * (model.random_configuration(rng) - mid) for _ in range(6)])
    procs = [_start('parallel_dynamics_node', ['-r', f'__node:=bench_plan_service_{os.getpid()}',
                                               '-p', f'robot:={robot}'])]
    try:
        with _ros() as context:
            client = DynamicsClient(context)
            try:
                _wait(client.available, 30.0, 'no parallel_dynamics service')
                remote = RemoteEffortProvider(client, model, timeout=5.0)
                calls = []

                def counted(q, qd, qdd):
                    calls.append(len(np.atleast_2d(q)))
                    return remote(q, qd, qdd)
                planners = {'service': Planner(limits, PlannerConfig(profile='spline'), counted),
                            'local': Planner(limits, PlannerConfig(profile='spline'),
                                             ModelEffortProvider(model))}
                for planner in planners.values():
                    planner.plan(pts[0], pts[1:])
                times = {k: [] for k in planners}
                per_plan = []
                for _ in range(repeat):
                    for key, planner in planners.items():
                        calls.clear()
                        t0 = time.perf_counter()
                        planner.plan(pts[0], pts[1:])
                        times[key].append(time.perf_counter() - t0)
                        if key == 'service':
                            per_plan = list(calls)
                out = {k: _summary(v) for k, v in times.items()}
                out['calls'] = len(per_plan)
                out['points_per_call'] = per_plan
                out['served'] = remote.last_source == 'service'
                return out
            finally:
                client.close()
    finally:
        _stop(procs)
