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
Client of the ``parallel_dynamics`` service, and an effort provider for the planner.

:class:`DynamicsClient` owns a small node spinning on its own thread, so
any code (a callback of another node included) can send a request on
``dynamics/request`` and block until the answer with the same header comes
back on ``dynamics/response``. Requests and answers are packed trajectories
written and read in serialized form (:mod:`.dynamics_cdr`): no Python object
per state. An answer ``busy`` is retried a few times after a growing pause
(``busy_retries``); every other error raises at once. The client counts
the service available only once one of its probes came back (see
:mod:`.dynamics_protocol`): matching the answers' writer here does not mean
that writer has matched this reader yet.
:class:`RemoteEffortProvider` is an ``effort_provider(Q, QD, QDD) -> TAU``
for the planner (:mod:`robodyn_ros.planning.efforts`): it asks the service
when one runs with the same robot model (the fingerprint on
``dynamics/info``) and the same friction setting, and computes in-process
otherwise, or when the service answers with an error or not within the
timeout.
"""

import collections
import itertools
import os
import threading
import time

import numpy as np
from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node
from std_msgs.msg import String
from trajectory_msgs.msg import JointTrajectory

from . import dynamics_cdr as cdr
from . import dynamics_protocol as proto
from ..errors import RobodynError
from ..parallel.service import model_fingerprint
from ..planning.efforts import ModelEffortProvider

_COUNTER = itertools.count()
#: First pause before sending a request again after ``busy`` [s]; it doubles each time.
BUSY_PAUSE = 0.005
#: Longest pause between two attempts [s].
BUSY_PAUSE_MAX = 0.2
#: Pause between two probes while no probe has come back [s].
PROBE_PERIOD = 0.2


class DynamicsServiceError(RobodynError):
    """
    The service is absent, refused a request or did not answer in time.

    Attributes
    ----------
    code : str
        The service's error code (``invalid``, ``too_large``, ``busy``,
        ``failed``), ``timeout``, ``absent`` or ``malformed``.

    """

    def __init__(self, message, code='failed'):
        super().__init__(message)
        self.code = code


class DynamicsClient:
    """
    Send requests to ``parallel_dynamics`` from any thread and wait for the answers.

    Parameters
    ----------
    context : rclpy.context.Context, optional
        Context (default: rclpy's global one, which must be initialised).
    namespace : str
        Namespace of the client node (that of the service's topics).

    """

    def __init__(self, context=None, namespace=''):
        name = f'dynamics_client_{os.getpid()}_{next(_COUNTER)}'
        # A process started with "-r __node:=NAME" (launch files, the demo) would give this
        # node its host's name too (two nodes of one name: "Publisher already registered");
        # a node-local remap of its own name wins over the global one, topic remaps still apply.
        self._node = Node(name, namespace=namespace, context=context,
                          cli_args=['--ros-args', '-r', f'__node:={name}'])
        self._frame = self._node.get_fully_qualified_name()
        self._waiting = {}
        self._lock = threading.Lock()
        self._info = None
        self._count = itertools.count()
        self._probes = collections.deque(maxlen=16)     # ids of the latest probes
        self._answered = False
        self._next_probe = 0.0
        self.attempts = 0
        self._pub = self._node.create_publisher(JointTrajectory, proto.REQUEST_TOPIC,
                                                proto.DATA_QOS)
        self._answers = self._node.create_subscription(
            JointTrajectory, proto.RESPONSE_TOPIC, self._on_response, proto.DATA_QOS, raw=True)
        self._node.create_subscription(String, proto.INFO_TOPIC, self._on_info, proto.INFO_QOS)
        self._executor = SingleThreadedExecutor(context=self._node.context)
        self._executor.add_node(self._node)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._spin, daemon=True, name=name)
        self._thread.start()

    @property
    def node(self):
        """Return the client's rclpy node, e.g. to add subscriptions (rclpy.node.Node)."""
        return self._node

    def _spin(self):
        while not self._stop.is_set() and self._node.context.ok():
            try:
                self._executor.spin_once(timeout_sec=0.05)
                self._probe()
            except Exception:  # context shut down under us: stop quietly
                if not self._node.context.ok():
                    return
                raise

    def _probe(self):
        """Send a probe while the service is matched both ways here but none came back."""
        if self._pub.get_subscription_count() == 0 or self._answers.get_publisher_count() == 0:
            self._answered = False          # gone (or restarted): probe again once it is back
            return
        now = time.monotonic()
        if self._answered or self._info is None or now < self._next_probe:
            return
        self._next_probe = now + PROBE_PERIOD
        sec, nanosec = divmod(self._node.get_clock().now().nanoseconds, 1_000_000_000)
        frame = f'{self._frame}#probe{next(self._count)}'
        with self._lock:
            self._probes.append(proto.format_id(frame, sec, nanosec))
        self._pub.publish(cdr.encode_probe(sec, nanosec, frame))

    def _on_info(self, msg):
        self._info = proto.parse_json(msg)

    def _on_response(self, data):
        try:
            rid = proto.request_id(data)
        except ValueError:
            return
        with self._lock:
            slot = self._waiting.get(rid)
            if rid in self._probes:     # any answer to a probe: answers reach this client
                self._answered = True
        if slot is not None:
            slot['data'] = data
            slot['event'].set()

    @property
    def info(self):
        """Latest description of the service (dict or None)."""
        return self._info

    def available(self):
        """
        Tell whether a service is running and listening.

        Returns
        -------
        bool
            True when its description arrived, it subscribes to requests,
            its answers' publisher has been matched and one of this client's
            probes came back (so an answer reaches this client, not nobody).

        """
        return (self._answered and self._info is not None
                and self._pub.get_subscription_count() > 0
                and self._answers.get_publisher_count() > 0)

    def publish(self, data):
        """
        Publish a serialized request as it is, without waiting (floods, tests).

        Parameters
        ----------
        data : bytes
            A packed request (:func:`~.dynamics_cdr.encode`).

        """
        self._pub.publish(data)

    def send(self, joint_names, q, qd, qdd, timeout=1.0):
        """
        Send one request and wait for its answer, whatever it is.

        Parameters
        ----------
        joint_names : sequence of str
            Joints of the columns.
        q, qd, qdd : numpy.ndarray
            States, (N, n); ``qd`` and ``qdd`` may be None (zero).
        timeout : float
            Longest wait [s].

        Returns
        -------
        PackedTrajectory
            The decoded answer (an error has no points).

        Raises
        ------
        DynamicsServiceError
            No answer within the timeout (code ``timeout``) or an unreadable
            one (``malformed``).

        """
        stamp = self._node.get_clock().now().nanoseconds
        sec, nanosec = divmod(stamp, 1_000_000_000)
        frame = f'{self._frame}#{next(self._count)}'
        data = cdr.encode(sec, nanosec, frame, list(joint_names), q, qd, qdd)
        rid = proto.format_id(frame, sec, nanosec)
        slot = {'event': threading.Event(), 'data': None}
        with self._lock:
            self._waiting[rid] = slot
        try:
            self.attempts += 1
            self._pub.publish(data)
            del data
            if not slot['event'].wait(timeout):
                raise DynamicsServiceError(f'no answer to request {rid} within {timeout:g} s',
                                           'timeout')
        finally:
            with self._lock:
                self._waiting.pop(rid, None)
        try:
            return cdr.decode(slot['data'])
        except ValueError as exc:
            raise DynamicsServiceError(f'malformed response to {rid}: {exc}',
                                       'malformed') from None

    def request(self, joint_names, q, qd, qdd, timeout=1.0, busy_retries=6):
        """
        Ask the service for the efforts of some states and wait for them.

        Parameters
        ----------
        joint_names : sequence of str
            Joints (the service's model must have exactly these).
        q, qd, qdd : numpy.ndarray
            States, (N, n) [rad, rad/s, rad/s^2 or m, m/s, m/s^2].
        timeout : float
            Longest wait for all attempts together [s].
        busy_retries : int
            Attempts after a ``busy`` answer (pauses of 5 ms, doubling, at
            most 0.2 s, within ``timeout``).

        Returns
        -------
        numpy.ndarray
            Efforts, (N, n), in ``joint_names`` order [N m or N].

        Raises
        ------
        DynamicsServiceError
            No service, an error answer (its ``code``), ``busy`` after the
            retries, or no answer in time.

        """
        if not self.available():
            raise DynamicsServiceError('no parallel_dynamics service is running', 'absent')
        q = np.asarray(q, dtype=float)
        deadline = time.monotonic() + timeout
        pause = BUSY_PAUSE
        for attempt in range(int(busy_retries) + 1):
            left = deadline - time.monotonic()
            if left <= 0.0:
                break
            reply = self.send(joint_names, q, qd, qdd, left)
            if not reply.is_error:
                tau = reply.effort
                if tau is None or tau.shape != q.shape:
                    raise DynamicsServiceError(
                        f'response has {0 if tau is None else tau.shape[0]} points for '
                        f'{len(q)}', 'malformed')
                return np.array(tau)
            code, text, details = proto.parse_error(reply)
            if code != 'busy' or attempt == busy_retries:
                raise DynamicsServiceError(f'request refused by the service ({code}): {text}',
                                           code)
            time.sleep(min(pause, max(0.0, deadline - time.monotonic())))
            pause = min(2.0 * pause, BUSY_PAUSE_MAX)
        raise DynamicsServiceError(f'the service stayed busy for {timeout:g} s', 'busy')

    def close(self):
        """Stop the spinning thread and destroy the node (idempotent)."""
        if self._stop.is_set():
            return
        self._stop.set()
        self._thread.join(timeout=2.0)
        self._executor.remove_node(self._node)
        self._executor.shutdown()
        self._node.destroy_node()


class RemoteEffortProvider:
    """
    ``effort_provider(Q, QD, QDD) -> TAU`` served by ``parallel_dynamics`` when it can be.

    Same arguments and results as :class:`ModelEffortProvider`; the service
    is used only when it runs with the same model (fingerprint, payload
    included) and the same friction setting; otherwise, and on any error or
    timeout, the efforts are computed in-process.

    Parameters
    ----------
    client : DynamicsClient
        Connection to the service (shared, not closed here).
    model : RobotModel
        The robot (without payload).
    joints : sequence of str, optional
        Planned joints, in column order (default all).
    payload : Payload, optional
        Load at the end effector.
    friction : bool
        Include friction.
    fixed_positions : array_like, optional
        Positions of all model joints for those that are not planned.
    timeout : float
        Longest wait for an answer [s].

    Attributes
    ----------
    last_source : str or None
        ``'service'`` or ``'local'`` for the last call.
    last_reason : str
        Why the last call was computed locally ('' when served).
    last_round_trip : float or None
        Duration of the last served request [s].

    """

    def __init__(self, client, model, joints=None, payload=None, friction=True,
                 fixed_positions=None, timeout=1.0):
        self._client = client
        self._local = ModelEffortProvider(model, joints, payload, friction, fixed_positions)
        self._names = list(self._local.joint_names)
        full = self._local.model
        self._full_names = list(full.joint_names)
        self._idx = np.array([self._full_names.index(j) for j in self._names], dtype=int)
        self._fingerprint = model_fingerprint(full)
        self._friction = bool(friction)
        self._fixed = (np.zeros(full.n) if fixed_positions is None
                       else np.asarray(fixed_positions, dtype=float).reshape(full.n))
        self._timeout = float(timeout)
        self.last_source = None
        self.last_reason = ''
        self.last_round_trip = None

    @property
    def local(self):
        """In-process provider with the same model and settings (ModelEffortProvider)."""
        return self._local

    @property
    def model(self):
        """Model used, payload included (RobotModel)."""
        return self._local.model

    @property
    def joint_names(self):
        """Planned joints (list of str)."""
        return list(self._names)

    def with_fixed_positions(self, positions):
        """
        Return a copy with other positions for the joints that are not planned.

        Parameters
        ----------
        positions : array_like
            Positions of all model joints, (n_model,).

        Returns
        -------
        RemoteEffortProvider
            The copy (same client).

        """
        out = object.__new__(type(self))
        out.__dict__.update(self.__dict__)
        out._local = self._local.with_fixed_positions(positions)
        out._fixed = np.asarray(positions, dtype=float).reshape(len(self._full_names))
        return out

    def _usable(self):
        info = self._client.info
        if not self._client.available():
            return 'no parallel_dynamics service is running'
        if info.get('fingerprint') != self._fingerprint:
            return (f'the service has another model ({info.get("robot")!r}, fingerprint '
                    f'{info.get("fingerprint")}) than this one ({self._fingerprint})')
        if bool(info.get('friction')) != self._friction:
            return f'the service computes with friction={info.get("friction")}'
        return ''

    def __call__(self, q, qd, qdd):
        """
        Compute the efforts of planned states.

        Parameters
        ----------
        q, qd, qdd : array_like
            Planned positions, velocities, accelerations, (N, n) or (n,).

        Returns
        -------
        numpy.ndarray
            Efforts, same shape [N m or N].

        """
        reason = self._usable()
        if not reason:
            try:
                tau = self._remote(q, qd, qdd)
                self.last_source, self.last_reason = 'service', ''
                return tau
            except (DynamicsServiceError, ValueError) as exc:
                reason = str(exc)
        self.last_source, self.last_reason = 'local', reason
        return self._local(q, qd, qdd)

    def _remote(self, q, qd, qdd):
        q, qd, qdd = (np.asarray(x, dtype=float) for x in (q, qd, qdd))
        single = q.ndim == 1
        q2, qd2, qdd2 = (np.atleast_2d(x) for x in (q, qd, qdd))
        if q2.shape[1] != self._idx.size or qd2.shape != q2.shape or qdd2.shape != q2.shape:
            raise ValueError(f'expected (N, {self._idx.size}) states, got {q2.shape}, '
                             f'{qd2.shape}, {qdd2.shape}')
        if len(q2) == 0:
            return np.zeros_like(q2)
        limit = (self._client.info or {}).get('max_points')
        if isinstance(limit, int) and len(q2) > limit:
            raise ValueError(f'{len(q2)} states, more than the service takes (max_points = '
                             f'{limit})')
        rows, n = q2.shape[0], len(self._full_names)
        full = [np.tile(self._fixed, (rows, 1)), np.zeros((rows, n)), np.zeros((rows, n))]
        for arr, part in zip(full, (q2, qd2, qdd2)):
            arr[:, self._idx] = part
        t0 = time.monotonic()
        tau = self._client.request(self._full_names, *full, timeout=self._timeout)[:, self._idx]
        self.last_round_trip = time.monotonic() - t0
        return tau[0] if single else tau

    def __repr__(self):
        return (f'RemoteEffortProvider(joints={self._names}, friction={self._friction}, '
                f'timeout={self._timeout}, last_source={self.last_source!r})')
