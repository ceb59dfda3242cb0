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


"""The parallel_dynamics node with real rclpy: requests, schemes, errors, floods, limits."""

import subprocess
import sys
import threading
import time

import numpy as np
import pytest
from rclpy.exceptions import InvalidParameterValueException
from rclpy.parameter import Parameter
from rclpy.serialization import serialize_message
from robodyn_ros.dynamics import inverse_dynamics
from robodyn_ros.nodes import dynamics_cdr as cdr
from robodyn_ros.nodes import dynamics_protocol as proto
from robodyn_ros.nodes.dynamics_client import DynamicsClient, DynamicsServiceError
from robodyn_ros.nodes.parallel_dynamics_node import ParallelDynamicsNode
from robodyn_ros.nodes.params import ParameterValidationError
from ros_helpers import RosGraph, wait_for
from service_helpers import Client, MODEL, NAMES, PROBE_FRAME, states
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint


def _service(graph, **params):
    overrides = [Parameter('robot', value='puma560')] + [Parameter(k, value=v)
                                                         for k, v in params.items()]
    return graph.add(ParallelDynamicsNode(context=graph.context, parameter_overrides=overrides))


def _exact(tau, q, qd, qdd, friction=True):
    ref = inverse_dynamics(MODEL, q, qd, qdd, friction=friction)
    return np.max(np.abs(tau - ref)) < 1e-12 * np.abs(ref).max()


def test_request_response_any_joint_order():
    """1,000 points, joints reversed: same header and names, exact efforts in request order."""
    with RosGraph() as graph:
        _service(graph)
        client = Client(graph, 'client_a')
        client.connect()
        q, qd, qdd = states(1000, 1)
        rev = NAMES[::-1]
        rid = client.send(q[:, ::-1], qd[:, ::-1], qdd[:, ::-1], rev, 'order test')
        reply = client.wait(rid)
        assert reply.frame_id == 'order test' and reply.joint_names == rev
        assert reply.points == 1000 and reply.positions is None
        assert _exact(reply.effort[:, ::-1], q, qd, qdd)


def test_no_message_objects_per_state(monkeypatch):
    """A 1,000-point request and its answer make no JointTrajectoryPoint objects anywhere."""
    made = []
    init = JointTrajectoryPoint.__init__

    def counting(self, *args, **kwargs):
        made.append(1)
        init(self, *args, **kwargs)
    with RosGraph() as graph:
        _service(graph)
        client = DynamicsClient(graph.context)
        try:
            assert wait_for(client.available, 10.0)
            q, qd, qdd = states(1000, 21)
            monkeypatch.setattr(JointTrajectoryPoint, '__init__', counting)
            tau = client.request(NAMES, q, qd, qdd, timeout=10.0)
            monkeypatch.undo()
            assert _exact(tau, q, qd, qdd) and not made
        finally:
            client.close()


@pytest.mark.parametrize('scheme,friction', [('threads', True), ('task_graph', True),
                                             ('rows', False), ('workers', True)])
def test_every_local_scheme_is_exact(scheme, friction):
    """Each scheme (no worker alive for 'workers': computed here) gives the serial efforts."""
    with RosGraph() as graph:
        _service(graph, scheme=scheme, friction=friction, threads=3)
        client = Client(graph, f'client_{scheme}')
        client.connect()
        q, qd, qdd = states(300, 2)
        assert _exact(client.wait(client.send(q, qd, qdd)).effort, q, qd, qdd, friction)


def test_missing_velocities_mean_rest():
    """Positions only are states at rest (gravity torques)."""
    with RosGraph() as graph:
        _service(graph)
        client = Client(graph, 'client_rest')
        client.connect()
        q, _, _ = states(5, 3)
        zero = np.zeros_like(q)
        assert _exact(client.wait(client.send(q)).effort, q, zero, zero)


