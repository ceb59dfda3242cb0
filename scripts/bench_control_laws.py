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
Benchmark: time of one ``Controller.step`` per law and dynamics backend.

Every law steps along the same recorded states of a PUMA 560 motion; the
laws and backends are interleaved round by round (so load changes on the
machine hit them alike) and the median and p99 per step are printed.

Usage::

    python scripts/bench_control_laws.py [--robot puma560] [--steps 2000] [--rounds 5]
        [--laws pid,computed_torque,computed_torque_lme,mbvsst] [--backends numpy,auto]
        [--gap 0.0008] [--python]
"""

import argparse
import os
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def main(argv=None):
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--robot', default='puma560')
    parser.add_argument('--steps', type=int, default=2000)
    parser.add_argument('--rounds', type=int, default=5)
    parser.add_argument('--laws', default='pid,computed_torque,computed_torque_lme,mbvsst')
    parser.add_argument('--backends', default='numpy,auto')
    parser.add_argument('--gap', type=float, default=0.0,
                        help='sleep between steps [s], e.g. 0.0008: a control loop at '
                             '1 kHz leaves the CPU between steps, and a step then runs '
                             'with cold caches (default 0: back to back)')
    parser.add_argument('--python', action='store_true',
                        help='also time the computed-torque laws with compiled=False: the '
                             'same loop code (robodyn_ros.control.ct_step) run as Python '
                             'instead of compiled, side by side')
    args = parser.parse_args(argv)
    from robodyn_ros.control.base import JointReference
    from robodyn_ros.control.factory import make_controller
    from robodyn_ros.model import load_robot
    from robodyn_ros.planning.point_to_point import point_to_point

    model = load_robot(args.robot)
    h = 1e-3
    q0 = model.home_configuration()
    traj = point_to_point(q0, q0 + 0.5, 'quintic', duration=args.steps * h,
                          joint_names=model.joint_names)
    _, q, qd, qdd = traj.dense(h)
    rng = np.random.default_rng(0)
    meas = q + rng.normal(0, 1e-3, q.shape)
    refs = [JointReference(q[k], qd[k], qdd[k]) for k in range(len(q))]
    cases = {}
    for backend in args.backends.split(','):
        for law in args.laws.split(','):
            ctl = make_controller(law, model, h, {'backend': backend, 'omega': 20.0})
            cases[(law, ctl.dynamics.backend)] = (ctl, [])
            if args.python and getattr(ctl, 'compiled', False):
                twin = make_controller(law, model, h, {'backend': backend, 'omega': 20.0,
                                                       'compiled': False})
                cases[(law + ' (as Python)', ctl.dynamics.backend)] = (twin, [])
    for _ in range(args.rounds):
        for (law, backend), (ctl, samples) in cases.items():
            steps = min(args.steps, len(refs)) if backend != 'numpy' else min(200, len(refs))
            for k in range(steps):
                if args.gap > 0.0:
                    time.sleep(args.gap)
                t0 = time.perf_counter()
                ctl.step(k * h, meas[k], qd[k], refs[k])
                samples.append(time.perf_counter() - t0)
    print(f'Controller.step on {args.robot} ({model.n} joints), {args.rounds} interleaved rounds, '
          f'{args.gap * 1e6:g} us sleep between steps')
    print(f'{"law":36s} {"backend":8s} {"steps":>7s} {"median [us]":>12s} {"p99 [us]":>10s}')
    for (law, backend), (_, samples) in cases.items():
        s = np.array(samples) * 1e6
        print(f'{law:36s} {backend:8s} {s.size:7d} {np.median(s):12.1f} '
              f'{np.percentile(s, 99):10.1f}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
