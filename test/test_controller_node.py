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

"""The controller node over a real ROS graph (rclpy, loopback DDS)."""

import gc
import json
import math
import os
import signal
import subprocess
import sys
import time
import weakref

from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus
import numpy as np
import pytest
import rclpy
from rclpy.lifecycle import TransitionCallbackReturn
from rclpy.parameter import Parameter
from rclpy.serialization import serialize_message
from robodyn_ros.control.base import JointReference
from robodyn_ros.control.computed_torque import ComputedTorque
from robodyn_ros.control.payload import SEED003_MEMORY
from robodyn_ros.dynamics import gravity_torques
from robodyn_ros.model import load_robot
from robodyn_ros.nodes.controller_node import ControllerNode, TRAJECTORY_QOS
from robodyn_ros.nodes.conversions import trajectory_msg
from ros_helpers import RosGraph, wait_for
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64, Float64MultiArray
from trajectory_msgs.msg import JointTrajectory

pytestmark = pytest.mark.ros
NAMES = ['joint1', 'joint2', 'joint3']
Q = np.radians([10.0, -70.0, 20.0])


class _Probe:
    """Publishes joint states and trajectories; records commands and diagnostics."""

    def __init__(self, graph, command_topic='joint_commands', command_type=JointState):
        self.node = graph.add(rclpy.create_node('probe', context=graph.context))
        self.commands, self.diags, self.errors, self.masses = [], [], [], []
        self.estimates = []
        # A deep history: under load the executor may fall behind, and a keep-last
        # history that overflows can leave its newest sample unannounced until the
        # next one arrives (seen with the zero of a deactivation).
        self.node.create_subscription(command_type, command_topic, self.commands.append, 1000)
        self.node.create_subscription(DiagnosticArray, 'diagnostics',
                                      lambda m: self.diags.append(m.status[0]), 50)
        self.node.create_subscription(JointState, 'controller/tracking_error',
                                      self.errors.append, 50)
        self.node.create_subscription(Float64, 'controller/payload_estimate',
                                      self.masses.append, 50)
        self.node.create_subscription(Float64MultiArray, 'controller/estimates',
                                      self.estimates.append, 50)
        self.states = self.node.create_publisher(JointState, 'joint_states', 10)
        self.trajectories = self.node.create_publisher(JointTrajectory, 'planned_trajectory',
                                                       TRAJECTORY_QOS)

    def publish_state(self, q, qd=(0.0, 0.0, 0.0), count=1, pause=0.005):
        for _ in range(count):
            self.states.publish(JointState(name=NAMES, position=[float(x) for x in q],
                                           velocity=[float(x) for x in qd]))
            time.sleep(pause)

    def last_zero(self):
        """Tell whether the newest command received is all zeros."""
        return bool(self.commands) and not any(self.commands[-1].effort)

    def quiet(self, span, timeout):
        """Wait until no command has arrived for ``span`` seconds; False after ``timeout``."""
        deadline = time.monotonic() + timeout
        count, since = len(self.commands), time.monotonic()
        while time.monotonic() < deadline:
            time.sleep(0.02)
            if len(self.commands) != count:
                count, since = len(self.commands), time.monotonic()
            elif time.monotonic() - since >= span:
                return True
        return False

    def last_released(self):
        """Tell whether the newest command is a release (the names, no efforts)."""
        return (bool(self.commands) and len(self.commands[-1].effort) == 0
                and list(self.commands[-1].name) == NAMES)

    def last_diag(self, text):
        return wait_for(lambda: any(text in d.message for d in self.diags[-5:]), 5.0)


def _node(graph, **params):
    # A generous state timeout: on a loaded machine the test's publisher may pause for
    # tens of ms; only the staleness test shortens it.
    values = {'robot': 'ma3000', 'rate': 200.0, 'omega': 10.0, 'state_timeout': 2.0,
              **params}
    return graph.add(ControllerNode(context=graph.context, parameter_overrides=[
        Parameter(k, value=v) for k, v in values.items()]))


def test_holds_the_first_position_against_gravity():
    """At rest, computed torque holding the measured pose outputs exactly g(q)."""
    model = load_robot('ma3000')
    with RosGraph() as g:
        node = _node(g)
        probe = _Probe(g)
        probe.publish_state(Q, count=60)
        assert probe.last_diag('running')
        expected = gravity_torques(model, Q)
        assert wait_for(lambda: np.allclose(probe.commands[-1].effort, expected, atol=1e-9),
                        10.0)
        assert list(probe.commands[-1].name) == NAMES
        assert wait_for(lambda: probe.errors, 3.0)
        assert np.allclose(probe.errors[-1].position, 0.0)
        assert list(probe.errors[-1].name) == NAMES and len(probe.errors[-1].velocity) == 0
        assert np.allclose(probe.errors[-1].effort, expected, atol=1e-9)   # the torque sent
        assert node.controller.dynamics.backend in ('codegen', 'numpy')


