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

"""Seed 003's variable-structure self-tuner on linear plants simulated exactly."""

from control_reference import ReferenceTuner
import numpy as np
import pytest
from robodyn_ros.control import jit
from robodyn_ros.control.base import JointReference
from robodyn_ros.control.vsst import (emulator_design, SelfTunerSettings, SelfTuningRelay,
                                      VariableStructureSelfTuner)
from robodyn_ros.errors import InputError
from robodyn_ros.model import load_robot
from scipy import signal

H = 0.008251   # Appendix C sample interval [s]


def _run(tuner, num, den, steps=2000):
    """Drive a SISO plant num/den (ZOH-exact) to follow 0.5 sin(0.5 t)."""
    a, b, c, d = signal.tf2ss(num, den)
    ad, bd, cd, _, _ = signal.cont2discrete((a, b, c, d), H)
    x = np.zeros((ad.shape[0], 1))
    err, us = [], []
    for k in range(steps):
        t = k * H
        y = float((cd @ x)[0, 0])
        w = tuner.setpoint_value(np.array([0.5 * np.sin(0.5 * t)]),
                                 np.array([0.25 * np.cos(0.5 * t)]), np.array([0.0]))
        u = tuner.update(np.array([y]), w)[0]
        x = ad @ x + bd * u
        err.append(0.5 * np.sin(0.5 * t) - y)
        us.append(u)
    return np.array(err), np.array(us)


def test_emulator_design_solves_the_diophantine_equation():
    """P C = E A + F with deg F < deg A; (E B, F) returned."""
    rng = np.random.default_rng(0)
    for _ in range(5):
        a = np.concatenate([[1.0], rng.uniform(1, 3, 2)])
        b = rng.uniform(0.5, 2.0, 1)
        p = np.array([1.0, rng.uniform(0.5, 2)])
        c = np.array([1.0, rng.uniform(0.5, 2)])
        eb, f = emulator_design(a, b, p, c)
        e = np.polydiv(eb, b)[0]
        assert np.allclose(np.polyadd(np.polymul(e, a), f), np.polymul(p, c))
        assert f.size == a.size - 1


def test_relay_slides_on_the_tracking_error_and_keeps_the_true_model():
    """Assumed = actual plant: the estimate stays exact; the relay tracks within a thin band."""
    tuner = VariableStructureSelfTuner(1, H)
    err, us = _run(tuner, [1.0], [1.0, 2.0, 1.0])
    assert np.allclose(tuner.theta[0], [1.0, 0.0, 0.0, 0.0], atol=1e-9)
    assert set(np.unique(us)) <= {-10.0, 10.0}
    assert np.abs(err[1000:]).max() < 0.02


def test_identification_converges_to_the_emulator_of_the_actual_plant():
    """For 2 / (s^2 + 3 s + 2) the implicit estimate goes to (E B, F) of that plant."""
    tuner = VariableStructureSelfTuner(1, H)
    _run(tuner, [2.0], [1.0, 3.0, 2.0])
    eb, f = emulator_design([1.0, 3.0, 2.0], [2.0], [1.0, 1.0], [1.0, 1.0])
    expected = np.concatenate([eb[::-1], f[::-1], [0.0]])
    assert np.allclose(tuner.theta[0], expected, atol=1e-3)


def test_literal_setpoint_lags_and_boundary_layer_stops_switching():
    """R = 1 on the position lags the reference; a boundary layer removes the switching."""
    err_model, us = _run(VariableStructureSelfTuner(1, H), [1.0], [1.0, 2.0, 1.0])
    err_pos, _ = _run(VariableStructureSelfTuner(1, H, SelfTunerSettings(setpoint='position')),
                      [1.0], [1.0, 2.0, 1.0])
    assert np.abs(err_pos[1000:]).max() > 10 * np.abs(err_model[1000:]).max()
    _, smooth = _run(VariableStructureSelfTuner(1, H, SelfTunerSettings(boundary=0.5)), [1.0],
                     [1.0, 2.0, 1.0])
    assert np.sum(np.diff(np.sign(us)) != 0) > 500
    assert np.sum(np.diff(np.sign(smooth)) != 0) < 10


def test_configuration_errors_and_the_controller():
    """Impossible designs are refused; the VSST-alone law drives only its joints."""
    for field, bad in (('c', (1.0,)),                  # deg C too small
                       ('cs', (1.0,)),                 # P / Cs improper
                       ('u_max', -20.0),
                       ('setpoint', 'velocity'),
                       ('a', (0.0, 0.0)),
                       ('forget_time', 0.0),
                       ('boundary', -0.1)):
        with pytest.raises(InputError) as err:
            SelfTunerSettings(**{field: bad})
        assert err.value.argument == field
    with pytest.raises(InputError, match='boundary'):
        VariableStructureSelfTuner(2, H, SelfTunerSettings(boundary=[0.1, 0.2, 0.3]))
    with pytest.raises(InputError, match='settings'):
        VariableStructureSelfTuner(2, H, {'u_max': 5.0})
    with pytest.raises(InputError, match='y'):
        VariableStructureSelfTuner(2, H).update(np.zeros(3), np.zeros(2))
    model = load_robot('ma3000')
    ctl = SelfTuningRelay(model, H, 2.0, joints=[0])
    tau, _ = ctl.step(0.0, np.zeros(3), np.zeros(3), JointReference.hold([0.1, 0.1, 0.1]))
    assert tau[0] == 20.0 and tau[1] == 0.0 and tau[2] == 0.0


@pytest.mark.parametrize('compiled', [True, False])
def test_sample_equals_the_numpy_reference(compiled):
    """The loop-form sample (compiled or as Python) gives the numpy form's outputs, estimates."""
    rng = np.random.default_rng(3)
    settings = SelfTunerSettings(boundary=[0.0, 0.2, 0.0])
    tuner = VariableStructureSelfTuner(3, H, settings, compiled=compiled)
    assert tuner.compiled == (compiled and jit.AVAILABLE)
    ref = ReferenceTuner(VariableStructureSelfTuner(3, H, settings))
    y = np.zeros(3)
    switches = 0
    for k in range(300):
        y = y + rng.normal(0, 0.01, 3)
        q_ref = np.sin(0.1 * k) * np.array([0.1, -0.2, 0.3])
        w = tuner.setpoint_value(q_ref, 0.1 * q_ref, -0.01 * q_ref)
        assert np.allclose(w, ref.setpoint_value(q_ref, 0.1 * q_ref, -0.01 * q_ref))
        u = tuner.update(y, w)
        switches += int(np.sign(u[0]) != np.sign(ref.u[0])) if k else 0
        assert np.allclose(u, ref.update(y, w), rtol=1e-9, atol=1e-12)
        assert np.allclose(tuner.theta, ref.theta, rtol=1e-9, atol=1e-12)
        assert np.allclose(tuner.residual, ref.residual, rtol=1e-9, atol=1e-12)
    assert np.allclose(tuner.cov, ref.cov, rtol=1e-9, atol=1e-9)
    assert np.ptp(tuner.theta[:, 1]) > 0.0 and switches > 10   # it identified and switched
