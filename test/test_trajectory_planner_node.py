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

"""The trajectory_planner node with real rclpy: goals, plans, refusals, stop, parameters."""

import os
import signal
import subprocess
import sys
import threading
import time

from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus
import numpy as np
import pytest
from rclpy.node import Node
from rclpy.parameter import Parameter
from robodyn_ros.model import load_robot
from robodyn_ros.nodes.conversions import joint_state_msg, to_duration, trajectory_arrays
from robodyn_ros.nodes.params import ParameterValidationError
from robodyn_ros.nodes.trajectory_planner_node import PLAN_QOS, TrajectoryPlannerNode
from robodyn_ros.planning.efforts import ModelEffortProvider
from ros_helpers import RosGraph, wait_for
from sensor_msgs.msg import JointState
from std_srvs.srv import Trigger
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint

NAMES = [f'joint{i}' for i in range(1, 7)]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class User:
    """A test node that feeds joint_states and goals and records plans and diagnostics."""

    def __init__(self, graph, name='planner_user'):
        self.node = graph.add(Node(name, context=graph.context))
        self.plans = []
        self.diags = []
        self.node.create_subscription(JointTrajectory, 'planned_trajectory', self.plans.append,
                                      PLAN_QOS)
        self.node.create_subscription(DiagnosticArray, 'diagnostics', self.diags.append, 10)
        self.state = self.node.create_publisher(JointState, 'joint_states', 10)
        self.goal = self.node.create_publisher(JointTrajectory, 'planner/goal', 10)
        self.stop = self.node.create_client(Trigger, 'planner/stop')

    def connect(self):
        assert wait_for(lambda: self.state.get_subscription_count() > 0
                        and self.goal.get_subscription_count() > 0, 10.0)

    def publish_state(self, q, names=NAMES):
        self.state.publish(joint_state_msg(names, self.node.get_clock().now().to_msg(), q))

    def send(self, points, names=NAMES, times=None):
        msg = JointTrajectory(joint_names=list(names))
        for k, p in enumerate(points):
            pt = JointTrajectoryPoint(positions=[float(v) for v in p])
            if times is not None:
                pt.time_from_start = to_duration(times[k])
            msg.points.append(pt)
        self.goal.publish(msg)

    def call_stop(self):
        assert self.stop.wait_for_service(5.0)
        future = self.stop.call_async(Trigger.Request())
        assert wait_for(future.done, 10.0)
        return future.result()

    def last_status(self):
        return self.diags[-1].status[0] if self.diags else None

    def status_contains(self, text):
        status = self.last_status()
        return status is not None and text in (status.message or '')


def _node(graph, **params):
    overrides = [Parameter('robot', value='puma560')] + [Parameter(k, value=v)
                                                         for k, v in params.items()]
    return graph.add(TrajectoryPlannerNode(context=graph.context,
                                           parameter_overrides=overrides))


def test_goal_in_plan_out():
    """A goal (joints in any order, no times) gives a dense plan with efforts, reaching it."""
    with RosGraph() as graph:
        _node(graph)
        user = User(graph)
        user.connect()
        start = np.array([0.1, -0.3, 0.4, 0.0, 0.2, -0.1])
        user.publish_state(start)
        goal1 = np.array([0.3, -0.5, 0.6, 0.2, 0.4, 0.1])
        goal2 = np.array([0.5, -0.2, 0.3, -0.2, 0.1, 0.3])
        assert wait_for(lambda: user.diags, 5.0)
        time.sleep(0.2)
        user.send([goal1[::-1], goal2[::-1]], names=NAMES[::-1])
        assert wait_for(lambda: user.plans, 10.0)
        msg = user.plans[-1]
        out = trajectory_arrays(msg, NAMES)
        assert list(msg.joint_names) == NAMES
        assert np.allclose(out['positions'][0], start) and np.allclose(out['positions'][-1],
                                                                       goal2)
        assert np.allclose(out['velocities'][[0, -1]], 0.0, atol=1e-9)
        assert out['accelerations'].shape == out['effort'].shape == out['positions'].shape
        assert np.all(np.diff(out['times']) > 0) and np.max(np.diff(out['times'])) <= 0.01 + 1e-9
        model = load_robot('puma560')
        assert np.all(np.abs(out['velocities']) <= model.velocity_limits * (1 + 1e-6))
        assert np.all(np.abs(out['effort']) <= model.effort_limits)
        assert msg.header.stamp.sec > 0
        assert wait_for(lambda: user.status_contains('goal accepted'), 5.0)
        keys = {kv.key for kv in user.last_status().values}
        assert {'torque_ratio_after', 'duration_s', 'time_parameterization'} <= keys
        # The goal was acknowledged before its plan (how a client tells a lost goal).
        messages = [d.status[0].message for d in user.diags]
        heard = messages.index('planning a goal of 2 waypoints')
        assert any('goal accepted' in m for m in messages[heard:])


