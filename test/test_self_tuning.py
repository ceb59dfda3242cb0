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

"""Self-tuning computed torque (RLS on the base parameters) from a wrong model."""

from control_models import two_link, two_link_frictionless
import numpy as np
import pytest
from robodyn_ros.control.base import JointReference
from robodyn_ros.control.computed_torque import ComputedTorque
from robodyn_ros.control.self_tuning import (parameter_box, ParameterEstimatorSettings,
                                             SelfTuningComputedTorque)
from robodyn_ros.errors import InputError
from robodyn_ros.planning.periodic import out_and_back, repeated
from robodyn_ros.sim.mismatch import perturbed_inertials
from robodyn_ros.sim.plant import Plant
from robodyn_ros.sim.runner import simulate

CYCLE = 1.5


def _motion(model, cycles):
    q0 = np.array([0.1, -0.4])
    amp = np.array([0.8, -0.9])
    return repeated(out_and_back(q0, amp, CYCLE, model.joint_names), cycles), q0


def _worst_rms(res, k):
    return np.degrees(res.rms_error(k * CYCLE, (k + 1) * CYCLE)).max()


def test_self_tuning_ct_converges_to_the_true_model_tracking():
    """From 30 % wrong parameters it learns them and tracks nearly like CT on the true model."""
    truth = two_link_frictionless()
    wrong = perturbed_inertials(truth, 0.3, seed=7)
    ref, q0 = _motion(truth, 4)
    h = 5e-3
    runs = {}
    for label, ctl in (('true', ComputedTorque(truth, h, omega=10.0)),
                       ('wrong', ComputedTorque(wrong, h, omega=10.0)),
                       # A vague prior (100 %) learns this well-excited arm in two cycles.
                       ('tuned', SelfTuningComputedTorque(
                           wrong, h, omega=10.0, estimator=ParameterEstimatorSettings(
                               variance_fraction=1.0, bound_fraction=1.0)))):
        runs[label] = simulate(Plant(truth, q0=q0, dt=1e-3, friction=False), ctl, ref,
                               4 * CYCLE)
    true4, wrong4, tuned4 = (_worst_rms(runs[k], 3) for k in ('true', 'wrong', 'tuned'))
    per_cycle = [_worst_rms(runs['tuned'], k) for k in range(4)]
    assert wrong4 > 10.0 * true4             # the wrong model is clearly worse
    assert tuned4 < 0.1 * wrong4             # the tuned one is far better than where it began
    assert tuned4 < 3.0 * true4              # and close to the true model's tracking
    assert per_cycle[3] < 0.3 * per_cycle[0]
    ctl = SelfTuningComputedTorque(wrong, h, omega=10.0)
    beta_true = ctl.params.values(truth)
    beta_end = runs['tuned'].estimates['base_parameters'][-1]
    big = np.abs(beta_true) > 0.1 * np.abs(beta_true).max()
    assert np.allclose(beta_end[big], beta_true[big], rtol=0.05)


def test_estimates_stay_in_their_box():
    """Random, unrelated data cannot push the estimate out of its bounds."""
    model = two_link()
    ctl = SelfTuningComputedTorque(model, 0.01, omega=5.0,
                                   estimator=ParameterEstimatorSettings(bound_fraction=0.5))
    lo, hi = ctl.rls.lower.copy(), ctl.rls.upper.copy()
    box = parameter_box(ctl.params.nominal, 0.5)
    assert np.allclose(hi - ctl.params.nominal, box)
    rng = np.random.default_rng(0)
    for _ in range(40):
        ctl._last_tau = rng.normal(0, 30, 2)
        ctl.step(0.0, rng.normal(0, 1, 2), rng.normal(0, 2, 2), JointReference.hold([0.0, 0.0]))
        assert np.all(ctl.beta >= lo - 1e-12) and np.all(ctl.beta <= hi + 1e-12)
    ctl.reset()
    assert np.allclose(ctl.beta, ctl.params.nominal)
    for field, bad in (('filter_coefficients', (0.1, 1.0)), ('forgetting', 1.1),
                       ('variance_fraction', 0.0), ('bound_fraction', -0.5),
                       ('friction', 'viscous')):
        with pytest.raises(InputError) as err:
            ParameterEstimatorSettings(**{field: bad})
        assert err.value.argument == field, (field, bad)
    with pytest.raises(InputError, match='estimator'):
        SelfTuningComputedTorque(model, 0.01, omega=5.0, estimator=0.999)
