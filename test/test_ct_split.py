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
The split form of the computed-torque laws (impedance set-points) against the laws' torques.

The board's PD evaluated at the sample's own state (``t = t_s``) gives the
law's torque up to the off-diagonal inertia terms (Pinocchio's CRBA is the
independent inertia), exactly for a diagonal inertia or a zero error.
"""

from control_models import bridge, pin_mass_matrix
import numpy as np
import pytest
from robodyn_ros.control import jit
from robodyn_ros.control.base import JointReference, Mode
from robodyn_ros.control.computed_torque import ComputedTorque
from robodyn_ros.control.computed_torque_lme import ComputedTorqueLME
from robodyn_ros.control.factory import LAW_CLASSES, make_controller
from robodyn_ros.control.mbvsst import MBVSST
from robodyn_ros.control.payload import PayloadEstimatorSettings as Estimator
from robodyn_ros.errors import InputError
from robodyn_ros.friction.models import without_friction
from robodyn_ros.model import load_robot, RobotModel

Q = np.array([0.1, -0.5, 0.4, 0.2, 0.3, 0.1])
QD = np.array([0.2, -0.1, 0.3, 0.0, 0.1, -0.2])
REF = JointReference(Q + np.array([0.01, -0.02, 0.015, 0.01, -0.01, 0.02]),
                     QD + np.array([0.05, 0.02, -0.04, 0.03, 0.0, 0.01]),
                     np.array([0.5, -0.3, 0.2, 0.1, -0.4, 0.6]))
MASS = 1.2


def _puma():
    return without_friction(load_robot('puma560'))


def _gantry():
    """Three orthogonal prismatic joints: a constant diagonal inertia, constant gravity."""
    rows = []
    for k, (theta, alpha) in enumerate([(0.0, -np.pi / 2), (-np.pi / 2, -np.pi / 2),
                                        (0.0, 0.0)]):
        rows.append({'a': 0.0, 'alpha': alpha, 'd': 0.0, 'theta': theta, 'joint': 'P',
                     'mass': 3.0 - k, 'com': [0.02, -0.01, 0.03],
                     'inertia': [0.02, 0.03, 0.025], 'armature': 0.1 * (k + 1),
                     'limits': {'lower': -0.5, 'upper': 0.5, 'effort': 200.0}})
    return RobotModel.from_dh(rows, convention='standard', name='gantry')


def _pin_rnea(model, q, qd, qdd):
    import pinocchio as pin
    b = bridge(model)
    return b.from_v(pin.rnea(b.pin_model, b.pin_data, b.q(q), b.v(qd), b.v(qdd)))


def _laws(model, form):
    """Build the three laws with a split form; the estimate fixed at MASS (a known payload)."""
    fixed = Estimator(initial_mass=MASS)
    return [ComputedTorque(model, 1e-3, omega=20.0, form=form, torque_limit=np.inf),
            ComputedTorqueLME(model, 1e-3, omega=20.0, form=form, adapt=False,
                              estimator=fixed, torque_limit=np.inf),
            MBVSST(model, 1e-3, form=form, adapt=False, estimator=fixed, torque_limit=np.inf)]


def _payload_model(model, law):
    if isinstance(law, ComputedTorqueLME):
        return model.with_payload(MASS, frame=model.end_effector)
    return model


@pytest.mark.parametrize('index', [0, 1, 2])
def test_split_torque_is_the_predictive_law_less_the_off_diagonal_inertia(index):
    """Gains Kp M_jj, Kd M_jj; tau_ff the model along the reference; the rest is off-diagonal."""
    model = _puma()
    ordinary, split = _laws(model, 'predictive')[index], _laws(model, 'predictive')[index]
    truth = _payload_model(model, ordinary)
    tau, status = ordinary.step(0.0, Q, QD, REF)
    sp, split_status = split.impedance_step(0.0, Q, QD, REF)
    assert status.mode == split_status.mode == Mode.OK
    inertia = pin_mass_matrix(truth, REF.q)
    diag = np.diag(inertia)
    assert np.allclose(sp.kp, ordinary.kp * diag, rtol=1e-9)
    assert np.allclose(sp.kd, ordinary.kd * diag, rtol=1e-9)
    assert np.array_equal(sp.q_ref, REF.q) and np.array_equal(sp.qd_ref, REF.qd)
    relay = 0.0
    if ordinary.tuner is not None:   # the relay enters the feed-forward as it enters the law
        relay = split.torque_scale * split.estimates()['vsst_output']
        assert np.any(relay != 0.0)
    assert np.allclose(sp.tau_ff, _pin_rnea(truth, REF.q, REF.qd, REF.qdd) + relay,
                       rtol=1e-9, atol=1e-9)
    pd = ordinary.kp * (REF.q - Q) + ordinary.kd * (REF.qd - QD)
    off = (inertia - np.diag(diag)) @ pd
    assert np.max(np.abs(off)) > 0.1            # the coupling is there to be seen
    assert np.allclose(tau - sp.torque(Q, QD), off, rtol=1e-9, atol=1e-9)
    assert np.allclose(split.last_torque, sp.torque(Q, QD), rtol=1e-12, atol=1e-12)
    assert np.array_equal(split_status.error, REF.q - Q)


@pytest.mark.parametrize('index', [0, 1, 2])
def test_split_torque_equals_the_law_for_a_diagonal_inertia(index):
    """A Cartesian gantry (diagonal, constant inertia): the tracking law's torque, exactly."""
    model = _gantry()
    truth = _payload_model(model, _laws(model, 'tracking')[index])
    inertia = pin_mass_matrix(truth, [0.1, -0.2, 0.3])
    assert np.allclose(inertia, np.diag(np.diag(inertia)), atol=1e-12)
    ordinary, split = _laws(model, 'tracking')[index], _laws(model, 'tracking')[index]
    rng = np.random.default_rng(3)
    for k in range(20):
        q, qd = rng.uniform(-0.3, 0.3, 3), rng.uniform(-0.5, 0.5, 3)
        ref = JointReference(q + rng.normal(0.0, 0.02, 3), qd + rng.normal(0.0, 0.1, 3),
                             rng.normal(0.0, 1.0, 3))
        tau, _ = ordinary.step(k * 1e-3, q, qd, ref)
        sp, _ = split.impedance_step(k * 1e-3, q, qd, ref)
        assert np.allclose(sp.torque(q, qd), tau, rtol=1e-9, atol=1e-9), k


