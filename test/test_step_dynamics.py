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

"""The control step's dynamics: kernel addresses, callables, payload torque and regressor."""

import ctypes

import numpy as np
import pytest
from robodyn_ros.control import jit
from robodyn_ros.control.model_dynamics import ModelDynamics
from robodyn_ros.control.step_dynamics import (model_torque, payload_regressor, payload_vector,
                                               StepKernels)
from robodyn_ros.dynamics import inverse_dynamics
from robodyn_ros.dynamics.codegen import kernels
from robodyn_ros.model import load_robot


@pytest.mark.parametrize('robot', ['puma560', 'ur5'])
def test_kernel_addresses_are_the_entry_points(robot):
    """The exported C functions compute what the Python entry points compute."""
    model = load_robot(robot)
    k = kernels(model)
    rng = np.random.default_rng(0)
    q, qd, qdd = rng.normal(size=(3, model.n))
    ptr = ctypes.c_void_p
    for name, args in (('inverse_dynamics', (q, qd, qdd)),
                       ('inverse_dynamics_rigid', (q, qd, qdd)), ('gravity', (q,)),
                       ('mass_matrix', (q,)), ('forward_dynamics', (q, qd, qdd))):
        fn = ctypes.CFUNCTYPE(None, *([ptr] * (len(args) + 1)))(k.c_address(name))
        expected = getattr(k, name)(*args)
        out = np.full(expected.shape, np.nan)
        fn(*[a.ctypes.data for a in args], out.ctypes.data)
        assert np.array_equal(out, expected), name


def _both(dyn, k):
    """Give the compiled (addresses) and Python (callables) handles of the same kernels."""
    fast = StepKernels(dyn, k)
    slow = StepKernels(dyn, k, compiled=False)
    assert fast.compiled == jit.AVAILABLE and not slow.compiled
    assert isinstance(slow.handles, tuple) and all(callable(f) for f in slow.handles)
    return fast, slow


_torque = jit.compiled(jit.jitable(lambda k, p, q, qd, qdd, m, out: model_torque(
    k, p, q, qd, qdd, m, out)))
_regressor = jit.compiled(jit.jitable(lambda k, p, q, qd, qdd, out: payload_regressor(
    k, p, q, qd, qdd, out)))


@pytest.mark.parametrize('robot, frame, com', [('puma560', None, (0.0, 0.0, 0.1)),
                                               ('ur5', None, (0.02, -0.01, 0.05)),
                                               ('ma3000', 'frame3', (0.05, 0.02, -0.03))])
def test_payload_torque_equals_the_model_with_the_payload(robot, frame, com):
    """tau_0 + m y_m (compiled, Python) is the RNE of the model carrying m kg, base friction."""
    model = load_robot(robot)
    frame = frame or model.end_effector
    fast, slow = _both(ModelDynamics(model), kernels(model, payload_frame=frame))
    payload = payload_vector(com)
    rng = np.random.default_rng(1)
    for mass in (0.0, 0.8, 3.5):
        truth_model = model.with_payload(mass, com, frame=frame) if mass else model
        q, qd, qdd = model.random_configuration(rng), rng.normal(size=model.n), \
            rng.normal(size=model.n)
        friction = (inverse_dynamics(model, q, qd, qdd)
                    - inverse_dynamics(model, q, qd, qdd, friction=False))
        truth = inverse_dynamics(truth_model, q, qd, qdd, friction=False) + friction
        ym_truth = (inverse_dynamics(model.with_payload(1.0, com, frame=frame), q, qd, qdd,
                                     friction=False)
                    - inverse_dynamics(model, q, qd, qdd, friction=False))
        for handles, torque, regressor in ((fast.handles, _torque, _regressor),
                                           (slow.handles, model_torque, payload_regressor)):
            out, ym = np.empty(model.n), np.empty(model.n)
            torque(handles, payload, q, qd, qdd, mass, out)
            regressor(handles, payload, q, qd, qdd, ym)
            assert np.allclose(out, truth, rtol=1e-9, atol=1e-9)
            assert np.allclose(ym, ym_truth, rtol=1e-9, atol=1e-9)


def test_numpy_backend_has_callables_only():
    """Without C kernels the handles are callables and nothing runs compiled."""
    model = load_robot('ma3000')
    handles = StepKernels(ModelDynamics(model, 'numpy'), kernels(model, 'numpy'))
    assert not handles.compiled
    out = np.empty(model.n)
    q = np.array([0.1, -0.4, 0.3])
    model_torque(handles.handles, payload_vector((0.0, 0.0, 0.1)), q, 0 * q, 0 * q, 1.5, out)
    truth = model.with_payload(1.5, (0.0, 0.0, 0.1), frame=model.end_effector)
    assert np.allclose(out, inverse_dynamics(truth, q, 0 * q, 0 * q))
