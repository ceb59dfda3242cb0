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
The one-process ``control_loop`` node on a real simulated board.

Its cycle against the two-node graph's controller on the same recorded
states (the same torques, every law), a law switched while the arm is
held (the interface's hold covers the switch; the board's true joints show
the drift), and ``board_mode`` impedance: a short run against the current
mode's, and the values and combinations it refuses.
"""

import time

from board_helpers import sim_board, wait_until
from diagnostic_msgs.msg import DiagnosticArray
import numpy as np
import pytest
from rclpy.lifecycle import TransitionCallbackReturn
from rclpy.node import Node
from rclpy.parameter import Parameter
from robodyn_ros.control.factory import LAWS
from robodyn_ros.control.reference import ReferenceSampler
from robodyn_ros.demo.truth import TruthSampler
from robodyn_ros.model import load_robot
from robodyn_ros.nodes.control_loop_node import ControlLoopNode
from robodyn_ros.nodes.controller_node import ControllerNode
from robodyn_ros.planning.point_to_point import point_to_point
from ros_helpers import RosGraph
from sensor_msgs.msg import JointState

pytestmark = pytest.mark.ros
SUCCESS = TransitionCallbackReturn.SUCCESS
ROBOT = 'puma560'
#: Parameters both nodes take alike (a generous state timeout: nothing here is stale).
COMMON = {'robot': ROBOT, 'state_timeout': 1.0, 'model_friction': False}


def _loop(graph, board, **extra):
    values = {**COMMON, **board.node_parameters(), 'watchdog_period': 0.2, 'autostart': False,
              'connect_timeout': 5.0, **extra}
    return graph.add(ControlLoopNode(context=graph.context, parameter_overrides=[
        Parameter(k, value=v) for k, v in values.items()]))


def _recorded_states(model, count, period):
    """States along a motion with measurement noise, and the motion as a reference."""
    q0 = np.array([0.0, -0.6, 0.6, 0.0, 0.3, 0.0])
    traj = point_to_point(q0, q0 + 0.4, 'quintic', duration=count * period,
                          joint_names=model.joint_names)
    t, q, qd, qdd = traj.dense(period)
    rng = np.random.default_rng(7)
    meas_q = q + rng.normal(0.0, 2e-4, q.shape)
    meas_qd = qd + rng.normal(0.0, 2e-3, qd.shape)
    return ReferenceSampler(t, q, qd, qdd), meas_q, meas_qd


def _torques(cycle, sampler, q, qd, period):
    cycle.set_trajectory(sampler, 100.0)
    out = []
    for k in range(len(q)):
        now = 50.0 + k * period
        cycle.take_state(q[k], qd[k], now)
        res = cycle.run(now, 100.0 + k * period)
        out.append(np.full(len(q[k]), np.nan) if res.torque is None else res.torque.copy())
    return np.array(out)


def test_loop_cycle_gives_the_controller_node_torques_for_every_law():
    """The same parameters and states: the loop's cycle and the controller's agree exactly."""
    model = load_robot(ROBOT)
    with sim_board('--rate', '1000', robot=ROBOT, params=None, transport='udp') as board, \
            RosGraph() as graph:
        period = 1e-3
        sampler, q, qd = _recorded_states(model, 400, period)
        for law in LAWS:
            loop = _loop(graph, board, law=law)
            assert loop.trigger_configure() == SUCCESS, law
            ctl = graph.add(ControllerNode(context=graph.context, parameter_overrides=[
                Parameter(k, value=v) for k, v in {**COMMON, 'law': law, 'rate': 1000.0,
                                                   'autostart': False}.items()]))
            assert ctl.trigger_configure() == SUCCESS, law
            assert type(loop.controller) is type(ctl.controller)
            a = _torques(loop.cycle, sampler, q, qd, period)
            b = _torques(ctl.cycle, sampler, q, qd, period)
            assert np.isfinite(a).all(), law
            assert np.array_equal(a, b), (law, np.max(np.abs(a - b)))
            loop.trigger_cleanup()
            ctl.trigger_cleanup()


def test_law_switch_is_covered_by_the_hold():
    """Switching laws while holding the arm: release, hold, new claim, no drift, no fault."""
    with sim_board('--rate', '1000', '--control-port', '0', robot=ROBOT, params=None,
                   transport='udp') as board, RosGraph() as graph:
        loop = _loop(graph, board, law='computed_torque')
        diags = []
        probe = graph.add(Node('switch_probe', context=graph.context))
        probe.create_subscription(DiagnosticArray, 'diagnostics',
                                  lambda m: diags.extend(s.message for s in m.status), 100)
        truth = TruthSampler(board.control_port, period=0.005)
        truth.start()
        try:
            assert loop.trigger_configure() == SUCCESS
            assert loop.trigger_activate() == SUCCESS
            assert wait_until(lambda: loop._hw.drive_state.value == 'running', 10.0)
            time.sleep(1.0)    # settled on the held pose
            transitions = []
            for law in ('mbvsst', 'pid', 'computed_torque_lme', 'computed_torque'):
                count = len(diags)
                t0 = time.time()
                result = loop.set_parameters([Parameter('law', value=law)])[0]
                assert result.successful, result.reason
                assert wait_until(lambda: any('a new command stream took the released claim'
                                              in m for m in diags[count:]), 10.0), law
                time.sleep(0.8)
                seen = diags[count:]
                transitions.append(seen)
                assert any('released by its source' in m for m in seen), (law, seen)
                assert loop._hw.drive_state.value == 'running'
                assert type(loop.controller).law == law
                win = truth.window(t0 - 0.1)
                assert win['enabled'].all()
                drift = np.degrees(np.max(np.abs(win['q'] - win['q'][0]), axis=0))
                assert drift.max() < 0.2, (law, drift)
            refused = loop.set_parameters([Parameter('law', value='no_such_law')])[0]
            assert not refused.successful and 'no_such_law' in refused.reason
            assert type(loop.controller).law == 'computed_torque'
            assert loop.trigger_deactivate() == SUCCESS
        finally:
            truth.stop()


def _there_and_back(q0, seconds, amplitude):
    """Give a raised-cosine excursion that starts and ends at rest at ``q0``."""
    t = np.arange(0.0, seconds + 1e-9, 1e-3)
    w = 2.0 * np.pi / seconds
    shape = 0.5 * (1.0 - np.cos(w * t))
    q = q0 + amplitude * shape[:, None]
    qd = amplitude * (0.5 * w * np.sin(w * t))[:, None]
    qdd = amplitude * (0.5 * w * w * np.cos(w * t))[:, None]
    return ReferenceSampler(t, q, qd, qdd)


def _tracking_run(loop, board, errors, seconds=3.0):
    """
    Activate, follow a slow excursion from where the arm is, return the largest error [rad].

    The law's reference runs on the host's clock and the simulated plant on
    the board's, which can fall behind when the machine is loaded: the error
    then grows with the speed. The excursion is slow (0.16 rad/s at most)
    so that this stays small beside what the test compares.
    """
    assert loop.trigger_activate() == SUCCESS
    assert wait_until(lambda: loop._hw.drive_state.value == 'running', 10.0)
    time.sleep(0.5)
    q0 = np.array(board.request(cmd='state')['q'])
    start = time.time() + 0.3
    loop.cycle.set_trajectory(_there_and_back(q0, seconds, np.array(
        [0.15, -0.12, 0.15, 0.0, 0.15, 0.0])), start)
    time.sleep(0.3)
    errors.clear()
    time.sleep(seconds + 0.2)
    window = [e for t, e in list(errors) if start <= t <= start + seconds]
    assert loop._hw.drive_state.value == 'running', loop._hw.reaction.cause
    assert loop.trigger_deactivate() == SUCCESS
    assert len(window) > 20
    return np.abs(np.array(window)).max(axis=0)


def test_board_mode_impedance_tracks_like_current_mode():
    """The split form of MBVSST on the board's inner PD: it tracks as the current mode does."""
    with sim_board('--rate', '1000', '--inner-rate', '2000', robot=ROBOT, params=None,
                   transport='udp', timeout=60.0) as board, RosGraph() as graph:
        loop = _loop(graph, board, law='mbvsst', status_decimation=5)
        errors = []
        probe = graph.add(Node('error_probe', context=graph.context))
        probe.create_subscription(JointState, '/control_loop/tracking_error',
                                  lambda m: errors.append((time.time(), list(m.position))), 100)
        assert loop.trigger_configure() == SUCCESS
        current = _tracking_run(loop, board, errors)
        result = loop.set_parameters([Parameter('board_mode', value='impedance')])[0]
        assert result.successful, result.reason
        assert loop.cycle.split and loop._hw.settings.board_mode == 'impedance'
        impedance = _tracking_run(loop, board, errors)
        print(f'max error [deg] current {np.degrees(current)}, impedance '
              f'{np.degrees(impedance)}')
        assert board.status()['mode'] == 'current'     # outputs off: the command forgotten
        # Both errors are a steady lag along the excursion's speed (largest at its peak speed,
        # the sign following the speed's, no growth over the run). The split form's is larger:
        # it scales each joint's PD by its own inertia only and takes the model terms on the
        # reference (ct_split). Measured on a quiet 2-core machine, 2026-11-27, 5 runs: 1.8 to
        # 3.7 times the current mode's per joint (0.4-0.7 deg against 1.0-1.6 deg); the old
        # bound of twice plus 0.5 deg failed 1 of 4 runs there. A board that does not close
        # the position loop (its kp times zero) gave 3.6-6.8 deg on joints 1-3 and 5.
        assert np.all(impedance <= 3.0 * current + np.radians(0.5)), (current, impedance)


