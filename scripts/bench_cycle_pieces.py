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
Time single pieces of the 1 kHz cycle, one thread, hot caches (issue 14).

Prints the simulated board's cycle (``tick``, current mode, PUMA 560
without load friction, 2 kg payload) and its plant sub-step, the host's
friction compensation and current pipeline in NumPy and compiled form, a
state report's decode by the general parser and by the compiled fast path, then one
``joint_states`` write through :class:`GilFreePublisher` and through rclpy
(a subscriber in another process), and the CPU a write costs when paced at
1 kHz (cold caches, as in the loop). Run from the repository root::

    .venv/bin/python scripts/bench_cycle_pieces.py

Results: docs/benchmarks.md ("Compiled plant step", "The host's output stage and
state check compiled").
"""

import os
import subprocess
import sys
import time
import warnings

import numpy as np

SUBSCRIBER = (
    'import rclpy\n'
    'from rclpy.node import Node\n'
    'from sensor_msgs.msg import JointState\n'
    'rclpy.init()\n'
    'node = Node("pieces_subscriber")\n'
    'node.create_subscription(JointState, "joint_states", lambda m: None, 10, raw=True)\n'
    'rclpy.spin(node)\n')


def per_call(func, count=5000):
    """Return the mean time of ``count`` calls of ``func`` [us]."""
    began = time.perf_counter()
    for _ in range(count):
        func()
    return (time.perf_counter() - began) / count * 1e6


def board_pieces():
    """Print the simulated board's cycle and plant sub-step."""
    from robodyn_ros.sim.board.config import SimBoardConfig
    from robodyn_ros.sim.board.simulator import build_board
    from robodyn_ros.sim.plant_step import load
    load()      # the compiled step, as a running board has it after its first 0.2 s
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')     # the library PUMA's inertia notes
        board = build_board(SimBoardConfig(robot='puma560', transport='udp',
                                           load_friction=False, payload_mass=2.0))
    fw = board.firmware
    fw.enabled, fw.session_until_us, fw.watchdog_us, fw.last_valid_us = True, 10**15, 10**15, 0
    fw.command[:] = 0.1
    print(f'board tick (current mode)       {per_call(fw.tick):6.1f} us')
    print(f'plant sub-step (axes.step)      '
          f'{per_call(lambda: fw.axes.step(fw.command, True)):6.1f} us')


def output_pieces():
    """Print the host's friction compensation and current pipeline, NumPy and compiled."""
    from robodyn_ros.friction.compensation import FrictionCompensator
    from robodyn_ros.hardware.board.messages import Identify
    from robodyn_ros.hardware.current_command import CurrentCommand
    from robodyn_ros.hardware.interface import load_compiled
    from robodyn_ros.hardware.scaling import axis_parameters, joint_scaling
    from robodyn_ros.model import load_robot
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        model = load_robot('puma560')
    scaling = joint_scaling(axis_parameters(model), Identify(
        1, (1, 0, 0), 0.001, (1000,) * model.n, (10.0,) * model.n))
    pipeline = CurrentCommand(model, scaling, np.full(model.n, 8.0))
    friction = FrictionCompensator(model, band=0.02)
    q, qd = np.zeros(model.n), np.linspace(-1.0, 1.0, model.n)
    torque = np.linspace(-30.0, 30.0, model.n)

    def both():
        pipeline(q, torque, friction.torque(q, qd, None, 0.0), 0.05)

    for form in ('NumPy', 'compiled'):
        if form == 'compiled' and not load_compiled():
            print('output stage: numba not installed, no compiled form')
            return
        print(f'friction + current pipeline, {form:8s} {per_call(both):6.1f} us')
    report_pieces()


def report_pieces():
    """Print a state report's decode: the general parser and decoder, then the fast path."""
    from robodyn_ros.hardware.board.codec import decode_message, encode_message
    from robodyn_ros.hardware.board.framing import FrameParser
    from robodyn_ros.hardware.board.report_kernel import StateReportReader
    from robodyn_ros.hardware.board.reports import StateReport
    data = encode_message(StateReport(123456, 1, 0, 123000, 0, tuple(range(1000, 1006)),
                                      (0.1,) * 6), 7)
    parser, reader = FrameParser(), StateReportReader()

    def general():
        for frame in parser.feed_datagram(data):
            decode_message(frame)

    print(f'state report decode, general     {per_call(general):6.1f} us')
    print(f'state report decode, compiled    {per_call(lambda: reader.read(data)):6.1f} us')
    command_pieces()


def command_pieces():
    """Print the set-currents frame's encode: the general encoder, then the fast path."""
    from robodyn_ros.hardware.board.codec import encode_set_currents
    from robodyn_ros.hardware.board.command_kernel import CurrentsFrameWriter
    currents, writer = np.linspace(-2.0, 2.0, 6), CurrentsFrameWriter()
    print(f'set-currents encode, general     '
          f'{per_call(lambda: encode_set_currents(123456, currents, 7)):6.1f} us')
    print(f'set-currents encode, compiled    '
          f'{per_call(lambda: writer.encode(123456, currents, 7)):6.1f} us')


def publish_pieces():
    """Print one joint_states write, GIL-free and rclpy's, hot and paced at 1 kHz."""
    import rclpy
    from rclpy.node import Node
    from robodyn_ros.nodes.gil_free_publisher import GilFreePublisher
    from robodyn_ros.nodes.joint_state_cdr import JointStateEncoder
    from robodyn_ros.ros_env import apply_ros_env_defaults
    from sensor_msgs.msg import JointState
    apply_ros_env_defaults(os.environ)
    rclpy.init()
    node = Node('pieces_publisher')
    pub = node.create_publisher(JointState, 'joint_states', 10)
    sub = subprocess.Popen([sys.executable, '-c', SUBSCRIBER])
    try:
        while pub.get_subscription_count() < 1:
            time.sleep(0.05)
        names = [f'joint{i}' for i in range(1, 7)]
        data = JointStateEncoder(names, fields=('position', 'velocity', 'effort')).encode(
            0, *np.zeros((3, 6)))
        writer = GilFreePublisher(pub)
        print(f'joint_states write, GIL-free    {per_call(lambda: writer.publish(data)):6.1f} us')
        print(f'joint_states write, rclpy       {per_call(lambda: pub.publish(data)):6.1f} us')
        cpu = time.process_time()
        for _ in range(3000):
            writer.publish(data)
            time.sleep(0.001)
        paced = time.process_time() - cpu
        cpu = time.process_time()
        for _ in range(3000):
            time.sleep(0.001)
        paced -= time.process_time() - cpu
        print(f'GIL-free write at 1 kHz, CPU    {paced / 3000 * 1e6:6.1f} us')
    finally:
        sub.kill()
        sub.wait()
        node.destroy_node()
        rclpy.shutdown()


if __name__ == '__main__':
    board_pieces()
    output_pieces()
    publish_pieces()