@pytest.mark.parametrize('index', [0, 1, 2])
def test_split_torque_equals_the_law_without_error(index):
    """On the reference (tracking form, the estimate adapting): the same torques throughout."""
    model = _puma()
    options = [{'omega': 20.0}, {'omega': 20.0, 'estimator': Estimator(joints=(1, 2))},
               {'estimator': Estimator(joints=(1, 2))}][index]
    cls = (ComputedTorque, ComputedTorqueLME, MBVSST)[index]
    ordinary, split = cls(model, 1e-3, **options), cls(model, 1e-3, **options)
    t = np.arange(300) * 1e-3
    q = Q + 0.3 * np.sin(4.0 * t)[:, None]
    qd = 1.2 * np.cos(4.0 * t)[:, None] * np.ones(6)
    qdd = -4.8 * np.sin(4.0 * t)[:, None] * np.ones(6)
    for k in range(len(t)):
        ref = JointReference(q[k], qd[k], qdd[k])
        tau, _ = ordinary.step(t[k], q[k], qd[k], ref)
        sp, _ = split.impedance_step(t[k], q[k], qd[k], ref)
        assert np.allclose(sp.torque(q[k], qd[k]), tau, rtol=1e-9, atol=1e-9), k
        assert np.allclose(sp.tau_ff, tau, rtol=1e-9, atol=1e-9), k
    if index:
        assert ordinary.mass == pytest.approx(split.mass, rel=1e-9, abs=1e-12)


