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

"""Tests of robodyn_ros.model.dh: standard and modified DH tables."""

import numpy as np
import pytest

from robodyn_ros.errors import (InvalidInertiaError, ModelError, ModelWarning,
                                NonPositiveMassError)
from robodyn_ros.model import RobotModel
from robodyn_ros.model.transforms import rot_x, rot_z


def _row(**kw):
    row = {'a': 0.0, 'alpha': 0.0, 'd': 0.0, 'theta': 0.0, 'joint': 'R', 'mass': 1.0,
           'com': [0.0, 0.0, 0.0], 'inertia': [0.01, 0.01, 0.01]}
    row.update(kw)
    return row


def _dh_standard(a, alpha, d, theta):
    t = np.eye(4)
    t[:3, :3] = rot_z(theta)
    t2 = np.eye(4)
    t2[:3, :3] = rot_x(alpha)
    t2[:3, 3] = [a, 0, d]
    # Rz(theta) Tz(d) Tx(a) Rx(alpha) = [Rz(theta)] [Tz(d) Tx(a) Rx(alpha)]
    return t @ t2


def _dh_modified(a, alpha, d, theta):
    t = np.eye(4)
    t[:3, :3] = rot_x(alpha)
    t[:3, 3] = [a, 0, 0]
    t2 = np.eye(4)
    t2[:3, :3] = rot_z(theta)
    t2[:3, 3] = [0, 0, d]
    return t @ t2


def test_planar_two_link_standard():
    """A planar 2R arm in standard DH puts its tip at (l1 c1 + l2 c12, l1 s1 + l2 s12)."""
    m = RobotModel.from_dh([_row(a=0.5), _row(a=0.3)], convention='standard')
    q = np.array([0.4, -1.1])
    tip = m.frame_pose(q, 'frame2')[:3, 3]
    expected = [0.5 * np.cos(0.4) + 0.3 * np.cos(-0.7), 0.5 * np.sin(0.4) + 0.3 * np.sin(-0.7),
                0.0]
    assert np.allclose(tip, expected)


@pytest.mark.parametrize('seed', range(5))
def test_random_tables_match_matrix_products(seed):
    """Both conventions reproduce the product of the textbook DH matrices."""
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(5):
        alpha = rng.choice([0, np.pi / 2, -np.pi / 2, rng.uniform(-3, 3)])
        rows.append(_row(a=rng.uniform(-0.5, 0.5), alpha=alpha, d=rng.uniform(-0.5, 0.5),
                         theta=rng.uniform(-3, 3), joint='P' if i == 2 else 'R'))
    q = rng.uniform(-1, 1, 5)
    for convention, fn in (('standard', _dh_standard), ('modified', _dh_modified)):
        m = RobotModel.from_dh(rows, convention=convention)
        t = np.eye(4)
        for r, qi in zip(rows, q):
            theta = r['theta'] + (qi if r['joint'] == 'R' else 0.0)
            d = r['d'] + (qi if r['joint'] == 'P' else 0.0)
            t = t @ fn(r['a'], r['alpha'], d, theta)
        frame = 'frame5' if convention == 'standard' else 'link5'
        assert np.allclose(m.frame_pose(q, frame), t, atol=1e-12), convention


def test_standard_dh_inertial_is_in_dh_frame():
    """Standard DH: com given in DH frame i is placed at the far end of the link."""
    m = RobotModel.from_dh([_row(a=0.5, com=[-0.25, 0, 0])], convention='standard')
    q = np.array([0.7])
    t_body = m.frame_pose(q, 'link1')
    com_world = t_body[:3, :3] @ m.inertials[0].com + t_body[:3, 3]
    assert np.allclose(com_world, [0.25 * np.cos(0.7), 0.25 * np.sin(0.7), 0.0])


def test_actuator_and_friction_shorthands():
    """gear_ratio, motor_inertia, coulomb pairs and limits are read from DH rows."""
    m = RobotModel.from_dh([_row(gear_ratio=-62.6, motor_inertia=2e-4, coulomb=[0.4, 0.5],
                                 viscous=1.5, limits={'lower': -2.0, 'upper': 2.0,
                                                      'effort': 97.6})])
    j = m.joints[0]
    assert j.actuator.armature == pytest.approx(62.6 ** 2 * 2e-4)
    assert (j.friction.coulomb_pos, j.friction.coulomb_neg) == (0.4, 0.5)
    assert j.limits.effort == 97.6
    assert m.dh.convention == 'standard' and m.dh.rows[0][4] == 'R'


def test_inertia_forms():
    """Inertia given as 3x3, principal values or six components gives the same tensor."""
    full = [[0.2, 0.01, 0.0], [0.01, 0.3, 0.02], [0.0, 0.02, 0.25]]
    a = RobotModel.from_dh([_row(inertia=full)])
    b = RobotModel.from_dh([_row(inertia=[0.2, 0.3, 0.25, 0.01, 0.0, 0.02])])
    assert np.allclose(a.inertials[0].inertia, b.inertials[0].inertia)


@pytest.mark.parametrize('row, error, text', [
    ({'mass': -2.0}, NonPositiveMassError, 'mass'),
    ({'inertia': [0.01, 0.01, 0.5]}, InvalidInertiaError, 'triangle'),
    ({'mass': 0.0}, NonPositiveMassError, 'massless body has no inertia'),
])
def test_physically_inconsistent_rows_load_with_a_warning(row, error, text):
    """Published tables that break a rule load with a warning naming the link; strict refuses."""
    with pytest.warns(ModelWarning, match=text) as record:
        model = RobotModel.from_dh([_row(), _row(**row)])
    assert len(record) == 1 and "link 'link2'" in str(record[0].message)
    assert model.warnings == (str(record[0].message),)
    with pytest.raises(error, match=text):
        RobotModel.from_dh([_row(), _row(**row)], strict=True)


@pytest.mark.parametrize('row, error, text', [
    ({'inertia': [[1, 0.5, 0], [0, 1, 0], [0, 0, 1]]}, InvalidInertiaError, 'symmetric'),
    ({'a': float('nan')}, ModelError, 'finite'),
    ({'joint': 'S'}, ModelError, "joint must be 'R' or 'P'"),
    ({'colour': 'red'}, ModelError, 'unknown keys: colour'),
    ({'inertia': [1, 2]}, ModelError, 'inertia must be'),
])
def test_bad_rows(row, error, text):
    """Bad DH rows raise errors naming the row or joint and the problem."""
    with pytest.raises(error, match=text):
        RobotModel.from_dh([_row(), _row(**row)])


def test_missing_keys_and_convention():
    """Missing keys and unknown conventions are reported."""
    bad = _row()
    del bad['mass']
    with pytest.raises(ModelError, match='DH row 1: missing keys: mass'):
        RobotModel.from_dh([bad])
    with pytest.raises(ModelError, match='convention'):
        RobotModel.from_dh([_row()], convention='craig')
    with pytest.raises(ModelError, match='at least one link'):
        RobotModel.from_dh([])
