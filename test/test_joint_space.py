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

"""The joint-space part of RobotModel: per-joint arrays and the configurations it gives."""

from dataclasses import replace
import math

import numpy as np
import pytest

from robodyn_ros.errors import InputError
from robodyn_ros.model import JointLimits, library, RobotModel

#: Four joints: unbounded, zero below the range, zero above the range, zero inside.
_URDF = """<?xml version="1.0"?>
<robot name="mixed">
  <link name="base_link"/>
  <link name="a"><inertial><mass value="1"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="b"><inertial><mass value="1"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="c"><inertial><mass value="1"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="d"><inertial><mass value="1"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <joint name="spin" type="continuous"><parent link="base_link"/><child link="a"/>
    <axis xyz="0 0 1"/></joint>
  <joint name="slide" type="prismatic"><parent link="a"/><child link="b"/>
    <axis xyz="0 0 1"/><limit lower="0.2" upper="0.5" effort="10" velocity="1"/></joint>
  <joint name="below" type="revolute"><parent link="b"/><child link="c"/>
    <axis xyz="0 1 0"/><limit lower="-1.0" upper="-0.5" effort="10" velocity="1"/></joint>
  <joint name="around" type="revolute"><parent link="c"/><child link="d"/>
    <axis xyz="0 1 0"/><limit lower="-1.0" upper="2.0" effort="10" velocity="1"/></joint>
</robot>
"""


@pytest.fixture
def mixed():
    return RobotModel.from_urdf(_URDF)


def _expected_home(model, t, outside='limit'):
    """Joint by joint from the limits: zero or its stand-in, then t of the way to the middle."""
    out = []
    for joint in model.joints:
        lower, upper = joint.limits.lower, joint.limits.upper
        lo = lower if math.isfinite(lower) else -math.pi
        hi = upper if math.isfinite(upper) else math.pi
        if lower <= 0.0 <= upper:
            zero = 0.0
        elif outside == 'limit':
            zero = lower if lower > 0.0 else upper
        else:
            zero = (lo + hi) / 2.0
        out.append(zero + t * ((lo + hi) / 2.0 - zero))
    return np.array(out)


def test_home_configuration_clamps_zero_into_the_limits(mixed):
    """Zero where it is inside the range, else the nearest limit; the default is t = 0."""
    assert mixed.home_configuration().tolist() == [0.0, 0.2, -0.5, 0.0]
    assert mixed.home_configuration(0.0).tolist() == [0.0, 0.2, -0.5, 0.0]


@pytest.mark.parametrize('t', [0.25, 0.5, 1.0])
def test_home_configuration_moves_toward_the_middle(mixed, t):
    """A share t of the way from the clamped zero to the middle of each range (unbounded: 0)."""
    assert np.allclose(mixed.home_configuration(t), _expected_home(mixed, t), atol=1e-15)
    assert mixed.home_configuration(1.0).tolist() == [0.0, 0.35, -0.75, 0.5]


def test_home_configuration_of_a_one_sided_range(mixed):
    """A side without a limit counts as pi for the middle; the clamp uses the real limit."""
    joints = list(mixed.joints)
    joints[3] = replace(joints[3], limits=JointLimits(lower=0.5, upper=math.inf, effort=10.0,
                                                      velocity=1.0))
    model = mixed.replace_joints(joints)
    assert model.home_configuration()[3] == 0.5
    assert model.home_configuration(1.0)[3] == pytest.approx((0.5 + math.pi) / 2.0)


def test_home_configuration_takes_the_middle_outside(mixed):
    """With outside='middle', a range without zero gives its middle, other joints zero."""
    assert mixed.home_configuration(outside='middle').tolist() == [0.0, 0.35, -0.75, 0.0]
    assert np.allclose(mixed.home_configuration(0.5, outside='middle'),
                       _expected_home(mixed, 0.5, 'middle'), atol=1e-15)


@pytest.mark.parametrize('t', [-0.1, 1.5, math.nan])
def test_home_configuration_share_is_checked(mixed, t):
    """Shares outside [0, 1] and unknown stand-ins are refused."""
    with pytest.raises(InputError, match='toward_middle'):
        mixed.home_configuration(t)
    with pytest.raises(InputError, match='outside'):
        mixed.home_configuration(outside='zero')


@pytest.mark.parametrize('robot', library.names())
@pytest.mark.parametrize('t', [0.0, 0.5, 1.0])
@pytest.mark.parametrize('outside', ['limit', 'middle'])
def test_home_configuration_of_the_library_robots(robot, t, outside):
    """Inside the limits for every library robot; at t = 0 zero or a limit."""
    model = library.load(robot)
    home = model.home_configuration(t, outside)
    assert home.shape == (model.n,)
    assert np.all(np.isfinite(home))
    assert np.all(model.lower_limits <= home) and np.all(home <= model.upper_limits)
    assert np.allclose(home, _expected_home(model, t, outside), atol=1e-15)
    if t == 0.0 and outside == 'limit':
        for value, joint in zip(home, model.joints):
            assert value == 0.0 or value in (joint.limits.lower, joint.limits.upper)


def test_random_configuration_respects_limits(mixed):
    """Random configurations stay within the limits; unbounded joints within [-pi, pi]."""
    rng = np.random.default_rng(0)
    qs = np.array([mixed.random_configuration(rng) for _ in range(200)])
    assert np.all(qs[:, 1:] >= mixed.lower_limits[1:])
    assert np.all(qs[:, 1:] <= mixed.upper_limits[1:])
    assert np.all(np.abs(qs[:, 0]) <= math.pi) and np.ptp(qs[:, 0]) > math.pi


def test_per_joint_arrays(mixed):
    """The arrays follow the joints in order and cannot be written."""
    assert mixed.parents.tolist() == [-1, 0, 1, 2]
    assert mixed.is_prismatic.tolist() == [False, True, False, False]
    assert mixed.lower_limits[0] == -math.inf and mixed.upper_limits[2] == -0.5
    assert mixed.children == ((1,), (2,), (3,), ()) and mixed.is_chain
    with pytest.raises(ValueError):
        mixed.lower_limits[1] = 0.0
