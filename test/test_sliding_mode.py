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

"""Sliding mode on computed-torque decoupling: switching gain, boundary layer, relay."""

from control_models import pin_mass_matrix, two_link, two_link_frictionless
import numpy as np
import pytest
from robodyn_ros.control.base import JointReference
from robodyn_ros.control.sliding_mode import saturation, SlidingMode, switching_gain
from robodyn_ros.dynamics import inverse_dynamics
from robodyn_ros.errors import InputError
from robodyn_ros.planning.periodic import out_and_back
from robodyn_ros.sim.mismatch import perturbed_inertials
from robodyn_ros.sim.plant import Plant
from robodyn_ros.sim.runner import simulate


def _reference(model):
    q0 = np.array([0.2, -0.3])
    return out_and_back(q0, [0.6, -0.5], 1.0, model.joint_names), q0


def test_switching_function_and_laws():
    """sat(s / Phi) inside the layer, sign(s) with Phi = 0; both forms' torques."""
    model = two_link()
    assert saturation(np.array([-3.0, 0.2, 5.0])).tolist() == [-1.0, 0.2, 1.0]
    smc = SlidingMode(model, 1e-3, [5.0, 4.0], [30.0, 20.0], [0.1, 0.0])
    assert np.allclose(smc.switching(np.array([0.05, -0.3])), [0.5, -1.0])
    q, qd = np.array([0.1, 0.2]), np.array([0.3, -0.1])
    ref = JointReference(np.array([0.15, 0.1]), np.array([0.2, 0.1]), np.array([1.0, 0.5]))
    s = (ref.qd - qd) + np.array([5.0, 4.0]) * (ref.q - q)
    qdd_r = ref.qdd + np.array([5.0, 4.0]) * (ref.qd - qd)
    sw = np.where([True, False], saturation(s / 0.1), np.sign(s))
    tau, _ = smc.step(0.0, q, qd, ref)
    assert np.allclose(tau, inverse_dynamics(model, q, qd, qdd_r + np.array([30.0, 20.0]) * sw))
    relay = SlidingMode(model, 1e-3, [5.0, 4.0], [3.0, 2.0], 0.0, form='relay',
                        torque_limit=np.inf)
    tau, _ = relay.step(0.0, q, qd, ref)
    assert np.allclose(tau, inverse_dynamics(model, q, qd, qdd_r) + np.array([3.0, 2.0])
                       * np.sign(s))
    with pytest.raises(InputError):
        SlidingMode(model, 1e-3, 0.0, 1.0)
    with pytest.raises(InputError):
        SlidingMode(model, 1e-3, 1.0, 1.0, form='bang')


def test_switching_gain_dominates_the_model_error():
    """For a model off by less than the bound, |eta| = |M^-1 (tau_true - tau_model)| < K."""
    truth = two_link_frictionless()
    model = perturbed_inertials(truth, 0.2, seed=1)
    ref, _ = _reference(truth)
    _, q, qd, qdd = ref.dense(0.02)
    k = switching_gain(model, q, qd, qdd, inertial_error=0.25, friction_error=0.0, margin=0.0)
    for i in range(0, len(q), 3):
        eta = np.linalg.solve(pin_mass_matrix(model, q[i]),
                              inverse_dynamics(truth, q[i], qd[i], qdd[i])
                              - inverse_dynamics(model, q[i], qd[i], qdd[i]))
        assert np.all(np.abs(eta) <= k)
    k_small = switching_gain(model, q, qd, qdd, inertial_error=0.01, margin=0.0)
    assert np.all(k_small < k)


def test_boundary_layer_bounds_the_error():
    """With K above the model error, |s| enters the layer and |e| <= Phi / Lambda."""
    truth = two_link_frictionless()
    model = perturbed_inertials(truth, 0.2, seed=1)
    ref, q0 = _reference(truth)
    _, q, qd, qdd = ref.dense(0.02)
    lam, phi = 8.0, 0.2
    gain = switching_gain(model, q, qd, qdd, inertial_error=0.25)
    smc = SlidingMode(model, 1e-3, lam, gain, phi, torque_limit=np.inf)
    plant = Plant(truth, q0=q0, dt=5e-4, friction=False)
    res = simulate(plant, smc, ref, 1.0)
    s = res.estimates['sliding_variable']
    assert np.abs(s).max() <= phi * 1.05
    assert np.abs(res.error).max() <= phi / lam * 1.05


def test_wider_layer_less_chattering_more_error():
    """
    Chattering falls and the tracking error rises as the boundary layer widens.

    The torque power above 100 Hz falls for every width; once the layer is wider
    than the sampling resolves (Phi >= K h / 2) the reversals fall too, while
    the error rises (about Phi / Lambda).
    """
    truth = two_link_frictionless()
    model = perturbed_inertials(truth, 0.2, seed=1)
    ref, q0 = _reference(truth)
    _, q, qd, qdd = ref.dense(0.02)
    gain = switching_gain(model, q, qd, qdd, inertial_error=0.25)
    period = 2e-3
    widths = (0.0, 0.2, 0.5, 1.0)
    assert widths[1] >= gain.max() * period / 2.0
    power, reversals, errors = [], [], []
    for phi in widths:
        smc = SlidingMode(model, period, 8.0, gain, phi)
        res = simulate(Plant(truth, q0=q0, dt=1e-3, friction=False), smc, ref, 1.0)
        power.append(res.high_frequency_power(100.0).sum())
        reversals.append(res.reversals().mean())
        errors.append(np.sqrt(np.mean(res.error ** 2)))
    assert all(a > b for a, b in zip(power, power[1:]))
    assert reversals[0] > 100.0 and max(reversals[1:]) < 0.1 * reversals[0]
    assert errors[1] < errors[2] < errors[3]
