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

"""Tests of robodyn_ros.model.urdf_reader: loading, merging, and every validation error."""

import os

import numpy as np
import pytest

from robodyn_ros.errors import (DescriptionParseError, InvalidInertiaError,
                                MissingInertialError, ModelError, ModelWarning,
                                NonFiniteValueError, NonPositiveMassError, TopologyError,
                                UnsupportedJointError)
from robodyn_ros.model import RobotModel
from robodyn_ros.model.transforms import rpy_to_matrix


def test_two_link_structure(data_dir):
    """Joints, links, frames, gear ratio and URDF friction are read."""
    m = RobotModel.from_urdf(os.path.join(data_dir, 'two_link.urdf'))
    assert m.joint_names == ['shoulder', 'elbow']
    assert m.link_names == ['upper', 'lower']
    assert m.root_link == 'base_link'
    assert set(m.frame_names) == {'base_link', 'upper', 'lower', 'tool'}
    assert m.joint('shoulder').actuator.gear_ratio == 50.0
    assert m.joint('elbow').actuator.gear_ratio == 1.0
    f = m.joint('shoulder').friction
    assert (f.viscous_pos, f.viscous_neg, f.coulomb_pos, f.coulomb_neg) == (0.5, 0.5, 1.2, 1.2)
    assert m.joint('shoulder').limits.lower == -2.5
    assert np.allclose(m.joint('shoulder').rotation, rpy_to_matrix([np.pi / 2, 0, 0]))


def test_fixed_link_is_merged(data_dir):
    """The fixed tool's mass and inertia are merged into the elbow body."""
    m = RobotModel.from_urdf(os.path.join(data_dir, 'two_link.urdf'))
    lower = m.inertials[1]
    assert lower.mass == pytest.approx(1.2)
    tool_com = np.array([0.3, 0.0, 0.01])
    assert np.allclose(lower.com, (1.0 * np.array([0.15, 0, 0]) + 0.2 * tool_com) / 1.2)
    # Parallel-axis check about the composite centre of mass (Izz).
    c = lower.com
    izz = (0.01 + 1.0 * ((0.15 - c[0]) ** 2 + c[1] ** 2)
           + 0.0001 + 0.2 * ((0.3 - c[0]) ** 2 + (0 - c[1]) ** 2))
    assert lower.inertia[2, 2] == pytest.approx(izz)
    tool = m.frame('tool')
    assert tool.body == 1 and np.allclose(tool.translation, [0.3, 0, 0])


def test_inertial_origin_rotation_is_applied(data_dir):
    """A rotated <inertial> origin rotates the tensor into the link frame."""
    m = RobotModel.from_urdf(os.path.join(data_dir, 'two_link.urdf'))
    r = rpy_to_matrix([0, 0.3, 0])
    tensor = np.array([[0.02, 0.001, 0], [0.001, 0.03, 0], [0, 0, 0.025]])
    assert np.allclose(m.inertials[0].inertia, r @ tensor @ r.T)


def test_string_input(data_dir):
    """The XML text itself can be passed instead of a path."""
    with open(os.path.join(data_dir, 'two_link.urdf')) as fh:
        m = RobotModel.from_urdf(fh.read())
    assert m.n == 2 and m.source == '<string>'


def test_xacro_with_arguments(data_dir):
    """Xacro files are expanded, with arguments."""
    path = os.path.join(data_dir, 'two_link.urdf.xacro')
    short = RobotModel.from_urdf(path)
    long = RobotModel.from_urdf(path, xacro_args={'length': 1.0})
    assert short.joints[0].kind == 'continuous'
    assert np.isinf(short.upper_limits[0])
    assert short.inertials[0].com[0] == pytest.approx(0.2)
    assert long.inertials[0].com[0] == pytest.approx(0.5)


def test_ur5_and_panda_load(ur5_urdf, panda_urdf):
    """The example-robot-data UR5 and Panda load; Panda's mimic finger is reported."""
    ur5 = RobotModel.from_urdf(ur5_urdf)
    assert ur5.n == 6 and ur5.is_chain
    assert 'tool0' in ur5.frame_names
    panda = RobotModel.from_urdf(panda_urdf)
    assert panda.n == 9 and not panda.is_chain
    assert panda.parents[7] == panda.parents[8] == 6
    assert 'panda_finger_joint2' in panda.mimic_joints
    assert any('mimics' in note for note in panda.notes)