def test_time_parameterization_parameter():
    """The optimal timing gives a shorter plan than the uniform one, within every limit."""
    start = np.array([0.1, -0.3, 0.4, 0.0, 0.2, -0.1])
    goals = [np.array([0.6, -0.7, 0.9, 0.5, 0.6, 0.3]), np.array([0.9, -0.2, 0.3, -0.4, 0.1, 0.5])]
    durations = {}
    model = load_robot('puma560')
    for mode in ('uniform', 'optimal'):
        with RosGraph() as graph:
            node = _node(graph, time_parameterization=mode, use_dynamics_service=False)
            user = User(graph)
            user.connect()
            user.publish_state(start)
            assert wait_for(lambda: user.diags, 5.0)
            time.sleep(0.2)
            user.send(goals)
            assert wait_for(lambda: user.plans, 20.0)
            out = trajectory_arrays(user.plans[-1], NAMES)
            durations[mode] = out['times'][-1]
            assert np.allclose(out['positions'][-1], goals[-1], atol=1e-9)
            assert np.all(np.abs(out['velocities']) <= model.velocity_limits * (1 + 1e-6))
            assert np.all(np.abs(out['effort']) <= model.effort_limits * (1 + 1e-6))
            assert not node.set_parameters([Parameter('time_parameterization', value='fast')])[
                0].successful
    assert durations['optimal'] < durations['uniform']


def test_bad_goals_are_rejected_and_the_plan_stays():
    """Out-of-range, NaN, unknown joints, bad times, empty goals: refused; old plan kept."""
    with RosGraph() as graph:
        _node(graph)
        user = User(graph)
        user.connect()
        user.publish_state(np.zeros(6))
        assert wait_for(lambda: user.diags, 5.0)
        time.sleep(0.3)
        user.send([[0.2, -0.2, 0.3, 0.1, 0.1, 0.1]])
        assert wait_for(lambda: len(user.plans) == 1, 10.0)
        good = user.plans[0]
        bad_goals = [
            ([[9.0, 0, 0, 0, 0, 0]], NAMES, None, "joint 'joint1': goal position 9"),
            ([[0.1, 0, np.nan, 0, 0, 0]], NAMES, None, 'positions of joint joint3 is nan'),
            ([[0.1] * 6], NAMES[:5] + ['elbow'], None, 'lacks joints joint6'),
            ([[0.1] * 6, [0.2] * 6], NAMES, [2.0, 1.0], 'strictly increasing'),
            ([], NAMES, None, 'no points'),
        ]
        for points, names, times, reason in bad_goals:
            user.send(points, names, times)
            assert wait_for(lambda: user.status_contains(reason), 5.0), reason
            status = user.last_status()
            assert status.level == DiagnosticStatus.WARN
            assert 'goal rejected' in status.message
        time.sleep(0.3)
        assert len(user.plans) == 1
        late = User(graph, 'late_user')
        assert wait_for(lambda: late.plans, 5.0)
        assert late.plans[-1].points[-1].positions == good.points[-1].positions


def test_no_state_yet_is_refused():
    """Without joint_states and without a plan the start is unknown: the goal is refused."""
    with RosGraph() as graph:
        _node(graph)
        user = User(graph)
        user.connect()
        time.sleep(0.2)
        user.send([[0.1] * 6])
        assert wait_for(lambda: user.last_status() is not None
                        and 'no joint_states' in user.last_status().message, 5.0)
        assert not user.plans
        assert user.call_stop().success is False


def test_stop_while_moving():
    """planner/stop brakes from the planned state in force to rest; at rest it holds."""
    with RosGraph() as graph:
        _node(graph)
        user = User(graph)
        user.connect()
        user.publish_state(np.zeros(6))
        time.sleep(0.3)
        user.send([[0.4, -0.4, 0.5, 0.3, 0.3, 0.3]], times=[6.0])
        assert wait_for(lambda: len(user.plans) == 1, 10.0)
        time.sleep(1.5)
        res = user.call_stop()
        assert res.success and res.message.startswith('stopping within')
        assert wait_for(lambda: len(user.plans) == 2, 5.0)
        out = trajectory_arrays(user.plans[-1], NAMES)
        assert np.max(np.abs(out['velocities'][0])) > 0.01
        assert np.allclose(out['velocities'][-1], 0.0, atol=1e-9)
        limits = load_robot('puma560').acceleration_limits
        assert np.all(np.abs(out['accelerations']) <= limits * (1 + 1e-9))
        first = trajectory_arrays(user.plans[0], NAMES)
        assert not np.allclose(out['positions'][-1], first['positions'][-1])
        time.sleep(out['times'][-1] + 0.2)
        res = user.call_stop()
        assert res.success and 'holding' in res.message


