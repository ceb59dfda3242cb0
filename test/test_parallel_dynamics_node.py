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

"""The parallel_dynamics node with real rclpy: requests, schemes, clients, errors, workers."""

import os
import signal
import subprocess
import sys
import threading
import time

from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus
import numpy as np
import pytest
from rclpy.exceptions import InvalidParameterValueException
from rclpy.node import Node
from rclpy.parameter import Parameter
from robodyn_ros.dynamics import inverse_dynamics
from robodyn_ros.model import load_robot
from robodyn_ros.nodes import dynamics_protocol as proto
from robodyn_ros.nodes.conversions import trajectory_arrays, trajectory_msg
from robodyn_ros.nodes.parallel_dynamics_node import ParallelDynamicsNode
from robodyn_ros.nodes.params import ParameterValidationError
from ros_helpers import RosGraph, wait_for
from std_msgs.msg import String
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint

MODEL = load_robot('puma560')
NAMES = list(MODEL.joint_names)


def _states(count, seed, model=MODEL):
    rng = np.random.default_rng(seed)
    q = np.array([model.random_configuration(rng) for _ in range(count)])
    return q, rng.uniform(-2, 2, (count, model.n)), rng.uniform(-5, 5, (count, model.n))


class Client:
    """A test node that sends requests and collects responses and diagnostics."""

    def __init__(self, graph, name):
        self.node = graph.add(Node(name, context=graph.context))
        self.responses = {}
        self.diags = []
        self.node.create_subscription(JointTrajectory, proto.RESPONSE_TOPIC, self._on_response,
                                      proto.DATA_QOS)
        self.node.create_subscription(DiagnosticArray, 'diagnostics', self.diags.append, 50)
        self.pub = self.node.create_publisher(JointTrajectory, proto.REQUEST_TOPIC,
                                              proto.DATA_QOS)

    def _on_response(self, msg):
        self.responses[proto.request_id(msg)] = msg

    def connect(self):
        assert wait_for(lambda: self.pub.get_subscription_count() > 0, 10.0)

    def send(self, msg):
        msg.header.stamp = self.node.get_clock().now().to_msg()
        self.pub.publish(msg)
        return proto.request_id(msg)

    def wait(self, rid, timeout=15.0):
        assert wait_for(lambda: rid in self.responses, timeout), rid
        return self.responses[rid]

    def errors(self):
        return [s for d in self.diags for s in d.status
                if s.level == DiagnosticStatus.ERROR and s.name.endswith(': request')]


def _service(graph, **params):
    overrides = [Parameter('robot', value='puma560')] + [Parameter(k, value=v)
                                                         for k, v in params.items()]
    return graph.add(ParallelDynamicsNode(context=graph.context, parameter_overrides=overrides))


def _request(q, qd, qdd, names=NAMES, frame='req'):
    return trajectory_msg(names, np.arange(len(q)) * 0.01, q, qd, qdd, frame_id=frame)


def test_request_response_any_joint_order():
    """1,000 points, joints reversed: same header and points, exact efforts, joint order kept."""
    with RosGraph() as graph:
        _service(graph)
        client = Client(graph, 'client_a')
        client.connect()
        q, qd, qdd = _states(1000, 1)
        rev = NAMES[::-1]
        rid = client.send(_request(q[:, ::-1], qd[:, ::-1], qdd[:, ::-1], rev, 'order test'))
        reply = client.wait(rid)
        assert reply.header.frame_id == 'order test' and list(reply.joint_names) == rev
        assert len(reply.points) == 1000
        out = trajectory_arrays(reply, NAMES)
        assert np.allclose(out['positions'], q) and np.allclose(out['times'],
                                                                np.arange(1000) * 0.01)
        ref = inverse_dynamics(MODEL, q, qd, qdd)
        assert np.max(np.abs(out['effort'] - ref)) < 1e-12 * np.abs(ref).max()


@pytest.mark.parametrize('scheme,friction', [('threads', True), ('task_graph', True),
                                             ('rows', False), ('workers', True)])
def test_every_local_scheme_is_exact(scheme, friction):
    """Each scheme (no worker alive for 'workers': computed here) gives the serial efforts."""
    with RosGraph() as graph:
        _service(graph, scheme=scheme, friction=friction, threads=3)
        client = Client(graph, f'client_{scheme}')
        client.connect()
        q, qd, qdd = _states(300, 2)
        out = trajectory_arrays(client.wait(client.send(_request(q, qd, qdd))), NAMES)
        ref = inverse_dynamics(MODEL, q, qd, qdd, friction=friction)
        assert np.max(np.abs(out['effort'] - ref)) < 1e-12 * np.abs(ref).max()


def test_missing_velocities_mean_rest():
    """Points with positions only are states at rest (gravity torques)."""
    with RosGraph() as graph:
        _service(graph)
        client = Client(graph, 'client_rest')
        client.connect()
        q, _, _ = _states(5, 3)
        msg = trajectory_msg(NAMES, np.zeros(5), q, frame_id='rest')
        out = trajectory_arrays(client.wait(client.send(msg)), NAMES)
        zero = np.zeros_like(q)
        assert np.allclose(out['effort'], inverse_dynamics(MODEL, q, zero, zero), atol=1e-12)


