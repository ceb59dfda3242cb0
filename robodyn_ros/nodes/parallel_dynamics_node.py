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
The ``parallel_dynamics`` node: inverse dynamics of whole trajectories as a service.

Requests arrive on ``dynamics/request`` (trajectory_msgs/JointTrajectory with
positions, velocities, accelerations); the answer goes out on
``dynamics/response`` with the same header and points and ``effort``
filled, or, for a malformed request, with the same header and no points
plus an ERROR entry on ``diagnostics`` (see
:mod:`robodyn_ros.nodes.dynamics_protocol`). The node spins on a
MultiThreadedExecutor with one reentrant callback group, so requests from
several clients are served at once; each request is split across the
node's pool of ``threads`` threads (batch partitioning over the GIL-free
kernels), or computed with seed 003's row partition or seed 004's scheduled
subtasks, or cut into chunks for ``parallel_dynamics_worker`` processes
over DDS (``scheme``). A worker that does not answer a chunk within
``worker_timeout`` is dropped and its chunk computed here. All computing is
in :mod:`robodyn_ros.parallel`.
"""

from dataclasses import dataclass, field
import math
import threading
import time
import uuid

from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue
import numpy as np
from rclpy.callback_groups import MutuallyExclusiveCallbackGroup, ReentrantCallbackGroup
from rclpy.node import Node
from std_msgs.msg import String
from trajectory_msgs.msg import JointTrajectory

from . import dynamics_protocol as proto
from .diagnostics import Diagnostics, OK, WARN
from .model_source import load_model, model_parameters
from .params import declare, ParameterValidationError, ParamSpec
from .runner import run_node
from ..errors import RobodynError
from ..parallel.service import EffortSolver, model_fingerprint, SCHEMES, split_rows

#: Executor threads: concurrent requests plus worker traffic (compute threads: ``threads``).
EXECUTOR_THREADS = 4


def parameter_specs():
    """
    Parameters of the node.

    Returns
    -------
    list of ParamSpec
        Model source, threads, scheme, friction, worker offload, limits.

    """
    return model_parameters() + [
        ParamSpec('threads', 2, 'Threads that split each request (batch partitioning)',
                  low=1, high=64),
        ParamSpec('scheme', 'auto', 'auto: worker processes when any are alive, else '
                  'threads; threads: batch partitioning; workers: chunks to worker processes; '
                  'rows: seed 003 row partition (rigid body); task_graph: seed 004 scheduled '
                  'subtasks', choices=SCHEMES),
        ParamSpec('friction', True, "Include the joints' friction models in the efforts"),
        ParamSpec('min_chunk', 100, 'Fewest points sent to a worker in one chunk', low=1,
                  high=10_000_000),
        ParamSpec('worker_timeout', 0.5, 'A chunk not answered within this time [s] is '
                  'computed here and its worker dropped', low=0.01, high=60.0),
        ParamSpec('max_points', 200_000, 'Largest request accepted [points]', low=1,
                  high=10_000_000),
    ]


@dataclass
class _Worker:
    name: str
    publisher: object
    last_seen: float
    chunks: int = 0


@dataclass
class _Pending:
    msg: object
    rid: str
    order: np.ndarray
    states: tuple
    tau: np.ndarray
    friction: bool
    chunks: dict = field(default_factory=dict)
    started: float = 0.0


class ParallelDynamicsNode(Node):
    """
    Serve inverse dynamics of trajectories, split across threads or worker processes.

    Parameters
    ----------
    **kwargs
        Passed to ``rclpy.node.Node`` (context, parameter overrides, ...).

    """

    def __init__(self, **kwargs):
        super().__init__('parallel_dynamics', **kwargs)
        self._values = declare(self, parameter_specs(), on_changes=self._on_change)
        self._model = load_model(self, self._values)
        self._fingerprint = model_fingerprint(self._model)
        try:
            self._solver = self._make_solver(self._values)
        except RobodynError as exc:
            raise ParameterValidationError(f'invalid parameters: {exc}') from None
        self._lock = threading.Lock()
        self._pub_lock = threading.Lock()
        self._diag_lock = threading.Lock()
        self._workers = {}
        self._pending = {}
        self._stats = {'requests': 0, 'errors': 0, 'points': 0, 'chunks_sent': 0,
                       'chunks_local': 0, 'worker_timeouts': 0}
        group = ReentrantCallbackGroup()
        self._diag = Diagnostics(self, hardware_id=self._model.name)
        self._error_pub = self.create_publisher(DiagnosticArray, 'diagnostics', 10)
        self._pub = self.create_publisher(JointTrajectory, proto.RESPONSE_TOPIC, proto.DATA_QOS)
        self._info_pub = self.create_publisher(String, proto.INFO_TOPIC, proto.INFO_QOS)
        self.create_subscription(JointTrajectory, proto.REQUEST_TOPIC, self._on_request,
                                 proto.DATA_QOS, callback_group=group)
        self.create_subscription(String, proto.WORKERS_TOPIC, self._on_heartbeat, 10,
                                 callback_group=group)
        self.create_subscription(JointTrajectory, proto.CHUNK_RESPONSE_TOPIC, self._on_chunk,
                                 proto.DATA_QOS, callback_group=group)
        self.create_timer(0.02, self._check_pending,
                          callback_group=MutuallyExclusiveCallbackGroup())
        self._publish_info()
        self._diag.update(OK, 'ready', self._status_values())
        self.get_logger().info(f'serving inverse dynamics of {self._model.name!r} '
                               f'({self._model.n} joints) with {self._solver!r}')

    # ------------------------------------------------------------------ configuration
    def _make_solver(self, values):
        return EffortSolver(self._model, values['threads'], values['scheme'],
                            values['friction'])

    def _on_change(self, changes):
        values = dict(self._values)
        values.update(changes)
        if set(changes) & {'threads', 'scheme', 'friction'}:
            try:
                solver = self._make_solver(values)
            except RobodynError as exc:
                raise ValueError(str(exc)) from None
            old, self._solver = self._solver, solver
            old.close()
        self._values = values
        self._publish_info()
        for name, value in changes.items():
            self.get_logger().info(f'parameter {name} = {value!r}')

    def _publish_info(self):
        self._info_pub.publish(proto.json_msg({
            'node': self.get_fully_qualified_name(), 'robot': self._model.name,
            'fingerprint': self._fingerprint, 'joints': list(self._model.joint_names),
            'friction': bool(self._values['friction']), 'scheme': self._values['scheme'],
            'threads': int(self._values['threads'])}))

    def on_process_exit(self):
        """Stop the compute threads (called by the runner at shutdown)."""
        self._solver.close()

    # ------------------------------------------------------------------ requests
    def _on_request(self, msg):
        rid = proto.request_id(msg)
        values = self._values
        try:
            q, qd, qdd, order = proto.request_states(msg, self._model.joint_names,
                                                     values['max_points'])
        except ValueError as exc:
            self._fail(msg, rid, str(exc))
            return
        workers = self._live_workers()
        scheme = values['scheme']
        if workers and scheme in ('auto', 'workers'):
            self._dispatch(msg, rid, order, (q, qd, qdd), workers, values)
            return
        solver = self._solver
        try:
            tau = solver.compute(q, qd, qdd)
        except (RobodynError, ValueError) as exc:
            self._fail(msg, rid, str(exc))
            return
        self._respond(proto.fill_efforts(msg, tau, order), len(q))

    def _respond(self, msg, points):
        with self._pub_lock:
            self._pub.publish(msg)
        with self._lock:
            self._stats['requests'] += 1
            self._stats['points'] += points
        self._status(OK, 'ready', publish=False)

    def _fail(self, msg, rid, reason):
        with self._pub_lock:
            self._pub.publish(proto.error_response(msg))
        with self._lock:
            self._stats['errors'] += 1
        text = f'request {rid} rejected: {reason}'
        self.get_logger().warning(text)
        status = DiagnosticStatus(level=DiagnosticStatus.ERROR, message=text,
                                  name=f'{self.get_fully_qualified_name()}: request',
                                  hardware_id=self._model.name)
        status.values = [KeyValue(key='request_id', value=rid),
                         KeyValue(key='frame_id', value=msg.header.frame_id),
                         KeyValue(key='reason', value=reason)]
        out = DiagnosticArray(status=[status])
        out.header.stamp = self.get_clock().now().to_msg()
        self._error_pub.publish(out)

    # ------------------------------------------------------------------ workers
    def _on_heartbeat(self, msg):
        data = proto.parse_json(msg)
        if not data or not isinstance(data.get('node'), str):
            return
        name = data['node']
        if data.get('fingerprint') != self._fingerprint:
            if name not in self._workers:
                self.get_logger().warning(f'worker {name} ignored: it has another robot model '
                                          f'({data.get("robot")!r})', throttle_duration_sec=10.0)
            return
        with self._lock:
            worker = self._workers.get(name)
            if worker is None:
                pub = self.create_publisher(JointTrajectory,
                                            f'{name}/{proto.CHUNK_REQUEST_SUFFIX}',
                                            proto.DATA_QOS)
                self._workers[name] = _Worker(name, pub, time.monotonic())
                self.get_logger().info(f'worker {name} joined')
            else:
                worker.last_seen = time.monotonic()

    def _live_workers(self):
        now = time.monotonic()
        with self._lock:
            for name in [n for n, w in self._workers.items()
                         if now - w.last_seen > proto.WORKER_LOST_AFTER]:
                self.get_logger().warning(f'worker {name} lost (no heartbeat)')
                self.destroy_publisher(self._workers.pop(name).publisher)
            return [w for w in self._workers.values()
                    if w.publisher.get_subscription_count() > 0]

    def _dispatch(self, msg, rid, order, states, workers, values):
        q, qd, qdd = states
        ranges = split_rows(len(q), len(workers), values['min_chunk'])
        token = uuid.uuid4().hex[:16]
        deadline = time.monotonic() + values['worker_timeout']
        pending = _Pending(msg, rid, order, states, np.full(q.shape, np.nan),
                           bool(values['friction']), started=time.monotonic())
        chunks = []
        with self._lock:
            ranked = sorted(workers, key=lambda w: w.chunks)
            for k, (a, b) in enumerate(ranges):
                worker = ranked[k % len(ranked)]
                worker.chunks += 1
                pending.chunks[k] = (worker, a, b, deadline)
                chunks.append((worker, k, a, b))
            self._pending[token] = pending
            self._stats['chunks_sent'] += len(chunks)
        for worker, k, a, b in chunks:
            chunk = proto.chunk_request(token, k, pending.friction, msg.header.stamp,
                                        self._model.joint_names, q[a:b], qd[a:b], qdd[a:b])
            try:
                worker.publisher.publish(chunk)
            except Exception as exc:  # the worker was dropped meanwhile: compute it here
                self.get_logger().warning(f'chunk {k} of {rid} not sent to {worker.name}: '
                                          f'{exc}; computing it here')
                self._complete(token, k, a, b, self._compute_chunk(pending, a, b))

    def _on_chunk(self, msg):
        try:
            token, index, _ = proto.parse_chunk_id(msg.header.frame_id)
        except ValueError:
            return
        with self._lock:
            pending = self._pending.get(token)
            entry = pending.chunks.get(index) if pending is not None else None
            if entry is None:
                return
        worker, a, b, _ = entry
        try:
            if proto.is_error(msg):
                raise ValueError(f'worker {worker.name} could not compute it')
            tau = proto.response_efforts(msg, self._model.joint_names)
            if tau.shape != (b - a, self._model.n):
                raise ValueError(f'worker {worker.name} sent {tau.shape[0]} points for '
                                 f'{b - a}')
        except ValueError as exc:
            self.get_logger().warning(f'chunk {index} of {pending.rid}: {exc}; computing it '
                                      'here')
            tau = self._compute_chunk(pending, a, b)
        self._complete(token, index, a, b, tau)

    def _compute_chunk(self, pending, a, b):
        q, qd, qdd = (x[a:b] for x in pending.states)
        with self._lock:
            self._stats['chunks_local'] += 1
        return self._solver.compute(q, qd, qdd)

    def _complete(self, token, index, a, b, tau):
        with self._lock:
            pending = self._pending.get(token)
            if pending is None or index not in pending.chunks:
                return
            pending.tau[a:b] = tau
            del pending.chunks[index]
            if pending.chunks:
                return
            del self._pending[token]
        self._respond(proto.fill_efforts(pending.msg, pending.tau, pending.order),
                      len(pending.tau))

    def _check_pending(self):
        now = time.monotonic()
        overdue = []
        with self._lock:
            for token, pending in self._pending.items():
                for index, (worker, a, b, deadline) in pending.chunks.items():
                    if now > deadline:
                        overdue.append((token, index, pending, worker, a, b))
            for token, index, pending, worker, a, b in overdue:
                # Taken over here: no later check picks the chunk again.
                pending.chunks[index] = (worker, a, b, math.inf)
            for _, _, _, worker, _, _ in overdue:
                self._stats['worker_timeouts'] += 1
                if self._workers.pop(worker.name, None) is not None:
                    self.destroy_publisher(worker.publisher)
        for token, index, pending, worker, a, b in overdue:
            self.get_logger().warning(f'worker {worker.name} did not answer chunk {index} of '
                                      f'{pending.rid} in time: dropped; computing it here')
            self._status(WARN, f'worker {worker.name} dropped (no answer in time)')
            self._complete(token, index, a, b, self._compute_chunk(pending, a, b))

    def _status(self, level, message, publish=True):
        values = self._status_values()
        with self._diag_lock:
            self._diag.update(level, message, values, publish=publish)

    def _status_values(self):
        with self._lock:
            values = dict(self._stats)
            values['workers'] = len(self._workers)
        values.update(scheme=self._values['scheme'], threads=self._values['threads'],
                      friction=self._values['friction'], robot=self._model.name)
        return values


def main(args=None):
    """
    Run the parallel_dynamics node.

    Parameters
    ----------
    args : list of str, optional
        Command-line arguments (ROS arguments included).

    Returns
    -------
    int
        Exit code.

    """
    return run_node(ParallelDynamicsNode, args, threads=EXECUTOR_THREADS)


if __name__ == '__main__':
    import sys
    sys.exit(main())