class SlowProvider(ModelEffortProvider):
    """The model's efforts, each call taking ``delay`` seconds (and saying when it runs)."""

    delay = 1.0

    def __call__(self, q, qd, qdd):
        self.running.set()
        time.sleep(self.delay)
        self.running.clear()
        return super().__call__(q, qd, qdd)


def _slow(node):
    provider = SlowProvider(load_robot('puma560'))
    provider.running = threading.Event()
    provider.local = ModelEffortProvider(load_robot('puma560'))   # as RemoteEffortProvider
    node._planner = node._planner.with_effort_provider(provider)
    return provider


def test_stop_is_answered_while_planning_and_cancels_it():
    """A stop during a (slow) planning is answered at once; that plan is never published."""
    with RosGraph() as graph:
        node = _node(graph, use_dynamics_service=False)
        user = User(graph)
        user.connect()
        user.publish_state(np.zeros(6))
        time.sleep(0.3)
        user.send([[0.3, -0.2, 0.3, 0.1, 0.1, 0.1]], times=[4.0])
        assert wait_for(lambda: len(user.plans) == 1, 10.0)
        provider = _slow(node)
        user.send([[0.5, -0.4, 0.5, 0.2, 0.2, 0.2]])
        assert wait_for(provider.running.is_set, 10.0) and node.planning
        res = user.call_stop()
        busy = provider.running.is_set()               # the planner was still in its call
        assert res.success and res.message.startswith('stopping within') and busy
        assert wait_for(lambda: len(user.plans) == 2, 5.0)
        assert wait_for(lambda: not node.planning, 10.0)
        time.sleep(0.3)
        assert len(user.plans) == 2                    # the cancelled goal never came out
        stop = trajectory_arrays(user.plans[-1], NAMES)
        assert np.allclose(stop['velocities'][-1], 0.0, atol=1e-9)
        assert not np.allclose(stop['positions'][-1], [0.5, -0.4, 0.5, 0.2, 0.2, 0.2])


def test_newer_goal_replaces_the_one_being_planned():
    """A goal arriving while another is planned: the older is dropped, the newer published."""
    with RosGraph() as graph:
        node = _node(graph, use_dynamics_service=False)
        user = User(graph)
        user.connect()
        user.publish_state(np.zeros(6))
        time.sleep(0.3)
        provider = _slow(node)
        SlowProvider.delay = 0.5
        try:
            user.send([[0.5, -0.4, 0.5, 0.2, 0.2, 0.2]])
            assert wait_for(provider.running.is_set, 10.0)
            newer = [0.2, 0.1, 0.0, 0.0, 0.0, 0.0]
            user.send([newer])
            assert wait_for(lambda: user.plans, 15.0)
            assert wait_for(lambda: not node.planning, 10.0)
        finally:
            SlowProvider.delay = 1.0
        assert len(user.plans) == 1
        assert np.allclose(trajectory_arrays(user.plans[0], NAMES)['positions'][-1], newer)


def test_large_goals_are_bounded():
    """Over max_waypoints: refused unread; over max_duration: refused; 10,000 waypoints planned."""
    with RosGraph() as graph:
        node = _node(graph, use_dynamics_service=False, max_duration=300.0)
        user = User(graph)
        user.connect()
        user.publish_state(np.zeros(6))
        time.sleep(0.3)
        assert node.set_parameters([Parameter('max_waypoints', value=50)])[0].successful
        user.send(np.full((60, 6), 0.1))
        assert wait_for(lambda: user.status_contains('max_waypoints = 50 (not read)'), 5.0)
        user.send([[0.1] * 6], times=[1e5])
        assert wait_for(lambda: user.status_contains('max_duration = 300 s'), 5.0)
        assert not user.plans and not node.planning
        assert node.set_parameters([Parameter('max_waypoints', value=10_000)])[0].successful
        s = np.linspace(0.0, 1.0, 10_000)[:, None]
        path = 0.3 * np.sin(2 * np.pi * s * np.array([1.0, 0.5, 1.5, 1.0, 0.5, 2.0]))
        user.send(path)
        assert wait_for(lambda: user.plans or user.status_contains('would last'), 120.0)
        assert user.plans, user.last_status().message   # this one is planned...
        out = trajectory_arrays(user.plans[-1], NAMES)
        assert np.allclose(out['positions'][-1], path[-1], atol=1e-9)
        assert out['times'][-1] <= 300.0 and len(out['times']) <= 300.0 / 0.01 + 2
        assert np.allclose(out['positions'][0], 0.0)      # ... from the measured state


