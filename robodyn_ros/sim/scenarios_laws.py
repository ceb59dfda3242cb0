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
Scenarios about the laws themselves.

Boundary layers against chattering, computed torque against PID, self-tuning
from a wrong model, safe outputs under faults.
"""

import numpy as np

from .mismatch import perturbed_inertials
from .runner import Fault
from .scenario_base import mass_at_mid, run, ScenarioResult
from ..control.base import JointReference
from ..control.computed_torque import ComputedTorque
from ..control.gains import max_joint_inertia, triple_pole_pid
from ..control.pid import PID
from ..control.self_tuning import ParameterEstimatorSettings, SelfTuningComputedTorque
from ..control.sliding_mode import SlidingMode, switching_gain
from ..control.slotine_li import SlotineLi
from ..errors import InputError
from ..model import load_robot
from ..planning.periodic import out_and_back, repeated


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
    q0 = truth.home_configuration(0.5)
    amp = 0.4 * np.where(np.arange(truth.n) % 2 == 0, 1.0, -1.0)
    cycle = 1.0 if quick else 2.0
    ref = out_and_back(q0, amp, cycle, truth.joint_names)
    _, qs, qds, qdds = ref.dense(0.01)
    gain = switching_gain(model, qs, qds, qdds, inertial_error=0.25)
    lam = 10.0
    result = ScenarioResult('boundary_layer', f'Sliding mode on CT decoupling ({robot}): '
                                              'boundary-layer width against chattering')
    rev, rms, hf = {}, {}, {}
    for phi in widths:
        smc = SlidingMode(model, period, lam, gain, phi)
        res = run(result, truth, q0, smc, ref, cycle, f'Phi = {phi:g}', plant_dt=period / 8.0)
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
    ref = out_and_back(q0, amp, 2.0, model.joint_names)
    duration = 1.2 if quick else 2.5
    a = max_joint_inertia(model)
    viscous = np.array([j.friction.viscous_pos for j in model.joints])
    gains = triple_pole_pid(a, omega, viscous)
    result = ScenarioResult('puma_ct_vs_pid', 'PUMA 560: computed torque against triple-pole '
                                              'PID on a fast motion')
    pid = PID(model, period, gains.kp, gains.kd, gains.ki, integral_band=(1e-4, 0.2))
    ct = ComputedTorque(model, period, omega=omega)
    r_pid = run(result, model, q0, pid, ref, duration, 'PID', plant_dt=period / 4.0)
    r_ct = run(result, model, q0, ct, ref, duration, 'CT', plant_dt=period / 4.0)
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
    q0 = truth.home_configuration(0.5)
    amp = 0.5 * np.where(np.arange(truth.n) % 2 == 0, 1.0, -1.0)
    cycle_t = 2.0
    ref = repeated(out_and_back(q0, amp, cycle_t, truth.joint_names), cycles)
    omega = 10.0
    if law == 'rls':
        adaptive = SelfTuningComputedTorque(
            wrong, period, omega=omega, estimator=ParameterEstimatorSettings(forgetting=0.9995))
        name = 'self-tuning CT'
    elif law == 'slotine_li':
        kd = 2.0 * omega * np.diag(mass_at_mid(wrong))
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
        res = run(result, truth, q0, ctl, ref, cycles * cycle_t, label, plant_dt=period / 4.0)
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
    q0 = model.home_configuration(0.5)
    faults = (Fault(0.2, 0.25, 'nan_state'), Fault(0.4, 0.45, 'stale_state'),
              Fault(0.6, 0.7, 'no_reference'), Fault(0.8, 0.85, 'nan_reference'))
    ct = ComputedTorque(model, period, omega=20.0)
    result = ScenarioResult('safe_outputs', f'Safe outputs and recovery ({robot})')
    res = run(result, model, q0, ct, lambda t: JointReference.hold(q0), 1.2, 'CT with faults',
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
