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
The ``parallel_dynamics`` node's worker processes: membership, chunks out and back.

Workers announce themselves on ``dynamics/workers`` (JSON heartbeats with
their model fingerprint); the pool keeps one chunk publisher per live worker
with the service's fingerprint. A request is cut into chunks
(:func:`~robodyn_ros.parallel.service.split_rows`) spread over the workers
holding the fewest chunks; each chunk's deadline starts when it has been
handed to the middleware (:mod:`robodyn_ros.parallel.chunks`). A chunk that
is refused, cannot be sent or is not answered in time is computed by the
service, exactly once; its worker stays as long as it sends heartbeats
(slow is not dead) and is forgotten after ``WORKER_LOST_AFTER`` of silence
or when its subscription vanishes. Publishers are destroyed only under
their worker's lock, so no thread publishes on a destroyed one.
"""

from dataclasses import dataclass, field
import threading
import time
import uuid

import numpy as np
from rclpy.callback_groups import MutuallyExclusiveCallbackGroup
from std_msgs.msg import String
from trajectory_msgs.msg import JointTrajectory

from . import dynamics_cdr as cdr
from . import dynamics_protocol as proto
from .diagnostics import WARN
from ..errors import RobodynError
from ..parallel.chunks import ChunkTable, Job
from ..parallel.service import split_rows

#: Period of the pool's check while chunks are out [s] (their deadlines' resolution).
CHECK_BUSY = 0.02
#: Period of the check with nothing out [s] (membership and probes).
CHECK_IDLE = 0.2
#: Least time between two probes of a worker, and between two membership checks [s]
#: (a little under CHECK_IDLE: an idle check that comes early still does both).
PROBE_EVERY = 0.18


@dataclass
class Worker:
    """A live worker: its chunk publisher (None once dropped) and counters."""

    name: str
    publisher: object
    last_seen: float
    lock: threading.Lock = field(default_factory=threading.Lock)
    chunks: int = 0
    late: int = 0
    #: Its heartbeat says its answers reach a node (its response writer is matched).
    replies: bool = True
    #: A probe came back: chunks sent now reach it (:func:`~.dynamics_protocol.worker_probe_id`).
    ready: bool = False
    #: When the last probe went out [s, monotonic].
    probed: float = -1e9


class WorkerPool:
    """
    Worker membership and chunk traffic of a ``parallel_dynamics`` node.

    Parameters
    ----------
    node : ParallelDynamicsNode
        The node (its ``model``, logger and ``status``).
    fingerprint : str
        The node's model fingerprint.
    compute : callable
        ``compute((q, qd, qdd)) -> tau``: the node's local computation.
    finish : callable
        ``finish(job)``: answer a job whose chunks are all in.
    group : rclpy.callback_groups.CallbackGroup
        Group of the heartbeat and chunk subscriptions.

    """

    def __init__(self, node, fingerprint, compute, finish, group):
        self._node = node
        self._names = list(node.model.joint_names)
        self._n = len(self._names)
        self._fingerprint = fingerprint
        self._compute = compute
        self._finish = finish
        self._lock = threading.Lock()
        self._workers = {}
        self.table = ChunkTable()
        self.last_incident = -1e9
        self._last_live = 0.0
        self._stats = {'chunks_sent': 0, 'chunks_answered': 0, 'chunks_local': 0,
                       'worker_timeouts': 0, 'late_answers': 0, 'workers_lost': 0}
        node.create_subscription(String, proto.WORKERS_TOPIC, self._on_heartbeat, 10,
                                 callback_group=group)
        node.create_subscription(JointTrajectory, proto.CHUNK_RESPONSE_TOPIC, self._on_chunk,
                                 proto.DATA_QOS, callback_group=group, raw=True)
        # Every executor wake costs a few hundred microseconds of rclpy's Python whatever
        # the callback does: the check runs every CHECK_BUSY only while jobs are out.
        self._period_lock = threading.Lock()
        self._busy = False
        self._timer = node.create_timer(CHECK_IDLE, self._check,
                                        callback_group=MutuallyExclusiveCallbackGroup())

    def stats(self):
        """
        Chunk and worker counters.

        Returns
        -------
        dict
            ``chunks_sent``, ``chunks_answered``, ``chunks_local``, ``worker_timeouts``,
            ``late_answers``, ``workers_lost``, ``workers``.

        """
        with self._lock:
            out = dict(self._stats)
            out['workers'] = len(self._workers)
        return out

    def _count(self, key, amount=1):
        with self._lock:
            self._stats[key] += amount

    # ------------------------------------------------------------------ membership
    def _on_heartbeat(self, msg):
        data = proto.parse_json(msg)
        if not data or not isinstance(data.get('node'), str):
            return
        name = data['node']
        # A worker's answers are lost until its response writer has matched this node's
        # reader; its heartbeat counts the matched readers (absent: an older worker).
        count = data.get('replies')
        replies = not (type(count) is int and count < 1)
        if data.get('fingerprint') != self._fingerprint:
            if name not in self._workers:
                self._node.get_logger().warning(
                    f'worker {name} ignored: it has another robot model ({data.get("robot")!r})',
                    throttle_duration_sec=10.0)
            return
        with self._lock:
            worker = self._workers.get(name)
            if worker is None:
                pub = self._node.create_publisher(
                    JointTrajectory, f'{name}/{proto.CHUNK_REQUEST_SUFFIX}', proto.DATA_QOS)
                self._workers[name] = Worker(name, pub, time.monotonic(), replies=replies)
                self._node.get_logger().info(f'worker {name} joined')
                return
            worker.last_seen = time.monotonic()
            worker.replies = replies

    def live(self):
        """
        Forget silent workers and list the usable ones.

        Returns
        -------
        list of Worker
            Workers with a recent heartbeat, a matched chunk subscription and
            (their heartbeat says) a matched response writer.

        """
        now = time.monotonic()
        with self._lock:
            lost = [w for w in self._workers.values()
                    if now - w.last_seen > proto.WORKER_LOST_AFTER]
            for w in lost:
                del self._workers[w.name]
            workers = list(self._workers.values())
        for w in lost:
            self._drop(w, 'lost (no heartbeat for '
                          f'{proto.WORKER_LOST_AFTER:g} s)')
        return [w for w in workers if w.ready and self._subscribed(w)]

    def _probe(self, now):
        """Send a probe to every matched worker whose probe has not come back (every 0.2 s)."""
        with self._lock:
            waiting = [w for w in self._workers.values() if not w.ready]
        for w in waiting:
            if now - w.probed < PROBE_EVERY or not self._subscribed(w):
                continue
            w.probed = now
            with w.lock:
                if w.publisher is not None:
                    w.publisher.publish(cdr.encode_probe(0, 0, proto.worker_probe_id(w.name)))

    def _on_probe(self, name):
        with self._lock:
            worker = self._workers.get(name)
        if worker is not None and not worker.ready:
            worker.ready = True
            self._node.get_logger().info(f'worker {name} answers: in use')

    def _subscribed(self, worker):
        with worker.lock:
            return (worker.replies and worker.publisher is not None
                    and worker.publisher.get_subscription_count() > 0)

    def _drop(self, worker, why):
        with worker.lock:
            pub, worker.publisher = worker.publisher, None
            if pub is not None:
                self._node.destroy_publisher(pub)
        self._count('workers_lost')
        self._node.get_logger().warning(f'worker {worker.name} {why}: forgotten')
        self.incident(f'worker {worker.name} {why}')
        for job, chunk in self.table.of_worker(worker.name):
            self._local(job, chunk, f'its worker {worker.name} is gone')

    # ------------------------------------------------------------------ chunks
    def dispatch(self, request, min_chunk, timeout, friction):
        """
        Send a request's chunks to the live workers.

        Parameters
        ----------
        request : Request
            The admitted request (states in model order).
        min_chunk : int
            Fewest points per chunk.
        timeout : float
            Time allowed for each chunk's answer after it is sent [s].
        friction : bool
            Include friction.

        Returns
        -------
        bool
            False when no worker is usable (the caller computes it).

        """
        workers = self.live()
        if not workers:
            return False
        q, qd, qdd = request.states
        ranges = split_rows(len(q), len(workers), min_chunk)
        load = {w.name: self.table.outstanding(w.name) for w in workers}
        ranked = sorted(workers, key=lambda w: (load[w.name], w.late, w.chunks))
        job = Job(uuid.uuid4().hex[:16], request, (q, qd, qdd), np.empty(q.shape),
                  bool(friction))
        by_name = {w.name: w for w in ranked}
        chunks = self.table.add(job, [(ranked[k % len(ranked)].name, a, b)
                                      for k, (a, b) in enumerate(ranges)])
        for chunk in chunks:
            worker = by_name[chunk.worker]
            a, b = chunk.start, chunk.stop
            data = cdr.encode(request.sec, request.nanosec,
                              proto.chunk_id(job.token, chunk.index, friction), self._names,
                              q[a:b], qd[a:b], qdd[a:b])
            error = 'it was dropped'
            with worker.lock:
                if worker.publisher is not None:
                    try:
                        worker.publisher.publish(data)
                        error = None
                    except Exception as exc:  # the middleware refused: compute it here
                        error = f'{type(exc).__name__}: {exc}'
            if error is None:
                worker.chunks += 1
                self._count('chunks_sent')
                self.table.mark_sent(chunk, time.monotonic(), timeout)
            else:
                owned, owned_chunk = self.table.take_over(job.token, chunk.index)
                if owned is not None:
                    self._local(owned, owned_chunk, f'not sent to {worker.name} ({error})')
        self._pace(True)
        return True

    def _pace(self, busy):
        """Run the check every CHECK_BUSY while jobs are out, else every CHECK_IDLE."""
        with self._period_lock:
            busy = busy or len(self.table) > 0
            if busy == self._busy:
                return
            self._busy = busy
            self._timer.timer_period_ns = int((CHECK_BUSY if busy else CHECK_IDLE) * 1e9)
            if not busy:
                return
            self._timer.reset()             # the next check one CHECK_BUSY from now,
        executor = self._node.executor     # and a wait under way learns of it
        if executor is not None:
            executor.wake()

    def _on_chunk(self, data):
        try:
            _, _, frame_id, _ = cdr.read_header(data)
            token, index, _ = proto.parse_chunk_id(frame_id)
        except ValueError:
            return
        probed = proto.probed_worker(token)
        if probed is not None:          # any answer to a probe (ready, or an older worker's
            self._on_probe(probed)      # 'invalid'): the path works both ways
            return
        job, chunk = self.table.answer(token, index)
        if job is None:
            self._count('late_answers')
            return
        try:
            msg = cdr.decode(data)
            if msg.is_error:
                raise ValueError(f'worker {chunk.worker} refused it '
                                 f'({proto.parse_error(msg)[1]})')
            tau = msg.effort
            if tau is None or list(msg.joint_names) != self._names or \
                    tau.shape != (chunk.stop - chunk.start, self._n):
                raise ValueError(f'worker {chunk.worker} answered with the wrong shape')
        except ValueError as exc:
            self._local(job, chunk, str(exc))
            return
        self._count('chunks_answered')
        if self.table.complete(job, chunk, tau):
            self._finish(job)

    def _local(self, job, chunk, why):
        self._node.get_logger().warning(f'chunk {chunk.index} of {job.request.rid}: {why}; '
                                        'computing it here')
        self._count('chunks_local')
        a, b = chunk.start, chunk.stop
        try:
            tau = self._compute(tuple(x[a:b] for x in job.states))
        except (RobodynError, ValueError) as exc:
            job.error = str(exc)
            tau = np.zeros((b - a, self._n))
        if self.table.complete(job, chunk, tau):
            self._finish(job)

    def _check(self):
        now = time.monotonic()
        if now - self._last_live > PROBE_EVERY:
            self._last_live = now
            self.live()
        self._probe(now)
        for job, chunk in self.table.overdue(now):
            with self._lock:
                worker = self._workers.get(chunk.worker)
                self._stats['worker_timeouts'] += 1
            if worker is not None:
                worker.late += 1
            self.incident(f'worker {chunk.worker} did not answer a chunk in time')
            self._local(job, chunk, f'worker {chunk.worker} did not answer within the '
                                    'worker_timeout (the worker is kept while it sends '
                                    'heartbeats)')
        self._pace(False)

    def incident(self, text):
        """
        Report a worker incident on the node's status (WARN).

        Parameters
        ----------
        text : str
            What happened.

        """
        self.last_incident = time.monotonic()
        self._node.status(WARN, text)
