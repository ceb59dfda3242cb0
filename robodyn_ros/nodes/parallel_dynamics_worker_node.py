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
The ``parallel_dynamics_worker`` node: computes chunks of requests for ``parallel_dynamics``.

Announces itself on ``dynamics/workers`` every 0.5 s (JSON: node name,
robot, model fingerprint, joints), takes chunks on ``~/chunk_request``
(packed trajectory_msgs/JointTrajectory, read as serialized bytes, see
:mod:`.dynamics_cdr`) and answers on ``dynamics/chunk_response`` with the
same header and the efforts (or an error with no points). Several workers
may run, in any process and on any host of the DDS domain; the service uses
those whose model fingerprint equals its own.
"""

from diagnostic_msgs.msg import DiagnosticStatus
import numpy as np
from rclpy.callback_groups import ReentrantCallbackGroup
from rclpy.node import Node
from std_msgs.msg import String
from trajectory_msgs.msg import JointTrajectory

from . import dynamics_cdr as cdr
from . import dynamics_protocol as proto
from .diagnostics import Diagnostics, ERROR, OK
from .model_source import load_model, model_parameters
from .params import declare, ParamSpec
from .runner import run_node
from ..errors import RobodynError
from ..parallel.batch import parallel_inverse_dynamics
from ..parallel.service import model_fingerprint
from ..ros_env import use_large_data_transport


def parameter_specs():
    """
    Parameters of the worker.

    Returns
    -------
    list of ParamSpec
        Model source and threads.

    """
    return model_parameters() + [
        ParamSpec('threads', 1, 'Threads that split each chunk', low=1, high=64, read_only=True),
    ]


class ParallelDynamicsWorker(Node):
    """
    Compute chunks of inverse-dynamics requests.

    Parameters
    ----------
    **kwargs
        Passed to ``rclpy.node.Node``.

    """

    def __init__(self, **kwargs):
        super().__init__('parallel_dynamics_worker', **kwargs)
        self._values = declare(self, parameter_specs())
        self._model = load_model(self, self._values)
        self._fingerprint = model_fingerprint(self._model)
        self._chunks = 0
        self._errors = 0
        group = ReentrantCallbackGroup()
        self._diag = Diagnostics(self, hardware_id=self._model.name, period=5.0)
        self._pub = self.create_publisher(JointTrajectory, proto.CHUNK_RESPONSE_TOPIC,
                                          proto.DATA_QOS)
        self._beat = self.create_publisher(String, proto.WORKERS_TOPIC, 10)
        self.create_subscription(JointTrajectory, f'~/{proto.CHUNK_REQUEST_SUFFIX}',
                                 self._on_chunk, proto.DATA_QOS, callback_group=group, raw=True)
        self._warm_up()
        self.create_timer(proto.HEARTBEAT_PERIOD, self._heartbeat, callback_group=group)
        self._heartbeat()
        self._diag.update(OK, 'ready', {'robot': self._model.name})
        self.get_logger().info(f'worker for {self._model.name!r} ready')

    def _warm_up(self):
        """Compute one state with and without friction before announcing (kernels loaded)."""
        zero = np.zeros((1, self._model.n))
        try:
            for friction in (True, False):
                parallel_inverse_dynamics(self._model, zero, zero, zero,
                                          threads=self._values['threads'], friction=friction)
        except RobodynError as exc:     # the first chunk will say it, with its request id
            self.get_logger().warning(f'warm-up computation failed: {exc}')

    def _heartbeat(self):
        # ``replies``: readers matched by the response writer; a node uses this worker
        # only once its answers can reach it.
        self._beat.publish(proto.json_msg({
            'node': self.get_fully_qualified_name(), 'robot': self._model.name,
            'fingerprint': self._fingerprint, 'joints': list(self._model.joint_names),
            'threads': int(self._values['threads']),
            'replies': int(self._pub.get_subscription_count())}))

    def _on_chunk(self, data):
        try:
            sec, nanosec, frame_id, _ = cdr.read_header(data)
        except ValueError as exc:
            self._refuse(f'unreadable chunk ignored: {exc}')
            return
        try:
            _, _, friction = proto.parse_chunk_id(frame_id)
            msg = cdr.decode(data)
            if proto.is_probe(msg):     # the node checks the path: answered, not counted
                self._pub.publish(proto.ready_answer(sec, nanosec, frame_id))
                return
            if msg.is_error:
                raise ValueError('no points')
            q, qd, qdd, order = proto.request_states(msg, self._model.joint_names)
            tau = parallel_inverse_dynamics(self._model, q, qd, qdd,
                                            threads=self._values['threads'], friction=friction)
        except (RobodynError, ValueError) as exc:
            self._refuse(f'chunk {frame_id!r} refused: {exc}')
            self._pub.publish(cdr.encode_error(sec, nanosec, frame_id, 'invalid', str(exc)))
            return
        self._chunks += 1
        self._pub.publish(cdr.encode(sec, nanosec, frame_id, msg.joint_names,
                                     effort=tau[:, order]))
        if self._diag.level != DiagnosticStatus.OK:
            self._diag.update(OK, 'ready', {'chunks': self._chunks, 'errors': self._errors})

    def _refuse(self, text):
        self._errors += 1
        self.get_logger().warning(text)
        self._diag.update(ERROR, text, {'chunks': self._chunks, 'errors': self._errors})


def main(args=None):
    """
    Run a parallel_dynamics_worker node.

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
    return run_node(ParallelDynamicsWorker, args, threads=2)


if __name__ == '__main__':
    import sys
    sys.exit(main())
