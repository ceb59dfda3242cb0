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

"""Building controllers from flat options; live gain changes."""

import math

import numpy as np
import pytest
from robodyn_ros.control.base import JointReference
from robodyn_ros.control.computed_torque_lme import ComputedTorqueLME
from robodyn_ros.control.factory import (apply_gain, apply_gains, law_class, LAW_CLASSES, LAWS,
                                         LIVE_GAINS, make_controller)
from robodyn_ros.control.gains import max_joint_inertia, triple_pole_pid
from robodyn_ros.control.options import CATALOGUE
from robodyn_ros.control.payload import SEED003_MEMORY
from robodyn_ros.control.self_tuning import SelfTuningComputedTorque
from robodyn_ros.control.sliding_mode import SlidingMode
from robodyn_ros.errors import InputError
from robodyn_ros.model import load_robot


@pytest.mark.parametrize('law', LAWS)
def test_every_law_builds_and_steps(law):
    """Each law builds with defaults and gives a finite torque for a valid state."""
    model = load_robot('ma3000')
    options = {'omega': 10.0, 'backend': 'numpy'}
    if 'kp' in law_class(law).option_names():
        options['kp'] = []   # empty counts as unset
    ctl = make_controller(law, model, 0.01, options)
    assert ctl.law == law and ctl.dynamics.backend == 'numpy'
    q = np.radians([0.0, -70.0, 10.0])
    tau, st = ctl.step(0.0, q, np.zeros(3), JointReference.hold(q + 0.01))
    assert st.ok and np.isfinite(tau).all() and tau.shape == (3,)


def test_options_reach_the_controller():
    """Explicit gains, limits and forms are used; PID gains default to the triple pole."""
    model = load_robot('ma3000')
    ct = make_controller('computed_torque', model, 0.01,
                         {'kp': [1.0, 2.0, 3.0], 'kd': [4.0, 5.0, 6.0], 'form': 'predictive',
                          'torque_limit': [5.0, 6.0, 7.0]})
    assert ct.kp.tolist() == [1, 2, 3] and ct.form == 'predictive'
    assert ct.torque_limit.tolist() == [5, 6, 7]
    pid = make_controller('pid', model, 0.01, {'omega': 12.0})
    gains = triple_pole_pid(max_joint_inertia(model), 12.0)
    assert np.allclose(pid.kp, gains.kp) and np.allclose(pid.ki, gains.ki)
    mb = make_controller('mbvsst', model, 0.01, {'relay_fraction': 0.1, 'initial_mass': 2.0})
    assert np.allclose(mb.torque_scale, 0.1 * model.effort_limits / 10.0) and mb.mass == 2.0
    with pytest.raises(InputError):
        make_controller('fuzzy', model, 0.01)
    with pytest.raises(InputError):
        make_controller('computed_torque', model, 0.01, {'kp': [1.0, 2.0], 'kd': [1.0, 2.0]})


def test_live_gain_changes():
    """Listed gains change at run time after validation; others are refused unchanged."""
    model = load_robot('ma3000')
    ct = make_controller('computed_torque', model, 0.01, {'omega': 10.0})
    apply_gain(ct, 'kp', [50.0, 60.0, 70.0])
    assert ct.kp.tolist() == [50.0, 60.0, 70.0]
    for name, value in (('kp', [1.0, 2.0]), ('kp', [-1.0, 1.0, 1.0]), ('lam', [1.0, 1.0, 1.0]),
                        ('kd', [np.nan, 1.0, 1.0])):
        with pytest.raises(InputError):
            apply_gain(ct, name, value)
    assert ct.kp.tolist() == [50.0, 60.0, 70.0]
    smc = make_controller('sliding_mode', model, 0.01)
    apply_gain(smc, 'boundary', 0.2)
    assert smc.boundary.tolist() == [0.2] * 3
    with pytest.raises(InputError):
        apply_gain(smc, 'lam', 0.0)
    assert set(LIVE_GAINS) == set(LAWS)


def test_tables_come_from_the_law_classes():
    """LAWS, LIVE_GAINS and the options are the classes'; every option is catalogued."""
    assert LAWS == tuple(cls.law for cls in LAW_CLASSES) and len(set(LAWS)) == len(LAWS)
    for cls in LAW_CLASSES:
        assert LIVE_GAINS[cls.law] == cls.live_gains
        assert set(cls.live_gains) <= set(cls.option_names()) <= set(CATALOGUE)
        assert {'torque_limit', 'backend'} <= set(cls.option_names())


