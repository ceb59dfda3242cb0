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

"""URDF export: written files load in urdf_parser_py and Pinocchio and give the same model."""

import os

from model_compare import model_differences
import numpy as np
import pytest
from robodyn_ros.model import RobotModel
from robodyn_ros.pinocchio_bridge import PinocchioBridge
from urdf_parser_py import urdf as urdf_mod


def _dh_model():
    return RobotModel.from_dh([
        {'a': 0.0, 'alpha': 0.0, 'd': 0.4, 'theta': 0.2, 'joint': 'R', 'mass': 3.0,
         'com': [0.0, 0.1, -0.05], 'inertia': [0.05, 0.04, 0.03, 0.002, 0.0, -0.001],
         'gear_ratio': 80.0, 'motor_inertia': 1e-4, 'coulomb': [0.5, 0.6], 'viscous': 0.8,
         'limits': {'lower': -3.0, 'upper': 3.0, 'velocity': 2.0, 'effort': 120.0}},
        {'a': 0.3, 'alpha': np.pi / 2, 'd': 0.1, 'theta': 0.0, 'joint': 'P', 'mass': 1.0,
         'com': [0.0, 0.0, 0.1], 'inertia': [0.01, 0.01, 0.001]},
    ], convention='standard', name='rp_dh')


@pytest.fixture
def models(data_dir, ur5_urdf, panda_urdf):
    two = os.path.join(data_dir, 'two_link.urdf')
    return {
        'ur5': RobotModel.from_urdf(ur5_urdf),
        'panda': RobotModel.from_urdf(panda_urdf),
        'two_link': RobotModel.from_urdf(two, params=os.path.join(data_dir, 'good_params.yaml')),
        'dh': _dh_model(),
    }


def test_export_then_load_gives_the_same_model(models, tmp_path):
    """URDF + parameter mapping written and read back: no difference at 1e-12."""
    for name, m in models.items():
        path = tmp_path / f'{name}.urdf'
        m.to_urdf(path)
        again = RobotModel.from_urdf(str(path), params=m.to_params())
        assert model_differences(m, again, tol=1e-12) == [], name


def test_export_loads_in_urdf_parser_py_and_pinocchio(models):
    """urdf_parser_py reads every written URDF without complaint; Pinocchio agrees on FK."""
    from urdf_parser_py.xml_reflection import core
    rng = np.random.default_rng(1)
    for name, m in models.items():
        text = m.to_urdf()
        complaints = []
        previous, core.on_error = core.on_error, complaints.append
        try:
            robot = urdf_mod.URDF.from_xml_string(text)
        finally:
            core.on_error = previous
        assert complaints == [], (name, complaints)
        assert {j.name for j in robot.joints} >= set(m.joint_names)
        bridge = PinocchioBridge(m)
        assert bridge.pin_model.nv == m.n
        q = m.random_configuration(rng)
        for frame in m.frame_names:
            assert np.allclose(bridge.frame_pose(q, frame), m.frame_pose(q, frame),
                               atol=1e-10), (name, frame)


def test_unlimited_values_survive_the_round_trip():
    """Infinite limits (written as 1e300 for urdfdom) come back as infinite."""
    m = _dh_model()
    again = RobotModel.from_urdf(m.to_urdf())
    assert np.isinf(again.joints[1].limits.effort)
    assert np.isinf(again.joints[1].limits.upper) and again.joints[1].limits.upper > 0


def test_gear_ratio_travels_in_a_transmission():
    """The gear ratio is written as a <transmission> and read back without parameters."""
    again = RobotModel.from_urdf(_dh_model().to_urdf())
    assert again.joints[0].actuator.gear_ratio == 80.0
    assert again.joints[0].friction.viscous_pos == pytest.approx(0.8)


def test_link_without_inertial_but_massive_fixed_child(data_dir):
    """A moving link whose own <inertial> is missing takes the mass of its fixed children."""
    with open(os.path.join(data_dir, 'two_link.urdf')) as fh:
        text = fh.read()
    start = text.index('<link name="lower">')
    end = text.index('</link>', start) + len('</link>')
    m = RobotModel.from_urdf(text[:start] + '<link name="lower"/>' + text[end:])
    assert m.inertials[1].mass == pytest.approx(0.2)