def test_bad_board_mode_is_refused_with_a_clear_message():
    """Unknown mode, a change while active, and a law without a split form are refused."""
    with sim_board('--rate', '1000', robot=ROBOT, params=None, transport='udp') as board, \
            RosGraph() as graph:
        loop = _loop(graph, board, law='pid')
        refused = loop.set_parameters([Parameter('board_mode', value='torque')])[0]
        assert not refused.successful
        assert "board_mode must be one of current, impedance, got 'torque'" in refused.reason
        assert loop.trigger_configure() == SUCCESS
        refused = loop.set_parameters([Parameter('board_mode', value='impedance')])[0]
        assert not refused.successful and "'pid' has no split form" in refused.reason
        assert 'computed_torque, computed_torque_lme or mbvsst' in refused.reason
        assert loop._hw.settings.board_mode == 'current' and not loop.cycle.split
        ok = loop.set_parameters([Parameter('law', value='computed_torque'),
                                  Parameter('board_mode', value='impedance')])
        assert all(r.successful for r in ok), [r.reason for r in ok]
        assert loop.cycle.split and type(loop.controller).law == 'computed_torque'
        refused = loop.set_parameters([Parameter('law', value='sliding_mode')])[0]
        assert not refused.successful and "'sliding_mode' has no split form" in refused.reason
        assert loop.trigger_activate() == SUCCESS
        refused = loop.set_parameters([Parameter('board_mode', value='current')])[0]
        assert not refused.successful and 'cannot change while active' in refused.reason
        assert loop.trigger_deactivate() == SUCCESS


