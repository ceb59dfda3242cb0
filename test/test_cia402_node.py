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
The ``hardware_interface`` node's ``cia402`` backend: parameters and configure failures.

The whole graph on simulated drives runs in ``test_demo_cia402.py``; here
the node refuses bad parameters at start-up, and a configure without
drives, or on ``udp_multicast`` outside an isolated namespace, fails with
the reason in its diagnostics and leaves the node unconfigured.
"""

import socket

import pytest
from rclpy.exceptions import InvalidParameterValueException
from rclpy.lifecycle import TransitionCallbackReturn
from rclpy.parameter import Parameter
from robodyn_ros.nodes.hardware_interface_node import HardwareInterfaceNode
from robodyn_ros.nodes.params import ParameterValidationError
from ros_helpers import RosGraph

FAILURE = TransitionCallbackReturn.FAILURE


@pytest.mark.parametrize('name, value', [('backend', 'canopen'), ('node_ids', [1, 1, 2]),
                                         ('node_ids', [0, 1]), ('can_interface', 'pcan'),
                                         ('bitrate', 5)])
def test_bad_cia402_parameters_stop_the_node(name, value):
    """Each bad value is refused at start-up, naming the parameter."""
    with RosGraph() as graph:
        with pytest.raises((ParameterValidationError, InvalidParameterValueException),
                           match=name):
            HardwareInterfaceNode(context=graph.context,
                                  parameter_overrides=[Parameter(name, value=value)])


def _node(graph, **params):
    values = {'robot': 'puma560', 'backend': 'cia402', 'can_interface': 'virtual',
              'can_channel': 'cia402_node_test', 'connect_timeout': 0.3, **params}
    return graph.add(HardwareInterfaceNode(
        context=graph.context, parameter_overrides=[Parameter(k, value=v)
                                                    for k, v in values.items()]))


def test_configure_without_drives_fails_naming_the_drive():
    """No drive answers: configure fails with the node id, joint and the hint."""
    with RosGraph() as graph:
        node = _node(graph)
        assert node.trigger_configure() == FAILURE
        assert node._hw is None
        assert 'configure failed' in node._diag.message
        assert "drive node 1 (joint 'joint1') does not answer" in node._diag.message
        assert node.describe_parameter('backend').read_only


def test_wrong_number_of_node_ids_fails_configure():
    """Node ids for another robot: refused at configure (the model decides the count)."""
    with RosGraph() as graph:
        node = _node(graph, node_ids=[1, 2, 3])
        assert node.trigger_configure() == FAILURE
        assert 'one node id per joint (6)' in node._diag.message


def test_udp_multicast_outside_a_namespace_fails_configure():
    """CAN over UDP never on the machine's interfaces: the reason is in the diagnostics."""
    if sorted(n for _, n in socket.if_nameindex()) == ['lo']:
        pytest.skip('running inside an isolated namespace already')
    with RosGraph() as graph:
        node = _node(graph, can_interface='udp_multicast', can_channel='')
        assert node.trigger_configure() == FAILURE
        assert 'network namespace' in node._diag.message
