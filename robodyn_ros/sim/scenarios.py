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
Named closed-loop experiments (``robodyn sim SCENARIO``).

Each scenario builds the plant (the true robot), one or more controllers
(with their own, possibly wrong, models) and a reference, runs them with
:func:`~robodyn_ros.sim.runner.simulate` and reports per-joint errors and
torques plus its own checks (e.g. the paper's numbers side by side). The
experiments of seeds 001, 002 and 003 are here; their results are recorded
in ``docs/results.md``.
"""

from dataclasses import dataclass, field
import math

import numpy as np

from .mismatch import perturbed_inertials, scaled_inertia, scaled_inertials, \
    with_joint_friction, without_friction
from .plant import Plant
from .references import concatenate, cosine_excursion, repeated, rest_to_rest, \
    square_wave, three_five_three
from .runner import Fault, Sensor, simulate
from ..control.base import JointReference
from ..control.computed_torque import ComputedTorque
from ..control.computed_torque_lme import ComputedTorqueLME
from ..control.gains import max_joint_inertia, triple_pole_pid
from ..control.mbvsst import MBVSST
from ..control.pid import PID
from ..control.self_tuning import SelfTuningComputedTorque
from ..control.sliding_mode import SlidingMode, switching_gain
from ..control.slotine_li import SlotineLi
from ..errors import InputError
from ..model import load_robot


@dataclass
class ScenarioResult:
    """
    Outcome of a scenario.

    Attributes
    ----------
    name : str
        Scenario name.
    title : str
        One-line description.
    runs : list of SimResult
        The closed-loop runs.
    lines : list of str
        Scenario-specific report lines (checks, paper numbers).
    checks : dict
        Named numbers the tests and docs use.
    limits : dict
        Torque limit per run label (for the saturation statistics).

    """

    name: str
    title: str
    runs: list = field(default_factory=list)
    lines: list = field(default_factory=list)
    checks: dict = field(default_factory=dict)
    limits: dict = field(default_factory=dict)


def _run(result, plant_model, q0, controller, reference, duration, label, plant_dt=None,
         **kwargs):
    plant = Plant(plant_model, q0=q0, dt=plant_dt or controller.period / 4.0)
    res = simulate(plant, controller, reference, duration, label=label, **kwargs)
    result.runs.append(res)
    result.limits[label] = controller.torque_limit
    return res


# ---------------------------------------------------------------------- seed 001
def ct_perfect(robot='puma560', period=1e-3, omega=20.0, quick=False):
    """
    Compare computed torque on a perfect model with the analytic critically damped response.

    From an initial error ``e0`` (and ``e0' = 0``) while tracking a motion,
    the error of each joint must be ``e0 (1 + w t) exp(-w t)``. Plant and
    controller share the model (rigid body and rotor inertia; friction
    removed, since the plant's smoothed friction is not the model's); the
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
    q_start = _mid(model)
    goal = q_start + 0.3 * np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    duration = 0.5 if quick else 1.5
    ref = rest_to_rest(q_start, goal, duration, model.joint_names)
    e0 = 0.02
    deviation = {}
    for h in ((period,) if quick else (period, period / 2.0)):
        ct = ComputedTorque(model, h, omega=omega, torque_limit=np.inf)
        res = _run(result, model, q_start - e0, ct, ref, duration,
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
            res = _run(result, truth, q0, ct, ref, duration, f'{name}: {h * 1e3:g} ms',
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
        ref = three_five_three(start, np.radians([0.0, 5.0, 25.0, 30.0]),
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
    every = {'estimator_joints': (0, 1, 2)}
    controllers = [
        ('CT', ComputedTorque(model, h, 1600.0, 80.0)),
        ('CT+LME', ComputedTorqueLME(model, h, 1600.0, 80.0, initial_mass=initial_mass)),
        ('MBVSST', MBVSST(model, h, initial_mass=initial_mass, **extra)),
        ('CT+LME (all joints)', ComputedTorqueLME(model, h, 1600.0, 80.0,
                                                  initial_mass=initial_mass, **every)),
        ('MBVSST (all joints)', MBVSST(model, h, initial_mass=initial_mass, **extra, **every)),
    ]
    rms = {}
    for label, ctl in controllers:
        res = _run(result, truth, start, ctl, ref, duration, label, plant_dt=h / 8.0,
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


# ---------------------------------------------------------------------- sliding mode
def boundary_layer(robot='ma3000', widths=(0.0, 0.02, 0.05, 0.1, 0.2, 0.5), period=2e-3,
                   quick=False):
    """
    Sliding mode with growing boundary layers: chattering falls, error rises.

    The controller's model has 20 % inertial errors; the switching gain
    comes from a 25 % error bound along the reference.

    Parameters
    ----------
    robot : str
        Library robot.
    widths : sequence of float
        Boundary-layer widths ``Phi`` [rad/s].
    period : float
        Control period [s].
    quick : bool
        Shorter run.

    Returns
    -------
    ScenarioResult
        ``checks['reversals']`` and ``checks['rms_deg']`` per width.

    """
    truth = load_robot(robot)
    model = perturbed_inertials(truth, 0.2, seed=3)
    q0 = _mid(truth)
    amp = 0.4 * np.where(np.arange(truth.n) % 2 == 0, 1.0, -1.0)
    cycle = 1.0 if quick else 2.0
    out = rest_to_rest(q0, q0 + amp, cycle / 2.0, truth.joint_names)
    back = rest_to_rest(q0 + amp, q0, cycle / 2.0, truth.joint_names)
    ref = concatenate([out, back])
    _, qs, qds, qdds = ref.dense(0.01)
    gain = switching_gain(model, qs, qds, qdds, inertial_error=0.25)
    lam = 10.0
    result = ScenarioResult('boundary_layer', f'Sliding mode on CT decoupling ({robot}): '
                                              'boundary-layer width against chattering')
    rev, rms, hf = {}, {}, {}
    for phi in widths:
        smc = SlidingMode(model, period, lam, gain, phi)
        res = _run(result, truth, q0, smc, ref, cycle, f'Phi = {phi:g}', plant_dt=period / 8.0)
        rev[phi] = float(res.reversals().mean())
        rms[phi] = float(np.degrees(res.rms_error()).mean())
        hf[phi] = float(res.high_frequency_power(0.25 / period).mean())
    result.checks.update({'reversals': rev, 'rms_deg': rms, 'hf_power': hf,
                          'gain': gain.tolist()})
    result.lines.append(f'switching gain K = {np.round(gain, 2).tolist()} rad/s^2, '
                        f'Lambda = {lam} 1/s')
    result.lines.append('Phi [rad/s]   reversals/s   torque power > '
                        f'{0.25 / period:g} Hz [(N m)^2]   mean RMS error [deg]')
    for phi in widths:
        result.lines.append(f'  {phi:8g}   {rev[phi]:11.1f}   {hf[phi]:14.4g}   '
                            f'{rms[phi]:10.4f}')
    return result


# ---------------------------------------------------------------------- PID against CT
def puma_ct_vs_pid(period=1e-3, omega=20.0, quick=False):
    """
    Compare computed torque with triple-pole PID on a fast PUMA 560 motion.

    Joints 1-3 swing 1.0, 0.8 and 1.5 rad (wrist 0.5 rad) in 1 s and back
    (peak speeds 1.9, 1.5 and 2.8 rad/s, within the torque limits); both
    controllers use the same ``omega``.
    PID gains by seed 001 eq. 9.10 at the largest diagonal inertia; CT with
    the exact model.

    Parameters
    ----------
    period : float
        Control period [s].
    omega : float
        Pole magnitude of both designs [rad/s].
    quick : bool
        One swing only.

    Returns
    -------
    ScenarioResult
        ``checks['rms_deg']`` and ``checks['ratio']`` (PID / CT RMS error).

    """
    model = load_robot('puma560')
    q0 = np.array([0.0, -0.6, 0.6, 0.0, 0.0, 0.0])
    amp = np.array([1.0, 0.8, 1.5, 0.5, 0.5, 0.5])
    ref = concatenate([rest_to_rest(q0, q0 + amp, 1.0, model.joint_names),
                       rest_to_rest(q0 + amp, q0, 1.0, model.joint_names)])
    duration = 1.2 if quick else 2.5
    a = max_joint_inertia(model)
    viscous = np.array([j.friction.viscous_pos for j in model.joints])
    gains = triple_pole_pid(a, omega, viscous)
    result = ScenarioResult('puma_ct_vs_pid', 'PUMA 560: computed torque against triple-pole '
                                              'PID on a fast motion')
    pid = PID(model, period, gains.kp, gains.kd, gains.ki, integral_band=(1e-4, 0.2))
    ct = ComputedTorque(model, period, omega=omega)
    r_pid = _run(result, model, q0, pid, ref, duration, 'PID', plant_dt=period / 4.0)
    r_ct = _run(result, model, q0, ct, ref, duration, 'CT', plant_dt=period / 4.0)
    rms_pid, rms_ct = np.degrees(r_pid.rms_error()), np.degrees(r_ct.rms_error())
    result.checks.update({'rms_deg': {'PID': rms_pid.tolist(), 'CT': rms_ct.tolist()},
                          'ratio': (rms_pid / np.maximum(rms_ct, 1e-12)).tolist(),
                          'inertia': a.tolist()})
    result.lines.append(f'PID: a_j = {np.round(a, 3).tolist()} kg m^2, omega = {omega} rad/s, '
                        f'Kp = {np.round(gains.kp, 1).tolist()}, Kd = '
                        f'{np.round(gains.kd, 1).tolist()}, Ki = {np.round(gains.ki, 1).tolist()}')
    result.lines.append('RMS error ratio PID / CT per joint: '
                        + ', '.join(f'{x:.1f}' for x in result.checks['ratio']))
    return result


# ---------------------------------------------------------------------- self-tuning
def self_tuning(robot='ma3000', fraction=0.3, cycles=6, period=2e-3, law='rls', quick=False):
    """
    Self-tuning computed torque from a model with wrong inertial parameters.

    The controller starts from a model whose masses, centre offsets,
    inertias and rotor inertias are each off by +-``fraction``; it tracks a
    periodic motion; the error per cycle is compared with computed torque on
    the true model and on the wrong model.

    Parameters
    ----------
    robot : str
        Library robot.
    fraction : float
        Relative parameter error.
    cycles : int
        Repetitions of the motion.
    period : float
        Control period [s].
    law : {'rls', 'slotine_li'}
        Self-tuning CT (RLS on the base parameters) or Slotine-Li.
    quick : bool
        Two cycles.

    Returns
    -------
    ScenarioResult
        ``checks['rms_per_cycle']`` per controller [deg].

    """
    truth = load_robot(robot)
    wrong = perturbed_inertials(truth, fraction, seed=7)
    cycles = 2 if quick else cycles
    q0 = _mid(truth)
    amp = 0.5 * np.where(np.arange(truth.n) % 2 == 0, 1.0, -1.0)
    cycle_t = 2.0
    one = concatenate([rest_to_rest(q0, q0 + amp, cycle_t / 2, truth.joint_names),
                       rest_to_rest(q0 + amp, q0, cycle_t / 2, truth.joint_names)])
    ref = repeated(one, cycles)
    omega = 10.0
    if law == 'rls':
        adaptive = SelfTuningComputedTorque(wrong, period, omega=omega, forgetting=0.9995)
        name = 'self-tuning CT'
    elif law == 'slotine_li':
        kd = 2.0 * omega * np.diag(_mass_at_mid(wrong))
        adaptive = SlotineLi(wrong, period, omega, kd, gamma=2.0)
        name = 'Slotine-Li'
    else:
        raise InputError('law', f"must be 'rls' or 'slotine_li', got {law!r}")
    result = ScenarioResult(f'self_tuning_{law}', f'{name} from {100 * fraction:.0f} % wrong '
                                                  f'inertial parameters ({robot})')
    runs = [('CT true model', ComputedTorque(truth, period, omega=omega)),
            ('CT wrong model', ComputedTorque(wrong, period, omega=omega)),
            (name, adaptive)]
    per_cycle = {}
    for label, ctl in runs:
        res = _run(result, truth, q0, ctl, ref, cycles * cycle_t, label, plant_dt=period / 4.0)
        per_cycle[label] = [float(np.degrees(res.rms_error(k * cycle_t, (k + 1) * cycle_t))
                                  .max()) for k in range(cycles)]
    result.checks['rms_per_cycle'] = per_cycle
    result.lines.append('worst-joint RMS error per ' f'{cycle_t:g} s cycle [deg]:')
    for label, values in per_cycle.items():
        result.lines.append(f'  {label:16s} ' + '  '.join(f'{v:.4f}' for v in values))
    return result


# ---------------------------------------------------------------------- safe outputs
def safe_outputs(robot='ma3000', period=1e-3, quick=False):
    """
    Faults in closed loop: NaN state, stale state, missing and NaN reference.

    Computed torque holds a pose; faults are injected in windows; the
    controller must give its safe outputs and recover.

    Parameters
    ----------
    robot : str
        Library robot.
    period : float
        Control period [s].
    quick : bool
        Control at 2 ms instead of ``period`` (fewer steps, same faults).

    Returns
    -------
    ScenarioResult
        ``checks`` with the fraction of samples per mode and the final error.

    """
    period = max(period, 2e-3) if quick else period
    model = load_robot(robot)
    q0 = _mid(model)
    faults = (Fault(0.2, 0.25, 'nan_state'), Fault(0.4, 0.45, 'stale_state'),
              Fault(0.6, 0.7, 'no_reference'), Fault(0.8, 0.85, 'nan_reference'))
    ct = ComputedTorque(model, period, omega=20.0)
    result = ScenarioResult('safe_outputs', f'Safe outputs and recovery ({robot})')
    res = _run(result, model, q0, ct, lambda t: JointReference.hold(q0), 1.2, 'CT with faults',
               faults=faults)
    result.checks.update({m: res.time_in_mode(m) for m in ('ok', 'saturated', 'hold', 'zero')})
    result.checks['final_error'] = float(np.abs(res.error[-1]).max())
    result.lines.append('faults: NaN state 0.2-0.25 s (zero torque), stale state 0.4-0.45 s '
                        '(zero torque), no reference 0.6-0.7 s and NaN reference 0.8-0.85 s '
                        '(gravity hold)')
    result.lines.append('time in mode: ' + ', '.join(f'{m} {100 * result.checks[m]:.1f} %'
                                                     for m in ('ok', 'saturated', 'hold',
                                                               'zero')))
    result.lines.append(f'final error {result.checks["final_error"]:.2e} rad')
    return result


# ---------------------------------------------------------------------- helpers
def _mid(model):
    lo = np.where(np.isfinite(model.lower_limits), model.lower_limits, -math.pi)
    hi = np.where(np.isfinite(model.upper_limits), model.upper_limits, math.pi)
    q = np.clip(np.zeros(model.n), lo, hi)
    return 0.5 * (q + 0.5 * (lo + hi))


def _mass_at_mid(model):
    from ..dynamics import mass_matrix
    return mass_matrix(model, _mid(model))


SCENARIOS = {
    'ct_perfect': ct_perfect,
    'kanade_period': kanade_period,
    'mirab_353': lambda quick=False: mirab('353', quick=quick),
    'mirab_square': lambda quick=False: mirab('square', quick=quick),
    'mirab_353_experiment': lambda quick=False: mirab('353', quick=quick,
                                                      conditions='experiment'),
    'boundary_layer': boundary_layer,
    'puma_ct_vs_pid': puma_ct_vs_pid,
    'self_tuning': self_tuning,
    'slotine_li': lambda quick=False: self_tuning(law='slotine_li', quick=quick),
    'safe_outputs': safe_outputs,
}


def run_scenario(name, quick=False):
    """
    Run a named scenario.

    Parameters
    ----------
    name : str
        One of :data:`SCENARIOS`.
    quick : bool
        Shorter runs (for smoke tests).

    Returns
    -------
    ScenarioResult
        The runs and the report lines.

    """
    if name not in SCENARIOS:
        raise InputError('scenario', f'unknown {name!r}; known: {", ".join(SCENARIOS)}')
    return SCENARIOS[name](quick=quick)
