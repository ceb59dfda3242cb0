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

"""Payload model linear in the mass, the RLS estimator (seed 003 ch. 4) and CT + LME."""

import math

import numpy as np
import pytest
from robodyn_ros.control.base import JointReference, Mode
from robodyn_ros.control.computed_torque import ComputedTorque
from robodyn_ros.control.computed_torque_lme import ComputedTorqueLME
from robodyn_ros.control.payload import PayloadEstimator, PayloadEstimatorSettings, PayloadModel
from robodyn_ros.dynamics import gravity_torques, inverse_dynamics
from robodyn_ros.dynamics.codegen import kernels
from robodyn_ros.errors import InputError
from robodyn_ros.model import load_robot
from robodyn_ros.planning.periodic import square_wave
from robodyn_ros.sim.plant import Plant
from robodyn_ros.sim.runner import simulate


def test_torque_is_linear_in_the_payload_mass():
    """tau_0 + m y_m equals the inverse dynamics of the model carrying m (any m, frame, com)."""
    model = load_robot('ma3000')
    rng = np.random.default_rng(5)
    for frame, com in ((None, (0.0, 0.0, 0.0)), ('frame3', (0.05, 0.02, -0.03)),
                       ('shoulder', (0.1, 0.0, 0.0))):
        pm = PayloadModel(model, frame, com)
        for mass in (0.0, 0.7, 4.0):
            truth = model.with_payload(mass, com, frame=pm.frame) if mass else model
            q, qd, qdd = model.random_configuration(rng), rng.normal(size=3), rng.normal(size=3)
            assert np.allclose(pm.inverse_dynamics(q, qd, qdd, mass),
                               inverse_dynamics(truth, q, qd, qdd), atol=1e-9)
            assert np.allclose(pm.gravity(q, mass), gravity_torques(truth, q), atol=1e-9)
    with pytest.raises(InputError):
        PayloadModel(model, com=(np.nan, 0.0, 0.0))


def test_payload_model_is_one_kernel_call_per_quantity():
    """The payload kernels of the frame, on either backend; friction sees no payload."""
    model = load_robot('puma560')
    rng = np.random.default_rng(6)
    com = (0.01, -0.02, 0.08)
    pms = {b: PayloadModel(model, 'link3', com, backend=b) for b in ('codegen', 'numpy')}
    assert pms['codegen'].kernels is kernels(model, 'c', payload_frame='link3')
    assert pms['numpy'].kernels.backend == 'numpy'
    unit = model.with_payload(1.0, com, frame='link3')
    for _ in range(3):
        q, qd, qdd = model.random_configuration(rng), rng.normal(size=6), rng.normal(size=6)
        ym = (inverse_dynamics(unit, q, qd, qdd, friction=False)
              - inverse_dynamics(model, q, qd, qdd, friction=False))
        for pm in pms.values():
            assert np.allclose(pm.regressor(q, qd, qdd), ym, atol=1e-9)
            assert np.allclose(pm.inverse_dynamics(q, qd, qdd, 2.5),
                               inverse_dynamics(model, q, qd, qdd) + 2.5 * ym, atol=1e-9)


def test_estimator_configuration_errors():
    """Joints out of range and filters without an acceleration output are refused."""
    pm = PayloadModel(load_robot('ma3000'))
    with pytest.raises(InputError):
        PayloadEstimator(pm, 0.01, joints=(3,))
    with pytest.raises(InputError):
        PayloadEstimator(pm, 0.01, filter_coefficients=(0.1, 1.0))
    with pytest.raises(InputError):
        PayloadEstimator(pm, 0.01, settle_time=-1.0)


def test_estimator_settings_are_checked_when_made():
    """The settings record normalises its sequences and refuses bad values, naming the field."""
    s = PayloadEstimatorSettings(com=[0.0, 0.0, 0.1], joints=[1, 2], mass_bounds=[0.0, 5.0])
    assert s.com == (0.0, 0.0, 0.1) and s.joints == (1, 2) and s.mass_bounds == (0.0, 5.0)
    assert PayloadEstimatorSettings(joints=1).joints == (1,)
    assert hash(s) == hash(PayloadEstimatorSettings(com=(0, 0, 0.1), joints=(1, 2),
                                                    mass_bounds=(0, 5)))
    for field, bad in (('com', (0.0, 1.0)), ('initial_mass', 60.0), ('initial_mass', [1.0]),
                       ('forgetting', 0.0), ('forgetting', 1.5), ('variance', -1.0),
                       ('mass_bounds', (2.0, 1.0)), ('joints', ()), ('joints', (0.5,)),
                       ('joints', (-1,)), ('filter_coefficients', (0.1, 1.0)),
                       ('frame', 3)):
        with pytest.raises(InputError) as err:
            PayloadEstimatorSettings(**{field: bad})
        assert err.value.argument == field, (field, bad)
    model = load_robot('ma3000')
    with pytest.raises(InputError, match='joints'):   # against the model where it is used
        ComputedTorqueLME(model, 0.01, omega=10.0, estimator=PayloadEstimatorSettings(
            joints=(3,)))
    with pytest.raises(InputError, match='estimator'):
        ComputedTorqueLME(model, 0.01, omega=10.0, estimator={'initial_mass': 1.0})


