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

"""Regressors in the base parameters, including the Slotine-Li one (polarisation)."""

from control_models import two_link
import numpy as np
import pytest
from robodyn_ros.control.parameter_model import BaseParameterModel
from robodyn_ros.dynamics import coriolis_matrix, gravity_torques, inverse_dynamics, mass_matrix
from robodyn_ros.errors import InputError
from robodyn_ros.model import load_robot
from robodyn_ros.sim.mismatch import perturbed_inertials


@pytest.mark.parametrize('name', ['two_link', 'ma3000'])
def test_regressor_times_base_parameters_is_the_inverse_dynamics(name):
    """Y_b beta = IDM for the model and for another parameter set of the same structure."""
    model = two_link() if name == 'two_link' else load_robot(name)
    other = perturbed_inertials(model, 0.3, seed=2)
    pm = BaseParameterModel(model)
    assert pm.size == len(pm.names) < 10 * model.n
    rng = np.random.default_rng(0)
    for m, beta in ((model, pm.nominal), (other, pm.values(other))):
        q, qd, qdd = (model.random_configuration(rng), rng.normal(size=model.n),
                      rng.normal(size=model.n))
        assert np.allclose(pm.regressor(q, qd, qdd) @ beta, inverse_dynamics(m, q, qd, qdd),
                           atol=1e-9)
    with pytest.raises(InputError):
        pm.values(load_robot('puma560'))


def test_slotine_li_regressor():
    """Y(q, qd, qd_r, qdd_r) beta = M qdd_r + C(q, qd) qd_r + g + F(qd), C of Christoffel."""
    model = two_link()
    pm = BaseParameterModel(model)
    rng = np.random.default_rng(1)
    for _ in range(3):
        q = model.random_configuration(rng)
        qd, qd_r, qdd_r = rng.normal(size=(3, 2))
        zero = np.zeros(2)
        friction = (inverse_dynamics(model, q, qd, zero)
                    - inverse_dynamics(model, q, qd, zero, friction=False))
        expected = (mass_matrix(model, q) @ qdd_r + coriolis_matrix(model, q, qd) @ qd_r
                    + gravity_torques(model, q) + friction)
        got = pm.slotine_li_regressor(q, qd, qd_r, qdd_r) @ pm.nominal
        assert np.allclose(got, expected, atol=1e-9)
