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

"""The hardware_interface lifecycle node with a real simulated board (pty and UDP)."""

import math
import os
import signal
import subprocess
import sys
import threading
import time

from board_helpers import ACTUATORS, sim_board, wait_until
from diagnostic_msgs.msg import DiagnosticArray
from lifecycle_msgs.msg import Transition
from lifecycle_msgs.srv import ChangeState, GetState
import numpy as np
import pytest
from rclpy.lifecycle import TransitionCallbackReturn
from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.serialization import serialize_message
from robodyn_ros.nodes.hardware_interface_node import HardwareInterfaceNode
from robodyn_ros.nodes.params import ParameterValidationError
from ros_helpers import RosGraph
from sensor_msgs.msg import JointState
from std_srvs.srv import Trigger

SUCCESS = TransitionCallbackReturn.SUCCESS
FAILURE = TransitionCallbackReturn.FAILURE
ERROR = TransitionCallbackReturn.ERROR


def _params(board, **extra):
    # A watchdog period a loaded test machine does not trip by itself.
    values = {'robot': 'ma3000', 'robot_params': ACTUATORS, 'watchdog_period': 0.2,
              'connect_timeout': 2.0, 'command_timeout': 0.5}
    values.update(board.node_parameters() if board is not None else {})
    values.update(extra)
    return [Parameter(k, value=v) for k, v in values.items()]


class Client:
    """A test node: joint_states and diagnostics in, joint_commands out."""

    def __init__(self, graph, name='hw_test_client'):
        self.node = graph.add(Node(name, context=graph.context))
        self.states = []
        self.diagnostics = []
        self.node.create_subscription(JointState, 'joint_states', self.states.append, 10)
        self.node.create_subscription(
            DiagnosticArray, 'diagnostics',
            lambda msg: self.diagnostics.extend(msg.status), 10)
        self.pub = self.node.create_publisher(JointState, 'joint_commands', 1)

    def command(self, names, effort):
        self.pub.publish(JointState(name=list(names), effort=[float(e) for e in effort]))

    def diagnosed(self, text, level=None):
        return any(text in s.message and (level is None or s.level == level)
                   for s in list(self.diagnostics))


class Feeder:
    """Publishes one command every 5 ms from a thread of its own, until stopped."""

    def __init__(self, client, names, effort):
        self.client, self.names, self.effort = client, names, effort
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.stop.is_set():
            self.client.command(self.names, self.effort)
            time.sleep(0.005)

    def close(self):
        self.stop.set()
        self.thread.join()