def test_unknown_options_and_bad_values_name_the_option():
    """A key the law does not take, or a bad value, is an error naming the option."""
    model = load_robot('ma3000')
    with pytest.raises(InputError, match=r"omgea: not an option of law 'pid' \(its options: "
                                         r'torque_limit, backend, omega, kp'):
        make_controller('pid', model, 0.01, {'omgea': 10.0})
    with pytest.raises(InputError, match='forgetting: not an option'):
        make_controller('computed_torque', model, 0.01, {'forgetting': 0.9})
    for law, options, name in (
            ('computed_torque', {'omega': 'fast'}, 'omega'),
            ('computed_torque', {'omega': -1.0}, 'omega'),
            ('computed_torque', {'form': 'magic'}, 'form'),
            ('computed_torque', {'kp': [1.0, 2.0], 'kd': [1.0, 2.0, 3.0]}, 'kp'),
            ('computed_torque_lme', {'estimator_joints': [9]}, 'estimator_joints'),
            ('computed_torque_lme', {'estimator_joints': [0.5]}, 'estimator_joints'),
            ('computed_torque_lme', {'initial_mass': 60.0}, 'initial_mass'),
            ('computed_torque_lme', {'payload_frame': 'nowhere'}, 'payload_frame'),
            ('mbvsst', {'vsst_boundary': [0.1, 0.2]}, 'vsst_boundary'),
            ('mbvsst', {'relay_fraction': 2.0}, 'relay_fraction'),
            ('sliding_mode', {'sliding_form': 'bang'}, 'sliding_form'),
            ('pid', {'integral_band': [0.1]}, 'integral_band'),
            ('computed_torque', {'compiled': 'yes'}, 'compiled')):
        with pytest.raises(InputError) as err:
            make_controller(law, model, 0.01, options)
        assert err.value.argument == name, (law, options, str(err.value))


def test_defaults_are_the_classes():
    """Unset options take the law's own defaults: seed gains, forgetting, boundary layer."""
    model = load_robot('ma3000')
    mb = make_controller('mbvsst', model, 0.01, {'backend': 'numpy'})
    assert mb.kp.tolist() == [1600.0] * 3 and mb.kd.tolist() == [80.0] * 3   # seed 003
    assert make_controller('mbvsst', model, 0.01, {'omega': 20.0}).kp.tolist() == [400.0] * 3
    lme = make_controller('computed_torque_lme', model, 0.01, {})
    stc = make_controller('self_tuning_ct', model, 0.01, {})
    # Seed 003's memory (0.98 per sample at its 121 Hz) at the law's rate.
    assert lme.estimator.rls.forgetting == ComputedTorqueLME(model, 0.01, omega=20.0
                                                             ).estimator.rls.forgetting
    assert math.isclose(lme.estimator.rls.forgetting, math.exp(-0.01 / SEED003_MEMORY))
    assert math.isclose(ComputedTorqueLME(model, 1.0 / 121.0, omega=20.0
                                          ).estimator.rls.forgetting, 0.98)
    assert stc.rls.forgetting == SelfTuningComputedTorque(model, 0.01, omega=20.0
                                                          ).rls.forgetting == 0.999
    smc = make_controller('sliding_mode', model, 0.01)
    assert np.array_equal(smc.boundary, SlidingMode(model, 0.01, 20.0, 400.0).boundary)
    assert smc.lam.tolist() == [20.0] * 3 and smc.gain.tolist() == [400.0] * 3
    ct = make_controller('computed_torque', model, 0.01, {'zeta': 0.5})
    assert ct.kp.tolist() == [400.0] * 3 and ct.kd.tolist() == [20.0] * 3


def test_several_gains_change_all_or_none():
    """apply_gains checks every gain before changing any."""
    model = load_robot('ma3000')
    ct = make_controller('computed_torque', model, 0.01, {'omega': 10.0})
    before = (ct.kp.copy(), ct.kd.copy())
    with pytest.raises(InputError, match='kd'):
        apply_gains(ct, {'kp': [1.0, 2.0, 3.0], 'kd': [1.0, -2.0, 3.0]})
    assert np.array_equal(ct.kp, before[0]) and np.array_equal(ct.kd, before[1])
    apply_gains(ct, {'kp': [1.0, 2.0, 3.0], 'kd': 4.0})
    assert ct.kp.tolist() == [1.0, 2.0, 3.0] and ct.kd.tolist() == [4.0] * 3


def test_a_changed_gain_reaches_the_compiled_sample():
    """After apply_gain the compiled sample computes with the new gains (shared record)."""
    model = load_robot('puma560')
    ct = make_controller('computed_torque_lme', model, 1e-3, {'omega': 10.0})
    twin = make_controller('computed_torque_lme', model, 1e-3, {'kp': 30.0, 'kd': 7.0})
    apply_gains(ct, {'kp': 30.0, 'kd': 7.0})
    q = np.linspace(-0.3, 0.3, model.n)
    ref = JointReference(q + 0.05, np.full(model.n, 0.1), np.zeros(model.n))
    tau, _ = ct.step(0.0, q, np.zeros(model.n), ref)
    assert np.array_equal(tau, twin.step(0.0, q, np.zeros(model.n), ref)[0])
