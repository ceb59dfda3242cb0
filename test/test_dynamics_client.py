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

"""Client of the dynamics service and the planner's remote effort provider, with fallbacks."""

import time

import numpy as np
import pytest
from rclpy.node import Node
from rclpy.parameter import Parameter
from robodyn_ros.model import load_robot
from robodyn_ros.nodes import dynamics_cdr as cdr
from robodyn_ros.nodes import dynamics_protocol as proto
from robodyn_ros.nodes.conversions import joint_state_msg, trajectory_arrays
from robodyn_ros.nodes.dynamics_client import (DynamicsClient, DynamicsServiceError,
                                               RemoteEffortProvider)
from robodyn_ros.nodes.parallel_dynamics_node import ParallelDynamicsNode
from robodyn_ros.nodes.trajectory_planner_node import PLAN_QOS, TrajectoryPlannerNode
from robodyn_ros.parallel.service import model_fingerprint
from robodyn_ros.planning.efforts import ModelEffortProvider, Payload
from ros_helpers import RosGraph, wait_for
from sensor_msgs.msg import JointState
from std_msgs.msg import String
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint

MODEL = load_robot('puma560')


def _states(count, seed, n=6):
    rng = np.random.default_rng(seed)
    return (rng.uniform(-1, 1, (count, n)), rng.uniform(-1, 1, (count, n)),
            rng.uniform(-2, 2, (count, n)))


def _service(graph, **params):
    overrides = [Parameter('robot', value='puma560')] + [Parameter(k, value=v)
                                                         for k, v in params.items()]
    return graph.add(ParallelDynamicsNode(context=graph.context, parameter_overrides=overrides))


def test_no_service_means_local_at_once():
    """Without a service the provider computes in-process without sending a request."""
    with RosGraph() as graph:
        client = DynamicsClient(graph.context)
        try:
            provider = RemoteEffortProvider(client, MODEL, timeout=5.0)
            q, qd, qdd = _states(20, 0)
            tau = provider(q, qd, qdd)
            # Decided before any request is sent (no wait for the timeout).
            assert provider.last_source == 'local' and 'no parallel_dynamics' in (
                provider.last_reason)
            assert provider.last_round_trip is None
            assert np.allclose(tau, ModelEffortProvider(MODEL)(q, qd, qdd), atol=1e-12)
            with pytest.raises(DynamicsServiceError):
                client.request(MODEL.joint_names, q, qd, qdd)
        finally:
            client.close()
            client.close()


def test_served_subset_payload_and_friction_mismatch():
    """Same model: served and equal; payload or other friction: computed here, with a reason."""
    with RosGraph() as graph:
        _service(graph)
        client = DynamicsClient(graph.context)
        try:
            assert wait_for(client.available, 10.0)
            assert client.info['fingerprint'] == model_fingerprint(MODEL)
            q, qd, qdd = _states(200, 1)
            provider = RemoteEffortProvider(client, MODEL)
            tau = provider(q, qd, qdd)
            assert provider.last_source == 'service', provider.last_reason
            assert provider.last_round_trip > 0.0
            assert np.allclose(tau, ModelEffortProvider(MODEL)(q, qd, qdd), atol=1e-12)
            assert provider(q[0], qd[0], qdd[0]).shape == (6,)
            # Three planned joints, the others held at fixed positions.
            joints = ['joint2', 'joint3', 'joint5']
            fixed = np.linspace(-0.5, 0.5, 6)
            sub = RemoteEffortProvider(client, MODEL, joints).with_fixed_positions(fixed)
            local = ModelEffortProvider(MODEL, joints).with_fixed_positions(fixed)
            out = sub(q[:, :3], qd[:, :3], qdd[:, :3])
            assert sub.last_source == 'service'
            assert np.allclose(out, local(q[:, :3], qd[:, :3], qdd[:, :3]), atol=1e-12)
            heavy = RemoteEffortProvider(client, MODEL, payload=Payload(2.0))
            ref = ModelEffortProvider(MODEL, payload=Payload(2.0))(q, qd, qdd)
            assert np.allclose(heavy(q, qd, qdd), ref, atol=1e-12)
            assert heavy.last_source == 'local' and 'another model' in heavy.last_reason
            rigid = RemoteEffortProvider(client, MODEL, friction=False)
            rigid(q, qd, qdd)
            assert rigid.last_source == 'local' and 'friction' in rigid.last_reason
        finally:
            client.close()


class SilentService:
    """Announces the right model, answers probes (unless deaf), but not requests, or wrongly."""

    def __init__(self, graph, mode):
        self.node = graph.add(Node('silent_service', context=graph.context))
        self.mode = mode
        info = self.node.create_publisher(String, proto.INFO_TOPIC, proto.INFO_QOS)
        info.publish(proto.json_msg({'fingerprint': model_fingerprint(MODEL), 'friction': True,
                                     'robot': MODEL.name}))
        self.out = self.node.create_publisher(JointTrajectory, proto.RESPONSE_TOPIC,
                                              proto.DATA_QOS)
        self.got = []
        self.probes = 0
        self.node.create_subscription(JointTrajectory, proto.REQUEST_TOPIC, self._on_request,
                                      proto.DATA_QOS, raw=True)

    def _on_request(self, data):
        msg = cdr.decode(data)
        if proto.is_probe(msg):
            self.probes += 1
            if self.mode != 'deaf':
                self.out.publish(cdr.encode_error(msg.sec, msg.nanosec, msg.frame_id,
                                                  proto.READY, 'a test answers'))
            return
        self.got.append(data)
        if self.mode == 'error':
            self.out.publish(cdr.encode_error(msg.sec, msg.nanosec, msg.frame_id, 'invalid',
                                              'refused by a test'))
        elif self.mode == 'short':
            self.out.publish(cdr.encode(msg.sec, msg.nanosec, msg.frame_id, msg.joint_names,
                                        effort=np.zeros((1, 6))))
        elif self.mode == 'busy':
            self.out.publish(cdr.encode_error(msg.sec, msg.nanosec, msg.frame_id, 'busy',
                                              'always busy', {'queue_depth': 9}))


