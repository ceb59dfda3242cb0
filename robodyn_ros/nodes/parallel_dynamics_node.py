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

Requests arrive on ``dynamics/request`` as packed trajectories (see
:mod:`robodyn_ros.nodes.dynamics_protocol`), taken as serialized bytes; every
request gets exactly one answer on ``dynamics/response``: the efforts, or an
error with a code (``invalid``, ``too_large``, ``busy``, ``failed``); a
probe (no points, no joints) is answered ``ready`` at once. A
request larger than ``max_points`` is refused from its serialized size before
it is read; the others are admitted into a first-come-first-served queue
bounded by ``max_queued_requests`` and ``max_queued_points`` (see
:mod:`robodyn_ros.parallel.admission`) or answered ``busy`` with the queue
depth. Receiving is all the executor does with a request; a dispatcher
thread computes (split across the node's ``threads``, or with seed 003's row
partition or seed 004's scheduled subtasks) or hands chunks to
``parallel_dynamics_worker`` processes (:mod:`.dynamics_workers`). All
computing is in :mod:`robodyn_ros.parallel`.
"""

from dataclasses import dataclass
import threading
import time

from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue
from rclpy.callback_groups import MutuallyExclusiveCallbackGroup, ReentrantCallbackGroup
from rclpy.node import Node
from std_msgs.msg import String
from trajectory_msgs.msg import JointTrajectory

from . import dynamics_cdr as cdr
from . import dynamics_protocol as proto
from .diagnostics import Diagnostics, OK
from .dynamics_workers import WorkerPool
from .model_source import load_model, model_parameters
from .params import declare, ParameterValidationError, ParamSpec
from .runner import run_node
from ..errors import RobodynError
from ..parallel.admission import BusyError, RequestQueue
from ..parallel.service import EffortSolver, model_fingerprint, SCHEMES
from ..ros_env import use_large_data_transport

#: Executor threads: requests, worker traffic, timers (compute: the dispatcher and ``threads``).
EXECUTOR_THREADS = 4
#: How long a worker incident keeps the node's status at WARN [s].
INCIDENT_MEMORY = 5.0
#: Allowance for the frame id and joint names in the size check of a request [bytes].
NAME_ALLOWANCE = 8192


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
                  'rows: seed 003 row partition (rigid body: refused with friction on a model '
                  'that has friction); task_graph: seed 004 scheduled subtasks',
                  choices=SCHEMES),
        ParamSpec('friction', True, "Include the joints' friction models in the efforts"),
        ParamSpec('min_chunk', 100, 'Fewest points sent to a worker in one chunk', low=1,
                  high=10_000_000),
        ParamSpec('worker_timeout', 0.5, 'A chunk not answered within this time after it was '
                  'sent [s] is computed here (the worker stays while it sends heartbeats)',
                  low=0.01, high=60.0),
        ParamSpec('max_points', 200_000, 'Largest request [points]; larger ones are refused '
                  '(too_large) from their serialized size, before they are read', low=1,
                  high=10_000_000),
        ParamSpec('max_queued_points', 600_000, 'Most points admitted and not yet answered; '
                  'a request beyond it is answered busy (one request always fits)', low=1,
                  high=100_000_000),
        ParamSpec('max_queued_requests', 256, 'Most requests admitted and not yet answered; '
                  'beyond it requests are answered busy', low=1, high=100_000),
    ]


@dataclass
class Request:
    """An admitted request: its header, its states in model order, its joint order."""

    rid: str
    sec: int
    nanosec: int
    frame_id: str
    names: list
    order: object
    states: tuple
    points: int


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
        self._names = list(self._model.joint_names)
        self._fingerprint = model_fingerprint(self._model)
        try:
            self._solver = self._make_solver(self._values)
        except RobodynError as exc:
            raise ParameterValidationError(f'invalid parameters: {exc}') from None
        self._lock = threading.Lock()
        self._pub_lock = threading.Lock()
        self._diag_lock = threading.Lock()
        self._stats = {'requests': 0, 'errors': 0, 'busy': 0, 'too_large': 0, 'points': 0}
        self._queue = RequestQueue(self._values['max_queued_requests'],
                                   self._values['max_queued_points'])
        self._diag = Diagnostics(self, hardware_id=self._model.name)
        self._error_pub = self.create_publisher(DiagnosticArray, 'diagnostics', 10)
        self._pub = self.create_publisher(JointTrajectory, proto.RESPONSE_TOPIC, proto.DATA_QOS)
        self._info_pub = self.create_publisher(String, proto.INFO_TOPIC, proto.INFO_QOS)
        self.workers = WorkerPool(self, self._fingerprint, self._compute, self._finish_job,
                                  ReentrantCallbackGroup())
        self.create_subscription(JointTrajectory, proto.REQUEST_TOPIC, self._on_request,
                                 proto.DATA_QOS, callback_group=MutuallyExclusiveCallbackGroup(),
                                 raw=True)
        self.create_timer(0.5, self._refresh_status)
        self._running = True
        self._dispatcher = threading.Thread(target=self._serve, daemon=True,
                                            name='parallel_dynamics_dispatcher')
        self._dispatcher.start()
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
        self._queue.set_limits(values['max_queued_requests'], values['max_queued_points'])
        self._values = values
        self._publish_info()
        for name, value in changes.items():
            self.get_logger().info(f'parameter {name} = {value!r}')

    def _publish_info(self):
        v = self._values
        self._info_pub.publish(proto.json_msg({
            'node': self.get_fully_qualified_name(), 'robot': self._model.name,
            'fingerprint': self._fingerprint, 'joints': self._names,
            'friction': bool(v['friction']), 'scheme': v['scheme'], 'threads': int(v['threads']),
            'max_points': int(v['max_points']), 'max_queued_points': int(v['max_queued_points']),
            'max_queued_requests': int(v['max_queued_requests'])}))

    def on_process_exit(self):
        """Stop the dispatcher and the compute threads (called at shutdown)."""
        self._running = False
        queue, dispatcher = getattr(self, '_queue', None), getattr(self, '_dispatcher', None)
        if queue is not None:
            queue.close()
        if dispatcher is not None and dispatcher.is_alive() and \
                dispatcher is not threading.current_thread():
            dispatcher.join(timeout=5.0)
        solver = getattr(self, '_solver', None)
        if solver is not None:
            solver.close()

    def destroy_node(self):
        """Stop the dispatcher, then destroy the node."""
        self.on_process_exit()
        super().destroy_node()

    # ------------------------------------------------------------------ requests
    def _on_request(self, data):
        try:
            sec, nanosec, frame_id, _ = cdr.read_header(data)
        except ValueError as exc:  # no header, no id: nobody to answer
            self._report(f'unreadable request of {len(data)} bytes ignored: {exc}', '', '')
            return
        header = (sec, nanosec, frame_id)
        rid = proto.format_id(frame_id, sec, nanosec)
        values = self._values
        limit = cdr.request_bytes(values['max_points'], self._model.n,
                                  NAME_ALLOWANCE + len(frame_id))
        if len(data) > limit:
            self._count('too_large')
            self._fail(header, 'too_large', f'{len(data)} bytes: more than the '
                       f'{limit} bytes that max_points = {values["max_points"]} allows for '
                       f'{self._model.n} joints (not read)')
            return
        try:
            msg = cdr.decode(data)
            if proto.is_probe(msg):     # a client checks that answers reach it
                self._publish(proto.ready_answer(sec, nanosec, frame_id, 'the service answers'))
                return
            if msg.is_error:
                raise ValueError('no points')
            if msg.points > values['max_points']:
                self._count('too_large')
                self._fail(header, 'too_large', f'{msg.points} points, more than max_points = '
                           f'{values["max_points"]}')
                return
            q, qd, qdd, order = proto.request_states(msg, self._names)
        except ValueError as exc:
            self._fail(header, 'invalid', str(exc))
            return
        item = Request(rid, sec, nanosec, frame_id, list(msg.joint_names), order,
                       (q, qd, qdd), msg.points)
        try:
            self._queue.offer(item, item.points)
        except BusyError as exc:
            self._count('busy')
            self._fail(header, 'busy', str(exc), {'queue_depth': exc.depth,
                                                  'queued_points': exc.points},
                       report=False)
            self.get_logger().warning(f'request {rid}: {exc}', throttle_duration_sec=1.0)

    def _serve(self):
        while self._running:
            item = self._queue.get(timeout=0.2)
            if item is None:
                continue
            try:
                self._handle(item)
            except Exception as exc:  # never leave a request unanswered
                self._fail_request(item, 'failed', f'{type(exc).__name__}: {exc}')

    def _handle(self, item):
        values = self._values
        if values['scheme'] in ('auto', 'workers') and self.workers.dispatch(
                item, values['min_chunk'], values['worker_timeout'], values['friction']):
            return
        try:
            tau = self._compute(item.states)
        except (RobodynError, ValueError) as exc:
            self._fail_request(item, 'invalid', str(exc))
            return
        self._respond(item, tau)

    def _compute(self, states):
        return self._solver.compute(*states)

    def _finish_job(self, job):
        if job.error:
            self._fail_request(job.request, 'invalid', job.error)
        else:
            self._respond(job.request, job.tau)

    def _respond(self, item, tau):
        data = cdr.encode(item.sec, item.nanosec, item.frame_id, item.names,
                          effort=tau[:, item.order])
        self._publish(data)
        self._queue.release(item.points)
        with self._lock:
            self._stats['requests'] += 1
            self._stats['points'] += item.points

    def _publish(self, data):
        with self._pub_lock:
            self._pub.publish(data)

    def _count(self, key):
        with self._lock:
            self._stats[key] += 1

    def _fail_request(self, item, code, reason):
        self._queue.release(item.points)
        self._fail((item.sec, item.nanosec, item.frame_id), code, reason)

    def _fail(self, header, code, reason, details=None, report=True):
        sec, nanosec, frame_id = header
        self._publish(cdr.encode_error(sec, nanosec, frame_id, code, reason, details))
        self._count('errors')
        if report:
            rid = proto.format_id(frame_id, sec, nanosec)
            self._report(f'request {rid} refused ({code}): {reason}', rid, frame_id, code)

    def _report(self, text, rid, frame_id, code='invalid'):
        self.get_logger().warning(text)
        status = DiagnosticStatus(level=DiagnosticStatus.ERROR, message=text,
                                  name=f'{self.get_fully_qualified_name()}: request',
                                  hardware_id=self._model.name)
        status.values = [KeyValue(key='request_id', value=rid),
                         KeyValue(key='frame_id', value=frame_id),
                         KeyValue(key='code', value=code)]
        out = DiagnosticArray(status=[status])
        out.header.stamp = self.get_clock().now().to_msg()
        with self._diag_lock:
            self._error_pub.publish(out)

    # ------------------------------------------------------------------ status
    def status(self, level, message):
        """
        Set the node's diagnostics level and message (with the counters).

        Parameters
        ----------
        level : bytes
            ``OK``, ``WARN`` or ``ERROR``.
        message : str
            Short text.

        """
        values = self._status_values()
        with self._diag_lock:
            self._diag.update(level, message, values)

    def _refresh_status(self):
        recent = time.monotonic() - self.workers.last_incident < INCIDENT_MEMORY
        values = self._status_values()
        with self._diag_lock:
            if recent:
                self._diag.update(self._diag.level, self._diag.message, values, publish=False)
            else:
                self._diag.update(OK, 'ready', values)

    def _status_values(self):
        with self._lock:
            values = dict(self._stats)
        values.update(self.workers.stats())
        values.update(queue_depth=self._queue.depth, queued_points=self._queue.points,
                      peak_queued_points=self._queue.peak_points,
                      scheme=self._values['scheme'], threads=self._values['threads'],
                      friction=self._values['friction'], robot=self._model.name)
        return values

    @property
    def stats(self):
        """Counters: requests, errors, busy, too_large, points, chunks, workers (dict)."""
        return self._status_values()

    @property
    def model(self):
        """Model whose inverse dynamics the node serves (RobotModel)."""
        return self._model


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
    use_large_data_transport()
    return run_node(ParallelDynamicsNode, args, threads=EXECUTOR_THREADS)


if __name__ == '__main__':
    import sys
    sys.exit(main())
