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

"""
Tests of robodyn_ros.model.urdf_elements: misspelled dynamics tags, ignored elements.

Also the whole URDF corpus of example-robot-data against Pinocchio's own
parser: every description Pinocchio's ``buildModelFromUrdf`` loads (fixed
base), we load, and our inverse dynamics agree with Pinocchio's ``rnea`` on
a few random states of each.
"""

import glob
import os
import warnings

import numpy as np
import pytest

from robodyn_ros import dynamics as dyn
from robodyn_ros.dynamics.crosscheck import random_states
from robodyn_ros.errors import DescriptionParseError, ModelError, ModelWarning
from robodyn_ros.model import RobotModel
from robodyn_ros.model.example_robots import example_robot_data_dir

LINK = ('<link name="l1"><inertial><mass value="2"/>{inertia}</inertial>{extra}</link>')
INERTIA = '<inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/>'
JOINT = ('<joint name="j1" type="revolute"><parent link="base"/><child link="l1"/>'
         '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="5" velocity="2"/>{extra}'
         '</joint>')


def _robot(inertia=INERTIA, link_extra='', joint_extra='', top='', head='<robot name="r">'):
    return (head + '<link name="base"/>' + LINK.format(inertia=inertia, extra=link_extra)
            + JOINT.format(extra=joint_extra) + top + '</robot>')


def test_reference_description_loads_without_warning():
    """The unmodified test description is clean (so each case below changes one thing)."""
    model = RobotModel.from_urdf(_robot(), strict=True)
    assert model.warnings == () and model.inertials[0].inertia[2, 2] == 0.1


@pytest.mark.parametrize('text, words', [
    (_robot(inertia=INERTIA.replace('<inertia ', '<inertai ')), ['<inertai>', 'inertial']),
    (_robot(inertia=INERTIA.replace('ixy=', 'ixyy=')), ["'ixyy'", '<inertia>']),
    (_robot(inertia=INERTIA + '<masss value="1"/>'), ['<masss>']),
    (_robot(link_extra='<inertail/>'), ['<inertail>', 'did you mean <inertial>']),
    (_robot(joint_extra='<dyanmics damping="1"/>'), ['<dyanmics>', "joint 'j1'"]),
])
def test_unknown_tag_in_dynamics_elements_is_an_error(text, words):
    """A misspelled dynamics tag is an error naming the tag and the link or joint."""
    with pytest.raises(DescriptionParseError) as info:
        RobotModel.from_urdf(text)
    message = str(info.value)
    for word in words:
        assert word in message
    assert "link 'l1'" in message or "joint 'j1'" in message
    assert '\n' not in message


def test_known_extension_namespace_is_a_warning():
    """A Drake tag in a joint is ignored with a warning; strict refuses it."""
    head = '<robot name="r" xmlns:drake="http://drake.mit.edu">'
    text = _robot(head=head, joint_extra='<drake:rotor_inertia value="0.1"/>')
    with pytest.warns(ModelWarning, match='rotor_inertia'):
        model = RobotModel.from_urdf(text)
    assert "joint 'j1'" in model.warnings[0]
    with pytest.raises(DescriptionParseError, match='rotor_inertia'):
        RobotModel.from_urdf(text, strict=True)
    other = _robot(head='<robot name="r" xmlns:x="http://example.com/x">',
                   joint_extra='<x:thing/>')
    with pytest.raises(DescriptionParseError, match='unknown element'):
        RobotModel.from_urdf(other)


@pytest.mark.parametrize('text, words', [
    (_robot(top='<material name="m"><texture/></material>'), ['<material>', 'filename']),
    (_robot(link_extra='<visual><geometry><box/></geometry></visual>'), ['<visual>', 'size']),
    (_robot(top='<transmission name="t" type="pr2_mechanism_model/SimpleTransmission">'
                '<actuator name="m"/><joint name="j1"/><mechanicalReduction>4'
                '</mechanicalReduction><bogus/></transmission>'), []),
    (_robot(head='<robot>'), ['no name', "'robot'"]),
])
def test_elements_without_dynamics_are_ignored_with_a_warning(text, words):
    """Malformed materials, visuals and a missing name: a warning, the same dynamics."""
    clean = RobotModel.from_urdf(_robot())
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter('always')
        model = RobotModel.from_urdf(text)
    found = [str(r.message) for r in record if issubclass(r.category, ModelWarning)]
    assert found == list(model.warnings)
    for word in words:
        assert any(word in w for w in model.warnings), model.warnings
    assert model.inertials[0].mass == clean.inertials[0].mass
    if words:
        with pytest.raises(DescriptionParseError):
            RobotModel.from_urdf(text, strict=True)


