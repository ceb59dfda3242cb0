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

"""Rate-derived upper bounds of the gains (Controller.gain_limit)."""

import math

import numpy as np
import pytest
from robodyn_ros.control.factory import make_controller
from robodyn_ros.errors import InputError
from robodyn_ros.model import load_robot


@pytest.mark.parametrize('rate', [100.0, 500.0, 1000.0])
def test_normalised_gains_follow_a_tenth_of_the_sample_rate(rate):
    """Computed torque: kp <= w^2, kd <= 4 w, ki <= w^3 with w = 2 pi rate / 10."""
    ct = make_controller('computed_torque', load_robot('puma560'), 1.0 / rate, {})
    w = 2.0 * math.pi * rate / 10.0
    assert np.allclose(ct.gain_limit('kp'), w * w)
    assert np.allclose(ct.gain_limit('kd'), 4.0 * w)
    assert np.allclose(ct.gain_limit('ki'), w ** 3)
    ct.set_gains(kp=0.999 * w * w, kd=3.99 * w)
    with pytest.raises(InputError, match=f'the largest a {rate:g} Hz loop allows'):
        ct.set_gains(kp=1.001 * w * w)


def test_torque_unit_gains_scale_with_the_largest_inertia():
    """PID bounds carry the largest diagonal inertia at the home configuration."""
    model = load_robot('ur5')
    pid = make_controller('pid', model, 0.002, {})
    w = 2.0 * math.pi * 500.0 / 10.0
    m = np.diag(pid.dynamics.mass_matrix(model.home_configuration())).max()
    assert np.allclose(pid.gain_limit('kp'), m * w * w)
    assert np.allclose(pid.gain_limit('kd'), 4.0 * m * w)


def test_starting_gains_are_bounded_too():
    """Options beyond the bound fail at construction, naming the option."""
    with pytest.raises(InputError, match='kp'):
        make_controller('computed_torque', load_robot('ma3000'), 0.01, {'kp': [1e9] * 3,
                                                                        'kd': [1.0] * 3})
    with pytest.raises(InputError, match='boundary'):
        make_controller('sliding_mode', load_robot('ma3000'), 0.01, {'boundary': [-1.0] * 3})
    smc = make_controller('sliding_mode', load_robot('ma3000'), 0.01, {'boundary': [1e6] * 3})
    assert np.all(np.isinf(smc.gain_limit('boundary')))
