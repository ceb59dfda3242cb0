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

"""The parallel_dynamics_worker node: heartbeats, chunks, refusals."""

import numpy as np
from rclpy.node import Node
from rclpy.parameter import Parameter
from robodyn_ros.dynamics import inverse_dynamics
from robodyn_ros.model import load_robot
from robodyn_ros.nodes import dynamics_protocol as proto
from robodyn_ros.nodes.conversions import trajectory_arrays
from robodyn_ros.nodes.parallel_dynamics_worker_node import ParallelDynamicsWorker
from robodyn_ros.parallel.service import model_fingerprint
from ros_helpers import RosGraph, wait_for
from std_msgs.msg import String
from trajectory_msgs.msg import JointTrajectory

MODEL = load_robot('stanford')


def test_heartbeat_chunks_and_refusals():
    """Announces its model; answers chunks exactly (friction flag honoured); refuses bad ones."""
    with RosGraph() as graph:
        worker = graph.add(ParallelDynamicsWorker(
            context=graph.context, parameter_overrides=[Parameter('robot', value='stanford'),
                                                        Parameter('threads', value=2)]))
        user = graph.add(Node('chunk_user', context=graph.context))
        beats, replies = [], {}
        user.create_subscription(String, proto.WORKERS_TOPIC, beats.append, 10)
        user.create_subscription(JointTrajectory, proto.CHUNK_RESPONSE_TOPIC,
                                 lambda m: replies.__setitem__(m.header.frame_id, m),
                                 proto.DATA_QOS)
        pub = user.create_publisher(JointTrajectory,
                                    f'{worker.get_fully_qualified_name()}/chunk_request',
                                    proto.DATA_QOS)
        assert wait_for(lambda: beats and pub.get_subscription_count() > 0, 10.0)
        info = proto.parse_json(beats[-1])
        assert info['fingerprint'] == model_fingerprint(MODEL)
        assert info['node'] == '/parallel_dynamics_worker' and info['joints'] == MODEL.joint_names
        rng = np.random.default_rng(0)
        q = np.array([MODEL.random_configuration(rng) for _ in range(50)])
        qd, qdd = rng.normal(size=q.shape), rng.normal(size=q.shape)
        stamp = user.get_clock().now().to_msg()
        for friction in (True, False):
            msg = proto.chunk_request('tok', 3, friction, stamp, MODEL.joint_names, q, qd, qdd)
            pub.publish(msg)
            key = msg.header.frame_id
            assert wait_for(lambda: key in replies, 10.0)
            out = trajectory_arrays(replies[key], MODEL.joint_names)['effort']
            ref = inverse_dynamics(MODEL, q, qd, qdd, friction=friction)
            assert np.allclose(out, ref, atol=1e-12 * np.abs(ref).max())
        bad_id = proto.chunk_request('tok', 4, True, stamp, MODEL.joint_names, q, qd, qdd)
        bad_id.header.frame_id = 'not a chunk id'
        nan = proto.chunk_request('tok', 5, True, stamp, MODEL.joint_names, q, qd, qdd)
        nan.points[7].positions[2] = float('nan')
        for msg in (bad_id, nan):
            pub.publish(msg)
            key = msg.header.frame_id
            assert wait_for(lambda: key in replies, 10.0)
            assert proto.is_error(replies[key])