@pytest.mark.parametrize('transport', ['pty', 'udp'])
def test_lifecycle_topics_and_safety(transport):
    """Armed with brakes, a stream claims, bad and foreign commands refused, hold, stop, reset."""
    with sim_board('--q0', '0', '-1.2', '0.3', transport=transport) as board, \
            RosGraph() as graph:
        node = graph.add(HardwareInterfaceNode(context=graph.context, parameter_overrides=(
            _params(board, hold_time=1.0))))
        client = Client(graph)
        # The second publisher of the test is made now: creating a node in this process
        # while the board streams once held the interface's I/O thread past the board's
        # watchdog in a long test session (a test artefact: a rogue is another process).
        rogue = Client(graph, name='hw_test_rogue')
        assert node.trigger_configure() == SUCCESS
        assert wait_until(lambda: len(client.states) > 20, 10.0)
        msg = client.states[-1]
        assert list(msg.name) == ['joint1', 'joint2', 'joint3']
        truth = board.status()['q']
        assert np.allclose(msg.position, truth, atol=1e-3)
        assert not board.status()['enabled']
        assert node.trigger_activate() == SUCCESS
        time.sleep(0.3)                            # armed: brakes on, no stream yet
        assert not board.status()['enabled']
        # Parameter sets are all or nothing; timeouts cannot be raised while active.
        res = node.set_parameters_atomically([Parameter('hold_time', value=0.9),
                                              Parameter('friction_scale', value=9.0)])
        assert not res.successful and node._hw.settings.hold_time == 1.0
        res = node.set_parameters_atomically([Parameter('hold_time', value=0.9),
                                              Parameter('command_timeout', value=0.45)])
        assert res.successful and node._hw.settings.hold_time == 0.9
        res = node.set_parameters_atomically([Parameter('hold_time', value=0.8),
                                              Parameter('command_timeout', value=0.5)])
        assert not res.successful and 'command_timeout' in res.reason
        assert node._hw.settings.hold_time == 0.9 and node._values['hold_time'] == 0.9
        res = node.set_parameters([Parameter('hold_time', value=2.0)])[0]
        assert not res.successful and 'cannot be raised while active' in res.reason
        assert node._hw.settings.hold_time == 0.9 and node.get_parameter('hold_time').value == 0.9
        kt = node._hw.driver.axes.torque_per_amp
        feeder = Feeder(client, ['joint3', 'joint1', 'joint2'], [0.4, 0.0, 0.0])
        try:
            assert wait_until(lambda: board.status()['enabled'], 10.0)
            assert wait_until(lambda: board.status()['command'][2] == pytest.approx(
                0.4 / kt[2], rel=1e-3), 10.0)
            # Invalid commands (from the same publisher) are refused and named; the valid
            # stream is applied throughout.
            good = serialize_message(JointState(name=['joint1', 'joint2', 'joint3'],
                                                effort=[0.3, 0.3, 0.3]))
            bad = [(lambda: client.command(['joint1', 'joint2', 'joint3'], [0.0, math.nan, 0.0]),
                    'not finite'),
                   (lambda: client.command(['joint1', 'joint9'], [0.0, 0.0]),
                    'lacks joints joint2, joint3'),
                   (lambda: client.command(['joint1', 'joint2', 'joint3', 'joint9'], [0.0] * 4),
                    'unknown joints joint9'),
                   (lambda: client.command(['joint1', 'joint1', 'joint3'], [0.0, 0.0, 0.0]),
                    'duplicate joint name'),
                   (lambda: client.command(['joint1', 'joint2', 'joint3'], [1e30, 0.0, 0.0]),
                    'exceeds the effort limit'),
                   (lambda: client.pub.publish(good[:len(good) - 12]), 'unreadable message')]
            for send, text in bad:
                rejected = node._hw.commands.rejected
                # The feeder shares this keep-last-1 publisher at 200 Hz: a single bad
                # message can be replaced before delivery, so it goes until it is heard.
                assert wait_until(lambda: send() or node._hw.commands.rejected > rejected,
                                  10.0, period=0.05), text
                assert wait_until(lambda: client.diagnosed(text, level=b'\x02'), 10.0), text
                assert board.status()['command'][2] == pytest.approx(0.4 / kt[2], rel=1e-3)
            assert board.status()['command'][2] == pytest.approx(0.4 / kt[2], rel=1e-3)
            # A second publisher is refused and does not displace the first.
            sent = 0
            while node._hw.commands.foreign < 40 and sent < 2000:   # about 10 s
                rogue.command(['joint1', 'joint2', 'joint3'], [0.0, 0.0, -0.4])
                sent += 1
                time.sleep(0.005)
                assert board.status()['command'][2] == pytest.approx(0.4 / kt[2], rel=1e-3), (
                    sent, node._hw.drive_state.value, node._hw.reaction.history)
            assert node._hw.commands.foreign >= 40, sent   # every one heard was refused
            assert wait_until(lambda: client.diagnosed('second source', level=b'\x02'), 10.0)
            assert board.status()['command'][2] == pytest.approx(0.4 / kt[2], rel=1e-3)
            assert 'hw_test_client' in node._hw.commands.owner
        finally:
            feeder.close()
        # The stream stops: hold (outputs on), then brakes and outputs off after hold_time.
        history = node._hw.reaction.history
        assert wait_until(lambda: node._hw.drive_state.value == 'holding', 5.0), history
        assert board.status()['enabled']
        assert wait_until(lambda: node._hw.drive_state.value == 'stopped', 5.0), history
        assert wait_until(lambda: not board.status()['enabled'], 5.0)
        reset = client.node.create_client(Trigger, 'hardware_interface/reset_fault')
        assert reset.wait_for_service(timeout_sec=10.0)
        future = reset.call_async(Trigger.Request())
        assert wait_until(future.done, 10.0) and future.result().success
        assert 'armed' in future.result().message and node._hw.drive_state.value == 'armed'
        assert wait_until(lambda: client.diagnosed('drive stopped -> armed: reset'), 5.0), [
            s.message for s in client.diagnostics[-10:]]
        assert node.trigger_deactivate() == SUCCESS
        assert not board.status()['enabled']
        assert node.trigger_cleanup() == SUCCESS
        assert node._hw is None
        wait_until(lambda: False, 0.3)  # what was in flight arrives
        count = len(client.states)
        wait_until(lambda: False, 0.3)
        assert len(client.states) == count  # publishing stopped