@pytest.mark.parametrize('name, error, element, text', [
    ('truncated.urdf', DescriptionParseError, None, 'invalid XML'),
    ('not_a_number.urdf', DescriptionParseError, None, 'heavy'),
    ('nan_mass.urdf', NonFiniteValueError, "link 'lower'", 'finite'),
    ('inf_origin.urdf', NonFiniteValueError, "joint 'elbow'", 'finite'),
    ('floating_joint.urdf', UnsupportedJointError, "joint 'elbow'", 'floating'),
    ('planar_joint.urdf', UnsupportedJointError, "joint 'elbow'", 'planar'),
    ('two_roots.urdf', TopologyError, None, 'several root links: base_link, stray'),
    ('unknown_parent.urdf', TopologyError, "joint 'elbow'", 'nowhere'),
    ('zero_axis.urdf', ModelError, "joint 'elbow'", 'axis'),
    ('swapped_limits.urdf', ModelError, "joint 'elbow'", 'lower limit above upper'),
])
def test_bad_urdf_gives_clear_error(data_dir, name, error, element, text):
    """Each bad file raises its own error naming the file, the element and the problem."""
    path = os.path.join(data_dir, 'bad', name)
    with pytest.raises(error) as info:
        RobotModel.from_urdf(path)
    message = str(info.value)
    assert path in message
    assert text in message
    if element:
        assert element in message
    assert '\n' not in message


#: Files that break a rule of physical consistency: (file, error, link, words of the rule).
PHYSICAL = [
    ('missing_inertial.urdf', MissingInertialError, "link 'upper'", 'no inertial'),
    ('negative_mass.urdf', NonPositiveMassError, "link 'lower'", 'negative'),
    ('zero_mass.urdf', NonPositiveMassError, "link 'upper'", 'positive mass'),
    ('not_positive_definite.urdf', InvalidInertiaError, "link 'lower'", 'positive definite'),
    ('triangle.urdf', InvalidInertiaError, "link 'lower'", 'triangle'),
]


@pytest.mark.parametrize('name, error, element, text', PHYSICAL)
def test_physically_inconsistent_loads_with_warning(data_dir, name, error, element, text):
    """As in Pinocchio, the file loads; one warning names the link and the rule."""
    path = os.path.join(data_dir, 'bad', name)
    with pytest.warns(ModelWarning) as record:
        model = RobotModel.from_urdf(path)
    assert len(model.warnings) == 1
    (warning,) = model.warnings
    assert element in warning and text in warning and '\n' not in warning
    assert [str(r.message) for r in record] == [warning]
    assert model.n == 2


@pytest.mark.parametrize('name, error, element, text', PHYSICAL)
def test_strict_refuses_physically_inconsistent(data_dir, name, error, element, text):
    """strict=True refuses the same files with the error naming the link and the rule."""
    path = os.path.join(data_dir, 'bad', name)
    with pytest.raises(error) as info:
        RobotModel.from_urdf(path, strict=True)
    message = str(info.value)
    assert path in message and element in message and text in message


def test_strict_accepts_a_physical_description(data_dir):
    """A physical description has no warnings, strict or not."""
    path = os.path.join(data_dir, 'two_link.urdf')
    assert RobotModel.from_urdf(path, strict=True).warnings == ()
    assert RobotModel.from_urdf(path).warnings == ()


def test_floating_root_joint_loads_as_fixed_base(data_dir):
    """A floating joint at the root fixes the base there, with a note; strict keeps it."""
    with open(os.path.join(data_dir, 'two_link.urdf')) as fh:
        text = fh.read()
    text = text.replace('<link name="base_link"/>', '<link name="world"/><link name="base_link"/>'
                        '<joint name="float" type="floating"><parent link="world"/>'
                        '<child link="base_link"/><origin xyz="0 0 1"/></joint>')
    model = RobotModel.from_urdf(text, strict=True)
    assert model.root_link == 'world' and model.n == 2
    assert any("'float' is floating" in note for note in model.notes)
    np.testing.assert_allclose(model.frame_pose(np.zeros(2), 'base_link')[:3, 3], [0, 0, 1])


def test_missing_file():
    """A path that does not exist is a parse error naming it."""
    with pytest.raises(DescriptionParseError, match='file not found'):
        RobotModel.from_urdf('/no/such/robot.urdf')


def test_bad_xacro(tmp_path):
    """A xacro error is reported as a parse error naming the file."""
    bad = tmp_path / 'bad.urdf.xacro'
    bad.write_text('<robot xmlns:xacro="http://www.ros.org/wiki/xacro" name="x">'
                   '<link name="${undefined_property}"/></robot>')
    with pytest.raises(DescriptionParseError, match='xacro failed'):
        RobotModel.from_urdf(str(bad))


def test_effort_zero_is_unlimited_with_note(data_dir):
    """A zero effort/velocity in <limit> means 'unknown' and is reported."""
    with open(os.path.join(data_dir, 'two_link.urdf')) as fh:
        text = fh.read().replace('effort="20" velocity="4"', 'effort="0" velocity="0"')
    m = RobotModel.from_urdf(text)
    assert np.isinf(m.joint('elbow').limits.effort)
    assert any('effort=0' in n for n in m.notes)
