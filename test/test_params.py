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

"""Tests of robodyn_ros.model.params: the parameter schema and its merge onto a URDF."""

import os

import numpy as np
import pytest
from robodyn_ros.errors import DescriptionParseError, NonFiniteValueError, ParameterError
from robodyn_ros.model import params as params_mod
from robodyn_ros.model import RobotModel
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def two_link(data_dir):
    return os.path.join(data_dir, 'two_link.urdf')


def test_merge_keeps_urdf_values_and_adds_data(two_link, data_dir):
    """Given fields replace the URDF's; the others are kept."""
    m = RobotModel.from_urdf(two_link, params=os.path.join(data_dir, 'good_params.yaml'))
    sh = m.joint('shoulder')
    assert sh.limits.lower == -2.5 and sh.limits.velocity == 3.0
    assert sh.limits.acceleration == 12.0 and sh.limits.effort == 35.0
    assert sh.actuator.gear_ratio == 50.0
    assert sh.actuator.armature == pytest.approx(50.0 ** 2 * 2.0e-5)
    assert sh.actuator.torque_constant == 0.08
    f = sh.friction
    assert (f.coulomb_pos, f.coulomb_neg) == (1.0, 1.3)
    assert (f.viscous_pos, f.viscous_neg) == (0.4, 0.4)
    assert f.has_stribeck and (f.static_pos, f.static_neg) == (1.4, 1.6)
    assert f.bearing.kind == 'journal' and f.bearing.span == 0.04
    assert f.transmission.efficiency == (0.4, 0.7, 0.9)
    assert m.joint('elbow').actuator.armature == pytest.approx(900 * 1e-5)
    assert np.allclose(m.gravity, [0, 0, -9.80665])


def test_explicit_armature_wins(two_link):
    """An explicit armature is kept even when gear and rotor inertia are given."""
    p = {'joints': {'elbow': {'actuator': {'gear_ratio': 10.0, 'motor_inertia': 1e-3,
                                           'armature': 0.2}}}}
    m = RobotModel.from_urdf(two_link, params=p)
    assert m.joint('elbow').actuator.armature == 0.2


@pytest.mark.parametrize('name, error, text', [
    ('unknown_joint.yaml', ParameterError, "joint 'wrist': unknown joint"),
    ('unknown_key.yaml', ParameterError, 'unknown keys damping'),
    ('negative_viscous.yaml', ParameterError, 'must not be negative'),
    ('nan_param.yaml', NonFiniteValueError, 'limits.effort'),
    ('syntax.yaml', DescriptionParseError, 'invalid YAML'),
    ('not_mapping.yaml', ParameterError, 'top level must be a mapping'),
])
def test_bad_parameter_file(two_link, data_dir, name, error, text):
    """Each bad parameter file gives a one-line error naming the file and the problem."""
    path = os.path.join(data_dir, 'bad', name)
    with pytest.raises(error) as info:
        RobotModel.from_urdf(two_link, params=path)
    assert path in str(info.value) and text in str(info.value)
    assert '\n' not in str(info.value)


def test_bad_values_in_mapping(two_link):
    """Values that are not numbers, bad pairs and bad bearing kinds are rejected."""
    cases = [
        ({'elbow': {'friction': {'coulomb': [1.0, 2.0, 3.0]}}}, 'positive, negative'),
        ({'elbow': {'friction': {'viscous': 'lots'}}}, 'must be a number'),
        ({'elbow': {'friction': {'bearing': {'kind': 'magnetic'}}}}, 'bearing kind'),
        ({'elbow': {'friction': {'transmission': {'efficiency': [1.5]}}}}, 'efficiency'),
        ({'elbow': {'actuator': {'gear_ratio': 0.0}}}, 'gear ratio must not be zero'),
        ({'elbow': {'limits': {'velocity': -1.0}}}, 'limit must be positive'),
        ({'elbow': {'wheels': {}}}, 'unknown keys wheels'),
    ]
    for joints, text in cases:
        with pytest.raises(ParameterError, match=text):
            RobotModel.from_urdf(two_link, params={'joints': joints})
    with pytest.raises(ParameterError, match='gravity must be 3 numbers'):
        RobotModel.from_urdf(two_link, params={'gravity': [0, 0]})


def test_to_params_round_trip(two_link, data_dir):
    """A model's parameter mapping, written as YAML and read back, gives the same joints."""
    m = RobotModel.from_urdf(two_link, params=os.path.join(data_dir, 'good_params.yaml'))
    text = yaml.safe_dump(m.to_params())
    again = RobotModel.from_urdf(two_link, params=yaml.safe_load(text))
    for a, b in zip(m.joints, again.joints):
        assert a.limits == b.limits and a.friction == b.friction
        assert a.actuator.armature == b.actuator.armature


def test_schema_file_lists_the_keys_the_loader_accepts():
    """config/robot_params.schema.yaml and the loader agree on every key."""
    with open(os.path.join(ROOT, 'config', 'robot_params.schema.yaml')) as fh:
        schema = yaml.safe_load(fh)
    joint = schema['properties']['joints']['additionalProperties']['properties']
    assert set(schema['properties']) == {'robot', 'gravity', 'joints'}
    assert set(joint) == {'limits', 'actuator', 'friction'}
    assert set(joint['limits']['properties']) == set(params_mod._LIMIT_KEYS)
    assert set(joint['actuator']['properties']) == set(params_mod._ACTUATOR_KEYS)
    fr = joint['friction']['properties']
    assert set(fr) == set(params_mod._FRICTION_KEYS)
    assert set(fr['bearing']['properties']) == set(params_mod._BEARING_KEYS)
    assert set(fr['transmission']['properties']) == set(params_mod._TRANSMISSION_KEYS)