def test_planned_trajectory_is_read_from_its_bytes():
    """A dense plan reaches the cycle with its stamp as start; a plan with NaN is refused."""
    from builtin_interfaces.msg import Duration, Time
    from robodyn_ros.nodes.controller_node import TRAJECTORY_QOS
    from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint
    model = load_robot(ROBOT)
    with sim_board('--rate', '1000', robot=ROBOT, params=None, transport='udp') as board, \
            RosGraph() as graph:
        loop = _loop(graph, board, law='computed_torque')
        assert loop.trigger_configure() == SUCCESS
        pub = graph.add(Node('plan_source', context=graph.context)).create_publisher(
            JointTrajectory, 'planned_trajectory', TRAJECTORY_QOS)

        def plan(bad=False):
            msg = JointTrajectory(joint_names=list(reversed(model.joint_names)))
            msg.header.stamp = Time(sec=1000, nanosec=500000000)
            for k in range(300):
                q = [0.01 * k + j for j in range(6)]
                if bad and k == 7:
                    q[2] = float('nan')
                msg.points.append(JointTrajectoryPoint(
                    positions=q, velocities=[1.0] * 6, accelerations=[0.0] * 6,
                    time_from_start=Duration(sec=0, nanosec=10000000 * k)))
            return msg

        pub.publish(plan())
        assert wait_until(lambda: loop.cycle.trajectory is not None, 10.0)
        assert loop.cycle.trajectory_start == pytest.approx(1000.5)
        ref = loop.cycle.trajectory.reference(0.5)
        assert np.allclose(ref.q, [0.5 + j for j in reversed(range(6))])   # model order
        first = loop.cycle.trajectory
        pub.publish(plan(bad=True))
        time.sleep(1.0)
        assert loop.cycle.trajectory is first
