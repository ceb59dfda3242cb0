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

"""Tests of RobotModel itself: look-ups, input checks, derived models."""

import os

import numpy as np
import pytest

from robodyn_ros.errors import (InputError, NonPositiveMassError, UnknownNameError,
                                UnknownRobotError)
from robodyn_ros.model import load_robot, RobotModel


@pytest.fixture
def two_link(data_dir):
    return RobotModel.from_urdf(os.path.join(data_dir, 'two_link.urdf'))


def test_lookups(two_link):
    """Joints and frames are found by name; unknown names give clear errors."""
    assert two_link.joint_index('elbow') == 1
    assert two_link.joint('elbow').link == 'lower'
    with pytest.raises(UnknownNameError, match="joint 'wrist'.*shoulder, elbow"):
        two_link.joint('wrist')
    with pytest.raises(UnknownNameError, match="frame 'flange'"):
        two_link.frame_pose([0, 0], 'flange')


@pytest.mark.parametrize('q, text', [
    ([0.0], r'expected shape \(2,\), got \(1,\)'),
    ([[0.0, 0.0]], r'expected shape \(2,\)'),
    ([0.0, np.nan], 'entry 1 is nan'),
    ([np.inf, 0.0], 'entry 0 is inf'),
])
def test_configuration_checks(two_link, q, text):
    """Wrong shapes and non-finite values are rejected, never broadcast."""
    with pytest.raises(InputError, match=text):
        two_link.forward_kinematics(q)


def test_jacobian_reference_is_checked(two_link):
    """Only the two documented reference frames are accepted."""
    with pytest.raises(InputError, match='reference'):
        two_link.jacobian([0, 0], 'tool', reference='world')


def test_with_payload_adds_and_removes_mass(two_link):
    """A payload adds its mass at the given point; removing it restores the body."""
    loaded = two_link.with_payload(1.5, com=[0.1, 0.0, 0.0], frame='tool')
    assert loaded.inertials[1].mass == pytest.approx(two_link.inertials[1].mass + 1.5)
    restored = loaded.with_payload(-1.5, com=[0.1, 0.0, 0.0], frame='tool')
    assert np.allclose(restored.inertials[1].inertia, two_link.inertials[1].inertia)
    assert np.allclose(restored.inertials[1].com, two_link.inertials[1].com)
    with pytest.raises(NonPositiveMassError):
        two_link.with_payload(-10.0)
    assert two_link.inertials[1].mass == pytest.approx(1.2)


def test_random_configuration_respects_limits(two_link):
    """Random configurations stay within the joint limits."""
    rng = np.random.default_rng(0)
    qs = np.array([two_link.random_configuration(rng) for _ in range(200)])
    assert np.all(qs >= two_link.lower_limits) and np.all(qs <= two_link.upper_limits)


def test_model_is_immutable(two_link):
    """Arrays of the model cannot be written."""
    with pytest.raises(ValueError):
        two_link.gravity[2] = 0.0
    with pytest.raises(ValueError):
        two_link.joints[0].axis[0] = 1.0


def test_load_robot_resolution(data_dir, ur5_urdf):
    """load_robot takes files, example robots, and rejects unknown names."""
    assert load_robot(os.path.join(data_dir, 'two_link.urdf')).n == 2
    assert load_robot('ur5').n == 6
    with pytest.raises(UnknownRobotError, match="unknown robot 'kuka_kr210'"):
        load_robot('kuka_kr210')