def test_concurrent_clients_are_all_answered():
    """Three client nodes, each sending from its own thread at once: every answer matches."""
    with RosGraph(threads=6) as graph:
        _service(graph, threads=2)
        clients = [Client(graph, f'client_{k}') for k in range(3)]
        for c in clients:
            c.connect()
        sent = {}

        def burst(k, client):
            for j in range(4):
                q, qd, qdd = _states(200 + 50 * j, 10 * k + j)
                rid = client.send(_request(q, qd, qdd, frame=f'client {k} request {j}'))
                sent[rid] = (client, inverse_dynamics(MODEL, q, qd, qdd))
        threads = [threading.Thread(target=burst, args=(k, c)) for k, c in enumerate(clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(sent) == 12
        for rid, (client, ref) in sent.items():
            out = trajectory_arrays(client.wait(rid), NAMES)['effort']
            assert np.allclose(out, ref, atol=1e-10), rid


def _bad_requests():
    q, qd, qdd = _states(4, 5)
    unknown = _request(q, qd, qdd, NAMES[:5] + ['elbow_x'], 'unknown joint')
    missing = _request(q[:, :5], qd[:, :5], qdd[:, :5], NAMES[:5], 'missing joint')
    short = _request(q, qd, qdd, NAMES, 'short velocities')
    short.points[2].velocities = [0.0] * 5
    nan = _request(q, qd, qdd, NAMES, 'nan')
    nan.points[1].accelerations[3] = float('nan')
    empty = JointTrajectory(joint_names=NAMES)
    empty.header.frame_id = 'no points'
    nopos = JointTrajectory(joint_names=NAMES, points=[JointTrajectoryPoint()])
    nopos.header.frame_id = 'no positions'
    dup = _request(q, qd, qdd, NAMES, 'duplicate')
    dup.joint_names = NAMES[:5] + [NAMES[0]]
    big = _request(*_states(30, 6), NAMES, 'too many points')
    return [unknown, missing, short, nan, empty, nopos, dup, big]


def test_malformed_requests_get_error_responses_and_diagnostics():
    """Each bad request: same header, no points, an ERROR diagnostics entry naming it."""
    with RosGraph() as graph:
        node = _service(graph, max_points=20)
        client = Client(graph, 'client_bad')
        client.connect()
        for msg in _bad_requests():
            rid = client.send(msg)
            reply = client.wait(rid)
            assert proto.is_error(reply) and reply.header.frame_id == msg.header.frame_id
            assert list(reply.joint_names) == list(msg.joint_names)
            assert wait_for(lambda: any(kv.value == rid for s in client.errors()
                                        for kv in s.values), 5.0), rid
        # The service still works afterwards.
        q, qd, qdd = _states(10, 7)
        good = client.wait(client.send(_request(q, qd, qdd, frame='after')))
        assert len(good.points) == 10
        assert node._stats['errors'] == len(_bad_requests())


def test_parameters():
    """Descriptors, refusals of bad values, a scheme change at run time, bad start-up values."""
    with RosGraph() as graph:
        node = _service(graph)
        assert node.describe_parameter('scheme').additional_constraints.startswith('one of')
        assert node.describe_parameter('threads').integer_range[0].to_value == 64
        for bad in (Parameter('scheme', value='magic'), Parameter('threads', value=0),
                    Parameter('worker_timeout', value=0.0)):
            assert not node.set_parameters([bad])[0].successful, bad.name
        # rows cannot include the PUMA's friction: refused with a reason.
        res = node.set_parameters([Parameter('scheme', value='rows')])[0]
        assert not res.successful and 'friction' in res.reason
        assert node.set_parameters([Parameter('scheme', value='task_graph')])[0].successful
        client = Client(graph, 'client_p')
        client.connect()
        q, qd, qdd = _states(20, 8)
        out = trajectory_arrays(client.wait(client.send(_request(q, qd, qdd))), NAMES)
        assert np.allclose(out['effort'], inverse_dynamics(MODEL, q, qd, qdd), atol=1e-10)
    with RosGraph() as graph:
        with pytest.raises(ParameterValidationError):
            _service(graph, scheme='rows')
        with pytest.raises(ParameterValidationError):
            _service(graph, scheme='magic')
        with pytest.raises(InvalidParameterValueException):
            _service(graph, threads=100)


def _worker(name, robot='puma560', extra=()):
    env = dict(os.environ)
    module = 'robodyn_ros.nodes.parallel_dynamics_worker_node'
    args = ['--ros-args', '-r', f'__node:={name}', '-p', f'robot:={robot}', *extra]
    return subprocess.Popen([sys.executable, '-m', module, *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _stop(proc):
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_two_worker_processes_share_a_request_and_a_lost_worker_is_covered():
    """Chunks go to 2 worker processes; a killed worker's chunk is computed by the service."""
    procs = [_worker('pd_worker_0'), _worker('pd_worker_1'), _worker('pd_other', 'stanford')]
    try:
        with RosGraph() as graph:
            node = _service(graph, scheme='workers', min_chunk=50, worker_timeout=3.0)
            client = Client(graph, 'client_w')
            client.connect()
            assert wait_for(lambda: len(node._live_workers()) == 2, 30.0), [
                p.poll() for p in procs]
            names = sorted(w.name for w in node._live_workers())
            assert names == ['/pd_worker_0', '/pd_worker_1']  # the Stanford worker is ignored
            q, qd, qdd = _states(1000, 9)
            ref = inverse_dynamics(MODEL, q, qd, qdd)
            out = trajectory_arrays(client.wait(client.send(_request(q, qd, qdd))), NAMES)
            assert np.max(np.abs(out['effort'] - ref)) < 1e-12 * np.abs(ref).max()
            assert node._stats['chunks_sent'] == 2 and node._stats['chunks_local'] == 0
            assert all(w.chunks == 1 for w in node._live_workers())
            before = dict(node._stats)
            procs[0].kill()
            procs[0].wait()
            rid = client.send(_request(q, qd, qdd, frame='after a worker died'))
            out = trajectory_arrays(client.wait(rid, 20.0), NAMES)
            assert np.max(np.abs(out['effort'] - ref)) < 1e-12 * np.abs(ref).max()
            after = node._stats
            sent = after['chunks_sent'] - before['chunks_sent']
            # Either DDS already saw the process go (one chunk, to the live worker), or the
            # dead worker's chunk timed out and was computed by the service.
            assert sent in (1, 2)
            if sent == 2:
                assert after['worker_timeouts'] - before['worker_timeouts'] == 1
                assert after['chunks_local'] - before['chunks_local'] == 1
    finally:
        for p in procs:
            _stop(p)


def test_node_process_serves_requests():
    """The console-script main (a real process) answers requests and exits cleanly on SIGINT."""
    proc = subprocess.Popen([sys.executable, '-m', 'robodyn_ros.nodes.parallel_dynamics_node',
                             '--ros-args', '-p', 'robot:=puma560', '-p', 'threads:=2'],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        with RosGraph() as graph:
            client = Client(graph, 'client_proc')
            client.connect()
            time.sleep(0.2)
            q, qd, qdd = _states(100, 11)
            out = trajectory_arrays(client.wait(client.send(_request(q, qd, qdd))), NAMES)
            assert np.allclose(out['effort'], inverse_dynamics(MODEL, q, qd, qdd), atol=1e-10)
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=15) == 0, proc.stdout.read()


class FakeWorker:
    """An in-process worker that announces itself and then stays silent or refuses."""

    def __init__(self, graph, name, refuse=False):
        from robodyn_ros.parallel.service import model_fingerprint
        self.node = graph.add(Node(name, context=graph.context))
        self.got = []
        self.refuse = refuse
        self.out = self.node.create_publisher(JointTrajectory, proto.CHUNK_RESPONSE_TOPIC,
                                              proto.DATA_QOS)
        self.node.create_subscription(JointTrajectory, f'~/{proto.CHUNK_REQUEST_SUFFIX}',
                                      self._on_chunk, proto.DATA_QOS)
        beat = self.node.create_publisher(String, proto.WORKERS_TOPIC, 10)
        data = {'node': self.node.get_fully_qualified_name(), 'robot': MODEL.name,
                'fingerprint': model_fingerprint(MODEL), 'joints': NAMES}
        self.node.create_timer(0.2, lambda: beat.publish(proto.json_msg(data)))

    def _on_chunk(self, msg):
        self.got.append(msg)
        if self.refuse:
            self.out.publish(proto.error_response(msg))


@pytest.mark.parametrize('refuse', [False, True])
def test_silent_or_refusing_worker_is_covered(refuse):
    """A worker that never answers costs a timeout, one that refuses nothing; answers exact."""
    with RosGraph() as graph:
        node = _service(graph, scheme='workers', min_chunk=10, worker_timeout=0.3)
        fake = FakeWorker(graph, 'fake_worker', refuse)
        client = Client(graph, 'client_fake')
        client.connect()
        assert wait_for(lambda: len(node._live_workers()) == 1, 10.0)
        q, qd, qdd = _states(100, 12)
        out = trajectory_arrays(client.wait(client.send(_request(q, qd, qdd))), NAMES)
        assert np.allclose(out['effort'], inverse_dynamics(MODEL, q, qd, qdd), atol=1e-10)
        assert len(fake.got) == 1 and len(fake.got[0].points) == 100
        assert node._stats['chunks_local'] == 1
        assert node._stats['worker_timeouts'] == (0 if refuse else 1)
        if not refuse:
            assert wait_for(lambda: any(s.level == DiagnosticStatus.WARN and 'dropped' in s.message
                                        for d in client.diags for s in d.status), 5.0)
