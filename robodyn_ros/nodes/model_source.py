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
Where a node gets its robot model: a library name or file, a parameter, or a topic.

Parameters (declared by :func:`model_parameters`):

* ``robot``: library name (``puma560``, ...), example robot (``ur5``) or a
  URDF/xacro path; empty to use ``robot_description``;
* ``robot_params``: YAML with actuator, friction and limit data;
* ``robot_description``: URDF text (as robot_state_publisher takes it); if it
  is empty too, the node waits for the latched ``robot_description`` topic.
"""

import threading
import time

from rclpy.callback_groups import ReentrantCallbackGroup
from rclpy.executors import SingleThreadedExecutor
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from std_msgs.msg import String

from .params import ParamSpec
from ..model import load_robot, RobotModel

#: QoS of the latched robot_description topic (as robot_state_publisher).
DESCRIPTION_QOS = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                             reliability=ReliabilityPolicy.RELIABLE)


def model_parameters(default_robot=''):
    """
    Parameter specs of the model source.

    Parameters
    ----------
    default_robot : str
        Default for ``robot``.

    Returns
    -------
    list of ParamSpec
        ``robot``, ``robot_params`` and ``robot_description``.

    """
    return [
        ParamSpec('robot', default_robot, 'Library robot name, example robot or URDF/xacro '
                  'path; empty to use robot_description', read_only=True),
        ParamSpec('robot_params', '', 'YAML file with actuator, friction and limit data '
                  'merged onto the model by joint name (optional)', read_only=True),
        ParamSpec('robot_description', '', 'URDF text; used when robot is empty (empty: '
                  'wait for the robot_description topic)', read_only=True),
    ]


def load_model(node, values, timeout=10.0):
    """
    Load the node's model from its parameters, or wait for ``robot_description``.

    Parameters
    ----------
    node : rclpy.node.Node
        The node (used to subscribe when waiting for the topic).
    values : dict
        Parameter values (from :func:`robodyn_ros.nodes.params.declare`).
    timeout : float
        How long to wait for the topic [s].

    Returns
    -------
    RobotModel
        The model.

    Raises
    ------
    ModelError, UnknownRobotError
        If the description is invalid.
    TimeoutError
        If no model source is set and no description arrives in time.

    """
    params = values.get('robot_params') or None
    if values.get('robot'):
        return load_robot(values['robot'], params=params)
    if values.get('robot_description'):
        return RobotModel.from_urdf(values['robot_description'], params=params)
    got = {}
    event = threading.Event()

    def callback(msg):
        got['xml'] = msg.data
        event.set()

    group = ReentrantCallbackGroup()
    sub = node.create_subscription(String, 'robot_description', callback, DESCRIPTION_QOS,
                                   callback_group=group)
    try:
        if node.executor is not None:
            # Already spinning (e.g. a lifecycle transition): let the executor deliver.
            event.wait(timeout)
        else:
            executor = SingleThreadedExecutor(context=node.context)
            executor.add_node(node)
            try:
                deadline = time.monotonic() + timeout
                while not event.is_set() and time.monotonic() < deadline:
                    executor.spin_once(timeout_sec=0.05)
            finally:
                executor.remove_node(node)
                executor.shutdown()
    finally:
        node.destroy_subscription(sub)
    if not event.is_set():
        raise TimeoutError(f'no robot model: parameters robot and robot_description are empty '
                           f'and nothing arrived on {node.resolve_topic_name("robot_description")}'
                           f' within {timeout:g} s')
    return RobotModel.from_urdf(got['xml'], params=params)
