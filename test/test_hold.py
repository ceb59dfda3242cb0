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

"""PositionHold: gravity from the model plus a PD scaled by the joint inertia."""

import numpy as np
import pinocchio as pin
import pytest
from robodyn_ros.errors import InputError
from robodyn_ros.hardware.hold import PositionHold
from robodyn_ros.model import load_robot
from robodyn_ros.pinocchio_bridge import PinocchioBridge


@pytest.mark.parametrize('robot', ['puma560', 'ma3000', 'ur5'])
def test_hold_torque_is_gravity_plus_inertia_scaled_pd(robot):
    """At the held position at rest: Pinocchio's gravity; off it: the PD of M_jj w^2, 2 w M_jj."""
    model = load_robot(robot)
    bridge = PinocchioBridge(model)
    pm, pd = bridge.pin_model, bridge.pin_data
    rng = np.random.default_rng(1)
    q = np.clip(rng.uniform(-1.0, 1.0, model.n), model.lower_limits, model.upper_limits)
    w = 30.0
    hold = PositionHold(model, bandwidth=w)
    hold.start(q)

    def gravity(x):
        return bridge.from_v(pin.computeGeneralizedGravity(pm, pd, bridge.q(x)))

    assert np.allclose(hold.torque(q, np.zeros(model.n)), gravity(q), atol=1e-9)
    inertia = np.diag(bridge.from_matrix(pin.crba(pm, pd, bridge.q(q))))
    dq, dqd = rng.normal(size=model.n) * 1e-3, rng.normal(size=model.n) * 0.1
    tau = hold.torque(q + dq, dqd)
    assert np.allclose(tau - gravity(q + dq), -inertia * w * w * dq - 2.0 * w * inertia * dqd,
                       rtol=1e-8, atol=1e-9)


def test_bandwidth_must_be_positive():
    """A zero or non-finite bandwidth is refused, naming the parameter."""
    for bad in (0.0, -1.0, float('inf')):
        with pytest.raises(InputError, match='hold_bandwidth'):
            PositionHold(load_robot('ma3000'), bad)
