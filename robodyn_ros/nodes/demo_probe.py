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
The demo's probe: one rclpy node that records, drives lifecycles and sends goals.

Used by :mod:`robodyn_ros.demo.session` (``robodyn demo``). It subscribes to
the demo's topics raw (serialized): the streams (``joint_states``,
``joint_commands``) and each law's error and estimates are taken in batches
by a thread every 10 ms, the rest by executor callbacks. It hands every message to a
:class:`robodyn_ros.demo.recording.McapRecorder` and the ones the report
needs, converted to arrays, to a :class:`robodyn_ros.demo.store.RunLog`;
it calls the ``change_state`` services of lifecycle nodes and publishes
goals on ``planner/goal``. It spins in its own thread; every call here
returns within its timeout.
"""

import threading
import time

from diagnostic_msgs.msg import DiagnosticArray
import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from rclpy.serialization import deserialize_message
from rclpy.signals import SignalHandlerOptions
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64, Float64MultiArray, String
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint

from .conversions import to_duration, to_seconds, trajectory_arrays
from .joint_state_reader import JointStateReader
from .lifecycle_caller import call, LifecycleCaller
from .sampled import SampledTopic

LATCHED = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                     durability=DurabilityPolicy.TRANSIENT_LOCAL)
RELIABLE = QoSProfile(depth=100, reliability=ReliabilityPolicy.RELIABLE)
#: The two 1 kHz streams: taken in batches by a thread (see .sampled), 2 s deep.
STREAM = QoSProfile(depth=2000, reliability=ReliabilityPolicy.BEST_EFFORT)
#: How often the streams are drained [s].
DRAIN_PERIOD = 0.01
#: Recorded topics (relative name, type, QoS); controller topics are added per law.
STREAMS = ('joint_states', 'joint_commands')
#: ``diagnostics`` stays on the executor: a few messages a second, and the fault cases read
#: a node's newest status as soon as its transition has answered (the same executor).
TOPICS = (('planned_trajectory', JointTrajectory, LATCHED),
          ('planner/goal', JointTrajectory, RELIABLE),
          ('diagnostics', DiagnosticArray, RELIABLE), ('dynamics/info', String, LATCHED))
#: Each law's status topics, 100 Hz each: taken in batches by the same thread, 2 s deep
#: (through the executor each message costs about a millisecond of Python here).
BATCHED = QoSProfile(depth=200, reliability=ReliabilityPolicy.RELIABLE)
CONTROLLER_TOPICS = (('tracking_error', JointState, BATCHED),
                     ('payload_estimate', Float64, BATCHED),
                     ('estimates', Float64MultiArray, BATCHED))


def _type_name(cls):
    module = cls.__module__.split('.')
    return f'{module[0]}/msg/{cls.__name__}'


class DemoProbe(Node):
    """
    Record the demo's topics, drive lifecycle nodes and send goals.

    Parameters
    ----------
    joint_names : list of str
        The robot's joints (model order).
    controllers : list of str
        Controller node names whose topics are recorded.
    log : RunLog
        Receives the arrays the report needs.
    recorder : McapRecorder or None
        Receives every message.

    """

    def __init__(self, joint_names, controllers, log, recorder=None):
        super().__init__('demo_probe')
        self.joint_names = list(joint_names)
        self._state_reader = JointStateReader(self.joint_names)
        self.log = log
        self.recorder = recorder
        log.state_decoder = self._decode_state
        batched = [(f'{name}/{t}', c, q) for name in controllers
                   for t, c, q in CONTROLLER_TOPICS]
        self._subs = []
        self._streams = []
        for topic in STREAMS:
            stream = SampledTopic(self, JointState, topic, STREAM, raw=True)
            if recorder is not None:
                recorder.add_channel(stream.topic, _type_name(JointState))
            self._streams.append((stream, self._stream_handler(topic, stream.topic)))
        for topic, cls, qos in batched:
            stream = SampledTopic(self, cls, topic, qos, raw=True)
            if recorder is not None:
                recorder.add_channel(stream.topic, _type_name(cls))
            self._streams.append((stream, self._callback(stream.topic, cls, topic)))
        self._draining = True
        self._drainer = threading.Thread(target=self._drain, daemon=True)
        self._drainer.start()
        for topic, cls, qos in TOPICS:
            full = self.resolve_topic_name(topic)
            if recorder is not None:
                recorder.add_channel(full, _type_name(cls))
            self._subs.append(self.create_subscription(
                cls, topic, self._callback(full, cls, topic), qos, raw=True))
        self._goal_pub = self.create_publisher(JointTrajectory, 'planner/goal', RELIABLE)
        self._lifecycle = LifecycleCaller(self)
        self._service_clients = {}
        self._executor = SingleThreadedExecutor()
        self._executor.add_node(self)
        self._thread = threading.Thread(target=self._spin, daemon=True)
        self._thread.start()

    # ------------------------------------------------------------------ recording
    def _stream_handler(self, topic, full):
        log, recorder = self.log, self.recorder
        add = log.add_state_serialized if topic == 'joint_states' else (
            lambda received, data: log.add_command(received))

        def keep(data, received):
            if recorder is not None:
                recorder.write(full, data, int(received * 1e9))
            add(received, data)  # joint states are decoded later, when the report needs it
        return keep

    def _drain(self):
        while self._draining:
            for stream, handler in self._streams:
                try:
                    for data, received in stream.take_all():
                        handler(data, received)
                except Exception as exc:  # context gone while shutting down
                    if self._draining:
                        self.log.note(f'{stream.topic}: {exc}')
            time.sleep(DRAIN_PERIOD)

    def _callback(self, full, cls, topic):
        handler = self._handler(topic, cls)

        def receive(data, received=None):
            now = time.time_ns() if received is None else int(received * 1e9)
            if self.recorder is not None:
                self.recorder.write(full, data, now)
            if handler is not None:
                try:
                    handler(deserialize_message(data, cls), now * 1e-9)
                except ValueError as exc:  # a malformed message is logged, not fatal
                    self.log.note(f'{topic}: {exc}')
        return receive

    def _handler(self, topic, cls):
        log = self.log
        names = self.joint_names
        reader = JointStateReader(names)
        if topic == 'planned_trajectory':
            def plan(msg, now):
                arrays = trajectory_arrays(msg, names)
                log.add_plan(to_seconds(msg.header.stamp), now, arrays)
            return plan
        if topic.endswith('/tracking_error'):
            law = topic.split('/')[0]
            return lambda msg, now: log.add_error(law, to_seconds(msg.header.stamp), now,
                                                  reader.read(msg).position)
        if topic.endswith('/payload_estimate'):
            law = topic.split('/')[0]
            return lambda msg, now: log.add_payload(law, now, msg.data)
        if topic.endswith('/estimates'):
            law = topic.split('/')[0]

            def estimates(msg, now):
                values, k = {}, 0
                for dim in msg.layout.dim:
                    values[dim.label] = list(msg.data[k:k + dim.size])
                    k += dim.size
                log.add_estimates(law, now, values)
            return estimates
        if topic == 'diagnostics':
            def diag(msg, now):
                for status in msg.status:
                    log.add_diagnostic(status.name, now, int.from_bytes(status.level, 'little')
                                       if isinstance(status.level, bytes) else status.level,
                                       status.message,
                                       {kv.key: kv.value for kv in status.values})
            return diag
        if topic == 'dynamics/info':
            return lambda msg, now: log.add_dynamics_info(now, msg.data)
        return None

    def _decode_state(self, data):
        s = self._state_reader.read(data)
        return s.stamp_ns * 1e-9, s.position, s.velocity, s.effort

    def _spin(self):
        import sys
        while rclpy.ok(context=self.context) and self._draining:
            try:
                self._executor.spin_once(timeout_sec=0.1)
            except Exception as exc:  # noqa: B902 - keep serving; the context may be going
                if not rclpy.ok(context=self.context):
                    return
                print(f'demo probe: executor error (continuing): {type(exc).__name__}: {exc}',
                      file=sys.stderr)

    # ------------------------------------------------------------------ graph
    def goal_subscribers(self):
        """Return how many nodes listen to ``planner/goal``."""
        return self._goal_pub.get_subscription_count()

    # ------------------------------------------------------------------ lifecycle
    def _call(self, client, request, timeout):
        return call(client, request, timeout)

    def lifecycle_available(self, node, timeout=0.0):
        """Tell whether ``node``'s lifecycle services are up."""
        return self._lifecycle.available(node, timeout)

    def get_state(self, node, timeout=2.0):
        """Read a lifecycle node's state label (see :meth:`.LifecycleCaller.get_state`)."""
        return self._lifecycle.get_state(node, timeout)

    def change_state(self, node, transition, timeout=10.0):
        """Drive a lifecycle transition (see :meth:`.LifecycleCaller.change_state`)."""
        return self._lifecycle.change_state(node, transition, timeout)

    def trigger(self, service, timeout=10.0):
        """
        Call a std_srvs/Trigger service (e.g. ``hardware_interface/reset_fault``).

        Parameters
        ----------
        service : str
            Service name (relative).
        timeout : float
            Longest wait [s].

        Returns
        -------
        tuple or None
            ``(success, message)``, None when it did not answer in time.

        """
        from std_srvs.srv import Trigger
        client = self._service_clients.get(service)
        if client is None:
            client = self._service_clients[service] = self.create_client(Trigger, service)
        res = self._call(client, Trigger.Request(), timeout)
        return None if res is None else (bool(res.success), res.message)

    def set_parameters_atomically(self, node, values, timeout=10.0):
        """
        Set several parameters of a node as one all-or-nothing set.

        Parameters
        ----------
        node : str
            Node name (relative).
        values : dict
            Name to value (float, int, bool, str or a list of floats).
        timeout : float
            Longest wait [s].

        Returns
        -------
        tuple or None
            ``(successful, reason)``, None when it did not answer in time.

        """
        from rcl_interfaces.srv import SetParametersAtomically
        from rclpy.parameter import Parameter
        name = f'{node}/set_parameters_atomically'
        client = self._service_clients.get(name)
        if client is None:
            client = self.create_client(SetParametersAtomically, name)
            self._service_clients[name] = client
        req = SetParametersAtomically.Request(parameters=[
            Parameter(k, value=v).to_parameter_msg() for k, v in values.items()])
        res = self._call(client, req, timeout)
        return None if res is None else (bool(res.result.successful), res.result.reason)

    # ------------------------------------------------------------------ goals
    def send_goal(self, waypoints, durations=None):
        """
        Publish a goal on ``planner/goal``.

        Parameters
        ----------
        waypoints : array_like
            (K, n) joint positions [rad or m], model joint order.
        durations : sequence of float, optional
            ``time_from_start`` of each waypoint [s] (default: the planner
            chooses).

        """
        msg = JointTrajectory(joint_names=self.joint_names)
        for k, point in enumerate(waypoints):
            p = JointTrajectoryPoint(positions=[float(v) for v in point])
            if durations is not None:
                p.time_from_start = to_duration(float(durations[k]))
            msg.points.append(p)
        self._goal_pub.publish(msg)

    def close(self):
        """Stop spinning and destroy the node."""
        self._draining = False
        self._drainer.join(timeout=2.0)
        for stream, _ in self._streams:
            stream.destroy()
        self._executor.shutdown(timeout_sec=1.0)
        self._thread.join(timeout=2.0)
        self.destroy_node()


def start_probe(joint_names, controllers, log, recorder=None, args=None):
    """
    Initialise rclpy (if needed) and start a probe.

    Parameters
    ----------
    joint_names, controllers, log, recorder
        See :class:`DemoProbe`.
    args : list of str, optional
        rclpy arguments.

    Returns
    -------
    DemoProbe
        The running probe.

    """
    if not rclpy.ok():  # the demo handles Ctrl-C itself, to stop its children first
        rclpy.init(args=args, signal_handler_options=SignalHandlerOptions.NO)
    return DemoProbe(joint_names, controllers, log, recorder)


def stop_probe(probe):
    """Close a probe and shut rclpy down."""
    if probe is not None:
        probe.close()
    if rclpy.ok():
        rclpy.shutdown()