def test_parameters_are_declared_and_validated():
    """Descriptors exist; invalid values are refused; a valid profile change takes effect."""
    with RosGraph() as graph:
        node = _node(graph, max_velocity=[1.0])
        assert node.describe_parameter('profile').additional_constraints.startswith('one of')
        assert node.describe_parameter('joints').read_only
        assert node.describe_parameter('sample_period').floating_point_range[0].to_value == 1.0
        refused = [Parameter('profile', value='magic'),
                   Parameter('max_acceleration', value=[1.0, -2.0, 1.0, 1.0, 1.0, 1.0]),
                   Parameter('max_jerk', value=[1.0, 2.0]),
                   Parameter('payload_com', value=[0.0, 1.0]),
                   Parameter('payload_frame', value='nowhere'),
                   Parameter('velocity_scale', value=0.0)]
        for p in refused:
            assert not node.set_parameters([p])[0].successful, p.name
        assert node.set_parameters([Parameter('profile', value='trapezoid')])[0].successful
        user = User(graph)
        user.connect()
        user.publish_state(np.zeros(6))
        time.sleep(0.3)
        user.send([[0.5, 0.0, 0.0, 0.0, 0.0, 0.0]])
        assert wait_for(lambda: user.plans, 10.0)
        out = trajectory_arrays(user.plans[-1], NAMES)
        assert np.max(np.abs(out['velocities'][:, 0])) == pytest.approx(1.0, abs=1e-6)
        assert wait_for(lambda: user.last_status() is not None
                        and 'trapezoid plan' in user.last_status().message, 5.0)
    with RosGraph() as graph:
        with pytest.raises(ParameterValidationError, match='joints'):
            TrajectoryPlannerNode(context=graph.context, parameter_overrides=[
                Parameter('robot', value='puma560'),
                Parameter('joints', value=['joint1', 'wrist'])])


def test_joint_subset_and_estimated_accelerations():
    """Panda arm joints only: fingers held at their measured positions; k_a estimated."""
    model = load_robot('panda')
    arm = model.joint_names[:7]
    with RosGraph() as graph:
        graph.add(TrajectoryPlannerNode(context=graph.context, parameter_overrides=[
            Parameter('robot', value='panda'), Parameter('joints', value=arm),
            Parameter('profile', value='trapezoid_c2')]))
        user = User(graph, 'panda_user')
        user.connect()
        start = np.array([0.0, 0.0, 0.0, -1.5, 0.0, 1.5, 0.0, 0.02, 0.02])
        user.publish_state(start, model.joint_names)
        time.sleep(0.3)
        goal = start[:7] + 0.2
        user.send([goal], arm)
        assert wait_for(lambda: user.plans, 10.0)
        out = trajectory_arrays(user.plans[-1], arm)
        assert list(user.plans[-1].joint_names) == arm
        assert np.allclose(out['positions'][-1], goal)
        assert np.all(np.isfinite(out['accelerations'])) and out['effort'].shape[1] == 7
        held = ModelEffortProvider(model, arm, fixed_positions=start)
        expect = held(out['positions'], out['velocities'], out['accelerations'])
        assert np.allclose(out['effort'], expect, atol=1e-9)


def test_node_process():
    """The node runs as its own process (python -m ...), plans, and exits cleanly on SIGINT."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [ROOT] + [p for p in os.environ.get('PYTHONPATH', '').split(os.pathsep) if p]))
    proc = subprocess.Popen([sys.executable, '-m', 'robodyn_ros.nodes.trajectory_planner_node',
                             '--ros-args', '-p', 'robot:=puma560', '-p', 'profile:=quintic'],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        with RosGraph() as graph:
            user = User(graph, 'process_user')
            user.connect()
            deadline = time.monotonic() + 20.0
            while not user.plans and time.monotonic() < deadline:
                user.publish_state(np.zeros(6))
                user.send([[0.2, 0.1, 0.0, 0.0, 0.0, 0.0]])
                wait_for(lambda: user.plans, 1.0)
            assert user.plans, 'no plan from the node process'
            out = trajectory_arrays(user.plans[-1], NAMES)
            assert np.allclose(out['positions'][-1], [0.2, 0.1, 0.0, 0.0, 0.0, 0.0])
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            code = proc.wait(timeout=15.0)
        except subprocess.TimeoutExpired:
            proc.kill()
            code = proc.wait()
    log = proc.stdout.read().decode(errors='replace')
    assert code == 0, log
    assert 'goal accepted' in log
