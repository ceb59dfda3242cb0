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
from robodyn_ros.nodes import dynamics_cdr as cdr
from robodyn_ros.nodes import dynamics_protocol as proto
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
                                 lambda m: replies.__setitem__(cdr.decode(m).frame_id,
                                                               cdr.decode(m)),
                                 proto.DATA_QOS, raw=True)
        pub = user.create_publisher(JointTrajectory,
                                    f'{worker.get_fully_qualified_name()}/chunk_request',
                                    proto.DATA_QOS)
        assert wait_for(lambda: beats and pub.get_subscription_count() > 0, 10.0)
        info = proto.parse_json(beats[-1])
        assert info['fingerprint'] == model_fingerprint(MODEL)
        assert info['node'] == '/parallel_dynamics_worker' and info['joints'] == MODEL.joint_names
        probe = proto.worker_probe_id('/a_node')
        pub.publish(cdr.encode_probe(1, 2, probe))      # answered 'ready', not an error
        assert wait_for(lambda: probe in replies, 10.0)
        assert proto.parse_error(replies[probe])[0] == proto.READY
        assert proto.probed_worker(proto.parse_chunk_id(probe)[0]) == '/a_node'
        assert worker._errors == 0 and worker._chunks == 0
        rng = np.random.default_rng(0)
        q = np.array([MODEL.random_configuration(rng) for _ in range(50)])
        qd, qdd = rng.normal(size=q.shape), rng.normal(size=q.shape)
        names = list(MODEL.joint_names)
        for k, friction in enumerate((True, False)):
            key = proto.chunk_id('tok', 3 + k, friction)
            pub.publish(cdr.encode(1, 2, key, names, q, qd, qdd))
            assert wait_for(lambda: key in replies, 10.0)
            out = replies[key].effort
            ref = inverse_dynamics(MODEL, q, qd, qdd, friction=friction)
            assert np.allclose(out, ref, atol=1e-12 * np.abs(ref).max())
        nan = q.copy()
        nan[7, 2] = float('nan')
        bad = [cdr.encode(1, 2, 'not a chunk id', names, q, qd, qdd),
               cdr.encode(1, 2, proto.chunk_id('tok', 5, True), names, nan, qd, qdd),
               cdr.encode(1, 2, proto.chunk_id('tok', 6, True), names[:3], q[:, :3])]
        for data in bad:
            pub.publish(data)
            key = cdr.read_header(data)[2]
            assert wait_for(lambda: key in replies, 10.0)
            assert replies[key].is_error and proto.parse_error(replies[key])[0] == 'invalid'
