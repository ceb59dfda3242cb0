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

import numpy as np
import pytest
from robodyn_ros.control.base import JointReference
from robodyn_ros.control.factory import apply_gain, LAWS, LIVE_GAINS, make_controller
from robodyn_ros.control.gains import max_joint_inertia, triple_pole_pid
from robodyn_ros.errors import InputError
from robodyn_ros.model import load_robot


@pytest.mark.parametrize('law', LAWS)
def test_every_law_builds_and_steps(law):
    """Each law builds with defaults and gives a finite torque for a valid state."""
    model = load_robot('ma3000')
    ctl = make_controller(law, model, 0.01, {'omega': 10.0, 'kp': [], 'backend': 'numpy'})
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