@pytest.mark.parametrize('loop', ['thread', 'timer'])
def test_a_node_destroyed_while_active_is_collected(loop):
    """An active node's loop freezes the collector; its end gives it back (no leaked context)."""
    with RosGraph() as g:
        node = _node(g, loop=loop)
        probe = _Probe(g)
        probe.publish_state(Q, count=20)
        assert probe.last_diag('running')
        ref, context = weakref.ref(node), weakref.ref(g.context)
    del g, node, probe
    gc.collect()
    assert ref() is None and context() is None
    assert gc.get_freeze_count() == 0


def test_bad_states_stop_the_commands_with_a_release_and_it_recovers():
    """Stale, NaN, corrupt or implausible joint_states: one release, silence, then running."""
    with RosGraph() as g:
        node = _node(g, state_timeout=0.3)
        probe = _Probe(g)
        probe.publish_state(Q, count=40)
        assert probe.last_diag('running')

        def released_and_silent(text, bad):
            assert probe.last_diag(text), text
            assert wait_for(probe.last_released, 10.0), text
            assert any(text in d.message and d.level == DiagnosticStatus.ERROR
                       for d in probe.diags[-5:]), text
            count = len(probe.commands)
            bad()
            time.sleep(0.3)
            assert len(probe.commands) == count, f'{text}: commands after the release'
            probe.publish_state(Q, count=40)
            assert probe.last_diag('running'), text
            assert wait_for(lambda: not probe.last_released(), 10.0), text

        time.sleep(1.0)
        released_and_silent('stale joint_states', lambda: None)
        probe.publish_state([np.nan, Q[1], Q[2]], count=30)
        released_and_silent('invalid state',
                            lambda: probe.publish_state([np.nan, Q[1], Q[2]], count=20))
        good = serialize_message(JointState(name=NAMES, position=[float(x) for x in Q],
                                            velocity=[0.0, 0.0, 0.0]))

        def corrupt(count=30):
            for _ in range(count):
                probe.states.publish(good[:len(good) - 20])
                time.sleep(0.005)

        corrupt()
        released_and_silent('unreadable message', corrupt)
        far = [Q[0], 1e30, Q[2]]
        probe.publish_state(far, count=30)
        released_and_silent('implausible joint_states: joint joint2 position 1e+30',
                            lambda: probe.publish_state(far, count=20))
        fast = [Q[0], Q[1], Q[2]]
        probe.publish_state(fast, qd=(0.0, 500.0, 0.0), count=30)
        released_and_silent('exceeds 1.5 x its limit',
                            lambda: probe.publish_state(fast, qd=(0.0, 500.0, 0.0), count=20))
        assert node.controller is not None


def test_a_jump_or_a_second_publisher_stops_the_commands():
    """A position jump beyond the velocity limit, or two joint_states publishers: release."""
    with RosGraph() as g:
        _node(g)
        probe = _Probe(g)
        probe.publish_state(Q, count=40)
        assert probe.last_diag('running')
        jumped = Q + np.array([0.0, 0.5, 0.0])
        probe.publish_state(jumped, count=10)
        assert probe.last_diag('jumped 0.5')
        assert wait_for(probe.last_released, 10.0)
        probe.publish_state(Q, count=40)          # back where it was: believable again
        assert probe.last_diag('running')
        rogue = g.add(rclpy.create_node('rogue_states', context=g.context))
        pub = rogue.create_publisher(JointState, 'joint_states', 10)
        for _ in range(40):
            probe.publish_state(Q, pause=0.0)
            pub.publish(JointState(name=NAMES, position=[float(x) for x in Q],
                                   velocity=[0.0, 0.0, 0.0]))
            time.sleep(0.005)
        assert probe.last_diag('joint_states from 2 publishers')
        assert wait_for(probe.last_released, 10.0)


def test_resuming_after_a_gap_drops_the_trajectory_and_holds():
    """No chase of a stale reference: after a gap the controller holds where the arm is."""
    model = load_robot('ma3000')
    goal = Q + np.radians([20.0, -10.0, 15.0])
    with RosGraph() as g:
        node = _node(g, state_timeout=0.2)
        probe = _Probe(g)
        probe.publish_state(Q, count=20)
        times = np.linspace(0.0, 4.0, 41)
        path = Q + np.outer(times / 4.0, goal - Q)
        probe.trajectories.publish(trajectory_msg(NAMES, times, path, np.zeros_like(path),
                                                  np.zeros_like(path)))
        probe.publish_state(Q, count=40)
        assert wait_for(lambda: node.cycle.trajectory is not None, 5.0)
        time.sleep(1.0)                           # the states stop: a gap
        probe.publish_state(Q, count=60)
        assert probe.last_diag('re-anchored on the measured position')
        assert node.cycle.trajectory is None
        ct = ComputedTorque(model, 1.0 / 200.0, omega=10.0)
        hold, _ = ct.step(0.0, Q, np.zeros(3), JointReference.hold(Q))
        assert wait_for(lambda: np.allclose(probe.commands[-1].effort, hold, atol=1e-6), 10.0)