def test_malformed_dynamics_element_is_still_an_error():
    """urdf_parser_py's errors in inertials stay errors (nothing is ignored there)."""
    with pytest.raises(DescriptionParseError, match='inertia'):
        RobotModel.from_urdf(_robot(inertia='<inertia ixx="0.1"/>'))


# ---------------------------------------------------------------------- the corpus
def _corpus():
    root = example_robot_data_dir()
    assert root is not None, 'example-robot-data is not installed'
    paths = sorted(glob.glob(os.path.join(root, '**', '*.urdf'), recursive=True))
    return [(os.path.relpath(p, root), p) for p in paths]


CORPUS = _corpus()


def _pinocchio(path):
    import pinocchio as pin
    try:
        return pin.buildModelFromUrdf(path)
    except (RuntimeError, ValueError):
        return None


def _pin_vectors(pin_model, model, q, qd, qdd):
    """Pinocchio's q, v, a for our states (continuous joints as cos/sin)."""
    pq = np.zeros(pin_model.nq)
    pv, pa = np.zeros(pin_model.nv), np.zeros(pin_model.nv)
    for i, joint in enumerate(model.joints):
        pj = pin_model.joints[pin_model.getJointId(joint.name)]
        if pj.nq == 2:
            pq[pj.idx_q:pj.idx_q + 2] = np.cos(q[i]), np.sin(q[i])
        else:
            pq[pj.idx_q] = q[i]
        pv[pj.idx_v], pa[pj.idx_v] = qd[i], qdd[i]
    return pq, pv, pa


def test_corpus_is_the_whole_package():
    """The corpus has the robots the issue names (so the cases below are not empty)."""
    names = {os.path.basename(p) for _, p in CORPUS}
    assert len(CORPUS) >= 60
    assert {'tiago.urdf', 'bolt.urdf', 'human.urdf', 'icub.urdf', 'pr2.urdf',
            'romeo_laas_small.urdf', 'anymal.urdf'} <= names


@pytest.mark.parametrize('path', [p for _, p in CORPUS], ids=[r for r, _ in CORPUS])
def test_corpus_loads_as_in_pinocchio(path):
    """Pinocchio loads it -> we load it, same joints, same RNEA on random states."""
    pin_model = _pinocchio(path)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', ModelWarning)
        try:
            model = RobotModel.from_urdf(path)
        except ModelError:
            assert pin_model is None, 'Pinocchio loads this description, we refuse it'
            return
    if pin_model is None:
        return  # Pinocchio refuses it (a robot without a name); we load it with a warning
    import pinocchio as pin
    assert model.n == pin_model.njoints - 1
    assert set(model.joint_names) == set(pin_model.names[1:])
    if model.n == 0:
        return
    data = pin_model.createData()
    qs, qds, qdds = random_states(model, 3, seed=len(model.joint_names))
    for q, qd, qdd in zip(qs, qds, qdds):
        ref = pin.rnea(pin_model, data, *_pin_vectors(pin_model, model, q, qd, qdd))
        expected = np.zeros(model.n)
        for i, joint in enumerate(model.joints):
            expected[i] = ref[pin_model.joints[pin_model.getJointId(joint.name)].idx_v]
        scale = max(1.0, float(np.max(np.abs(expected))))
        rigid = dyn.inverse_dynamics(model, q, qd, qdd, friction=False)
        assert np.max(np.abs(rigid - expected)) <= 1e-9 * scale
        if all(j.friction.is_zero() for j in model.joints):
            full = dyn.inverse_dynamics(model, q, qd, qdd)
            assert np.max(np.abs(full - expected)) <= 1e-9 * scale
