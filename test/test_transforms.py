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

"""Tests of robodyn_ros.model.transforms."""

import numpy as np
import pytest

from robodyn_ros.model.transforms import (axis_angle_matrix, is_rotation, matrix_to_axis_angle,
                                          matrix_to_rpy, rot_x, rot_y, rot_z, rpy_to_matrix,
                                          skew, snap)


def test_snap_gives_exact_zeros_and_ones():
    """A quarter turn has exact 0 and +-1 entries after snapping."""
    r = rot_x(np.pi / 2)
    assert set(np.unique(r)) <= {-1.0, 0.0, 1.0}
    assert snap([1e-17, 1 - 1e-16, -1 + 1e-16, 0.5]).tolist() == [0.0, 1.0, -1.0, 0.5]


@pytest.mark.parametrize('seed', range(20))
def test_rpy_round_trip(seed):
    """Roll-pitch-yaw to matrix and back gives the same rotation."""
    rng = np.random.default_rng(seed)
    rpy = rng.uniform([-np.pi, -np.pi / 2, -np.pi], [np.pi, np.pi / 2, np.pi])
    r = rpy_to_matrix(rpy)
    assert is_rotation(r)
    assert np.allclose(rpy_to_matrix(matrix_to_rpy(r)), r, atol=1e-12)
    assert np.allclose(r, rot_z(rpy[2]) @ rot_y(rpy[1]) @ rot_x(rpy[0]), atol=1e-14)


def test_rpy_at_gimbal_lock():
    """Pitch of +-pi/2 still round-trips to the same rotation."""
    for pitch in (np.pi / 2, -np.pi / 2):
        r = rpy_to_matrix([0.3, pitch, -0.7])
        assert np.allclose(rpy_to_matrix(matrix_to_rpy(r)), r, atol=1e-12)


@pytest.mark.parametrize('angle', [0.0, 1e-9, 0.4, 2.0, np.pi - 1e-8, np.pi])
def test_axis_angle_round_trip(angle):
    """Axis-angle of a Rodrigues rotation is the same rotation, including near pi."""
    axis = np.array([1.0, -2.0, 0.5])
    axis /= np.linalg.norm(axis)
    r = axis_angle_matrix(axis, angle)
    k, a = matrix_to_axis_angle(r)
    assert np.allclose(axis_angle_matrix(k, a), r, atol=1e-7)


def test_skew_is_cross_product():
    """skew(a) b equals a x b."""
    a, b = np.array([1.0, 2.0, 3.0]), np.array([-0.5, 0.4, 2.0])
    assert np.allclose(skew(a) @ b, np.cross(a, b))


def test_is_rotation_rejects_reflections():
    """A reflection (det -1) is not a rotation."""
    assert not is_rotation(np.diag([1.0, 1.0, -1.0]))
    assert not is_rotation(2 * np.eye(3))
