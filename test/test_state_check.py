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

"""StatePlausibility: positions beyond the limits, impossible speeds and jumps."""

import numpy as np
import pytest
from robodyn_ros.control.state_check import StatePlausibility
from robodyn_ros.errors import InputError
from robodyn_ros.model import load_robot


@pytest.mark.parametrize('robot', ['puma560', 'ur5', 'ma3000'])
def test_each_rule_names_the_joint(robot):
    """Inside the limits at a possible speed passes; each rule catches its own kind."""
    model = load_robot(robot)
    check = StatePlausibility(model, margin=0.1, speed_factor=1.5)
    q = model.home_configuration()
    qd = np.zeros(model.n)
    assert check.check(q, qd, 0.0) == ''
    j = model.n - 1
    far = q.copy()
    far[j] = model.upper_limits[j] + 0.2 if np.isfinite(model.upper_limits[j]) else 1e30
    if np.isfinite(model.upper_limits[j]):
        assert f'joint {model.joint_names[j]} position' in check.check(far, qd, 0.01)
    fast = qd.copy()
    fast[0] = 1.6 * model.velocity_limits[0]
    assert f'joint {model.joint_names[0]} velocity' in check.check(q, fast, 0.01)
    step = q.copy()
    step[0] += 1.5 * model.velocity_limits[0] * 0.01 + 0.1 + 1e-3   # just too far in 10 ms
    assert 'jumped' in check.check(step, qd, 0.01)
    step[0] -= 2e-3                                                 # just possible
    assert check.check(step, qd, 0.01) == ''


def test_a_refused_sample_is_not_the_reference_for_the_next():
    """After a glitch the next good sample is compared with the last good one."""
    model = load_robot('puma560')
    check = StatePlausibility(model)
    q = model.home_configuration()
    assert check.check(q, None, 0.0) == ''
    glitch = q.copy()
    glitch[1] -= 1.0
    assert 'jumped' in check.check(glitch, None, 0.002)
    assert check.check(q, None, 0.004) == ''
    check.reset()
    assert check.check(glitch, None, 0.006) == ''    # no reference after a reset


def test_settings_are_checked():
    """A margin <= 0 or a speed factor < 1 is refused."""
    model = load_robot('ma3000')
    with pytest.raises(InputError, match='plausibility_margin'):
        StatePlausibility(model, margin=0.0)
    with pytest.raises(InputError, match='plausibility_speed_factor'):
        StatePlausibility(model, speed_factor=0.5)