def test_follows_a_planned_trajectory():
    """The torque is the law's for the trajectory point (here a held goal)."""
    model = load_robot('ma3000')
    goal = Q + np.radians([2.0, -1.0, 1.5])
    with RosGraph() as g:
        node = _node(g)
        probe = _Probe(g)
        probe.publish_state(Q, count=20)
        msg = trajectory_msg(NAMES, [0.0, 0.1], np.array([goal, goal]), np.zeros((2, 3)),
                             np.zeros((2, 3)))
        probe.trajectories.publish(msg)
        ct = ComputedTorque(model, 1.0 / 200.0, omega=10.0)
        expected, _ = ct.step(0.0, Q, np.zeros(3), JointReference.hold(goal))
        probe.publish_state(Q, count=60)
        assert wait_for(lambda: np.allclose(probe.commands[-1].effort, expected, atol=1e-9),
                        10.0)
        bad = trajectory_msg(NAMES, [0.0, 0.1], np.array([goal, goal * np.nan]))
        probe.trajectories.publish(bad)
        assert probe.last_diag('planned_trajectory rejected')
        probe.publish_state(Q, count=20)
        assert wait_for(lambda: np.allclose(probe.commands[-1].effort, expected, atol=1e-9),
                        10.0)
        assert node.controller is not None


def test_forward_command_output_deactivation_and_reactivation():
    """Float64MultiArray on <effort_controller>/commands; deactivate: gravity hold, silence."""
    with RosGraph() as g:
        node = _node(g, effort_controller='effort_controller', law='computed_torque_lme',
                     initial_mass=0.5)
        probe = _Probe(g, 'effort_controller/commands', Float64MultiArray)
        probe.publish_state(Q, count=40)
        assert wait_for(lambda: probe.commands and any(probe.commands[-1].data), 3.0)
        assert len(probe.commands[-1].data) == 3
        assert wait_for(lambda: probe.masses, 3.0) and probe.masses[-1].data == 0.5
        assert wait_for(lambda: probe.estimates, 3.0)
        est = node.controller.estimates()            # every estimate, labelled, in order
        layout = probe.estimates[-1].layout.dim
        assert [(d.label, d.size, d.stride) for d in layout] == [
            (k, np.size(v), np.size(v)) for k, v in est.items()]
        at = list(est).index('payload_mass')
        assert probe.estimates[-1].data[sum(d.size for d in layout[:at])] == 0.5
        node.trigger_deactivate()
        # The probe's executor may still be taking older commands: wait for the last one,
        # the gravity torque of the measured position (a forward command controller keeps
        # its last command; zero would drop the arm).
        ct = node.controller
        hold = ct.gravity_hold_torque(Q, np.zeros(3))
        assert probe.quiet(0.5, 10.0)
        assert np.allclose(probe.commands[-1].data, hold, atol=1e-9)
        count = len(probe.commands)
        assert probe.last_diag('deactivated')
        assert probe.diags[-1].level == DiagnosticStatus.ERROR
        probe.publish_state(Q, count=20)
        time.sleep(0.3)
        assert len(probe.commands) == count, 'a command followed the deactivation'
        node.trigger_activate()
        probe.publish_state(Q, count=40)
        assert wait_for(lambda: len(probe.commands) > count and any(probe.commands[-1].data),
                        5.0)


def test_unset_law_options_take_the_law_defaults():
    """Without omega, MBVSST runs seed 003's gains; its estimator keeps seed 003's memory."""
    with RosGraph() as g:
        values = {'robot': 'ma3000', 'rate': 200.0, 'law': 'mbvsst', 'autostart': False}
        node = g.add(ControllerNode(context=g.context, parameter_overrides=[
            Parameter(k, value=v) for k, v in values.items()]))
        assert node.trigger_configure() == TransitionCallbackReturn.SUCCESS
        assert node.controller.kp.tolist() == [1600.0] * 3
        assert node.controller.kd.tolist() == [80.0] * 3
        # 0.98 per sample at the thesis's 121 Hz: the same memory at 200 Hz.
        assert node.controller.estimator.rls.forgetting == pytest.approx(
            math.exp(-0.005 / SEED003_MEMORY))
        assert node.controller.estimator.freeze_threshold > 0.0
        assert node.has_parameter('omega') and node.values['omega'] is None


