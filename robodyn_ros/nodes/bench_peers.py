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
The ROS side of benchmarks: peer nodes that drive and watch the node under test.

The benchmarks themselves live in :mod:`robodyn_ros.bench` (no rclpy); what
they need from a ROS graph is here.
"""

import os
import subprocess
import sys
import time

from ..ros_env import apply_ros_env_defaults


def _stop(proc):
    proc.send_signal(2)
    try:
        proc.wait(10.0)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def hardware_interface_cycle(robot, device, axes, seconds):
    """
    Run ``hardware_interface`` as a process on a board and read its cycle statistics.

    The peer configures and activates it through its lifecycle services,
    sends zero torques at 100 Hz (a controller) for ``seconds``, counts the
    ``joint_states`` it receives and reads the node's last diagnostics.

    Parameters
    ----------
    robot : str
        Library robot name.
    device : str
        The board's pty link.
    axes : int
        Number of axes (joints ``joint1`` .. ``jointN``).
    seconds : float
        Measuring time [s].

    Returns
    -------
    dict
        ``values`` (the node's diagnostics values), ``message`` and
        ``joint_states_rate_hz``.

    """
    apply_ros_env_defaults()
    import rclpy
    from diagnostic_msgs.msg import DiagnosticArray
    from lifecycle_msgs.msg import Transition
    from lifecycle_msgs.srv import ChangeState
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.node import Node
    from rclpy.qos import qos_profile_sensor_data
    from sensor_msgs.msg import JointState
    name = f'bench_hw_{os.getpid()}'
    proc = subprocess.Popen([sys.executable, '-m', 'robodyn_ros.nodes.hardware_interface_node',
                             '--ros-args', '-r', f'__node:={name}', '-p',
                             f'robot:={robot}', '-p', f'device:={device}',
                             '-p', 'command_timeout:=0.5', '-p', 'diagnostics_period:=0.5'],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    context = rclpy.context.Context()
    rclpy.init(context=context)
    try:
        peer = Node('bench_board_peer', context=context)
        executor = SingleThreadedExecutor(context=context)
        executor.add_node(peer)
        diag, states = [], []
        peer.create_subscription(DiagnosticArray, 'diagnostics',
                                 lambda m: diag.extend(m.status), 10)
        peer.create_subscription(JointState, 'joint_states',
                                 lambda m: states.append(time.monotonic()),
                                 qos_profile_sensor_data)
        pub = peer.create_publisher(JointState, 'joint_commands', 1)
        change = peer.create_client(ChangeState, f'{name}/change_state')
        if not change.wait_for_service(timeout_sec=30.0):
            raise RuntimeError('hardware_interface process did not start')
        for tid in (Transition.TRANSITION_CONFIGURE, Transition.TRANSITION_ACTIVATE):
            future = change.call_async(ChangeState.Request(transition=Transition(id=tid)))
            executor.spin_until_future_complete(future, timeout_sec=30.0)
            if not (future.done() and future.result().success):
                raise RuntimeError(f'hardware_interface transition {tid} failed')
        start = time.monotonic()
        diag.clear()
        states.clear()
        command = JointState(name=[f'joint{k + 1}' for k in range(axes)], effort=[0.0] * axes)
        next_command = start
        while time.monotonic() - start < seconds:
            if time.monotonic() >= next_command:  # a controller at 100 Hz
                pub.publish(command)
                next_command += 0.01
            executor.spin_once(timeout_sec=0.005)
        mine = [d for d in diag if d.name.endswith(name)]
        values = {kv.key: kv.value for kv in mine[-1].values} if mine else {}
        rate = (len(states) - 1) / (states[-1] - states[0]) if len(states) > 1 else 0.0
        return {'values': values, 'message': mine[-1].message if mine else '',
                'joint_states_rate_hz': rate}
    finally:
        _stop(proc)
        rclpy.try_shutdown(context=context)


def planner_stop_latency(robot, waypoints, delays, params=()):
    """
    Time ``planner/stop`` while a ``trajectory_planner`` process plans a large goal.

    The peer starts the node, gives it a state at rest, then for each delay
    sends a goal of ``waypoints`` waypoints (a smooth path), waits ``delay``
    and calls ``planner/stop``, timing the answer; it then waits for the node
    to be idle and counts the plans of the goal that came out after a stop that
    found the goal still being planned (it must cancel it: none may come).
    Also times a stop with nothing planned and one uncontested plan of the goal.

    Parameters
    ----------
    robot : str
        Library robot.
    waypoints : int
        Waypoints of the goal.
    delays : sequence of float
        Times between sending the goal and calling stop [s].
    params : sequence of str
        Extra ``name:=value`` parameters of the node.

    Returns
    -------
    dict
        ``stops`` (per delay: answer time [s], the stop's message, whether the
        goal was still being planned, plans of the goal published after it),
        ``idle_stop`` [s], ``plan`` (time from goal to plan [s], points).

    """
    apply_ros_env_defaults()
    import numpy as np
    import rclpy
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.node import Node
    from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
    from sensor_msgs.msg import JointState
    from std_srvs.srv import Trigger
    from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint
    from ..model import load_robot
    model = load_robot(robot)
    names = list(model.joint_names)
    name = f'bench_planner_{os.getpid()}'
    argv = [sys.executable, '-m', 'robodyn_ros.nodes.trajectory_planner_node', '--ros-args',
            '-r', f'__node:={name}', '-p', f'robot:={robot}', '-p', 'use_dynamics_service:=false']
    for p in params:
        argv += ['-p', p]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    context = rclpy.context.Context()
    rclpy.init(context=context)
    try:
        peer = Node(f'{name}_peer', context=context)
        executor = SingleThreadedExecutor(context=context)
        executor.add_node(peer)
        plans = []
        qos = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                         durability=DurabilityPolicy.TRANSIENT_LOCAL)
        peer.create_subscription(JointTrajectory, 'planned_trajectory',
                                 lambda m: plans.append((time.monotonic(), len(m.points))), qos)
        state = peer.create_publisher(JointState, 'joint_states', 10)
        goals = peer.create_publisher(JointTrajectory, 'planner/goal', 10)
        stop = peer.create_client(Trigger, 'planner/stop')
        if not stop.wait_for_service(timeout_sec=60.0):
            raise RuntimeError('trajectory_planner process did not start')
        home = model.home_configuration(1.0)
        s = np.linspace(0.0, 1.0, waypoints + 1)[1:, None]
        path = home + 0.3 * np.sin(2 * np.pi * s * np.linspace(0.5, 2.0, model.n))
        goal = JointTrajectory(joint_names=names, points=[
            JointTrajectoryPoint(positions=row.tolist()) for row in path])

        def spin(seconds):
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                executor.spin_once(timeout_sec=0.005)

        def call_stop():
            t0 = time.monotonic()
            future = stop.call_async(Trigger.Request())
            while not future.done():
                executor.spin_once(timeout_sec=0.001)
            return time.monotonic() - t0, t0, future.result().message

        state.publish(JointState(name=names, position=home.tolist()))
        spin(0.5)
        call_stop()                                 # the first call sets the client up
        spin(0.3)
        idle, _, _ = call_stop()
        spin(1.0)
        out = {'stops': [], 'idle_stop': idle}
        for delay in delays:
            state.publish(JointState(name=names, position=home.tolist()))
            spin(0.2)
            goals.publish(goal)
            spin(delay)
            plans.clear()
            answer, asked, message = call_stop()
            spin(2.0 + 5e-4 * waypoints)
            # 'holding': the goal was still being planned, so the stop cancelled it and
            # its plan must never come; 'stopping': it was already the plan in force.
            cancelled = 'holding' in message
            out['stops'].append({'delay': delay, 'answer': answer, 'message': message,
                                 'cancelled': cancelled,
                                 'goal_plans_after_stop': sum(
                                     1 for t, n in plans if t > asked and n > 10)
                                 if cancelled else 0})
        sent = time.monotonic()
        plans.clear()
        goals.publish(goal)
        while not plans and time.monotonic() - sent < 120.0:
            executor.spin_once(timeout_sec=0.01)
        out['plan'] = {'time': plans[0][0] - sent if plans else None,
                       'points': plans[0][1] if plans else 0}
        return out
    finally:
        _stop(proc)


def feed_controller(names, plan, states, period, seconds):
    """
    Feed a controller under test: its plan once, then joint_states at a fixed rate.

    A plain thread with absolute deadlines publishes serialized messages, so
    that the feeder takes as little of the cores as it can (an rclpy timer
    and executor cost several hundred microseconds per tick).

    Parameters
    ----------
    names : list of str
        Joint names.
    plan : tuple of numpy.ndarray
        ``(times, q, qd, qdd)`` of the planned trajectory [s, rad, rad/s, rad/s^2].
    states : tuple of numpy.ndarray
        ``(q, qd)``, (N, n) each: the plant's states at the publishing rate.
    period : float
        Publishing period [s].
    seconds : float
        How long to feed [s].

    Returns
    -------
    float
        This process's CPU share while feeding [% of one core].

    """
    import threading
    apply_ros_env_defaults()
    import rclpy
    from sensor_msgs.msg import JointState
    from trajectory_msgs.msg import JointTrajectory
    from .controller_node import TRAJECTORY_QOS
    from .conversions import trajectory_msg
    from .joint_state_cdr import JointStateEncoder
    context = rclpy.context.Context()
    rclpy.init(context=context)
    node = rclpy.create_node('bench_feeder', context=context)
    try:
        pub = node.create_publisher(JointState, 'joint_states', 10)
        tpub = node.create_publisher(JointTrajectory, 'planned_trajectory', TRAJECTORY_QOS)
        tpub.publish(trajectory_msg(names, *plan))
        enc = JointStateEncoder(names, fields=('position', 'velocity'))
        feed_q, feed_qd = states
        stop = threading.Event()

        def feed():
            start = deadline = time.monotonic()
            while not stop.is_set():
                delay = deadline - time.monotonic()
                if delay > 0.0 and stop.wait(delay):
                    break
                k = min(int((time.monotonic() - start) / period), len(feed_q) - 1)
                pub.publish(enc.encode(time.time_ns(), feed_q[k], feed_qd[k]))
                deadline += period
                if time.monotonic() - deadline > period:   # fell behind: keep the phase
                    deadline += period * int((time.monotonic() - deadline) / period)

        thread = threading.Thread(target=feed, daemon=True, name='bench_feeder')
        cpu0, wall0 = time.process_time(), time.monotonic()
        thread.start()
        time.sleep(seconds)
        share = 100.0 * (time.process_time() - cpu0) / (time.monotonic() - wall0)
        stop.set()
        thread.join(timeout=5.0)
        return share
    finally:
        node.destroy_node()
        rclpy.try_shutdown(context=context)