class BlockingWriter:
    """The joint_states writer with every write held up, as a blocked middleware write."""

    def __init__(self, writer, seconds):
        self.writer, self.seconds = writer, seconds
        self.calls = 0

    def publish(self, data):
        self.calls += 1
        time.sleep(self.seconds)        # without the GIL, as GilFreePublisher's write
        return self.writer.publish(data)


def test_a_blocked_joint_states_write_does_not_stop_the_cycle():
    """Writes blocked for 0.4 s (3x the watchdog) leave the board's cycle and the stream on."""
    with sim_board(transport='udp') as board, RosGraph() as graph:
        node = graph.add(HardwareInterfaceNode(context=graph.context, parameter_overrides=(
            _params(board, watchdog_period=0.12, command_timeout=0.1))))
        client = Client(graph)
        assert node.trigger_configure() == SUCCESS
        assert node.trigger_activate() == SUCCESS
        feeder = Feeder(client, ['joint1', 'joint2', 'joint3'], [0.0, 0.0, 0.0])
        try:
            assert wait_until(lambda: board.status()['enabled'], 10.0)
            real = node._state_writer
            node._state_writer = blocked = BlockingWriter(real, 0.4)
            before = board.status()['board_time_us']
            enabled = []
            while board.status()['board_time_us'] - before < 1.5e6:
                st = board.status()
                enabled.append(st['enabled'] and not st['faults'])
                time.sleep(0.02)
            assert blocked.calls >= 3
            assert all(enabled), node._hw.reaction.history
            assert node._hw.drive_state.value == 'running', node._hw.reaction.history
            node._state_writer = real
            count = len(client.states)
            assert wait_until(lambda: len(client.states) > count + 50, 10.0)
        finally:
            feeder.close()


def test_configure_and_activate_failures_and_error_processing(tmp_path):
    """Absent board and persistent faults fail the transition; a lost disable is an error."""
    with RosGraph() as graph:
        node = graph.add(HardwareInterfaceNode(
            context=graph.context, parameter_overrides=_params(
                None, transport='serial', device=str(tmp_path / 'no_board'))))
        assert node.trigger_configure() == FAILURE
        assert node._hw is None
        assert node._diag.level == b'\x02' and 'configure failed' in node._diag.message
    with sim_board() as board, RosGraph() as graph:
        node = graph.add(HardwareInterfaceNode(context=graph.context,
                                               parameter_overrides=_params(board)))
        assert node.trigger_configure() == SUCCESS
        board.inject('over_current', axis=1)
        assert wait_until(lambda: getattr(node._hw.driver.last_sample, 'faults', 0), 5.0)
        assert node.trigger_activate() == FAILURE
        assert not board.status()['enabled']
        board.clear('over_current')
        assert node.trigger_activate() == SUCCESS
        board.inject('drop', direction='rx')
        # the disable request cannot arrive: ErrorProcessing, outputs off, unconfigured
        assert node.trigger_deactivate() == ERROR
        assert node._hw is None
        assert node._state_machine.current_state[1] == 'unconfigured'
        board.clear('drop')
        assert not board.status()['enabled']  # the board's watchdog switched off
        assert node.trigger_configure() == SUCCESS