def test_concurrent_clients_are_all_answered():
    """Three client nodes sending from their own threads at once: every answer matches."""
    with RosGraph(threads=6) as graph:
        _service(graph, threads=2)
        clients = [Client(graph, f'client_{k}') for k in range(3)]
        for c in clients:
            c.connect()
        sent = {}

        def burst(k, client):
            for j in range(4):
                q, qd, qdd = states(200 + 50 * j, 10 * k + j)
                rid = client.send(q, qd, qdd, frame=f'client {k} request {j}')
                sent[rid] = (client, q, qd, qdd)
        threads = [threading.Thread(target=burst, args=(k, c)) for k, c in enumerate(clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(sent) == 12
        for rid, (client, q, qd, qdd) in sent.items():
            assert _exact(client.wait(rid).effort, q, qd, qdd), rid


def _legacy_request():
    msg = JointTrajectory(joint_names=NAMES, points=[
        JointTrajectoryPoint(positions=[0.0] * 6), JointTrajectoryPoint(positions=[0.1] * 6)])
    msg.header.frame_id = 'several points'
    return serialize_message(msg)


def _bad_requests():
    q, qd, qdd = states(4, 5)
    nan = qdd.copy()
    nan[1, 3] = float('nan')
    return [('unknown joint', (q, qd, qdd, NAMES[:5] + ['elbow_x']), 'invalid', 'unknown'),
            ('missing joint', (q[:, :5], None, None, NAMES[:5]), 'invalid', 'lacks'),
            ('short velocities', (q, qd[:3], None, NAMES), 'invalid', 'velocities'),
            ('nan', (q, qd, nan, NAMES), 'invalid', 'row 1'),
            ('duplicate', (q, qd, qdd, NAMES[:5] + [NAMES[0]]), 'invalid', 'repeats'),
            ('no positions', (None, qd, qdd, NAMES), 'invalid', 'values for 6 joints'),
            ('several points', _legacy_request(), 'invalid', 'packed'),
            ('too many points', (*states(30, 6), NAMES), 'too_large', 'max_points')]


def test_malformed_requests_get_error_responses_and_diagnostics():
    """Each bad request: same header, no points, its code and reason, an ERROR diagnostics."""
    with RosGraph() as graph:
        node = _service(graph, max_points=20)
        client = Client(graph, 'client_bad')
        client.connect()
        for frame, args, code, needle in _bad_requests():
            if isinstance(args, bytes):
                rid = client.send_raw(args)
            else:
                rid = client.send(*args[:3], names=args[3], frame=frame)
            reply = client.wait(rid)
            assert reply.is_error and reply.frame_id == frame
            got_code, text, _ = proto.parse_error(reply)
            assert got_code == code and needle in text, (frame, text)
            assert wait_for(lambda: any(kv.value == rid for s in client.errors()
                                        for kv in s.values), 5.0), rid
        q, qd, qdd = states(10, 7)                      # the service still works
        assert _exact(client.wait(client.send(q, qd, qdd, frame='after')).effort, q, qd, qdd)
        assert node.stats['errors'] == len(_bad_requests())


def test_a_probe_is_answered_ready_and_not_counted():
    """A probe gets ``ready`` at once: no error counted, no diagnostics, requests still served."""
    with RosGraph() as graph:
        node = _service(graph)
        client = Client(graph, 'client_probe')
        client.connect()                                # probes until one comes back
        for _ in range(3):
            client.probe()
        assert wait_for(lambda: len(client.probes) >= 4, 10.0)
        for reply in client.probes:
            assert reply.is_error and reply.frame_id == PROBE_FRAME
            assert proto.parse_error(reply)[0] == proto.READY
        q, qd, qdd = states(10, 9)
        assert _exact(client.wait(client.send(q, qd, qdd)).effort, q, qd, qdd)
        assert node.stats['errors'] == 0 and node.stats['requests'] == 1
        assert not client.errors()


def test_oversize_request_is_refused_from_its_size_before_it_is_read(monkeypatch):
    """Above max_points the serialized size alone refuses the request: no decoding at all."""
    decoded = []
    real = cdr.decode
    monkeypatch.setattr(cdr, 'decode', lambda data: decoded.append(len(data)) or real(data))
    with RosGraph() as graph:
        node = _service(graph, max_points=100)
        client = Client(graph, 'client_big')
        client.connect()
        big = states(5000, 8)
        rid = client.send(*big, frame='big')
        reply = real(cdr.encode(0, 0, 'x', ['a'], [[0.0]]))   # warm the real decoder
        assert wait_for(lambda: rid in client.responses, 15.0)
        reply = client.responses[rid][0]
        code, text, _ = proto.parse_error(reply)
        assert code == 'too_large' and 'bytes' in text and 'not read' in text
        assert all(size < 100_000 for size in decoded)  # the 720 kB request was never decoded
        assert node.stats['too_large'] == 1


def test_flood_every_request_gets_one_answer():
    """200 back-to-back 500-point requests: 200 answers; with a small queue, busy ones say so."""
    with RosGraph() as graph:
        node = _service(graph, max_queued_points=3000)
        client = Client(graph, 'client_flood')
        client.connect()
        q, qd, qdd = states(500, 9)
        ids = [client.send(q, qd, qdd, frame=f'flood {k}') for k in range(200)]
        assert wait_for(lambda: len(client.responses) == 200, 60.0), len(client.responses)
        answers = [client.responses[rid] for rid in ids]
        assert all(len(a) == 1 for a in answers)         # exactly one answer each
        busy = [a[0] for a in answers if a[0].is_error]
        done = [a[0] for a in answers if not a[0].is_error]
        for reply in busy:
            code, text, details = proto.parse_error(reply)
            assert code == 'busy' and 1 <= int(details['queue_depth']) <= 6
            assert int(details['queued_points']) + 500 > 3000
        assert done and all(_exact(r.effort, q, qd, qdd) for r in done[:3])
        stats = node.stats
        assert stats['busy'] == len(busy) and stats['requests'] == len(done)
        assert stats['peak_queued_points'] <= 3000


def test_client_retries_busy_answers():
    """Six threads ask 10 times each, one request admitted at a time: busy retried, all served."""
    with RosGraph() as graph:
        node = _service(graph, max_queued_requests=1, threads=1)
        compute = node._compute

        def slow(states):                                 # 20 ms per request at least
            time.sleep(0.02)
            return compute(states)
        node._compute = slow
        client = DynamicsClient(graph.context)
        try:
            assert wait_for(client.available, 10.0)
            q, qd, qdd = states(500, 10)
            results, errors = [], []

            def ask():
                for _ in range(10):
                    try:
                        results.append(client.request(NAMES, q, qd, qdd, timeout=20.0,
                                                      busy_retries=50))
                    except DynamicsServiceError as exc:
                        errors.append(exc)
            threads = [threading.Thread(target=ask) for _ in range(6)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert not errors and len(results) == 60
            assert _exact(results[-1], q, qd, qdd)
            assert node.stats['busy'] > 0 and client.attempts == 60 + node.stats['busy']
        finally:
            client.close()


def test_parameters():
    """Descriptors, refusals of bad values, a scheme change at run time, bad start-up values."""
    with RosGraph() as graph:
        node = _service(graph)
        assert node.describe_parameter('scheme').additional_constraints.startswith('one of')
        assert node.describe_parameter('threads').integer_range[0].to_value == 64
        for bad in (Parameter('scheme', value='magic'), Parameter('threads', value=0),
                    Parameter('worker_timeout', value=0.0),
                    Parameter('max_queued_points', value=0)):
            assert not node.set_parameters([bad])[0].successful, bad.name
        res = node.set_parameters([Parameter('scheme', value='rows')])[0]
        assert not res.successful and 'friction' in res.reason
        assert node.set_parameters([Parameter('scheme', value='task_graph')])[0].successful
        client = Client(graph, 'client_p')
        client.connect()
        q, qd, qdd = states(20, 12)
        assert _exact(client.wait(client.send(q, qd, qdd)).effort, q, qd, qdd)
    with RosGraph() as graph:
        with pytest.raises(ParameterValidationError):
            _service(graph, scheme='rows')
        with pytest.raises(InvalidParameterValueException):
            _service(graph, threads=100)


def test_node_process_serves_requests():
    """The console-script main (a real process) answers requests and exits cleanly on SIGINT."""
    proc = subprocess.Popen([sys.executable, '-m', 'robodyn_ros.nodes.parallel_dynamics_node',
                             '--ros-args', '-p', 'robot:=puma560', '-p', 'threads:=2'],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    failed = None
    try:
        with RosGraph() as graph:
            client = Client(graph, 'client_proc')
            client.connect()                            # a probe came back: matched both ways
            q, qd, qdd = states(100, 13)
            assert _exact(client.wait(client.send(q, qd, qdd)).effort, q, qd, qdd)
    except AssertionError as exc:
        failed = exc
    finally:
        proc.send_signal(2)
    try:
        out = proc.communicate(timeout=15)[0]
    except subprocess.TimeoutExpired:
        proc.kill()
        out = proc.communicate()[0] + '\n(killed: no exit within 15 s of SIGINT)'
    assert failed is None, f'{failed}; the node printed:\n{out}'
    assert proc.returncode == 0, out
