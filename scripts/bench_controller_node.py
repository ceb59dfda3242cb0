#!/usr/bin/env python3
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
Benchmark: the controller node at 1 kHz for 60 s (default MBVSST on the PUMA 560).

Starts ``python -m robodyn_ros.nodes.controller_node`` as its own process,
feeds it ``joint_states`` at the control rate from this process (a
kinematic plant that follows the planned trajectory with small noise, so
the law runs its full path every cycle), publishes a ``planned_trajectory``
(a repeating PUMA motion), stops the node with SIGINT and prints the node's
timing log: loop period p50/p99/max, missed deadlines (periods longer than
1.5 times the nominal), the whole callback's compute time and the control
law's own ``step`` time.

Usage::

    python scripts/bench_controller_node.py [--law mbvsst] [--robot puma560]
        [--rate 1000] [--duration 60] [--json]
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def _trajectory(model, period):
    from robodyn_ros.planning.periodic import out_and_back, repeated
    q0 = model.home_configuration()
    if model.name == 'puma560':
        q0 = np.array([0.0, -0.6, 0.6, 0.0, 0.0, 0.0])
    amp = 0.5 * np.where(np.arange(model.n) % 2 == 0, 1.0, -1.0)
    return repeated(out_and_back(q0, amp, 2.0, model.joint_names), 60)


def main(argv=None):
    """Run the benchmark; print the table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--law', default='mbvsst')
    parser.add_argument('--robot', default='puma560')
    parser.add_argument('--rate', type=float, default=1000.0)
    parser.add_argument('--duration', type=float, default=60.0)
    parser.add_argument('--backend', default='auto')
    parser.add_argument('--state-rate', type=float, default=None,
                        help='joint_states publishing rate [Hz] (default: the control rate)')
    parser.add_argument('--loop', default='thread', choices=('thread', 'timer'))
    parser.add_argument('--json', action='store_true')
    args = parser.parse_args(argv)

    from robodyn_ros.ros_env import apply_ros_env_defaults
    apply_ros_env_defaults()
    import rclpy
    from robodyn_ros.model import load_robot
    from robodyn_ros.nodes.controller_node import TRAJECTORY_QOS
    from robodyn_ros.nodes.conversions import trajectory_msg
    from robodyn_ros.nodes.joint_state_cdr import JointStateEncoder
    from sensor_msgs.msg import JointState
    from trajectory_msgs.msg import JointTrajectory

    model = load_robot(args.robot)
    traj = _trajectory(model, 1.0 / args.rate)
    log = os.path.join(tempfile.mkdtemp(prefix='robodyn_bench_'), 'timing.json')
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get('PYTHONPATH', ''))
    node = subprocess.Popen(
        [sys.executable, '-m', 'robodyn_ros.nodes.controller_node', '--ros-args',
         '-p', f'robot:={args.robot}', '-p', f'law:={args.law}', '-p', f'rate:={args.rate}',
         '-p', f'timing_log:={log}', '-p', f'backend:={args.backend}',
         '-p', 'state_timeout:=0.05', '-p', 'status_decimation:=10',
         '-p', f'loop:={args.loop}'],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    rclpy.init()
    feeder = rclpy.create_node('bench_feeder')
    pub = feeder.create_publisher(JointState, 'joint_states', 10)
    tpub = feeder.create_publisher(JointTrajectory, 'planned_trajectory', TRAJECTORY_QOS)
    times, q, qd, qdd = traj.dense(0.01)
    rng = np.random.default_rng(0)
    names = model.joint_names

    stop = threading.Event()
    enc = JointStateEncoder(names, fields=('position', 'velocity'))
    # The plant's states, sampled in advance at the publishing rate with their noise.
    period = 1.0 / (args.state_rate or args.rate)
    _, feed_q, feed_qd, _ = traj.dense(period)
    feed_q = feed_q + rng.normal(0, 1e-4, feed_q.shape)
    feed_qd = feed_qd + rng.normal(0, 1e-3, feed_qd.shape)
    tpub.publish(trajectory_msg(names, times, q, qd, qdd))

    def feed():
        # A plain thread with absolute deadlines publishing serialized messages:
        # the feeder must take as little of the two cores as it can, since it
        # shares them with the node it measures (an rclpy timer and executor
        # cost several hundred microseconds per tick).
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

    feeder_thread = threading.Thread(target=feed, daemon=True)
    feeder_thread.start()
    cpu0, wall0 = time.process_time(), time.monotonic()
    time.sleep(args.duration + 3.0)   # start-up (model, kernels) then the measured run
    feeder_cpu = 100.0 * (time.process_time() - cpu0) / (time.monotonic() - wall0)
    node.send_signal(signal.SIGINT)
    _, err = node.communicate(timeout=60)
    stop.set()
    feeder_thread.join(timeout=5)
    feeder.destroy_node()
    rclpy.try_shutdown()
    if node.returncode != 0 or not os.path.exists(log):
        print(f'controller node failed (exit {node.returncode}):\n{err}', file=sys.stderr)
        return 1
    with open(log, encoding='utf-8') as fh:
        stats = json.load(fh)
    stats.update({'robot': args.robot, 'duration_s': args.duration, 'loop': args.loop,
                  'state_rate_hz': args.state_rate or args.rate,
                  'feeder_cpu_percent': feeder_cpu,
                  'load_average_1min_after': os.getloadavg()[0]})
    if args.json:
        print(json.dumps(stats, indent=2))
        return 0
    print(f'controller node: {stats["law"]} on {args.robot}, {stats["rate_hz"]:g} Hz '
          f'({args.loop} loop), {stats["backend"]} dynamics, joint_states at '
          f'{stats["state_rate_hz"]:g} Hz, {stats["cycles"]} cycles in {args.duration:g} s, '
          f'load average {stats["load_average_1min_after"]:.2f}, feeder (this process) '
          f'{stats["feeder_cpu_percent"]:.0f} % of a core')
    print(f'  period p50 / p99 / max      {stats["period_p50_ms"]:.3f} / '
          f'{stats["period_p99_ms"]:.3f} / {stats["period_max_ms"]:.3f} ms')
    print(f'  jitter p99 (|period - T|)   {stats["jitter_p99_ms"]:.3f} ms')
    print(f'  missed deadlines (> 1.5 T)  {stats["missed_deadlines"]} '
          f'({stats["missed_percent"]:.3f} %), skipped periods {stats["skipped_periods"]}')
    print(f'  callback p50 / p99 / max    {stats["compute_p50_us"]:.0f} / '
          f'{stats["compute_p99_us"]:.0f} / {stats["compute_max_us"]:.0f} us')
    print(f'  law step p50 / p99 / max    {stats["law_p50_us"]:.0f} / '
          f'{stats["law_p99_us"]:.0f} / {stats["law_max_us"]:.0f} us')
    return 0


if __name__ == '__main__':
    sys.exit(main())
