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

"""Counts, currents and torques: the conversions and the board checks."""

import math

import numpy as np
import pytest
from robodyn_ros.errors import InputError
from robodyn_ros.hardware.board.messages import Identify
from robodyn_ros.hardware.errors import BoardMismatch
from robodyn_ros.hardware.scaling import axis_parameters, joint_scaling
from robodyn_ros.model import load_robot


def test_puma_conversions_by_hand():
    """Check q = 2 pi counts / (cpr N) and tau = eta N Kt i with the PUMA gear ratio signs."""
    puma = load_robot('puma560')
    axes = axis_parameters(puma, efficiency=0.9)
    ident = Identify(1, (1, 0, 0), 0.001, (1000,) * 6, (5.0,) * 6)
    sc = joint_scaling(axes, ident)
    j1 = puma.joints[0].actuator
    assert j1.gear_ratio < 0
    counts = np.array([1000, -250, 0, 7, 1, 2])
    q = sc.position(counts)
    assert q[0] == pytest.approx(2 * math.pi * 1000 / (1000 * j1.gear_ratio))
    tau = sc.torque(np.full(6, 2.0))
    assert tau[0] == pytest.approx(0.9 * j1.gear_ratio * j1.torque_constant * 2.0)
    assert np.allclose(sc.current(tau), 2.0)
    # the current limit is the smallest of actuator, effort/(eta N Kt) and board rating
    assert np.all(sc.current_limit <= 5.0)
    effort = np.array([j.limits.effort for j in puma.joints])
    assert np.all(axes.current_limit <= effort / np.abs(axes.torque_per_amp) + 1e-12)


def test_unit_torque_axes_for_models_without_actuators():
    """A joint without a torque constant is driven as 1 N m per A at the joint."""
    ur5 = load_robot('ur5')
    axes = axis_parameters(ur5)
    assert set(axes.unit_torque) == set(ur5.joint_names)
    assert np.allclose(axes.torque_per_amp, 1.0)
    sc = joint_scaling(axes, Identify(1, (1, 0, 0), 0.001, (4096,) * 6, (200.0,) * 6))
    assert np.allclose(sc.current_limit, [150, 150, 150, 28, 28, 28])
    assert np.allclose(sc.torque([1, -2, 3, 0, 0, 0]), [1, -2, 3, 0, 0, 0])


def test_board_mismatch_and_bad_efficiency():
    """Axis count and encoder resolution are checked; the message names the joint."""
    puma = load_robot('puma560')
    axes = axis_parameters(puma)
    with pytest.raises(BoardMismatch, match='3 axes, the model has 6'):
        joint_scaling(axes, Identify(1, (1, 0, 0), 0.001, (1000,) * 3, (5.0,) * 3))
    ident = Identify(1, (1, 0, 0), 0.001, (1000, 1000, 2000, 1000, 1000, 1000), (5.0,) * 6)
    with pytest.raises(BoardMismatch, match="joint 'joint3'.*2000.*expected 1000"):
        joint_scaling(axes, ident, expected_counts=[1000])
    assert joint_scaling(axes, ident, expected_counts=[1000, 1000, 2000, 1000, 1000, 1000])
    with pytest.raises(BoardMismatch, match='protocol version 2'):
        joint_scaling(axes, Identify(2, (1, 0, 0), 0.001, (1000,) * 6, (5.0,) * 6))
    with pytest.raises(InputError, match='efficiency'):
        axis_parameters(puma, efficiency=1.2)
    with pytest.raises(InputError, match='efficiency'):
        axis_parameters(puma, efficiency=[0.9, 0.9])
