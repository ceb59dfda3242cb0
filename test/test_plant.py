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


"""The simulated plant (Pinocchio forward dynamics with the plant's own friction)."""

import os

from dyn_models import random_dh_model
import numpy as np
import pytest
from robodyn_ros.dynamics import forward_dynamics, inverse_dynamics, mass_matrix
from robodyn_ros.errors import InputError
from robodyn_ros.model import load_robot
from robodyn_ros.sim import Plant


def test_acceleration_matches_our_forward_dynamics():
    """Plant accelerations equal ours: frictionless, velocity friction, load friction."""
    rng = np.random.default_rng(0)
    for model in (load_robot('ur5'), random_dh_model(3, stribeck=True), load_robot('puma560')):
        plant = Plant(model, smoothing_velocity=0.0)
        for _ in range(10):
            q = model.random_configuration(rng)
            qd = rng.normal(0, 0.5, model.n)
            tau = rng.normal(0, 20, model.n)
            expected = forward_dynamics(model, q, qd, tau)
            # The bearing friction uses the last acceleration: give it the converged one.
            plant.qdd = expected
            assert np.allclose(plant.acceleration(q, qd, tau), expected, atol=1e-7)
            plain = Plant(model, friction=False)
            assert np.allclose(plain.acceleration(q, qd, tau),
                               forward_dynamics(model, q, qd, tau, friction=False), atol=1e-9)


@pytest.mark.parametrize('integrator, dt', [('rk4', 2.5e-4), ('semi_implicit', 1e-3)])
def test_inverse_dynamics_torque_holds_the_plant(integrator, dt):
    """The model's own holding torque keeps the plant at rest (both integrators)."""
    model = load_robot('puma560')
    q0 = np.array([0.2, -0.6, 0.7, 0.1, 0.4, -0.2])
    plant = Plant(model, q0=q0, integrator=integrator, dt=dt)
    for _ in range(100):
        plant.step(inverse_dynamics(model, plant.q, np.zeros(6), np.zeros(6)), 1e-3)
    assert np.allclose(plant.q, q0, atol=1e-9) and plant.time == pytest.approx(0.1)


def test_frictionless_free_motion_conserves_energy():
    """Without friction and gravity the kinetic energy stays constant (RK4)."""
    model = load_robot('ur5').with_gravity([0, 0, 0])
    plant = Plant(model, qd0=[1.0, -0.5, 0.8, 0.3, -1.0, 0.5], friction=False, dt=2.5e-4)

    def energy():
        return 0.5 * plant.qd @ mass_matrix(model, plant.q) @ plant.qd

    e0 = energy()
    for _ in range(200):
        plant.step(np.zeros(6), 1e-3)
    assert energy() == pytest.approx(e0, rel=1e-6)


def test_friction_dissipates_and_brings_the_arm_to_rest():
    """With friction and no gravity, a spinning arm stops."""
    model = load_robot('puma560').with_gravity([0, 0, 0])
    plant = Plant(model, qd0=[0.5, 0, 0, 0, 0, 0], integrator='semi_implicit', dt=1e-3)
    for _ in range(1000):
        plant.step(np.zeros(6), 1e-3)
    assert abs(plant.qd[0]) < 1e-2


def test_bad_input():
    """Refuse NaN torques, wrong shapes and bad settings."""
    plant = Plant(load_robot('ur5'))
    with pytest.raises(InputError, match='tau'):
        plant.step([np.nan] * 6)
    with pytest.raises(InputError, match='tau'):
        plant.step([0.0] * 5)
    with pytest.raises(InputError, match='dt'):
        Plant(load_robot('ur5'), dt=0.0)
    with pytest.raises(InputError, match='integrator'):
        Plant(load_robot('ur5'), integrator='euler')


