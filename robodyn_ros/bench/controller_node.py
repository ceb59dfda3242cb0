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
``robodyn bench controller``: the controller node alone at its rate.

Starts the ``controller`` node as its own process, feeds it ``joint_states``
at the control rate (a kinematic plant that follows a repeating motion with
small noise, so the law runs its full path every cycle) and the motion as
``planned_trajectory``, stops it with SIGINT and reads its timing log: loop
period p50/p99/max, missed deadlines (periods longer than 1.5 times the
nominal), the whole callback's compute time and the law's own step time.
"""

import json
import os
import signal
import subprocess
import sys
import tempfile

import numpy as np


def _motion(model):
    from ..planning.periodic import out_and_back, repeated
    q0 = model.home_configuration()
    if model.name == 'puma560':
        q0 = np.array([0.0, -0.6, 0.6, 0.0, 0.0, 0.0])
    amp = 0.5 * np.where(np.arange(model.n) % 2 == 0, 1.0, -1.0)
    return repeated(out_and_back(q0, amp, 2.0, model.joint_names), 60)


def run(law='mbvsst', robot='puma560', rate=1000.0, seconds=60.0, backend='auto',
        state_rate=None, loop='thread'):
    """
    Run the controller node against the feeder and return its timing.

    Parameters
    ----------
    law : str
        Control law.
    robot : str
        Robot name or description file.
    rate : float
        Control rate [Hz].
    seconds : float
        Measured time [s] (start-up comes on top).
    backend : str
        Dynamics backend of the law.
    state_rate : float, optional
        joint_states rate [Hz] (default: the control rate).
    loop : str
        The node's loop: ``'thread'`` or ``'timer'``.

    Returns
    -------
    dict
        The node's timing log plus ``robot``, ``duration_s``, ``loop``,
        ``state_rate_hz``, ``feeder_cpu_percent`` and ``load_average_1min_after``.

    Raises
    ------
    RuntimeError
        When the node failed (its stderr in the message).

    """
    from ..model import load_robot
    from ..nodes.bench_peers import feed_controller
    from ..ros_env import apply_ros_env_defaults
    apply_ros_env_defaults()
    model = load_robot(robot)
    traj = _motion(model)
    log = os.path.join(tempfile.mkdtemp(prefix='robodyn_bench_'), 'timing.json')
    node = subprocess.Popen(
        [sys.executable, '-m', 'robodyn_ros.nodes.controller_node', '--ros-args',
         '-p', f'robot:={robot}', '-p', f'law:={law}', '-p', f'rate:={rate}',
         '-p', f'timing_log:={log}', '-p', f'backend:={backend}',
         '-p', 'state_timeout:=0.05', '-p', 'status_decimation:=10', '-p', f'loop:={loop}'],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    period = 1.0 / (state_rate or rate)
    _, fq, fqd, _ = traj.dense(period)
    rng = np.random.default_rng(0)
    states = (fq + rng.normal(0, 1e-4, fq.shape), fqd + rng.normal(0, 1e-3, fqd.shape))
    try:
        # start-up (model, kernels) then the measured run
        feeder = feed_controller(model.joint_names, traj.dense(0.01), states, period,
                                 seconds + 3.0)
    finally:
        node.send_signal(signal.SIGINT)
        _, err = node.communicate(timeout=60)
    if node.returncode != 0 or not os.path.exists(log):
        raise RuntimeError(f'controller node failed (exit {node.returncode}):\n{err}')
    with open(log, encoding='utf-8') as fh:
        stats = json.load(fh)
    stats.update({'robot': robot, 'duration_s': seconds, 'loop': loop,
                  'state_rate_hz': state_rate or rate, 'feeder_cpu_percent': feeder,
                  'load_average_1min_after': os.getloadavg()[0]})
    return stats


def format_result(stats):
    """
    Return the timing as text.

    Parameters
    ----------
    stats : dict
        From :func:`run`.

    Returns
    -------
    str
        The table.

    """
    s = stats
    return '\n'.join([
        f'controller node: {s["law"]} on {s["robot"]}, {s["rate_hz"]:g} Hz ({s["loop"]} loop), '
        f'joint_states at {s["state_rate_hz"]:g} Hz, {s["cycles"]} cycles in '
        f'{s["duration_s"]:g} s, load average {s["load_average_1min_after"]:.2f}, feeder '
        f'{s["feeder_cpu_percent"]:.0f} % of a core',
        f'  period p50 / p99 / max      {s["period_p50_ms"]:.3f} / {s["period_p99_ms"]:.3f} / '
        f'{s["period_max_ms"]:.3f} ms',
        f'  jitter p99 (|period - T|)   {s["jitter_p99_ms"]:.3f} ms',
        f'  missed deadlines (> 1.5 T)  {s["missed_deadlines"]} ({s["missed_percent"]:.3f} %), '
        f'skipped periods {s["skipped_periods"]}',
        f'  callback p50 / p99 / max    {s["compute_p50_us"]:.0f} / {s["compute_p99_us"]:.0f} / '
        f'{s["compute_max_us"]:.0f} us',
        f'  law step p50 / p99 / max    {s["law_p50_us"]:.0f} / {s["law_p99_us"]:.0f} / '
        f'{s["law_max_us"]:.0f} us'])