def test_regulation_form_splits_with_a_resting_reference():
    """Regulation: qd_ref = 0, tau_ff = g(q_ref), the damping on the measured velocity."""
    model = _puma()
    law = ComputedTorque(model, 1e-3, omega=15.0, form='regulation', torque_limit=np.inf)
    sp, status = law.impedance_step(0.0, Q, QD, REF)
    assert status.ok and np.all(sp.qd_ref == 0.0)
    zero = np.zeros(6)
    assert np.allclose(sp.tau_ff, _pin_rnea(model, REF.q, zero, zero), atol=1e-9)
    diag = np.diag(pin_mass_matrix(model, REF.q))
    assert np.allclose(sp.torque(Q, QD), sp.tau_ff + law.kp * diag * (REF.q - Q)
                       - law.kd * diag * QD, atol=1e-9)


def test_saturation_and_safe_outputs():
    """The PD torque saturates (tau_ff too); a bad state gives none, no reference the hold."""
    model = _puma()
    law = ComputedTorque(model, 1e-3, omega=20.0)
    far = JointReference.hold(Q + 0.5)
    sp, status = law.impedance_step(0.0, Q, QD, far)
    assert status.mode == Mode.SATURATED
    assert np.all(np.abs(law.last_torque) <= law.torque_limit)
    assert np.all(np.abs(sp.tau_ff) <= law.torque_limit)
    sp, status = law.impedance_step(0.0, [np.nan] * 6, QD, REF)
    assert sp is None and status.mode == Mode.ZERO
    sp, status = law.impedance_step(0.0, Q, QD, None)
    assert status.mode == Mode.HOLD and 'no valid reference' in status.message
    assert np.array_equal(sp.q_ref, Q) and np.all(sp.qd_ref == 0.0) and np.all(sp.kp == 0.0)
    assert np.array_equal(sp.kd, law.hold_damping)
    assert np.allclose(sp.torque(Q, QD), law.gravity_hold_torque(Q, QD), atol=1e-9)


@pytest.mark.parametrize('cls', [c for c in LAW_CLASSES if not c.has_split_form])
def test_laws_without_a_split_form_say_so(cls):
    """Every other law refuses the split form with an InputError that names it."""
    model = load_robot('puma560')
    law = make_controller(cls.law, model, 1e-3)
    for call in (law.prepare_split, lambda: law.impedance_step(0.0, Q, QD, REF)):
        with pytest.raises(InputError, match=f"'{cls.law}' has no split form"):
            call()


def test_split_laws():
    """The computed-torque family has the split form; the self-tuning CT computes in Python."""
    assert {c.law for c in LAW_CLASSES if c.has_split_form} == {
        'computed_torque', 'computed_torque_lme', 'mbvsst'}


def test_python_split_equals_the_compiled_split():
    """compiled=False runs the same loop code as Python: the same set-points along a motion."""
    model = load_robot('puma560')
    options = {'estimator': Estimator(joints=(1, 2)), 'ki': 3.0, 'omega': 25.0}
    fast = MBVSST(model, 1e-3, **options)
    slow = MBVSST(model, 1e-3, compiled=False, **options)
    fast.prepare_split()
    assert fast.compiled == jit.AVAILABLE and not slow.compiled
    rng = np.random.default_rng(5)
    for k in range(200):
        t = k * 1e-3
        ref = JointReference(Q + 0.2 * np.sin(3.0 * t), np.full(6, 0.6 * np.cos(3.0 * t)),
                             np.full(6, -1.8 * np.sin(3.0 * t)))
        q = ref.q + 0.01 * np.sin(0.05 * k + np.arange(6)) + rng.normal(0.0, 1e-4, 6)
        qd = ref.qd + rng.normal(0.0, 1e-3, 6)
        a, _ = fast.impedance_step(t, q, qd, ref)
        b, _ = slow.impedance_step(t, q, qd, ref)
        for name in ('q_ref', 'qd_ref', 'kp', 'kd', 'tau_ff'):
            assert np.allclose(getattr(a, name), getattr(b, name), rtol=1e-12, atol=1e-9), name
    assert fast.mass == pytest.approx(slow.mass, rel=1e-12, abs=1e-12)
