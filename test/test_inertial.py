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

"""Tests of robodyn_ros.model.inertial."""

import numpy as np
import pytest

from robodyn_ros.errors import InvalidInertiaError, NonFiniteValueError, NonPositiveMassError
from robodyn_ros.model.inertial import check_inertial, Inertial
from robodyn_ros.model.transforms import rpy_to_matrix


def _box(m, a, b, c):
    return m / 12 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b])


def test_combined_matches_parallel_axis_theorem():
    """Two point masses combine to the textbook composite inertia."""
    p1 = Inertial(1.0, [1.0, 0.0, 0.0], np.zeros((3, 3)))
    p2 = Inertial(1.0, [-1.0, 0.0, 0.0], np.zeros((3, 3)))
    both = p1.combined(p2)
    assert both.mass == 2.0
    assert np.allclose(both.com, 0.0)
    assert np.allclose(both.inertia, np.diag([0.0, 2.0, 2.0]))


def test_inertia_at_origin():
    """Inertia about the frame origin adds m(|c|^2 E - c c^T)."""
    body = Inertial(2.0, [0.0, 0.5, 0.0], _box(2.0, 0.1, 0.2, 0.3))
    expected = body.inertia + 2.0 * np.diag([0.25, 0.0, 0.25])
    assert np.allclose(body.inertia_at_origin, expected)


def test_transformed_preserves_physics():
    """Moving a body to another frame keeps mass and principal moments."""
    body = Inertial(3.0, [0.1, -0.2, 0.3], _box(3.0, 0.1, 0.4, 0.2))
    r = rpy_to_matrix([0.3, -1.1, 2.0])
    moved = body.transformed(r, [1.0, 2.0, 3.0])
    assert moved.mass == body.mass
    assert np.allclose(moved.com, r @ body.com + [1.0, 2.0, 3.0])
    assert np.allclose(np.linalg.eigvalsh(moved.inertia), np.linalg.eigvalsh(body.inertia))


def test_arrays_are_read_only():
    """Inertial records are immutable."""
    body = Inertial(1.0, [0, 0, 0], np.eye(3))
    with pytest.raises(ValueError):
        body.com[0] = 1.0


def test_check_accepts_point_mass_and_box():
    """A point mass and a solid box are valid bodies."""
    check_inertial(Inertial(1.0, [0, 0, 0], np.zeros((3, 3))), 'point')
    check_inertial(Inertial(1.0, [0, 0, 0], _box(1.0, 1.0, 2.0, 3.0)), 'box')
    check_inertial(Inertial.zero(), 'massless')


@pytest.mark.parametrize('body, error, text', [
    (Inertial(-1.0, [0, 0, 0], np.eye(3)), NonPositiveMassError, 'negative'),
    (Inertial(0.0, [0, 0, 0], np.eye(3)), NonPositiveMassError, 'zero mass'),
    (Inertial(np.nan, [0, 0, 0], np.eye(3)), NonFiniteValueError, 'finite'),
    (Inertial(1.0, [0, np.inf, 0], np.eye(3)), NonFiniteValueError, 'finite'),
    (Inertial(1.0, [0, 0, 0], [[1, 0.5, 0], [0, 1, 0], [0, 0, 1]]), InvalidInertiaError,
     'symmetric'),
    (Inertial(1.0, [0, 0, 0], np.diag([-1.0, 2.0, 2.0])), InvalidInertiaError,
     'positive definite'),
    (Inertial(1.0, [0, 0, 0], np.diag([0.1, 0.1, 1.0])), InvalidInertiaError, 'triangle'),
])
def test_check_rejects_unphysical_bodies(body, error, text):
    """Each unphysical body raises its error, naming the element and the problem."""
    with pytest.raises(error, match=text) as info:
        check_inertial(body, "link 'x'", 'file.urdf')
    assert "link 'x'" in str(info.value) and 'file.urdf' in str(info.value)
