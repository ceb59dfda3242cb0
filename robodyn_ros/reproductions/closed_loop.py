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
The seeds' experiments in closed loop.

Seed 001's perfect-model response, seed 002's sampling period on the DD Arm
II, seed 003's controllers on the MA3000.
"""

from dataclasses import replace
import math

import numpy as np

from ..control.computed_torque import ComputedTorque
from ..control.computed_torque_lme import ComputedTorqueLME
from ..control.mbvsst import MBVSST
from ..control.payload import SEED003_ESTIMATOR
from ..errors import InputError
from ..friction.models import with_joint_friction, without_friction
from ..model import load_robot
from ..planning.multi_segment import three_five_three
from ..planning.periodic import cosine_excursion, square_wave
from ..planning.point_to_point import point_to_point
from ..sim.mismatch import scaled_inertia, scaled_inertials
from ..sim.runner import Sensor
from ..sim.scenario_base import run, ScenarioResult


# ---------------------------------------------------------------------- seed 001
def ct_perfect(robot='puma560', period=1e-3, omega=20.0, quick=False):
    """
    Compare computed torque on a perfect model with the analytic critically damped response.

    From an initial error ``e0`` (and ``e0' = 0``) while tracking a motion,
    the error of each joint must be ``e0 (1 + w t) exp(-w t)``. Plant and
    controller share the model (rigid body and rotor inertia; friction
    removed, as the analytic response has none); the
    run is repeated at half the period to show that the residue is the
    sampling, O(period).

    Parameters
    ----------
    robot : str
        Library robot.
    period : float
        Control period [s].
    omega : float
        Closed-loop natural frequency [rad/s].
    quick : bool
        Shorter run, one period only.

    Returns
    -------
    ScenarioResult
        With ``checks['max_deviation'][period]`` [rad] and ``checks['e0']``.

    """
    model = without_friction(load_robot(robot))
    result = ScenarioResult('ct_perfect', f'Computed torque, perfect model ({robot}): error '
                                          'against the analytic critically damped response')
    n = model.n
    q_start = model.home_configuration(0.5)
    goal = q_start + 0.3 * np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    duration = 0.5 if quick else 1.5
    ref = point_to_point(q_start, goal, 'quintic', duration=duration,
                         joint_names=model.joint_names)
    e0 = 0.02
    deviation = {}
    for h in ((period,) if quick else (period, period / 2.0)):
        ct = ComputedTorque(model, h, omega=omega, torque_limit=np.inf)
        res = run(result, model, q_start - e0, ct, ref, duration,
                  f'CT perfect model, {h * 1e3:g} ms', plant_dt=h / 4.0)
        t = res.times
        analytic = e0 * (1.0 + omega * t) * np.exp(-omega * t)
        deviation[h] = float(np.abs(res.error - analytic[:, None]).max())
        result.lines.append(f'period {h * 1e3:g} ms: largest deviation from e0 (1 + w t) '
                            f'exp(-w t) = {deviation[h]:.3e} rad ({100 * deviation[h] / e0:.2f} '
                            f'% of e0 = {e0} rad), omega = {omega} rad/s')
    result.checks.update({'max_deviation': deviation, 'e0': e0, 'omega': omega})
    return result


# ---------------------------------------------------------------------- seed 002
KANADE_PAPER = {0.010: (2.6, 5.3, 7.9), 0.001: (0.25, 1.06, 1.1)}


def kanade_period(periods=(0.001, 0.005, 0.010), quick=False):
    """
    Seed 002's sampling-period experiment on the CMU DD Arm II model.

    Joint 2 from 0 to 90 degrees and back along ``(1 - cos)`` at up to 8
    rad/s, the other joints held at 0; ``Kp = 400``, ``Kv = 40``; no torque
    limits (the direct-drive motors of the paper; the library's chosen
    limits are lower than this motion needs). The paper's "10 % mismatch in
    the link inertias" is read three ways: every mass and inertia tensor
    1.1 times the plant's (main table), the same with the torque applied one
    period late (a real-time loop that computes during the period), and the
    inertia tensors alone 1.1 times.

    Parameters
    ----------
    periods : sequence of float
        Control periods [s].
    quick : bool
        Main variant only, 1 and 10 ms, no settling time.

    Returns
    -------
    ScenarioResult
        ``checks['max_error_deg'][variant][period]`` (joints 1-3) and
        ``checks['ordered'][variant]``.

    """
    truth = load_robot('cmu_dd_arm2')
    result = ScenarioResult('kanade_period', 'Seed 002: DD Arm II, joint 2 0-90-0 deg at up '
                                             'to 8 rad/s, 10 % inertia mismatch, Kp = 400, '
                                             'Kv = 40')
    q0 = np.zeros(truth.n)
    ref = cosine_excursion(q0, 1, math.pi / 2, 8.0, truth.joint_names)
    duration = ref.duration + (0.0 if quick else 0.3)
    variants = [('mass properties x1.1', scaled_inertials(truth, 1.1), 0),
                ('mass properties x1.1, torque one period late', scaled_inertials(truth, 1.1),
                 1),
                ('inertia tensors x1.1', scaled_inertia(truth, 1.1), 0)]
    if quick:
        variants, periods = variants[:1], (0.001, 0.010)
    tables, ordered = {}, {}
    for name, model, delay in variants:
        table = {}
        for h in periods:
            ct = ComputedTorque(model, h, 400.0, 40.0, torque_limit=np.inf)
            res = run(result, truth, q0, ct, ref, duration, f'{name}: {h * 1e3:g} ms',
                      plant_dt=min(h / 4.0, 2.5e-4), sensor=Sensor(delay=delay))
            table[h] = np.degrees(res.max_error())[:3]
        tables[name] = {h: v.tolist() for h, v in table.items()}
        ordered[name] = bool(all(np.all(table[a] <= table[b] * (1 + 1e-9))
                                 for a, b in zip(sorted(table), sorted(table)[1:])))
        result.lines.append(f'{name}: max |error| [deg]   joint 1   joint 2   joint 3   '
                            '(paper: j1, j2, j3)')
        for h, v in table.items():
            paper = KANADE_PAPER.get(round(h, 6))
            ptxt = ', '.join(f'{x:g}' for x in paper) if paper else '-'
            result.lines.append(f'  period {h * 1e3:4g} ms    {v[0]:7.3f}   {v[1]:7.3f}   '
                                f'{v[2]:7.3f}   ({ptxt})')
        result.lines.append(f'  errors grow with the period on joints 1-3: {ordered[name]}')
    result.checks.update({'max_error_deg': tables, 'ordered': ordered})
    return result


# ---------------------------------------------------------------------- seed 003
MIRAB_RATE = 121.0


#: Friction of the "experiment" plant (not in the thesis, which fitted none) [N m, N m s/rad].
MA3000_FRICTION = ((2.0, 4.0, 1.0), (1.0, 2.0, 0.5))


def mirab(reference='353', payload=2.0, initial_mass=1.5, quick=False, relay_fraction=None,
          conditions='simulation'):
    """
    Seed 003 on the MA3000 model: CT, CT + load estimation and MBVSST.

    121 Hz; all joints move 30 degrees from shoulder and elbow upright,
    along the 3-5-3 polynomial (0, 5, 25, 30 degrees; 2, 5, 2 s executed
    1.21 times faster, 900 samples in 7.44 s) or a square wave of period
    4.9 s; the plant carries a payload at the wrist that the controllers'
    model does not have; CT gains Kp = 1600, Kv = 80. CT+LME and MBVSST run
    twice: with the thesis's estimator on the waist equation only, and with
    the equations of all three joints.

    Conditions: ``'simulation'`` as the thesis's own simulations (the model
    is exact but for the payload; exact measurements); ``'experiment'`` adds
    what the robot had and the model did not: joint friction
    (:data:`MA3000_FRICTION`, assumed), 12-bit potentiometer positions (270
    degrees over 4096 counts) and velocities by filtered differences (30 Hz).

    Parameters
    ----------
    reference : {'353', 'square'}
        Motion.
    payload : float
        True payload [kg].
    initial_mass : float
        Initial payload estimate of CT + LME and MBVSST [kg].
    quick : bool
        First 2.5 s only.
    relay_fraction : float, optional
        MBVSST relay amplitude as a fraction of the effort limits.
    conditions : {'simulation', 'experiment'}
        See above.

    Returns
    -------
    ScenarioResult
        ``checks`` with the RMS errors per controller and the final
        payload estimates.

    """
    model = load_robot('ma3000')
    truth = model.with_payload(payload, frame=model.end_effector)
    sensor = None
    if conditions == 'experiment':
        truth = with_joint_friction(truth, *MA3000_FRICTION)
        sensor = Sensor(resolution=math.radians(270.0) / 4096, velocity='difference',
                        velocity_cutoff=30.0)
    elif conditions != 'simulation':
        raise InputError('conditions', "must be 'simulation' or 'experiment', got "
                                       f'{conditions!r}')
    h = 1.0 / MIRAB_RATE
    start = np.radians([0.0, -90.0, 0.0])
    duration = 2.5 if quick else 900 * h
    if reference == '353':
        ref = three_five_three(start + np.radians([0.0, 5.0, 25.0, 30.0])[:, None],
                               np.array([2.0, 5.0, 2.0]) / 1.21, model.joint_names)
    elif reference == 'square':
        ref = square_wave(start, math.radians(30.0), 4.9, duration, model.joint_names)
    else:
        raise InputError('reference', f"must be '353' or 'square', got {reference!r}")
    suffix = '' if conditions == 'simulation' else '_experiment'
    result = ScenarioResult(f'mirab_{reference}{suffix}',
                            f'Seed 003: MA3000, {reference} reference, 121 Hz, unknown '
                            f'{payload:g} kg payload, {conditions} conditions')
    extra = {} if relay_fraction is None else {'torque_scale': relay_fraction * np.array(
        model.effort_limits) / 10.0}
    # The thesis's estimator (waist equation, 0.98, Appendix B filter, never held).
    waist = replace(SEED003_ESTIMATOR, initial_mass=initial_mass)
    every = replace(SEED003_ESTIMATOR, initial_mass=initial_mass, joints=(0, 1, 2))
    controllers = [
        ('CT', ComputedTorque(model, h, 1600.0, 80.0)),
        ('CT+LME', ComputedTorqueLME(model, h, 1600.0, 80.0, estimator=waist)),
        ('MBVSST', MBVSST(model, h, estimator=waist, **extra)),
        ('CT+LME (all joints)', ComputedTorqueLME(model, h, 1600.0, 80.0, estimator=every)),
        ('MBVSST (all joints)', MBVSST(model, h, estimator=every, **extra)),
    ]
    rms = {}
    for label, ctl in controllers:
        res = run(result, truth, start, ctl, ref, duration, label, plant_dt=h / 8.0,
                  sensor=sensor)
        rms[label] = np.degrees(res.rms_error()).tolist()
        if 'payload_mass' in res.estimates:
            m_end = float(res.estimates['payload_mass'][-1])
            result.checks[f'{label} payload'] = m_end
            result.lines.append(f'{label}: final payload estimate {m_end:.4f} kg (true '
                                f'{payload:g} kg, error {100 * (m_end - payload) / payload:+.2f}'
                                ' %)')
    result.checks['rms_deg'] = rms
    best = {j: min(rms, key=lambda k: rms[k][j]) for j in range(3)}
    result.checks['best'] = best
    result.lines.append('RMS error [deg]          waist    shoulder     elbow')
    for k, v in rms.items():
        result.lines.append(f'  {k:20s} ' + '  '.join(f'{x:9.4f}' for x in v))
    result.lines.append('lowest RMS error per joint: ' + ', '.join(
        f'{name} {best[j]}' for j, name in enumerate(('waist', 'shoulder', 'elbow'))))
    return result
