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
A control law's status topics: tracking error, payload estimate, every estimate.

Shared by the ``controller`` node and the one-process ``control_loop``:
``~/tracking_error`` (sensor_msgs/JointState: position = ``q_ref - q``,
effort = the torque), ``~/payload_estimate`` (std_msgs/Float64, laws with
load estimation) and ``~/estimates`` (std_msgs/Float64MultiArray, every
estimate, labelled), as lifecycle publishers of the node. The messages are
written serialized from templates (:mod:`.joint_state_cdr`).
"""

import numpy as np
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64, Float64MultiArray

from .conversions import joint_state_msg
from .gil_free_publisher import GilFreePublisher
from .joint_state_cdr import encode_float64, Float64ArrayEncoder, JointStateEncoder


class LawStatus:
    """
    The three status publishers of a control law.

    Parameters
    ----------
    node : rclpy.lifecycle.Node
        The owning node (publishers are created on it).
    joint_names : sequence of str
        Joint order of the error and torque.

    """

    def __init__(self, node, joint_names):
        self.node = node
        self.joint_names = list(joint_names)
        self.error = node.create_lifecycle_publisher(JointState, '~/tracking_error', 10)
        self.mass = node.create_lifecycle_publisher(Float64, '~/payload_estimate', 10)
        self.estimates = node.create_lifecycle_publisher(Float64MultiArray, '~/estimates', 10)
        self.publishers = [self.error, self.mass, self.estimates]
        # The writes run without the GIL: a blocked one stops only the publishing thread.
        self._error, self._mass, self._estimates = (GilFreePublisher(p) for p in self.publishers)
        self._error_enc = JointStateEncoder(self.joint_names, fields=('position', 'effort'))
        self._estimates_enc = None

    def publish(self, controller, status, tau, stamp):
        """
        Publish one status.

        Parameters
        ----------
        controller : Controller
            The law (its estimates).
        status : ControlStatus
            The step's status (its tracking error).
        tau : numpy.ndarray
            The torque sent (n,) [N m or N].
        stamp : builtin_interfaces.msg.Time
            Header stamp.

        """
        n = len(self.joint_names)
        error = status.error
        if error is not None and error.size == controller.n:
            if error.size == n and np.size(tau) == n:     # serialized from a template
                stamp_ns = stamp.sec * 1_000_000_000 + stamp.nanosec
                self._error.publish(self._error_enc.encode(stamp_ns, error, tau))
            else:
                self._error.publish(joint_state_msg(self.joint_names, stamp,
                                                    position=error, effort=tau))
        est = controller.estimates()
        if not est:
            return
        if 'payload_mass' in est:
            self._mass.publish(encode_float64(float(est['payload_mass'])))
        arrays = [np.ravel(np.asarray(value, dtype=float)) for value in est.values()]
        layout = tuple(zip(est, (a.size for a in arrays)))
        enc = self._estimates_enc
        if enc is None or enc.layout != layout:
            enc = self._estimates_enc = Float64ArrayEncoder(sum(a.size for a in arrays), layout)
        self._estimates.publish(enc.encode(np.concatenate(arrays) if arrays else ()))

    def destroy(self):
        """Destroy the publishers."""
        for pub in self.publishers:
            self.node.destroy_lifecycle_publisher(pub)
        self.publishers = []
