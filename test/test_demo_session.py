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

"""Tests of robodyn_ros.demo.session that need no ROS graph (the whole demo: test_demo.py)."""

import warnings

import pytest

from robodyn_ros.demo import session
from robodyn_ros.demo.config import DemoConfig
from robodyn_ros.errors import UnknownRobotError


class _Stop(Exception):
    """Raised instead of starting the processes."""


@pytest.mark.parametrize('domain_id, expected', [(57, '57'), (-1, None)])
def test_first_line_names_the_ros_domain(tmp_path, monkeypatch, domain_id, expected):
    """The first line gives ROS_DOMAIN_ID (the model's warnings, if any, come after it)."""
    monkeypatch.delenv('ROS_DOMAIN_ID', raising=False)
    lines = []
    monkeypatch.setattr(session.DemoSession, 'start', lambda self: (_ for _ in ()).throw(_Stop))
    monkeypatch.setattr(warnings, 'showwarning',
                        lambda message, *rest, **kw: lines.append(f'warning: {message}'))
    cfg = DemoConfig(robot='puma560', out=str(tmp_path / 'out'), domain_id=domain_id)
    with pytest.raises(_Stop):
        session.run_demo(cfg, progress=lines.append)
    assert lines[0].startswith('ROS_DOMAIN_ID=') and str(tmp_path / 'out') in lines[0]
    domain = lines[0].split('=', 1)[1].split(',', 1)[0]
    assert domain == expected if expected else 10 <= int(domain) < 100


def test_unknown_robot_stops_before_any_output(tmp_path):
    """An unknown robot is refused before the output folder exists."""
    cfg = DemoConfig(robot='no_such_robot', out=str(tmp_path / 'out'))
    with pytest.raises(UnknownRobotError):
        session.run_demo(cfg, progress=lambda line: None)
    assert not (tmp_path / 'out').exists()


def test_a_goal_nobody_heard_is_sent_again(tmp_path):
    """A goal published before the planner listens is lost; request_plan sends it again."""
    import threading
    import time

    import numpy as np
    from rclpy.parameter import Parameter
    from sensor_msgs.msg import JointState

    from robodyn_ros.model import load_robot
    from robodyn_ros.nodes.trajectory_planner_node import TrajectoryPlannerNode
    from ros_helpers import RosGraph

    model = load_robot('puma560')
    cfg = DemoConfig(robot='puma560', out=str(tmp_path / 'out'), record=False)
    run = session.DemoSession(cfg, model, progress=lambda line: None)
    run._start_probe()
    graph = RosGraph()
    try:
        q0 = np.array(model.home_configuration(), dtype=float)
        goal = np.array([q0 + 0.2, q0])

        def planner_comes_later():
            time.sleep(1.0)                     # the first goal finds no subscriber
            graph.add(TrajectoryPlannerNode(context=graph.context, parameter_overrides=[
                Parameter('robot', value='puma560')]))
            states = graph.add(rclpy_node('states', graph.context)).create_publisher(
                JointState, 'joint_states', 10)
            graph.__enter__()
            while not stop.is_set():
                states.publish(JointState(name=list(model.joint_names), position=list(q0)))
                time.sleep(0.02)

        stop = threading.Event()
        feeder = threading.Thread(target=planner_comes_later, daemon=True)
        feeder.start()
        plan = run.request_plan(goal, timeout=60.0)
        assert np.allclose(plan.positions[-1], q0, atol=1e-6)
        assert np.allclose(plan.positions[0], q0, atol=1e-6)
        assert np.max(np.abs(plan.positions - q0)) >= 0.2 - 1e-6
        heard = [m for _, _, m in run.log.diagnostic_history('/trajectory_planner')
                 if m.startswith('planning a goal')]
        assert heard                           # acknowledged once it listened
    finally:
        stop.set()
        feeder.join(timeout=5.0)
        run.stop()
        graph.__exit__(None, None, None)


def test_a_refused_goal_fails_at_once(tmp_path):
    """A goal the planner refuses (too many waypoints) fails with its reason, not a timeout."""
    import time

    import numpy as np
    from rclpy.parameter import Parameter
    from sensor_msgs.msg import JointState

    from robodyn_ros.demo.processes import PartFailed
    from robodyn_ros.model import load_robot
    from robodyn_ros.nodes.trajectory_planner_node import TrajectoryPlannerNode
    from ros_helpers import RosGraph, wait_for

    model = load_robot('puma560')
    cfg = DemoConfig(robot='puma560', out=str(tmp_path / 'out'), record=False)
    run = session.DemoSession(cfg, model, progress=lambda line: None)
    run._start_probe()
    try:
        with RosGraph() as graph:
            graph.add(TrajectoryPlannerNode(context=graph.context, parameter_overrides=[
                Parameter('robot', value='puma560'), Parameter('max_waypoints', value=2)]))
            states = graph.add(rclpy_node('states', graph.context)).create_publisher(
                JointState, 'joint_states', 10)
            q0 = np.array(model.home_configuration(), dtype=float)
            states.publish(JointState(name=list(model.joint_names), position=list(q0)))
            assert wait_for(lambda: run.probe.goal_subscribers() > 0, 10.0)
            began = time.monotonic()
            with pytest.raises(PartFailed, match='more than max_waypoints'):
                run.request_plan(np.array([q0, q0 + 0.1, q0]), timeout=60.0)
            assert time.monotonic() - began < 30.0
    finally:
        run.stop()


def rclpy_node(name, context):
    """Return a plain rclpy node in ``context``."""
    from rclpy.node import Node
    return Node(name, context=context)
