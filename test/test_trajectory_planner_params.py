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

"""The trajectory planner's parameters and the planning records made from them (no graph)."""

import numpy as np
import pytest
from robodyn_ros.errors import RobodynError
from robodyn_ros.model import load_robot
from robodyn_ros.nodes.trajectory_planner_params import (parameter_specs, planned_payload,
                                                         planner_config, planning_limits)
from robodyn_ros.planning.planner_config import PROFILES, TIME_PARAMETERIZATIONS


def _values(**changes):
    values = {s.name: s.default for s in parameter_specs()}
    values.update(changes)
    return values


def test_specs_offer_the_planner_choices_and_check_arrays():
    """Profiles and timings come from the planner; arrays and the centre of mass are checked."""
    specs = {s.name: s for s in parameter_specs()}
    assert specs['profile'].choices == PROFILES
    assert specs['time_parameterization'].choices == TIME_PARAMETERIZATIONS
    assert specs['max_velocity'].validate([1.0, 2.0]) is None
    assert 'finite and > 0' in specs['max_velocity'].validate([1.0, -2.0])
    assert 'must not be empty' in specs['max_jerk'].validate([])
    assert specs['payload_com'].validate([0.0, 1.0])
    assert specs['payload_com'].validate([0.0, 0.0, 0.1]) is None


def test_limits_one_value_or_one_per_joint():
    """One value applies to every joint; one per joint keeps the order; else refused."""
    model = load_robot('puma560')
    names = model.joint_names[:3]
    lim = planning_limits(model, names, _values(max_velocity=[2.0],
                                                max_jerk=[10.0, 20.0, 30.0]))
    assert lim.joint_names == tuple(names)
    assert np.allclose(lim.velocity, 2.0) and np.allclose(lim.jerk, [10.0, 20.0, 30.0])
    assert np.all(np.isfinite(lim.acceleration)) and np.all(lim.acceleration > 0.0)
    with pytest.raises(ValueError, match='expected 1 or 3 values'):
        planning_limits(model, names, _values(max_velocity=[1.0, 2.0]))


def test_config_and_payload_from_values():
    """The values make the planner's settings and payload; an unknown frame is refused."""
    cfg = planner_config(_values(profile='trapezoid', sample_period=0.02))
    assert cfg.profile == 'trapezoid' and cfg.sample_period == 0.02 and cfg.compute_efforts
    model = load_robot('puma560')
    payload = planned_payload(model, _values(payload_mass=1.5, payload_com=[0.0, 0.0, 0.1]))
    assert payload.mass == 1.5 and tuple(payload.com) == (0.0, 0.0, 0.1)
    with pytest.raises(RobodynError):
        planned_payload(model, _values(payload_frame='nowhere'))
