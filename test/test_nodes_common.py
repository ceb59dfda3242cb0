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


"""Shared node infrastructure: parameters, model source, diagnostics, conversions (real rclpy)."""

from diagnostic_msgs.msg import DiagnosticArray
import numpy as np
import pytest
from rclpy.node import Node
from rclpy.parameter import Parameter
from robodyn_ros.model import load_robot
from robodyn_ros.nodes import conversions
from robodyn_ros.nodes.diagnostics import Diagnostics, ERROR
from robodyn_ros.nodes.model_source import DESCRIPTION_QOS, load_model, model_parameters
from robodyn_ros.nodes.params import declare, ParameterValidationError, ParamSpec
from ros_helpers import RosGraph, wait_for

from std_msgs.msg import String

SPECS = [
    ParamSpec('kp', 100.0, 'Proportional gain [1/s^2]', low=0.0, high=1e4),
    ParamSpec('law', 'computed_torque', 'Control law', choices=('pid', 'computed_torque')),
    ParamSpec('joints', None, 'Joint names', kind=Parameter.Type.STRING_ARRAY, read_only=True),
    ParamSpec('rate', 1000, 'Loop rate [Hz]', low=1, high=10000,
              check=lambda v: None if v % 10 == 0 else 'rate must be a multiple of 10 Hz'),
]


def test_declare_validates_initial_and_runtime_values():
    """Descriptors carry ranges; invalid run-time changes are refused with a reason."""
    with RosGraph() as graph:
        node = graph.add(Node('params_test', context=graph.context))
        changes = []
        values = declare(node, SPECS, on_change=lambda n, v: changes.append((n, v)))
        assert values == {'kp': 100.0, 'law': 'computed_torque', 'joints': None, 'rate': 1000}
        desc = node.describe_parameter('kp')
        assert desc.floating_point_range[0].to_value == 1e4 and 'gain' in desc.description
        assert node.describe_parameter('joints').read_only
        bad = node.set_parameters([Parameter('law', value='magic')])[0]
        assert not bad.successful and 'one of' in bad.reason
        bad = node.set_parameters([Parameter('rate', value=1005)])[0]
        assert not bad.successful and 'multiple of 10' in bad.reason
        bad = node.set_parameters([Parameter('kp', value=-1.0)])[0]
        assert not bad.successful
        ok = node.set_parameters([Parameter('kp', value=400.0)])[0]
        assert ok.successful and changes == [('kp', 400.0)]


def test_invalid_initial_value_is_reported():
    """A bad override at start-up raises ParameterValidationError naming the parameter."""
    with RosGraph() as graph:
        node = graph.add(Node('params_bad', context=graph.context,
                              parameter_overrides=[Parameter('law', value='magic')]))
        with pytest.raises(ParameterValidationError, match='law must be one of'):
            declare(node, SPECS)


def test_model_from_parameter_and_from_topic():
    """The model comes from the robot parameter, or from the latched robot_description topic."""
    ur5 = load_robot('ur5')
    with RosGraph() as graph:
        node = graph.add(Node('model_param', context=graph.context,
                              parameter_overrides=[Parameter('robot', value='ur5')]))
        values = declare(node, model_parameters())
        assert load_model(node, values).joint_names == ur5.joint_names
    with RosGraph() as graph:
        pub_node = graph.add(Node('description_pub', context=graph.context))
        pub = pub_node.create_publisher(String, 'robot_description', DESCRIPTION_QOS)
        pub.publish(String(data=ur5.to_urdf()))
        node = Node('model_topic', context=graph.context)
        values = declare(node, model_parameters())
        model = load_model(node, values, timeout=10.0)
        assert model.joint_names == ur5.joint_names
        node.destroy_node()


def test_model_timeout_is_clear():
    """Without any model source the node gives up with a message naming the topic."""
    with RosGraph() as graph:
        node = Node('model_none', context=graph.context)
        values = declare(node, model_parameters())
        with pytest.raises(TimeoutError, match='robot_description'):
            load_model(node, values, timeout=0.3)
        node.destroy_node()


def test_diagnostics_published():
    """Status changes are published on diagnostics."""
    with RosGraph() as graph:
        node = graph.add(Node('diag_test', context=graph.context))
        got = []
        node.create_subscription(DiagnosticArray, 'diagnostics', got.append, 10)
        diag = Diagnostics(node, hardware_id='arm', period=0.0)
        wait_for(lambda: node.count_subscribers('diagnostics') > 0, 5.0)
        diag.update(ERROR, 'stale joint_states', {'age_s': 0.5})
        assert wait_for(lambda: any(m.status[0].message == 'stale joint_states' for m in got))
        last = [m for m in got if m.status[0].message == 'stale joint_states'][-1].status[0]
        assert last.level == ERROR and last.values[0].key == 'age_s'


def test_trajectory_conversions():
    """Trajectory messages are reordered by joint name; missing joints and NaN are refused."""
    times = np.array([0.0, 0.5, 1.25])
    q = np.arange(6.0).reshape(3, 2)
    traj = conversions.trajectory_msg(['a', 'b'], times, q, qd=q * 0.1)
    out = conversions.trajectory_arrays(traj, ['b', 'a'])
    assert np.allclose(out['times'], times) and np.allclose(out['positions'], q[:, ::-1])
    assert out['accelerations'] is None
    traj.points[1].positions[0] = float('nan')
    with pytest.raises(ValueError, match='point 1: positions of joint a is nan'):
        conversions.trajectory_arrays(traj)
    assert conversions.to_seconds(conversions.to_duration(2.9999999999)) == pytest.approx(3.0)
