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

"""Planning limits: validation, model limits, goal checks and the acceleration estimate."""

import math

import numpy as np
import pinocchio as pin
import pytest
from robodyn_ros.errors import InputError
from robodyn_ros.model import load_robot
from robodyn_ros.pinocchio_bridge import PinocchioBridge
from robodyn_ros.planning.errors import LimitError
from robodyn_ros.planning.limits import estimate_acceleration_limits, PlanningLimits


def test_from_model_overrides_and_scales():
    """Model limits are taken per joint; overrides broadcast; scales multiply."""
    model = load_robot('puma560')
    lim = PlanningLimits.from_model(model)
    assert lim.joint_names == tuple(model.joint_names)
    assert np.array_equal(lim.velocity, model.velocity_limits)
    assert np.all(np.isinf(lim.jerk))
    sub = PlanningLimits.from_model(model, ['joint3', 'joint1'], velocity=2.0,
                                    acceleration=[4.0, 5.0], velocity_scale=0.5,
                                    acceleration_scale=0.25)
    assert sub.joint_names == ('joint3', 'joint1')
    assert sub.velocity.tolist() == [1.0, 1.0]
    assert sub.acceleration.tolist() == [1.0, 1.25]
    assert sub.effort.tolist() == [model.effort_limits[2], model.effort_limits[0]]
    with pytest.raises(InputError, match='velocity_scale'):
        PlanningLimits.from_model(model, velocity_scale=0.0)
    with pytest.raises(Exception, match='joint9'):
        PlanningLimits.from_model(model, ['joint9'])


@pytest.mark.parametrize('field', ['velocity', 'acceleration', 'jerk', 'effort'])
@pytest.mark.parametrize('bad', [0.0, -1.5, math.nan])
def test_invalid_rates_name_joint_value_and_bound(field, bad):
    """Limits at or below zero, or NaN, are refused naming the joint, value and bound."""
    with pytest.raises(LimitError) as info:
        PlanningLimits(['a', 'b'], **{field: [1.0, bad]})
    err = info.value
    assert err.joint == 'b' and f'{field} limit' in str(err)
    assert (math.isnan(err.value) if math.isnan(bad) else err.value == bad)
    assert "joint 'b'" in str(err)


def test_structure_errors():
    """Duplicate names, lower above upper and wrong lengths are refused."""
    with pytest.raises(InputError, match='duplicate'):
        PlanningLimits(['a', 'a'])
    with pytest.raises(LimitError, match='above the upper'):
        PlanningLimits(['a'], lower=[1.0], upper=[0.0])
    with pytest.raises(InputError, match='expected one value or 2'):
        PlanningLimits(['a', 'b'], velocity=[1.0, 2.0, 3.0])


def test_check_positions_and_rates():
    """Goal checks name the joint, value and bound; rates compare absolute peaks."""
    lim = PlanningLimits(['a', 'b'], lower=[-1.0, -2.0], upper=[1.0, 2.0], velocity=[1.0, 3.0])
    lim.check_positions([0.5, -2.0])
    with pytest.raises(LimitError) as info:
        lim.check_positions([0.5, 2.5], 'goal position', 'point 3')
    err = info.value
    assert (err.joint, err.value, err.bound) == ('b', 2.5, 2.0)
    assert 'point 3' in str(err) and 'upper limit 2' in str(err)
    with pytest.raises(LimitError, match="joint 'a'.*below the lower limit -1"):
        lim.check_positions([-1.5, 0.0])
    with pytest.raises(InputError, match="joint 'b' is nan"):
        lim.check_positions([0.0, math.nan])
    with pytest.raises(InputError, match='expected 2 values'):
        lim.check_positions([0.0])
    lim.check_rates([[0.5, -3.0]], 'velocity', 'peak velocity')
    with pytest.raises(LimitError, match="joint 'b': peak velocity 3.1"):
        lim.check_rates([[0.5, -3.1]], 'velocity', 'peak velocity')
    with pytest.raises(LimitError, match='not finite; ruckig needs'):
        lim.require_finite('jerk', 'ruckig')


def test_acceleration_estimate_matches_pinocchio_inertia():
    """k_a = effort / max A_jj over the same configurations, A from Pinocchio's crba."""
    model = load_robot('puma560')
    est = estimate_acceleration_limits(model, samples=16, seed=4)
    rng = np.random.default_rng(4)
    bridge = PinocchioBridge(model)
    qs = [model.random_configuration(rng) for _ in range(16)]
    mats = [bridge.from_matrix(pin.crba(bridge.pin_model, bridge.pin_data, bridge.q(q)))
            for q in qs]
    diag = np.max([np.diag(m) for m in mats], axis=0)
    assert np.allclose(est, model.effort_limits / diag, rtol=1e-9)
    sub = estimate_acceleration_limits(model, ['joint2'], samples=16, seed=4)
    assert np.allclose(sub, est[1])
