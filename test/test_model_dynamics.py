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

"""The controllers' dynamics backend: same torques whichever implementation runs."""

from control_models import pin_gravity, pin_mass_matrix
import numpy as np
import pinocchio as pin
import pytest
from robodyn_ros.control.model_dynamics import ModelDynamics
from robodyn_ros.dynamics import inverse_dynamics
from robodyn_ros.dynamics.codegen import BACKEND_ENV, kernels
from robodyn_ros.errors import InputError
from robodyn_ros.model import load_robot
from robodyn_ros.pinocchio_bridge import PinocchioBridge


@pytest.mark.parametrize('backend', ['auto', 'numpy'])
def test_backend_matches_reference_and_pinocchio(backend):
    """Torques equal the numpy RNE and, without friction, Pinocchio's rnea."""
    model = load_robot('ma3000')
    dyn = ModelDynamics(model, backend)
    assert dyn.backend in ('codegen', 'numpy')
    bridge = PinocchioBridge(model)
    rng = np.random.default_rng(3)
    for _ in range(3):
        q, qd, qdd = (model.random_configuration(rng), rng.normal(size=3), rng.normal(size=3))
        assert np.allclose(dyn.inverse_dynamics(q, qd, qdd),
                           inverse_dynamics(model, q, qd, qdd), atol=1e-9)
        ref = bridge.from_v(pin.rnea(bridge.pin_model, bridge.pin_data, bridge.q(q),
                                     bridge.v(qd), bridge.v(qdd)))
        assert np.allclose(dyn.inverse_dynamics_rigid(q, qd, qdd), ref, atol=1e-8)
        assert np.allclose(dyn.gravity(q), pin_gravity(model, q), atol=1e-8)
        assert np.allclose(dyn.mass_matrix(q), pin_mass_matrix(model, q), atol=1e-8)


def test_bad_backend_name():
    """An unknown backend is an input error; repr names the backend."""
    model = load_robot('ma3000')
    with pytest.raises(InputError):
        ModelDynamics(model, 'fortran')
    assert 'numpy' in repr(ModelDynamics(model, 'numpy'))


def test_same_backend_as_kernels(monkeypatch):
    """The dynamics are a view of kernels(model): the same object, whatever is asked."""
    model = load_robot('ma3000')
    assert ModelDynamics(model).kernels is kernels(model)
    assert ModelDynamics(model, 'codegen').kernels is kernels(model, 'c')
    assert ModelDynamics(model, 'codegen').backend == 'codegen'
    assert ModelDynamics(model, 'numpy').kernels is kernels(model, 'numpy')
    monkeypatch.setenv(BACKEND_ENV, 'numpy')
    dyn = ModelDynamics(model)
    assert dyn.backend == 'numpy' and dyn.kernels is kernels(model)
    assert dyn.kernels.backend == 'numpy'
    q = np.array([0.3, -0.4, 0.5])
    assert np.allclose(dyn.mass_matrix(np.array([q, -q]))[1], pin_mass_matrix(model, -q),
                       atol=1e-8)
    with pytest.raises(InputError, match='q'):
        dyn.mass_matrix(np.array([np.nan, 0.0, 0.0]))