def test_model_from_the_robot_description_topic():
    """With robot empty, configure waits for the latched robot_description."""
    from robodyn_ros.model import load_robot
    from robodyn_ros.nodes.model_source import DESCRIPTION_QOS
    from std_msgs.msg import String
    with sim_board() as board, RosGraph() as graph:
        pub_node = graph.add(Node('description_source', context=graph.context))
        pub = pub_node.create_publisher(String, 'robot_description', DESCRIPTION_QOS)
        pub.publish(String(data=load_robot('ma3000', params=ACTUATORS).to_urdf()))
        node = graph.add(HardwareInterfaceNode(
            context=graph.context, parameter_overrides=_params(board, robot='')))
        assert node.trigger_configure() == SUCCESS
        assert node._names == ('joint1', 'joint2', 'joint3')
        assert node.trigger_cleanup() == SUCCESS


def test_parameters_are_validated():
    """Bad start-up values stop the node; run-time changes are checked and applied."""
    with RosGraph() as graph:
        with pytest.raises(ParameterValidationError, match='transport'):
            HardwareInterfaceNode(context=graph.context,
                                  parameter_overrides=[Parameter('transport', value='can')])
        with pytest.raises(ParameterValidationError, match='transmission_efficiency'):
            HardwareInterfaceNode(context=graph.context, parameter_overrides=[
                Parameter('transmission_efficiency', value=[0.9, -1.0])])
        node = graph.add(HardwareInterfaceNode(context=graph.context))
        assert not node.set_parameters([Parameter('friction_scale', value=2.0)])[0].successful
        assert not node.set_parameters([Parameter('port', value=6000)])[0].successful
        assert node.set_parameters([Parameter('friction_band', value=0.05)])[0].successful
        assert node.describe_parameter('watchdog_period').read_only


def test_node_process_over_lifecycle_services():
    """The console entry point as a process: services drive it, SIGINT leaves outputs off."""
    with sim_board('--q0', '0', '-1.2', '0.3') as board:
        args = []
        for p in _params(board):
            args += ['-p', f'{p.name}:={p.value}']
        # A node name of its own: lifecycle services of nodes destroyed earlier in this
        # process can linger in DDS discovery until their context is collected.
        proc = subprocess.Popen([sys.executable, '-m',
                                 'robodyn_ros.nodes.hardware_interface_node', '--ros-args',
                                 '-r', '__node:=hw_process_test', *args],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                env=dict(os.environ))
        try:
            with RosGraph() as graph:
                client = Client(graph)
                change = client.node.create_client(ChangeState, 'hw_process_test/change_state')
                get = client.node.create_client(GetState, 'hw_process_test/get_state')
                assert change.wait_for_service(timeout_sec=20.0)

                def transition(tid):
                    future = change.call_async(ChangeState.Request(
                        transition=Transition(id=tid)))
                    assert wait_until(future.done, 20.0)
                    return future.result().success

                assert transition(Transition.TRANSITION_CONFIGURE)
                assert wait_until(lambda: len(client.states) > 10, 10.0)
                assert transition(Transition.TRANSITION_ACTIVATE)
                feeder = Feeder(client, ['joint1', 'joint2', 'joint3'], [0.0, 0.0, 0.0])
                try:
                    assert wait_until(lambda: board.status()['enabled'], 10.0)
                finally:
                    feeder.close()
                future = get.call_async(GetState.Request())
                assert wait_until(future.done, 10.0)
                assert future.result().current_state.label == 'active'
            proc.send_signal(signal.SIGINT)
            proc.wait(20.0)
            assert not board.status()['enabled']
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(5.0)
            print(proc.stdout.read())
            proc.stdout.close()
