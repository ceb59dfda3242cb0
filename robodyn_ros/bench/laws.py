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
``robodyn bench laws``: the time of one ``Controller.step`` per law and dynamics backend.

Every law steps along the same recorded states of a motion (a quintic move
with measurement noise); laws and backends are interleaved round by round,
so load changes on the machine hit them alike, and the median and p99 per
step are reported. The numpy backend runs 200 steps a round (it is slow);
the compiled backend the whole motion.
"""

import time

import numpy as np

#: Laws timed by default.
DEFAULT_LAWS = ('pid', 'computed_torque', 'computed_torque_lme', 'mbvsst')


def recorded_states(model, steps, period, seed=0):
    """
    Return the references and noisy measured positions of a quintic move.

    Parameters
    ----------
    model : RobotModel
        The robot.
    steps : int
        Samples.
    period : float
        Sample period [s].
    seed : int
        Noise seed.

    Returns
    -------
    tuple
        ``(refs, q_meas, qd)``: JointReference list, (N, n) positions [rad],
        (N, n) velocities [rad/s].

    """
    from ..control.base import JointReference
    from ..planning.point_to_point import point_to_point
    q0 = model.home_configuration()
    traj = point_to_point(q0, q0 + 0.5, 'quintic', duration=steps * period,
                          joint_names=model.joint_names)
    _, q, qd, qdd = traj.dense(period)
    meas = q + np.random.default_rng(seed).normal(0.0, 1e-3, q.shape)
    return [JointReference(q[k], qd[k], qdd[k]) for k in range(len(q))], meas, qd


def run(robot='puma560', laws=DEFAULT_LAWS, backends=('numpy', 'auto'), steps=2000,
        rounds=5, gap=0.0, python=False):
    """
    Time the laws.

    Parameters
    ----------
    robot : str
        Robot name or description file.
    laws : sequence of str
        Laws.
    backends : sequence of str
        Dynamics backends (``'numpy'``, ``'auto'``).
    steps : int
        Steps per round (numpy: at most 200).
    rounds : int
        Interleaved rounds.
    gap : float
        Sleep between steps [s] (a 1 kHz loop leaves the CPU between steps, and each
        step then starts with cold caches; 0: back to back).
    python : bool
        Also time the compiled computed-torque laws run as Python (``compiled=False``).

    Returns
    -------
    dict
        ``robot``, ``joints``, ``rounds``, ``gap_s`` and ``cases``: one entry per
        law and backend with ``steps``, ``median_us`` and ``p99_us``.

    """
    from ..control.factory import make_controller
    from ..model import load_robot
    model = load_robot(robot)
    h = 1e-3
    refs, meas, qd = recorded_states(model, steps, h)
    cases = {}
    for backend in backends:
        for law in laws:
            ctl = make_controller(law, model, h, {'backend': backend, 'omega': 20.0})
            cases[(law, ctl.dynamics.backend)] = (ctl, [])
            if python and getattr(ctl, 'compiled', False):
                twin = make_controller(law, model, h, {'backend': backend, 'omega': 20.0,
                                                       'compiled': False})
                cases[(law + ' (as Python)', ctl.dynamics.backend)] = (twin, [])
    for _ in range(rounds):
        for (law, backend), (ctl, samples) in cases.items():
            count = min(steps, len(refs), 200 if backend == 'numpy' else steps)
            for k in range(count):
                if gap > 0.0:
                    time.sleep(gap)
                t0 = time.perf_counter()
                ctl.step(k * h, meas[k], qd[k], refs[k])
                samples.append(time.perf_counter() - t0)
    out = []
    for (law, backend), (_, samples) in cases.items():
        s = np.array(samples) * 1e6
        out.append({'law': law, 'backend': backend, 'steps': int(s.size),
                    'median_us': float(np.median(s)), 'p99_us': float(np.percentile(s, 99))})
    return {'robot': robot, 'joints': model.n, 'rounds': rounds, 'gap_s': gap, 'cases': out}


def format_result(res):
    """
    Return the timings as a table.

    Parameters
    ----------
    res : dict
        From :func:`run`.

    Returns
    -------
    str
        The table.

    """
    lines = [f'Controller.step on {res["robot"]} ({res["joints"]} joints), {res["rounds"]} '
             f'interleaved rounds, {res["gap_s"] * 1e6:g} us sleep between steps',
             f'{"law":36s} {"backend":8s} {"steps":>7s} {"median [us]":>12s} '
             f'{"p99 [us]":>10s}']
    for c in res['cases']:
        lines.append(f'{c["law"]:36s} {c["backend"]:8s} {c["steps"]:7d} '
                     f'{c["median_us"]:12.1f} {c["p99_us"]:10.1f}')
    return '\n'.join(lines)
