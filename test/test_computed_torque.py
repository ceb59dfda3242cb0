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

"""Joint-space computed torque: tracking, regulation, predictive (seed 001 §9.4.2)."""

from control_models import two_link, two_link_frictionless
import numpy as np
import pytest
from robodyn_ros.control.base import JointReference
from robodyn_ros.control.computed_torque import ComputedTorque
from robodyn_ros.control.model_dynamics import ModelDynamics
from robodyn_ros.dynamics import inverse_dynamics
from robodyn_ros.errors import InputError
from robodyn_ros.planning.point_to_point import point_to_point
from robodyn_ros.sim.plant import Plant
from robodyn_ros.sim.runner import simulate


class _Counting(ModelDynamics):
    """Count the calls of each dynamics routine."""

    def __init__(self, model):
        super().__init__(model, 'numpy')
        self.calls = {'inverse_dynamics': 0, 'mass_matrix': 0, 'gravity': 0}

    def inverse_dynamics(self, q, qd, qdd):
        self.calls['inverse_dynamics'] += 1
        return super().inverse_dynamics(q, qd, qdd)

    def mass_matrix(self, q):
        self.calls['mass_matrix'] += 1
        return super().mass_matrix(q)

    def gravity(self, q):
        self.calls['gravity'] += 1
        return super().gravity(q)


def _critically_damped_error(period):
    model = two_link_frictionless()
    omega, e0 = 20.0, 0.03
    start = np.array([0.2, -0.3])
    ref = point_to_point(start, start + [0.5, -0.4], 'quintic', duration=0.6,
                         joint_names=model.joint_names)
    ct = ComputedTorque(model, period, omega=omega, torque_limit=np.inf)
    plant = Plant(model, q0=start - e0, dt=period / 2.0, friction=False)
    res = simulate(plant, ct, ref, 0.6)
    analytic = e0 * (1.0 + omega * res.times) * np.exp(-omega * res.times)
    return np.abs(res.error - analytic[:, None]).max() / e0


def test_perfect_model_error_is_the_analytic_critically_damped_response():
    """Seed 001 claim 26: e(t) = e0 (1 + w t) exp(-w t); the residue is the sampling, O(h)."""
    coarse = _critically_damped_error(1e-3)
    fine = _critically_damped_error(5e-4)
    assert coarse < 0.03          # within 3 % of e0 at 1 ms (w h = 0.02)
    assert 1.7 < coarse / fine < 2.3   # halves with the period: a discretisation effect


def test_one_inverse_dynamics_call_per_step_and_no_mass_matrix():
    """The law is one IDM evaluation (seed 001 §9.4.2.5); M and h are never formed."""
    model = two_link()
    dyn = _Counting(model)
    ct = ComputedTorque(model, 1e-3, omega=10.0, dynamics=dyn)
    dyn.calls = dict.fromkeys(dyn.calls, 0)
    ref = JointReference(np.array([0.1, 0.2]), np.array([0.3, 0.0]), np.array([1.0, -1.0]))
    for form in ('tracking', 'regulation', 'predictive'):
        ct.form = form
        for _ in range(4):
            ct.step(0.0, [0.0, 0.1], [0.1, 0.0], ref)
    assert dyn.calls == {'inverse_dynamics': 12, 'mass_matrix': 0, 'gravity': 0}


def test_forms_and_their_torques():
    """Tracking, regulation and predictive torques equal IDM at the documented arguments."""
    model = two_link()
    kp, kd = np.array([100.0, 64.0]), np.array([20.0, 16.0])
    q, qd = np.array([0.1, -0.2]), np.array([0.4, -0.3])
    ref = JointReference(np.array([0.3, 0.1]), np.array([0.5, 0.2]), np.array([1.0, -2.0]))
    w_track = ref.qdd + kd * (ref.qd - qd) + kp * (ref.q - q)
    w_reg = kp * (ref.q - q) - kd * qd
    expected = {'tracking': inverse_dynamics(model, q, qd, w_track),
                'regulation': inverse_dynamics(model, q, qd, w_reg),
                'predictive': inverse_dynamics(model, ref.q, ref.qd, w_track)}
    for form, tau_ref in expected.items():
        ct = ComputedTorque(model, 1e-3, kp, kd, form=form, torque_limit=np.inf)
        tau, _ = ct.step(0.0, q, qd, ref)
        assert np.allclose(tau, tau_ref, atol=1e-10), form


def test_predictive_equals_tracking_on_the_reference():
    """Seed 001 claim 28: RNE(q_ref, qd_ref, w) = RNE(q, qd, w) when tracking is perfect."""
    model = two_link()
    ref = JointReference(np.array([0.3, 0.1]), np.array([0.5, 0.2]), np.array([1.0, -2.0]))
    a = ComputedTorque(model, 1e-3, omega=10.0, form='tracking', torque_limit=np.inf)
    b = ComputedTorque(model, 1e-3, omega=10.0, form='predictive', torque_limit=np.inf)
    ta, _ = a.step(0.0, ref.q, ref.qd, ref)
    tb, _ = b.step(0.0, ref.q, ref.qd, ref)
    assert np.allclose(ta, tb, atol=1e-12)


def test_integral_term_removes_a_payload_offset():
    """With Ki the static error of an unmodelled payload goes to zero."""
    model = two_link_frictionless()
    plant_model = model.with_payload(0.8)
    goal = np.array([0.7, 0.4])
    errors = {}
    for ki in (0.0, 1000.0):
        ct = ComputedTorque(model, 1e-3, omega=20.0, ki=ki)
        plant = Plant(plant_model, q0=goal, dt=5e-4, friction=False)
        res = simulate(plant, ct, lambda t: JointReference.hold(goal), 1.5)
        errors[ki] = np.abs(res.error[-1]).max()
    assert errors[0.0] > 5e-3 and errors[1000.0] < 0.05 * errors[0.0]


def test_configuration_errors():
    """Gains are required once, valid and of the right length; the form must exist."""
    model = two_link()
    with pytest.raises(InputError):
        ComputedTorque(model, 1e-3)
    with pytest.raises(InputError):
        ComputedTorque(model, 1e-3, 1.0, 1.0, omega=3.0)
    with pytest.raises(InputError):
        ComputedTorque(model, 1e-3, [1.0, 2.0, 3.0], 1.0)
    with pytest.raises(InputError):
        ComputedTorque(model, 1e-3, omega=3.0, form='magic')
    assert 'tracking' in repr(ComputedTorque(model, 1e-3, omega=3.0))
