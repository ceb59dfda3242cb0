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

"""The combined controller of seed 003 (CT + load estimation + VS self-tuners)."""

import numpy as np
from robodyn_ros.control.base import JointReference, Mode
from robodyn_ros.control.computed_torque_lme import ComputedTorqueLME
from robodyn_ros.control.mbvsst import MBVSST
from robodyn_ros.control.payload import PayloadEstimatorSettings
from robodyn_ros.control.vsst import SelfTunerSettings
from robodyn_ros.model import load_robot


def test_torque_is_ct_lme_plus_the_scaled_relay():
    """Torque = CT+LME torque + torque_scale * u, u = +-10 (Appendix C), before saturation."""
    model = load_robot('ma3000')
    h = 1.0 / 121.0
    estimator = PayloadEstimatorSettings(initial_mass=1.5)
    mb = MBVSST(model, h, estimator=estimator, torque_limit=np.inf)
    ref_ct = ComputedTorqueLME(model, h, 1600.0, 80.0, estimator=estimator, torque_limit=np.inf)
    assert np.allclose(mb.kp, 1600.0) and np.allclose(mb.kd, 80.0)
    assert mb.tuner.u_max == SelfTunerSettings.u_max == 10.0 and mb.tuner.switched
    assert mb.tuner.settings == SelfTunerSettings()
    assert np.allclose(mb.torque_scale, 0.05 * model.effort_limits / 10.0)
    q = np.radians([0.0, -80.0, 5.0])
    ref = JointReference(np.radians([1.0, -79.0, 6.0]), np.zeros(3), np.zeros(3))
    for _ in range(3):
        tau, st = mb.step(0.0, q, np.zeros(3), ref)
        tau_ct, _ = ref_ct.step(0.0, q, np.zeros(3), ref)
        u = mb.estimates()['vsst_output']
        assert np.all(np.abs(u) == 10.0)
        assert np.allclose(tau, tau_ct + mb.torque_scale * u)
    assert set(mb.estimates()) == {'payload_mass', 'payload_excitation', 'payload_frozen',
                                   'vsst_output', 'vsst_residual'}


def test_limits_and_safe_outputs():
    """The sum is saturated; NaN state gives zeros, and the tuners restart afterwards."""
    model = load_robot('ma3000')
    mb = MBVSST(model, 0.01, torque_scale=100.0, vsst_joints=[1])
    q = np.radians([0.0, -80.0, 5.0])
    tau, st = mb.step(0.0, q, np.zeros(3), JointReference.hold(q + 0.1))
    assert st.mode == Mode.SATURATED and abs(tau[1]) == model.effort_limits[1]
    tau, st = mb.step(0.0, [np.nan, 0.0, 0.0], np.zeros(3), JointReference.hold(q))
    assert st.mode == Mode.ZERO and np.all(tau == 0.0)
    tau, st = mb.step(0.0, q, np.zeros(3), JointReference.hold(q))
    assert st.ok and mb.tuner.started