def test_parameters_are_validated():
    """Live gains change after checks; read-only and invalid values are refused."""
    with RosGraph() as g:
        node = _node(g)
        ok = node.set_parameters([Parameter('kp', value=[50.0, 60.0, 70.0])])[0]
        assert ok.successful and node.controller.kp.tolist() == [50.0, 60.0, 70.0]
        for param in (Parameter('kp', value=[1.0, 2.0]), Parameter('kp', value=[-1.0, 1.0, 1.0]),
                      Parameter('law', value='pid'), Parameter('state_timeout', value=-1.0),
                      Parameter('lam', value=[1.0, 1.0, 1.0])):
            assert not node.set_parameters([param])[0].successful, param.name
        assert node.controller.kp.tolist() == [50.0, 60.0, 70.0]
        # A set is all or nothing: a bad ki keeps kp and kd as they were.
        res = node.set_parameters_atomically([Parameter('kp', value=[0.0, 0.0, 0.0]),
                                              Parameter('kd', value=[0.0, 0.0, 0.0]),
                                              Parameter('ki', value=[-1.0, -1.0, -1.0])])
        assert not res.successful and node.controller.kp.tolist() == [50.0, 60.0, 70.0]
        kd = node.controller.kd.tolist()
        # Gains above what the rate allows (200 Hz: w_max = 2 pi 200 / 10 = 125.7 rad/s).
        for param in (Parameter('kp', value=[1e300, 1.0, 1.0]),
                      Parameter('kd', value=[1.0, 4.0 * 125.7 + 1.0, 1.0])):
            res = node.set_parameters([param])[0]
            assert not res.successful and 'the largest a 200 Hz loop allows' in res.reason
        assert node.controller.kp.tolist() == [50.0, 60.0, 70.0]
        assert node.controller.kd.tolist() == kd
        res = node.set_parameters_atomically([Parameter('kp', value=[10.0, 20.0, 30.0]),
                                              Parameter('kd', value=[5.0, 6.0, 7.0])])
        assert res.successful and node.controller.kd.tolist() == [5.0, 6.0, 7.0]


def _run_node(args, timeout=60):
    env = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env['PYTHONPATH'] = root + os.pathsep + env.get('PYTHONPATH', '')
    return subprocess.Popen([sys.executable, '-m', 'robodyn_ros.nodes.controller_node',
                             '--ros-args'] + args, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_node_process_runs_and_exits_cleanly(tmp_path):
    """As a process: silent without a state, commands with one, a timing log; bad law: exit 1."""
    log = tmp_path / 'timing.json'
    proc = _run_node(['-p', 'robot:=ma3000', '-p', 'rate:=100.0', '-p', f'timing_log:={log}',
                      '-p', 'rt_priority:=20'])
    try:
        with RosGraph() as g:
            probe = _Probe(g)
            time.sleep(3.0)
            assert not probe.commands        # no state: nothing to command
            # With a live state stream it commands (a release after a stall of the stream on a
            # loaded machine is allowed, as long as the commands come back with the states).
            for _ in range(400):
                probe.publish_state(Q, pause=0.01)
                if len(probe.commands) > 5 and not probe.last_released():
                    break
            assert len(probe.commands) > 5 and not probe.last_released()
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    # The loop thread takes its priority (or says why not), the other threads ten below.
    assert 'loop thread: SCHED_FIFO priority 20' in out + err, out + err
    assert 'SCHED_FIFO priority 10' in out + err, out + err
    stats = json.loads(log.read_text())
    assert stats['cycles'] > 5 and stats['rate_hz'] == 100.0
    bad = _run_node(['-p', 'robot:=ma3000', '-p', 'law:=fuzzy', '-p', 'autostart:=true'])
    out, err = bad.communicate(timeout=30)
    assert bad.returncode == 1 and 'law' in err


def test_process_configured_by_service_from_the_description_topic():
    """Configure through the service while the model comes from robot_description."""
    from lifecycle_msgs.srv import ChangeState
    from rclpy.node import Node
    from robodyn_ros.nodes.model_source import DESCRIPTION_QOS
    from std_msgs.msg import String
    proc = subprocess.Popen([sys.executable, '-m', 'robodyn_ros.nodes.controller_node',
                             '--ros-args', '-r', '__node:=ctl_description_test', '-p', "robot:=''",
                             '-p', 'autostart:=false'], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=dict(os.environ))
    try:
        with RosGraph() as graph:
            node = graph.add(Node('description_source', context=graph.context))
            pub = node.create_publisher(String, 'robot_description', DESCRIPTION_QOS)
            pub.publish(String(data=load_robot('ma3000').to_urdf()))
            client = node.create_client(ChangeState, 'ctl_description_test/change_state')
            assert client.wait_for_service(timeout_sec=60.0)
            req = ChangeState.Request()
            req.transition.id = 1  # configure
            future = client.call_async(req)
            assert wait_for(future.done, timeout=60.0)
            assert future.result().success
    finally:
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=30)
    assert 'configured' in out, out
