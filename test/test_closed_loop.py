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

"""The seed experiments in closed loop (shortened where the claim allows)."""

from dataclasses import replace

from control_models import two_link
import numpy as np
import pytest
from robodyn_ros.control.computed_torque import ComputedTorque
from robodyn_ros.control.computed_torque_lme import ComputedTorqueLME
from robodyn_ros.control.gains import max_joint_inertia, triple_pole_pid
from robodyn_ros.control.payload import SEED003_ESTIMATOR
from robodyn_ros.control.pid import PID
from robodyn_ros.errors import InputError
from robodyn_ros.model import load_robot
from robodyn_ros.planning.multi_segment import three_five_three
from robodyn_ros.planning.periodic import out_and_back
from robodyn_ros.sim.plant import Plant
from robodyn_ros.sim.runner import simulate
from robodyn_ros.sim.scenarios import KANADE_PAPER, kanade_period, mirab, run_scenario


def test_kanade_errors_grow_with_the_period():
    """Seed 002: for given gains and mismatch, a shorter period gives smaller errors."""
    res = kanade_period(quick=True)
    table = res.checks['max_error_deg']['mass properties x1.1']
    assert res.checks['ordered']['mass properties x1.1']
    fast, slow = np.array(table[0.001]), np.array(table[0.010])
    assert np.all(fast < slow)
    # Same order as the paper at 1 ms (its 10 ms errors are not reproduced; see results.md).
    paper = np.array(KANADE_PAPER[0.001])
    assert np.all(fast > 0.4 * paper) and np.all(fast < 2.0 * paper)


def test_mirab_load_estimation_beats_ct_at_the_waist():
    """Seed 003 (thesis simulation conditions): the waist error falls and m_hat -> m within 5 %."""
    model = load_robot('ma3000')
    truth = model.with_payload(2.0, frame=model.end_effector)
    h = 1.0 / 121.0
    start = np.radians([0.0, -90.0, 0.0])
    ref = three_five_three(start + np.radians([0.0, 5.0, 25.0, 30.0])[:, None],
                           np.array([2.0, 5.0, 2.0]) / 1.21, model.joint_names)
    runs = {}
    lme = replace(SEED003_ESTIMATOR, initial_mass=1.5)   # the thesis's estimator
    for label, ctl in (('CT', ComputedTorque(model, h, 1600.0, 80.0)),
                       ('LME', ComputedTorqueLME(model, h, 1600.0, 80.0, estimator=lme))):
        runs[label] = simulate(Plant(truth, q0=start, dt=h / 2, friction=False), ctl, ref,
                               900 * h)
    assert runs['LME'].rms_error()[0] < 0.1 * runs['CT'].rms_error()[0]
    assert abs(runs['LME'].estimates['payload_mass'][-1] - 2.0) < 0.05 * 2.0


def test_computed_torque_beats_triple_pole_pid_on_a_fast_motion():
    """Same pole magnitude, same plant: CT tracks a fast motion several times better."""
    model = two_link()
    q0 = np.array([0.0, -0.5])
    ref = out_and_back(q0, [1.5, 1.2], 1.2, model.joint_names)
    gains = triple_pole_pid(max_joint_inertia(model), 20.0, [0.5, 0.0])
    errors = {}
    for label, ctl in (('pid', PID(model, 1e-3, gains.kp, gains.kd, gains.ki)),
                       ('ct', ComputedTorque(model, 1e-3, omega=20.0))):
        res = simulate(Plant(model, q0=q0, dt=5e-4), ctl, ref, 1.2)
        errors[label] = np.sqrt(np.mean(res.error ** 2))
    assert errors['ct'] < errors['pid'] / 3.0


def test_unknown_scenario_and_conditions():
    """Unknown names are input errors."""
    with pytest.raises(InputError):
        run_scenario('nope')
    with pytest.raises(InputError):
        mirab(conditions='moon', quick=True)
