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

"""The Slotine-Li adaptive law (seed 003 eqs. 6.17-6.22)."""

from control_models import two_link_frictionless
import numpy as np
import pytest
from robodyn_ros.control.base import JointReference
from robodyn_ros.control.slotine_li import SlotineLi
from robodyn_ros.errors import InputError
from robodyn_ros.planning.periodic import out_and_back, repeated
from robodyn_ros.sim.mismatch import perturbed_inertials
from robodyn_ros.sim.plant import Plant
from robodyn_ros.sim.runner import simulate


def test_law_and_adaptation_step():
    """Torque Y a - K_D s and update a += -h Gamma Y' s (against the regressor)."""
    model = two_link_frictionless()
    sl = SlotineLi(model, 0.01, [5.0, 4.0], [2.0, 1.0], gamma=0.5, torque_limit=np.inf)
    q, qd = np.array([0.1, 0.2]), np.array([0.3, -0.1])
    ref = JointReference(np.array([0.2, 0.1]), np.array([0.1, 0.2]), np.array([1.0, -1.0]))
    e = ref.q - q
    qd_r = ref.qd + np.array([5.0, 4.0]) * e
    qdd_r = ref.qdd + np.array([5.0, 4.0]) * (ref.qd - qd)
    s = qd - qd_r
    y = sl.params.slotine_li_regressor(q, qd, qd_r, qdd_r)
    a0 = sl.a_hat.copy()
    tau, _ = sl.step(0.0, q, qd, ref)
    assert np.allclose(tau, y @ a0 - np.array([2.0, 1.0]) * s)
    expected = np.clip(a0 - 0.01 * sl.gamma * (y.T @ s), sl.lower, sl.upper)
    assert np.allclose(sl.a_hat, expected)
    with pytest.raises(InputError):
        SlotineLi(model, 0.01, 1.0, 0.0)


def test_adaptation_pauses_while_saturated():
    """No parameter update in a saturated step."""
    model = two_link_frictionless()
    sl = SlotineLi(model, 0.01, 5.0, 50.0, torque_limit=[0.1, 0.1])
    a0 = sl.a_hat.copy()
    sl.step(0.0, [0.0, 0.0], [0.0, 0.0], JointReference.hold([1.0, 1.0]))
    assert np.array_equal(sl.a_hat, a0)


def test_tracking_error_falls_cycle_after_cycle():
    """From 30 % wrong parameters the error shrinks each cycle and beats fixed CT."""
    truth = two_link_frictionless()
    wrong = perturbed_inertials(truth, 0.3, seed=7)
    q0 = np.array([0.1, -0.4])
    amp = np.array([0.8, -0.9])
    cycle = 1.5
    ref = repeated(out_and_back(q0, amp, cycle, truth.joint_names), 3)
    h = 5e-3
    kd = 20.0 * np.array([0.3, 0.1])
    sl = SlotineLi(wrong, h, 10.0, kd, gamma=5.0)
    fixed = SlotineLi(wrong, h, 10.0, kd, adapt=False)
    res = simulate(Plant(truth, q0=q0, dt=1e-3, friction=False), sl, ref, 3 * cycle)
    base = simulate(Plant(truth, q0=q0, dt=1e-3, friction=False), fixed, ref, 3 * cycle)
    rms = [np.sqrt(np.mean(res.error[(res.times >= k * cycle) & (res.times < (k + 1) * cycle)]
                           ** 2)) for k in range(3)]
    assert rms[0] > rms[1] > rms[2]
    assert rms[2] < 0.3 * np.sqrt(np.mean(base.error[base.times >= 2 * cycle] ** 2))
    assert 'base_parameters' in res.estimates
