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
The ROS side of the dynamics-service benchmarks: a peer that sends requests and times them.

Run as a process (``python -m robodyn_ros.nodes.dynamics_roundtrip PLAN``,
PLAN a JSON list of steps), in this machine's network or inside a network
namespace, while :mod:`robodyn_ros.bench.service` starts the service and
its workers; it prints one JSON line per step (``{"step": ..., ...}``) and,
for ``signal`` steps, a line ``READY`` just before the request goes out
(after ``delay`` seconds). Steps (``op``):

* ``wait``: until the service runs and ``workers`` workers announce themselves;
* ``round_trips``: ``repeat`` requests of ``points`` states, one at a time,
  timed from building the request to having the efforts as an array;
* ``check``: one request, compared with the same computation in this process
  (``identical``: bit for bit; ``max_error``);
* ``signal``: like ``check``, announcing the request on stdout first;
* ``flood``: ``count`` requests of ``points`` sent back to back, every
  answer collected (results, ``busy``, other errors, none missing);
* ``oversize``: one request of ``points`` states, timed to its answer;
* ``stats``: the service's counters (its diagnostics);
* ``mark``: print ``MARK <label>`` (the caller reads the service's memory then);
* ``chunks``: ``repeat`` chunks straight to the worker ``worker``;
* ``plan``: the planner with its efforts from the service and in-process.
"""

import json
import sys
import threading
import time

import numpy as np

from ..ros_env import apply_ros_env_defaults, use_large_data_transport


def _summary(samples):
    arr = np.sort(np.asarray(samples, dtype=float))
    return {'p50': float(np.percentile(arr, 50)), 'p99': float(np.percentile(arr, 99)),
            'min': float(arr[0]), 'max': float(arr[-1]), 'mean': float(arr.mean()),
            'count': int(arr.size)}


def states(model, points, seed=0):
    """
    Random states of a model.

    Parameters
    ----------
    model : RobotModel
        The robot.
    points : int
        States N.
    seed : int
        Seed.

    Returns
    -------
    tuple of numpy.ndarray
        ``(q, qd, qdd)``, (N, n) each.

    """
    rng = np.random.default_rng(seed)
    lo = np.where(np.isfinite(model.lower_limits), model.lower_limits, -np.pi)
    hi = np.where(np.isfinite(model.upper_limits), model.upper_limits, np.pi)
    q = rng.uniform(lo, hi, (int(points), model.n))
    return q, rng.uniform(-1, 1, q.shape), rng.uniform(-2, 2, q.shape)


class Peer:
    """
    A client of the service with its own rclpy context (see the module docstring).

    Parameters
    ----------
    robot : str
        Library robot of the service.

    """

    def __init__(self, robot):
        apply_ros_env_defaults()
        use_large_data_transport()
        import rclpy
        from diagnostic_msgs.msg import DiagnosticArray
        from std_msgs.msg import String
        from . import dynamics_protocol as proto
        from .dynamics_client import DynamicsClient
        from ..model import load_robot
        self.model = load_robot(robot)
        self.names = list(self.model.joint_names)
        self.context = rclpy.context.Context()
        rclpy.init(context=self.context)
        self.client = DynamicsClient(self.context)
        self.workers = set()
        self.counters = {}
        self.counters_at = 0.0
        node = self.client.node
        node.create_subscription(String, proto.WORKERS_TOPIC, self._on_beat, 10)
        node.create_subscription(DiagnosticArray, 'diagnostics', self._on_diag, 10)

    def _on_beat(self, msg):
        from . import dynamics_protocol as proto
        data = proto.parse_json(msg) or {}
        if isinstance(data.get('node'), str):
            self.workers.add(data['node'])

    def _on_diag(self, msg):
        info = self.client.info or {}
        for status in msg.status:
            if info.get('node') and status.name == info['node'] and status.values:
                self.counters = {kv.key: kv.value for kv in status.values}
                self.counters_at = time.monotonic()

    def fresh_counters(self, timeout=5.0):
        """Return the service's counters from a status made after this call (or the last)."""
        # The node refreshes its counters every 0.5 s and publishes them every second.
        after = time.monotonic() + 0.6
        deadline = after + timeout
        while self.counters_at < after and time.monotonic() < deadline:
            time.sleep(0.02)
        return dict(self.counters)

    def close(self):
        """Destroy the client and shut the context down."""
        import rclpy
        self.client.close()
        rclpy.try_shutdown(context=self.context)

    def wait(self, workers=0, timeout=60.0):
        """Wait for the service and ``workers`` workers; return the wait [s]."""
        t0 = time.monotonic()
        while not (self.client.available() and len(self.workers) >= workers):
            if time.monotonic() - t0 > timeout:
                raise TimeoutError(f'no service with {workers} workers within {timeout:g} s')
            time.sleep(0.05)
        time.sleep(1.2 if workers else 0.2)        # the service sees the workers too
        return {'waited': time.monotonic() - t0, 'workers': sorted(self.workers)}

    def round_trips(self, points, repeat, warmup=5, seed=0, timeout=30.0):
        """Time ``repeat`` requests one at a time (after ``warmup``)."""
        q, qd, qdd = states(self.model, points, seed)
        for _ in range(warmup):
            self.client.request(self.names, q, qd, qdd, timeout=timeout)
        samples = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            self.client.request(self.names, q, qd, qdd, timeout=timeout)
            samples.append(time.perf_counter() - t0)
        return _summary(samples)

    def check(self, points, seed=0, timeout=30.0, signal=None):
        """
        Send one request; compare its answer with the in-process computation.

        With ``signal`` (a delay [s]), print ``READY`` and wait that long first.
        """
        from ..parallel.batch import parallel_inverse_dynamics
        q, qd, qdd = states(self.model, points, seed)
        ref = parallel_inverse_dynamics(self.model, q, qd, qdd, friction=True)
        before = dict(self.counters)
        result = {}
        if signal is not None:
            print('READY', flush=True)
            time.sleep(signal)
        t0 = time.perf_counter()
        try:
            tau = self.client.request(self.names, q, qd, qdd, timeout=timeout)
            result.update(identical=bool(np.array_equal(tau, ref)),
                          max_error=float(np.max(np.abs(tau - ref))))
        except Exception as exc:  # reported, never silent
            result.update(error=f'{type(exc).__name__}: {exc}')
        result['round_trip'] = time.perf_counter() - t0
        result['before'], result['after'] = before, self.fresh_counters()
        return result

    def flood(self, points, count, seed=0, timeout=120.0):
        """Send ``count`` requests back to back and collect every answer."""
        from . import dynamics_cdr as cdr
        from . import dynamics_protocol as proto
        q, qd, qdd = states(self.model, points, seed)
        got, lock, done = {}, threading.Lock(), threading.Event()
        client = self.client

        def on_answer(data):
            rid = proto.request_id(data)
            with lock:
                got.setdefault(rid, []).append(cdr.decode(data))
                if len(got) == count:
                    done.set()
        node = client.node
        from trajectory_msgs.msg import JointTrajectory
        sub = node.create_subscription(JointTrajectory, proto.RESPONSE_TOPIC, on_answer,
                                       proto.DATA_QOS, raw=True)
        time.sleep(0.5)
        sec = int(time.time())
        t0 = time.perf_counter()
        ids = []
        for k in range(count):
            ids.append(proto.format_id(f'flood {k}', sec, k))
            client.publish(cdr.encode(sec, k, f'flood {k}', self.names, q, qd, qdd))
        sent = time.perf_counter() - t0
        done.wait(timeout)
        elapsed = time.perf_counter() - t0
        node.destroy_subscription(sub)
        answers = [got.get(rid, []) for rid in ids]
        codes = [proto.parse_error(a[0])[0] if a[0].is_error else 'result' for a in answers
                 if a]
        results = codes.count('result')
        return {'points': points, 'count': count, 'answered': sum(1 for a in answers if a),
                'duplicates': sum(1 for a in answers if len(a) > 1), 'results': results,
                'busy': codes.count('busy'), 'other_errors': len(codes) - results
                - codes.count('busy'), 'send_time': sent, 'elapsed': elapsed,
                'points_per_second': results * points / elapsed}

    def oversize(self, points, timeout=120.0):
        """Time one (too) large request to its answer."""
        from .dynamics_client import DynamicsServiceError
        q = np.zeros((int(points), self.model.n))
        t0 = time.perf_counter()
        try:
            self.client.request(self.names, q, q, q, timeout=timeout, busy_retries=0)
            code = 'result'
        except DynamicsServiceError as exc:
            code = exc.code
        return {'points': points, 'code': code, 'answer_time': time.perf_counter() - t0,
                'request_bytes': 24 * q.size}

    def chunks(self, worker, points, repeat, warmup=5):
        """Time chunks sent straight to one worker and answered."""
        from trajectory_msgs.msg import JointTrajectory
        from . import dynamics_cdr as cdr
        from . import dynamics_protocol as proto
        node = self.client.node
        got, event = {}, threading.Event()

        def on_reply(data):
            got['data'] = data
            event.set()
        node.create_subscription(JointTrajectory, proto.CHUNK_RESPONSE_TOPIC, on_reply,
                                 proto.DATA_QOS, raw=True)
        pub = node.create_publisher(JointTrajectory, f'{worker}/{proto.CHUNK_REQUEST_SUFFIX}',
                                    proto.DATA_QOS)
        deadline = time.monotonic() + 30.0
        while pub.get_subscription_count() == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        q, qd, qdd = states(self.model, points)
        samples = []
        for k in range(warmup + repeat):
            event.clear()
            t0 = time.perf_counter()
            pub.publish(cdr.encode(0, k, proto.chunk_id('bench', k, True), self.names, q, qd,
                                   qdd))
            if not event.wait(10.0):
                raise TimeoutError('the worker did not answer a chunk within 10 s')
            cdr.decode(got['data']).effort.copy()
            if k >= warmup:
                samples.append(time.perf_counter() - t0)
        return _summary(samples)

    def plan(self, repeat, parameterization, effort_share=0.55, seed=0):
        """Time plans with efforts from the service and in-process, interleaved."""
        from .dynamics_client import RemoteEffortProvider
        from ..planning.efforts import ModelEffortProvider
        from ..planning.limits import estimate_acceleration_limits, PlanningLimits
        from ..planning.planner import Planner
        from ..planning.planner_config import PlannerConfig
        model = self.model
        limits = PlanningLimits.from_model(model)
        if not np.all(np.isfinite(limits.acceleration)):
            limits = limits.with_values(acceleration=estimate_acceleration_limits(model))
        limits = limits.with_values(effort=limits.effort * effort_share)
        rng = np.random.default_rng(seed)
        mid = model.home_configuration(1.0)
        pts = np.array([mid + 0.3 * (model.random_configuration(rng) - mid) for _ in range(6)])
        remote = _Counted(RemoteEffortProvider(self.client, model, timeout=5.0))
        config = PlannerConfig(profile='spline', time_parameterization=parameterization)
        planners = {'service': Planner(limits, config, remote),
                    'local': Planner(limits, config, ModelEffortProvider(model))}
        for planner in planners.values():
            planner.plan(pts[0], pts[1:])
        times = {k: [] for k in planners}
        per_plan = []
        for _ in range(repeat):
            for key, planner in planners.items():
                remote.calls.clear()
                t0 = time.perf_counter()
                planner.plan(pts[0], pts[1:])
                times[key].append(time.perf_counter() - t0)
                if key == 'service':
                    per_plan = list(remote.calls)
        out = {k: _summary(v) for k, v in times.items()}
        out.update(parameterization=parameterization, points_per_call=per_plan,
                   served=remote.provider.last_source == 'service',
                   reason=remote.provider.last_reason)
        return out


class _Counted:
    """An effort provider that counts the states of each call (and keeps ``local``)."""

    def __init__(self, provider):
        self.provider = provider
        self.local = provider.local
        self.calls = []

    def __call__(self, q, qd, qdd):
        self.calls.append(len(np.atleast_2d(q)))
        return self.provider(q, qd, qdd)


def _run_step(peer, step):
    op = step['op']
    if op == 'wait':
        return peer.wait(step.get('workers', 0), step.get('timeout', 60.0))
    if op == 'round_trips':
        return peer.round_trips(step['points'], step['repeat'], step.get('warmup', 5))
    if op in ('check', 'signal'):
        return peer.check(step['points'], step.get('seed', 0), step.get('timeout', 30.0),
                          signal=step.get('delay', 0.0) if op == 'signal' else None)
    if op == 'flood':
        return peer.flood(step['points'], step['count'])
    if op == 'oversize':
        return peer.oversize(step['points'])
    if op == 'chunks':
        return peer.chunks(step['worker'], step['points'], step['repeat'])
    if op == 'plan':
        return peer.plan(step['repeat'], step.get('parameterization', 'optimal'))
    if op == 'stats':
        return peer.fresh_counters()
    if op == 'mark':
        print('MARK', step['label'], flush=True)
        return {}
    if op == 'sleep':
        time.sleep(step['seconds'])
        return {}
    raise ValueError(f'unknown step {op!r}')


def main(argv=None):
    """
    Run a plan of steps against a running service and print the results as JSON lines.

    Parameters
    ----------
    argv : list of str, optional
        ``[PLAN]``: ``{"robot": ..., "steps": [...]}`` as JSON.

    Returns
    -------
    int
        0, or 1 when a step failed (its line carries ``error``).

    """
    plan = json.loads((argv if argv is not None else sys.argv[1:])[0])
    peer = Peer(plan.get('robot', 'puma560'))
    status = 0
    try:
        for step in plan['steps']:
            try:
                out = _run_step(peer, step)
            except Exception as exc:  # reported on the step's line
                out, status = {'error': f'{type(exc).__name__}: {exc}'}, 1
            print(json.dumps({'step': step, **out}), flush=True)
    finally:
        peer.close()
    return status


if __name__ == '__main__':
    sys.exit(main())
