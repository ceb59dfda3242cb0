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

"""PID with integral switch-off and anti-windup; PD plus gravity (seed 001 §9.3)."""

from control_models import pin_mass_matrix, two_link, two_link_frictionless
import numpy as np
import pytest
from robodyn_ros.control.base import JointReference, Mode
from robodyn_ros.control.gains import max_joint_inertia, triple_pole_pid
from robodyn_ros.control.pid import PDGravity, PID
from robodyn_ros.errors import InputError
from robodyn_ros.sim.plant import Plant
from robodyn_ros.sim.runner import simulate


def test_pid_law_and_integral():
    """Torque Kp e + Kd e' + Ki integral(e), the integral by forward Euler."""
    model = two_link()
    pid = PID(model, 0.01, [10.0, 20.0], [1.0, 2.0], [5.0, 6.0])
    ref = JointReference(np.array([0.3, -0.2]), np.array([0.5, 0.0]), np.zeros(2))
    tau, _ = pid.step(0.0, [0.1, 0.0], [0.2, 0.1], ref)
    assert np.allclose(tau, [10 * 0.2 + 1 * 0.3, 20 * -0.2 + 2 * -0.1])
    tau2, _ = pid.step(0.01, [0.1, 0.0], [0.2, 0.1], ref)
    assert np.allclose(tau2 - tau, [5 * 0.01 * 0.2, 6 * 0.01 * -0.2])


def test_integral_switch_off_band():
    """The integral is frozen where |e| is below the small or above the large threshold."""
    pid = PID(two_link(), 0.1, 1.0, 0.0, 1.0, integral_band=(0.01, 0.5))
    for q_ref in ([0.005, 0.2], [0.005, 0.2]):
        pid.step(0.0, [0.0, 0.0], [0.0, 0.0], JointReference.hold(q_ref))
    assert np.allclose(pid.integral, [0.0, 0.04])
    pid.step(0.0, [0.0, 0.0], [0.0, 0.0], JointReference.hold([0.9, -0.9]))
    assert np.allclose(pid.integral, [0.0, 0.04])
    with pytest.raises(InputError):
        PID(two_link(), 0.1, 1.0, 0.0, 1.0, integral_band=(0.5, 0.1))


def test_anti_windup_stops_integration_into_saturation():
    """A saturated joint does not integrate further; the integral torque stays within the limit."""
    model = two_link()
    pid = PID(model, 0.01, 100.0, 0.0, 50.0, torque_limit=[5.0, 5.0])
    for _ in range(200):
        _, st = pid.step(0.0, [0.0, 0.0], [0.0, 0.0], JointReference.hold([1.0, -1.0]))
    assert st.mode == Mode.SATURATED and np.allclose(pid.integral, 0.0)
    free = PID(model, 0.01, 0.0, 0.0, 50.0, torque_limit=[5.0, 5.0])
    for _ in range(200):
        free.step(0.0, [0.0, 0.0], [0.0, 0.0], JointReference.hold([1.0, -1.0]))
    assert np.all(np.abs(free.ki * free.integral) <= 5.0 + 1e-12)


def test_triple_pole_pid_regulates_against_gravity_and_friction():
    """Closed loop on the plant: the integral removes the gravity offset."""
    model = two_link()
    a = max_joint_inertia(model)
    gains = triple_pole_pid(a, 20.0, [0.5, 0.0])
    pid = PID(model, 1e-3, gains.kp, gains.kd, gains.ki, integral_band=(0.0, 0.3))
    goal = np.array([0.5, -0.4])
    plant = Plant(model, q0=[0.3, -0.2], dt=5e-4)
    res = simulate(plant, pid, lambda t: JointReference.hold(goal), 2.0)
    assert np.abs(res.error[-1]).max() < 2e-3
    assert np.abs(res.error[int(0.2 / 1e-3)]).max() > 1e-2   # it did have to move


@pytest.mark.parametrize('gravity_at', ['measured', 'desired'])
def test_pd_gravity_lyapunov_function_does_not_grow(gravity_at):
    """Seed 001 claim 27: V = qd' M qd / 2 + e' Kp e / 2 is non-increasing; q -> q_ref."""
    model = two_link_frictionless()
    kp, kd = np.array([60.0, 30.0]), np.array([8.0, 4.0])
    ctl = PDGravity(model, 1e-3, kp, kd, gravity_at=gravity_at)
    goal = np.array([0.6, -0.5])
    plant = Plant(model, q0=[0.1, 0.3], dt=5e-4, friction=False)
    res = simulate(plant, ctl, lambda t: JointReference.hold(goal), 1.5)
    v = np.array([0.5 * qd @ pin_mass_matrix(model, q) @ qd + 0.5 * e @ (kp * e)
                  for q, qd, e in zip(res.q[::10], res.qd[::10], res.error[::10])])
    assert np.all(np.diff(v) <= 1e-3 * v[0])
    assert v[-1] < 1e-3 * v[0] and np.abs(res.error[-1]).max() < 2e-2
