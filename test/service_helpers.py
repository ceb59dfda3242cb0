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


"""Test peers of the parallel-dynamics service: a raw client, fake workers, worker processes."""

import os
import signal
import subprocess
import sys
import threading
import time

from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus
import numpy as np
from rclpy.node import Node
from robodyn_ros.model import load_robot
from robodyn_ros.nodes import dynamics_cdr as cdr
from robodyn_ros.nodes import dynamics_protocol as proto
from robodyn_ros.parallel.batch import parallel_inverse_dynamics
from robodyn_ros.parallel.service import model_fingerprint
from ros_helpers import wait_for
from std_msgs.msg import String
from trajectory_msgs.msg import JointTrajectory

MODEL = load_robot('puma560')
NAMES = list(MODEL.joint_names)
#: Frame id of the test client's probes.
PROBE_FRAME = 'probe'


def states(count, seed, model=MODEL):
    """Random states: positions within the ranges, velocities, accelerations."""
    rng = np.random.default_rng(seed)
    q = np.array([model.random_configuration(rng) for _ in range(count)])
    return q, rng.uniform(-2, 2, (count, model.n)), rng.uniform(-5, 5, (count, model.n))


class Client:
    """A test node that sends packed requests as bytes and collects every answer."""

    def __init__(self, graph, name):
        self.node = graph.add(Node(name, context=graph.context))
        self.responses = {}
        self.probes = []
        self.diags = []
        self.count = 0
        self._lock = threading.Lock()
        self.answers = self.node.create_subscription(JointTrajectory, proto.RESPONSE_TOPIC,
                                                     self._on_response, proto.DATA_QOS, raw=True)
        self.node.create_subscription(DiagnosticArray, 'diagnostics', self.diags.append, 50)
        self.pub = self.node.create_publisher(JointTrajectory, proto.REQUEST_TOPIC,
                                              proto.DATA_QOS)

    def _on_response(self, data):
        msg = cdr.decode(data)
        with self._lock:
            if msg.frame_id == PROBE_FRAME:    # kept apart: tests count the other answers
                self.probes.append(msg)
            else:
                self.responses.setdefault(proto.request_id(data), []).append(msg)

    def connect(self, timeout=10.0):
        """Wait until the requests reach a service and its answers reach this client."""
        assert wait_for(lambda: self.pub.get_subscription_count() > 0
                        and self.answers.get_publisher_count() > 0, timeout)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:         # a probe's answer: matched both ways
            self.probe()
            if wait_for(lambda: self.probes, 0.2):
                return
        raise AssertionError(f'no answer to a probe within {timeout:g} s')

    def probe(self):
        """Send a probe: no points, no joints; its answer goes to ``probes``."""
        self.count += 1
        sec, nanosec = divmod(self.node.get_clock().now().nanoseconds, 1_000_000_000)
        nanosec = (nanosec + self.count) % 1_000_000_000
        self.pub.publish(cdr.encode_probe(sec, nanosec, PROBE_FRAME))

    def send(self, q, qd=None, qdd=None, names=NAMES, frame='req'):
        """Send a request (or any bytes with ``raw``); return its id."""
        self.count += 1
        sec, nanosec = divmod(self.node.get_clock().now().nanoseconds, 1_000_000_000)
        nanosec = (nanosec + self.count) % 1_000_000_000       # unique ids in a burst
        self.pub.publish(cdr.encode(sec, nanosec, frame, names, q, qd, qdd))
        return proto.format_id(frame, sec, nanosec)

    def send_raw(self, data):
        self.pub.publish(data)
        return proto.request_id(data)

    def wait(self, rid, timeout=15.0):
        assert wait_for(lambda: rid in self.responses, timeout), rid
        return self.responses[rid][0]

    def errors(self):
        return [s for d in self.diags for s in d.status
                if s.level == DiagnosticStatus.ERROR and s.name.endswith(': request')]


class FakeWorker:
    """An in-process worker that announces itself and answers late, refuses or stays silent."""

    def __init__(self, graph, name, mode='silent', delay=0.0, model=MODEL, replies=None):
        self.node = graph.add(Node(name, context=graph.context))
        self.got = []
        self.probes = 0
        #: Answer probes (False: a worker whose reader has not matched the node's writer yet).
        self.hears_probes = True
        self.mode = mode
        self.delay = delay
        self.model = model
        self.out = self.node.create_publisher(JointTrajectory, proto.CHUNK_RESPONSE_TOPIC,
                                              proto.DATA_QOS)
        self.node.create_subscription(JointTrajectory, f'~/{proto.CHUNK_REQUEST_SUFFIX}',
                                      self._on_chunk, proto.DATA_QOS, raw=True)
        beat = self.node.create_publisher(String, proto.WORKERS_TOPIC, 10)
        self.data = {'node': self.node.get_fully_qualified_name(), 'robot': model.name,
                     'fingerprint': model_fingerprint(model), 'joints': model.joint_names}
        if replies is not None:     # what a worker says of its response writer's matches
            self.data['replies'] = replies
        self.node.create_timer(0.2, lambda: beat.publish(proto.json_msg(self.data)))

    def _on_chunk(self, data):
        msg = cdr.decode(data)
        if proto.is_probe(msg):         # alive: probes are answered in every mode
            self.probes += 1
            if not self.hears_probes:
                return
            self.out.publish(proto.ready_answer(msg.sec, msg.nanosec, msg.frame_id))
            return
        self.got.append(msg)
        if self.mode == 'refuse':
            self.out.publish(cdr.encode_error(msg.sec, msg.nanosec, msg.frame_id, 'invalid',
                                              'refused by a test'))
        elif self.mode == 'slow':
            threading.Timer(self.delay, self._answer, (msg,)).start()

    def _answer(self, msg):
        friction = proto.parse_chunk_id(msg.frame_id)[2]
        tau = parallel_inverse_dynamics(self.model, msg.positions, msg.velocities,
                                        msg.accelerations, friction=friction)
        self.out.publish(cdr.encode(msg.sec, msg.nanosec, msg.frame_id, msg.joint_names,
                                    effort=tau))


def start_worker(name, robot='puma560', env=None, prefix=()):
    """Start a parallel_dynamics_worker process."""
    module = 'robodyn_ros.nodes.parallel_dynamics_worker_node'
    args = ['--ros-args', '-r', f'__node:={name}', '-p', f'robot:={robot}']
    return subprocess.Popen([*prefix, sys.executable, '-m', module, *args],
                            env=dict(os.environ) if env is None else env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def stop(proc):
    """Stop a process with SIGINT (kill it after 10 s)."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def settle(seconds=0.2):
    """Let DDS deliver what is in flight."""
    time.sleep(seconds)