def test_ct_with_load_estimation_learns_the_payload_and_beats_ct():
    """Seed 003 at 121 Hz: the estimate converges to the true payload; the offset goes."""
    model = load_robot('ma3000')
    truth = model.with_payload(2.0, frame=model.end_effector)
    h = 1.0 / 121.0
    start = np.radians([0.0, -90.0, 0.0])
    ref = square_wave(start, math.radians(10.0), 1.5, 3.0, model.joint_names)
    runs = {}
    for label, ctl in (('ct', ComputedTorque(model, h, 1600.0, 80.0)),
                       ('lme', ComputedTorqueLME(model, h, 1600.0, 80.0,
                                                 estimator=PayloadEstimatorSettings(
                                                     initial_mass=0.5, joints=(0, 1, 2))))):
        plant = Plant(truth, q0=start, dt=h / 4.0, friction=False)
        runs[label] = simulate(plant, ctl, ref, 3.0)
    mass = runs['lme'].estimates['payload_mass']
    assert abs(mass[-1] - 2.0) < 0.05 * 2.0
    # Settled after the last step (at 2.25 s): the payload's gravity offset is gone.
    ct, lme = runs['ct'].max_error(2.7), runs['lme'].max_error(2.7)
    assert np.all(lme[1:] < 0.1 * ct[1:]) and ct[2] > 1e-3


def test_estimate_is_kept_through_a_fault_and_bounded():
    """A fault restarts the filters but keeps the estimate; it never leaves its bounds."""
    model = load_robot('ma3000')
    settings = PayloadEstimatorSettings(initial_mass=1.0, mass_bounds=(0.5, 1.5))
    ctl = ComputedTorqueLME(model, 0.01, omega=10.0, estimator=settings)
    ctl.estimator.rls.theta[:] = 1.2
    ctl.fault('gap')
    assert ctl.mass == 1.2 and ctl.estimates() == {'payload_mass': 1.2,
                                                   'payload_excitation': 0.0,
                                                   'payload_frozen': False}
    rng = np.random.default_rng(0)
    q = np.radians([0.0, -60.0, 20.0])
    for _ in range(50):
        q_noisy = q + rng.normal(0, 0.05, 3)
        _, st = ctl.step(0.0, q_noisy, rng.normal(0, 1, 3), None)
        assert st.mode == Mode.HOLD
        ctl.estimator.update(q_noisy, rng.normal(0, 50, 3))
        assert 0.5 <= ctl.mass <= 1.5
    ctl.reset()
    assert ctl.mass == 1.0


def test_estimator_state_is_one_record():
    """The filter's and the RLS's records are nested in the estimator's (views, no copies)."""
    est = ComputedTorqueLME(load_robot('ma3000'), 0.01, omega=10.0,
                            estimator=PayloadEstimatorSettings(initial_mass=1.0)).estimator
    est.rls.theta[0] = 1.7
    assert est.state[0]['rls']['theta'][0] == 1.7 and est.mass == 1.7
    est.update(np.array([0.1, -0.4, 0.3]), np.zeros(3))
    est.update(np.array([0.1, -0.4, 0.3]), np.zeros(3))
    assert est.filter.started and est.state[0]['filter']['started'] and est.samples == 2
    est.restart_filters()
    assert not est.filter.started and est.samples == 0 and est.mass == 1.7


def test_wrong_lengths_are_refused():
    """Samples of the wrong length never reach the loop code."""
    est = ComputedTorqueLME(load_robot('ma3000'), 0.01, omega=10.0).estimator
    with pytest.raises(InputError, match='q'):
        est.update(np.zeros(2), np.zeros(3))
    with pytest.raises(InputError, match='tau_applied'):
        est.update(np.zeros(3), np.zeros(4))


def test_estimate_is_held_while_the_regressor_is_not_exciting():
    """At rest the inertial regressor vanishes: the estimate and its variance are held."""
    model = load_robot('puma560')
    est = ComputedTorqueLME(model, 1e-3, estimator=PayloadEstimatorSettings(
        initial_mass=1.0)).estimator
    assert est.freeze_threshold == PayloadEstimatorSettings().freeze_threshold > 0.0
    q = np.array([0.1, -0.5, 0.4, 0.0, 0.3, 0.0])
    tau = np.full(model.n, 5.0)   # any torque: at rest it must not move the estimate
    for _ in range(300):
        est.update(q, tau)
    assert est.frozen and est.excitation == 0.0
    assert est.mass == 1.0 and est.rls.updates == 0 and est.rls.covariance[0, 0] == 100.0
    # Moving with acceleration: excited, updated.
    for k in range(300):
        est.update(q + 0.2 * np.sin(np.full(model.n, 0.02 * k)), tau)
    assert not est.frozen and est.excitation > est.freeze_threshold
    assert est.rls.updates > 100 and est.mass != 1.0
    # Never held with a zero threshold: the same rest data move the estimate.
    free = ComputedTorqueLME(model, 1e-3, estimator=PayloadEstimatorSettings(
        initial_mass=1.0, freeze_threshold=0.0)).estimator
    for _ in range(300):
        free.update(q, tau)
    assert not free.frozen and free.rls.updates > 200 and free.mass != 1.0


def test_excitation_and_hold_are_reported_and_set_by_option():
    """estimates() carries the excitation and the hold; the flat option sets the threshold."""
    from robodyn_ros.control.factory import make_controller
    model = load_robot('ma3000')
    ctl = make_controller('computed_torque_lme', model, 0.01, {'freeze_threshold': 0.5})
    assert ctl.estimator.freeze_threshold == 0.5
    q = np.radians([0.0, -60.0, 20.0])
    ref = JointReference.hold(q)
    for k in range(60):
        ctl.step(k * 0.01, q, np.zeros(3), ref)
    est = ctl.estimates()
    assert est['payload_frozen'] is True and est['payload_excitation'] == 0.0
    for field, bad in (('freeze_threshold', -1.0), ('excitation_window', 0.0)):
        with pytest.raises(InputError) as err:
            PayloadEstimatorSettings(**{field: bad})
        assert err.value.argument == field
