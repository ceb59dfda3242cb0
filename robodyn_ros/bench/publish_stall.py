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
Benchmark: whether a middleware write stops the other threads of its process.

A process publishes ``joint_states`` at 1 kHz from one thread while a
second thread, standing for a control loop, wakes every 0.5 ms and records
the gaps between its wake-ups. Meanwhile a subscriber process is started
every ``--spawn-period`` seconds and the oldest one is killed (SIGKILL):
what a crashed RViz, a killed ``ros2 topic echo`` or a lost remote host
does to a publisher. Each round runs both publishers in turn: rclpy's own
``publish`` (which keeps the GIL during the write) and
:class:`~robodyn_ros.nodes.gil_free_publisher.GilFreePublisher`. Reported:
the loop thread's gap p99 and maximum, and the gaps over 20 and 100 ms.
Numbers depend on the machine; nothing here is a test.
"""

import json
import os
import subprocess
import sys

HELP = 'whether a blocked middleware write stops the other threads (rclpy vs GIL-free)'
DESCRIPTION = ('A 1 kHz joint_states publisher thread and a 2 kHz loop thread in one process '
               "while subscriber processes start and are killed; the loop thread's largest "
               "gaps with rclpy's publish and with GilFreePublisher, round by round.")
MODES = ('rclpy', 'gil_free')
#: The process that measures (ROS lives in the nodes package).
PROBE = 'robodyn_ros.nodes.stall_probe'


def add_options(p):
    """Add the bench's options to its parser."""
    p.add_argument('--seconds', type=float, default=20.0, help='time per run [s] (default 20)')
    p.add_argument('--rounds', type=int, default=2, help='rounds of both modes (default 2)')
    p.add_argument('--spawn-period', type=float, default=1.5,
                   help='a subscriber started (and the oldest killed) this often [s]')
    p.add_argument('--json', action='store_true', help='print JSON instead of a table')


def run(args):
    """
    Run ``robodyn bench publish-stall``: each mode in a process of its own, per round.

    Parameters
    ----------
    args : argparse.Namespace
        ``seconds``, ``rounds``, ``spawn_period``, ``json``.

    Returns
    -------
    int
        Exit code.

    """
    for name, value in (('--seconds', args.seconds), ('--spawn-period', args.spawn_period),
                        ('--rounds', args.rounds)):
        if not value > 0:       # NaN too
            print(f'robodyn bench publish-stall: error: argument {name}: must be > 0, '
                  f'got {value}', file=sys.stderr)
            return 2
    from ..ros_env import apply_ros_env_defaults
    env = apply_ros_env_defaults(dict(os.environ))
    results = []
    for round_ in range(args.rounds):
        for mode in MODES:
            out = subprocess.run([sys.executable, '-m', PROBE, 'measure', mode,
                                  str(args.seconds), str(args.spawn_period)], env=env,
                                 capture_output=True, text=True, check=False)
            if out.returncode != 0:
                print(f'robodyn bench publish-stall: the {mode} run failed: '
                      f'{out.stderr.strip()[-500:]}', file=sys.stderr)
                return 1
            last = json.loads(out.stdout.strip().splitlines()[-1])
            if last['most_matched'] == 0:
                print(f'robodyn bench publish-stall: no subscriber of the {mode} run matched '
                      'its publisher (the subscriber processes did not start)', file=sys.stderr)
                return 1
            results.append({'round': round_ + 1, **last})
    if args.json:
        print(json.dumps({'load_average': list(os.getloadavg()[:2]), 'runs': results}, indent=2))
        return 0
    print(f'{"round":>5} {"publish":>9} {"loop cycles":>11} {"gap p99 [ms]":>12} '
          f'{"gap max [ms]":>12} {">20 ms":>7} {">100 ms":>8} {"subscribers":>11}')
    for r in results:
        print(f'{r["round"]:>5} {r["mode"]:>9} {r["cycles"]:>11} {r["gap_p99_ms"]:>12.2f} '
              f'{r["gap_max_ms"]:>12.1f} {r["over_20ms"]:>7} {r["over_100ms"]:>8} '
              f'{r["subscribers_started"]:>11}')
    return 0