@pytest.mark.parametrize('integrator', ['rk4', 'semi_implicit'])
def test_advance_is_one_unchecked_step(integrator):
    """advance(tau, h) moves the plant as step(tau, h) does; it leaves checks to finite()."""
    model = load_robot('puma560')
    stepped = Plant(model, q0=[0.2, -0.6, 0.7, 0.1, 0.4, -0.2], integrator=integrator)
    advanced = Plant(model, q0=[0.2, -0.6, 0.7, 0.1, 0.4, -0.2], integrator=integrator)
    rng = np.random.default_rng(1)
    for _ in range(50):
        tau = rng.normal(0.0, 10.0, 6)
        stepped.step(tau, 2.5e-4)
        advanced.advance(tau, 2.5e-4)
    assert np.array_equal(stepped.q, advanced.q) and np.array_equal(stepped.qd, advanced.qd)
    assert advanced.time == pytest.approx(50 * 2.5e-4) and advanced.finite()
    advanced.qd[0] = np.nan
    advanced.advance(np.zeros(6), 2.5e-4)  # no exception on the real-time path...
    assert not advanced.finite()             # ... the caller checks
    with pytest.raises(FloatingPointError):
        stepped.qd[0] = np.nan
        stepped.step(np.zeros(6), 2.5e-4)


def test_continuous_joints_take_the_mapped_path():
    """A continuous joint (cos, sin in Pinocchio) gives the same motion as our dynamics."""
    model = load_robot(os.path.join(os.path.dirname(__file__), 'data', 'two_link.urdf.xacro'))
    assert [j.kind for j in model.joints] == ['continuous']
    plant = Plant(model, q0=[0.3], friction=False, dt=1e-4)
    assert not plant._bridge.plain and Plant(load_robot('puma560'))._bridge.plain
    for q in (0.3, 2.0, -2.5):
        qd, tau = np.array([0.7]), np.array([0.4])
        assert np.allclose(plant.acceleration(np.array([q]), qd, tau),
                           forward_dynamics(model, [q], qd, tau, friction=False), atol=1e-9)


def test_default_friction_is_the_models_own_definition():
    """By default the plant's friction is the model's, zero-velocity band included."""
    from robodyn_ros.dynamics.tables import tables
    from robodyn_ros.friction.models import velocity_friction
    model = load_robot('puma560')
    qd = np.linspace(-0.02, 0.02, 41)[:, None] * np.ones(6)
    np.testing.assert_allclose(Plant(model).velocity_friction(qd),
                               velocity_friction(tables(model), qd), atol=1e-12)
    wide = Plant(model, smoothing_velocity=0.01).velocity_friction(qd)
    assert np.max(np.abs(wide - velocity_friction(tables(model), qd))) > 5.0  # N m, joint 1


def test_exact_model_computed_torque_does_not_drift_at_rest():
    """
    The README's computed-torque move, then rest: the exact model keeps the error tiny.

    With the plant's band ten times the model's (the old default, still
    available explicitly) the error grows at rest instead.
    """
    from robodyn_ros.control import ComputedTorque
    from robodyn_ros.planning import PlanningLimits, point_to_point
    from robodyn_ros.sim import simulate
    model = load_robot('puma560')
    traj = point_to_point(np.zeros(6), [0.5, -0.5, 0.8, 0.3, 0.2, -0.4], 'quintic',
                          PlanningLimits.from_model(model))
    rest = {}
    for label, band in (('exact', None), ('mismatch', 0.01)):
        ct = ComputedTorque(model, period=1e-3, omega=20.0)
        res = simulate(Plant(model, q0=np.zeros(6), smoothing_velocity=band), ct, traj,
                       traj.duration + 0.4)
        error = np.max(np.abs(res.error), axis=1)
        end = int(round(traj.duration / 1e-3))
        rest[label] = (error[end], np.max(error[end:]))
    moved, at_rest = rest['exact']
    assert at_rest <= max(moved, np.radians(0.005))
    assert rest['mismatch'][1] > 20 * at_rest
