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

"""Command buffer, joint-limit rule and the torque-to-current pipeline."""

import math

import numpy as np
import pytest
from robodyn_ros.hardware.board.messages import Identify
from robodyn_ros.hardware.command import CommandBuffer, CurrentCommand, limit_torque
from robodyn_ros.hardware.scaling import axis_parameters, joint_scaling
from robodyn_ros.model import load_robot


def test_command_buffer_fresh_stale_invalid():
    """A command is used while fresh; stale, NaN and wrong-length commands give none."""
    buf = CommandBuffer(3)
    assert buf.get(0.0, 0.1)[:2] == (None, 'none')
    assert buf.put([1.0, 2.0, 3.0], 10.0)
    torque, state, _ = buf.get(10.05, 0.1)
    assert state == 'fresh' and torque.tolist() == [1.0, 2.0, 3.0]
    assert buf.get(10.2, 0.1)[:2] == (None, 'stale')
    assert not buf.put([1.0, math.nan, 3.0], 11.0)
    torque, state, reason = buf.get(11.0, 0.1)
    assert torque is None and state == 'invalid' and 'joint index 1' in reason
    assert not buf.put([1.0, 2.0], 12.0)
    assert 'has 2 efforts for 3 joints' in buf.get(12.0, 0.1)[2]
    assert buf.put([0.0, 0.0, 0.0], 13.0) and buf.get(13.0, 0.1)[1] == 'fresh'
    buf.clear()
    assert buf.get(13.0, 0.1)[1] == 'none'
    assert buf.received == 2 and buf.rejected == 2


def test_limit_rule_ramps_torque_into_the_limit_only():
    """Within the margin the torque towards the limit ramps to zero; away is untouched."""
    lower, upper = np.array([-1.0, -1.0]), np.array([1.0, 1.0])
    q = np.array([0.95, -0.99])
    tau, mask = limit_torque(q, np.array([10.0, -10.0]), lower, upper, 0.1)
    assert tau == pytest.approx([5.0, -1.0])
    assert mask.tolist() == [True, True]
    tau, mask = limit_torque(q, np.array([-10.0, 10.0]), lower, upper, 0.1)
    assert tau.tolist() == [-10.0, 10.0] and not mask.any()
    tau, _ = limit_torque(np.array([1.2, -3.0]), np.array([4.0, -4.0]), lower, upper, 0.1)
    assert tau.tolist() == [0.0, 0.0]
    tau, _ = limit_torque(np.array([0.999, 0.0]), np.array([4.0, 4.0]), lower, upper, 0.0)
    assert tau.tolist() == [4.0, 4.0]
    inf = np.array([math.inf, math.inf])
    tau, mask = limit_torque(np.array([1e6, -1e6]), np.array([3.0, -3.0]), -inf, inf, 0.1)
    assert tau.tolist() == [3.0, -3.0] and not mask.any()


def test_pipeline_adds_friction_and_clamps_effort_then_current():
    """Command plus friction, then the limit rule, the effort clamp and the current clamp."""
    puma = load_robot('puma560')
    sc = joint_scaling(axis_parameters(puma), Identify(1, (1, 0, 0), 0.001, (1000,) * 6,
                                                       (10.0,) * 6))
    limit = np.array([1.0, 8.0, 8.0, 8.0, 8.0, 8.0])
    pipe = CurrentCommand(puma, sc, limit)
    q = np.zeros(6)
    cmd = np.array([1.0, 2.0, -3.0, 500.0, 0.0, 0.0])
    fric = np.array([0.5, 0.0, 0.0, 0.0, 0.0, 0.0])
    res = pipe(q, cmd, fric, 0.05)
    effort = puma.joints[3].limits.effort
    assert res.torque[3] == effort and res.effort_limited[3]
    expect = np.minimum(np.abs(res.torque / sc.axes.torque_per_amp), limit)
    assert np.allclose(np.abs(res.currents), expect)
    signs = np.sign((cmd + fric)[:3] / sc.axes.gear_ratio[:3])
    assert np.allclose(np.sign(res.currents[:3]), signs)
    assert res.current_limited[0] == (abs(1.5 / sc.axes.torque_per_amp[0]) > 1.0)
    assert np.allclose(res.friction, fric)
    zero = pipe(q, None, fric, 0.05)
    assert np.all(zero.currents == 0.0) and np.all(zero.friction == 0.0)
    at = pipe(np.array([puma.upper_limits[0], 0, 0, 0, 0, 0]), np.full(6, 1.0), None, 0.05)
    assert at.at_limit[0] and at.currents[0] == 0.0