@pytest.mark.parametrize('mode', ['silent', 'error', 'short', 'busy'])
def test_timeout_and_errors_fall_back_to_local(mode):
    """No answer in time, an error, a malformed answer or busy for ever: computed here."""
    with RosGraph() as graph:
        service = SilentService(graph, mode)
        client = DynamicsClient(graph.context)
        try:
            assert wait_for(client.available, 10.0)
            provider = RemoteEffortProvider(client, MODEL, timeout=0.3)
            q, qd, qdd = _states(10, 2)
            tau = provider(q, qd, qdd)
            assert provider.last_source == 'local'
            expected = {'silent': 'no answer', 'error': 'refused', 'short': 'points',
                        'busy': 'busy'}[mode]
            assert expected in provider.last_reason
            assert np.allclose(tau, ModelEffortProvider(MODEL)(q, qd, qdd), atol=1e-12)
            if mode == 'busy':     # retried with pauses (5, 10, 20, ... ms) within the timeout
                assert 2 <= len(service.got) <= 7 and client.attempts == len(service.got)
        finally:
            client.close()


def test_a_service_whose_answers_do_not_come_back_is_not_available():
    """Matched both ways here but no probe answered: not available, computed here at once."""
    with RosGraph() as graph:
        service = SilentService(graph, 'deaf')
        client = DynamicsClient(graph.context)
        try:
            assert wait_for(lambda: service.probes >= 3, 10.0)   # it probes, again and again
            assert client.info is not None and not client.available()
            provider = RemoteEffortProvider(client, MODEL, timeout=5.0)
            q, qd, qdd = _states(5, 3)
            start = time.monotonic()
            tau = provider(q, qd, qdd)
            assert time.monotonic() - start < 2.0 and provider.last_source == 'local'
            assert 'no parallel_dynamics' in provider.last_reason and not service.got
            assert np.allclose(tau, ModelEffortProvider(MODEL)(q, qd, qdd), atol=1e-12)
            service.mode = 'silent'                      # answers come back now
            assert wait_for(client.available, 10.0)
        finally:
            client.close()


def test_planner_uses_the_service_when_it_runs():
    """The planner's feed-forward efforts come from the service, equal to in-process ones."""
    names = MODEL.joint_names
    with RosGraph() as graph:
        _service(graph)
        planner = graph.add(TrajectoryPlannerNode(
            context=graph.context, parameter_overrides=[Parameter('robot', value='puma560')]))
        user = graph.add(Node('planner_user_dyn', context=graph.context))
        plans = []
        user.create_subscription(JointTrajectory, 'planned_trajectory', plans.append, PLAN_QOS)
        state = user.create_publisher(JointState, 'joint_states', 10)
        goal = user.create_publisher(JointTrajectory, 'planner/goal', 10)
        assert wait_for(lambda: goal.get_subscription_count() > 0
                        and planner._dyn_client.available(), 10.0)
        state.publish(joint_state_msg(names, user.get_clock().now().to_msg(), np.zeros(6)))
        time.sleep(0.3)
        goal.publish(JointTrajectory(joint_names=names, points=[
            JointTrajectoryPoint(positions=[0.4, -0.3, 0.2, 0.1, 0.3, -0.2])]))
        assert wait_for(lambda: plans, 15.0)
        provider = planner._planner.effort_provider
        assert provider.last_source == 'service', provider.last_reason
        out = trajectory_arrays(plans[-1], names)
        ref = ModelEffortProvider(MODEL)(out['positions'], out['velocities'],
                                         out['accelerations'])
        assert np.allclose(out['effort'], ref, atol=1e-9)
        assert planner.set_parameters([Parameter('use_dynamics_service', value=False)])[
            0].successful
        assert isinstance(planner._planner.effort_provider, ModelEffortProvider)


def test_client_node_keeps_its_own_name_under_a_global_node_remap():
    """A process run as "-r __node:=trajectory_planner" gives no second node of that name."""
    import rclpy
    context = rclpy.context.Context()
    rclpy.init(context=context, args=['--ros-args', '-r', '__node:=trajectory_planner',
                                      '-r', 'dynamics/request:=remapped/request'])
    try:
        client = DynamicsClient(context)
        try:
            assert client._node.get_name().startswith('dynamics_client_')
            # Global topic remaps still apply to the client's topics.
            assert client._pub.topic_name == '/remapped/request'
        finally:
            client.close()
    finally:
        rclpy.try_shutdown(context=context)
