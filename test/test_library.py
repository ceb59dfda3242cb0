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


"""Tests of the robot library: models, shipped files, Pinocchio and seed data."""

import importlib.util
import math
import os

from model_compare import model_differences
import numpy as np
import pinocchio as pin
import pytest

from robodyn_ros.errors import InvalidInertiaError, ModelError
from robodyn_ros.model import Inertial, library, load_robot, RobotModel
from robodyn_ros.model.dh import inertia_matrix
from robodyn_ros.model.inertial import check_inertial
from robodyn_ros.model.library import cmu_dd_arm2, ma3000, puma560, rx90, stanford

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAMES = ['puma560', 'cmu_dd_arm2', 'ma3000', 'rx90', 'stanford']


def _path(*parts):
    return os.path.join(ROOT, *parts)


def _pinocchio(model, text=None):
    pmodel = pin.buildModelFromXML(model.to_urdf() if text is None else text)
    index = [pmodel.idx_qs[pmodel.getJointId(n)] for n in model.joint_names]
    assert index == [pmodel.idx_vs[pmodel.getJointId(n)] for n in model.joint_names]
    return pmodel, index


def test_library_lists_every_robot():
    assert sorted(library.names()) == sorted(NAMES)


@pytest.mark.parametrize('name', NAMES)
def test_robot_builds_and_validates(name):
    module = importlib.import_module(f'robodyn_ros.model.library.{name}')
    model = module.build()
    assert isinstance(model, RobotModel)
    assert model.name == name
    model.validate()
    np.testing.assert_array_equal(model.gravity, [0.0, 0.0, -9.81])
    assert '(0, 0, -9.81) m/s^2' in module.SOURCE
    assert isinstance(module.CORRECTIONS, tuple) and module.CORRECTIONS
    assert all(isinstance(c, str) and c for c in module.CORRECTIONS)
    assert library.corrections(name) == module.CORRECTIONS
    assert library.source(name) == module.SOURCE
    assert model_differences(load_robot(name), model) == []
    # Only the published PUMA 560 inertias break a rule (massless link 1, link 3's triangle).
    expected = ["link 'link1'", "link 'link3'"] if name == 'puma560' else []
    assert [w.split(': ')[2] for w in model.warnings] == expected
    if expected:
        with pytest.raises(ModelError):
            module.build(strict=True)
    else:
        assert module.build(strict=True).warnings == ()
    for joint, body in zip(model.joints, model.inertials):
        assert body.mass >= 0.0
        assert np.all(np.isfinite(model.lower_limits)) and np.all(np.isfinite(model.upper_limits))
        assert math.isfinite(joint.limits.velocity) and joint.limits.velocity > 0.0
        assert math.isfinite(joint.limits.acceleration) and joint.limits.acceleration > 0.0
        assert math.isfinite(joint.limits.effort) and joint.limits.effort > 0.0


@pytest.mark.parametrize('name', NAMES)
def test_shipped_files_load_back_without_differences(name):
    model = library.load(name)
    back = RobotModel.from_urdf(_path('urdf', f'{name}.urdf'),
                                params=_path('config', f'{name}_params.yaml'))
    assert model_differences(model, back, tol=1e-12) == []


def test_shipped_files_are_up_to_date():
    spec = importlib.util.spec_from_file_location(
        'generate_library_files', _path('scripts', 'generate_library_files.py'))
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    for rel, text in generator.generated_files().items():
        with open(_path(rel), 'r', encoding='utf-8') as fh:
            assert fh.read() == text, f'{rel} is stale: run scripts/generate_library_files.py'


@pytest.mark.parametrize('name', NAMES)
def test_docs_carry_source_and_every_correction(name):
    with open(_path('docs', 'robot_library.md'), 'r', encoding='utf-8') as fh:
        docs = fh.read()
    section = docs.split(f'\n## {name}\n', 1)[1].split('\n## ', 1)[0]
    assert library.source(name) in section
    for correction in library.corrections(name):
        assert f'- {correction}' in section


@pytest.mark.parametrize('name', NAMES)
def test_pinocchio_kinematics_and_inertia_match(name):
    model = library.load(name)
    with open(_path('urdf', f'{name}.urdf'), 'r', encoding='utf-8') as fh:
        pmodel, index = _pinocchio(model, fh.read())
    data = pmodel.createData()
    for i, body in enumerate(model.inertials):
        inertia = pmodel.inertias[pmodel.getJointId(model.joint_names[i])]
        assert inertia.mass == pytest.approx(body.mass, abs=1e-12)
        np.testing.assert_allclose(inertia.lever, body.com, atol=1e-12)
        np.testing.assert_allclose(inertia.inertia, body.inertia, atol=1e-12)
    rng = np.random.default_rng(20260101)
    for _ in range(100):
        q = model.random_configuration(rng)
        qp = pin.neutral(pmodel)
        qp[index] = q
        pin.framesForwardKinematics(pmodel, data, qp)
        for frame in model.frame_names:
            assert pmodel.existFrame(frame)
            expected = model.frame_pose(q, frame)
            placement = data.oMf[pmodel.getFrameId(frame)]
            np.testing.assert_allclose(placement.rotation, expected[:3, :3], atol=1e-10)
            np.testing.assert_allclose(placement.translation, expected[:3, 3], atol=1e-10)
        mass_matrix = pin.crba(pmodel, data, qp)
        assert np.linalg.eigvalsh(mass_matrix).min() > 0.0


# Seed 000 section 3.1 (digest): q in deg (m for joint 3), D, H, G and u.
STANFORD_POINTS = {
    'point1': {
        'q': (-70.536, 101.290, 0.539, 29.381, 70.740, 4.105),
        'qd': (1.573, 0.419, -0.632, -0.291, -1.070, 1.051),
        'qdd': (16.780, 4.476, -6.750, -3.106, -11.415, 11.211),
        'D': ((1.89905, 0.05039, -1.06238, 0.05103, 0.03558, -0.00026),
              (0.05039, 1.49800, -0.09739, -0.02828, 0.03174, 0.00014),
              (-1.06238, -0.09739, 6.47000, 0.0, -0.10848, 0.0),
              (0.05103, -0.02828, 0.0, 0.01534, 0.0, 0.00010),
              (0.03558, 0.03174, -0.10848, 0.0, 0.01600, 0.0),
              (-0.00026, 0.00014, 0.0, 0.00010, 0.0, 0.00030)),
        'H': (-1.821, 0.362, -1.811, -0.217, 0.084, -0.00019),
        'G': (0.0, 7.265, 12.421, -0.462, 0.109, 0.0),
        'u': (36.873, 15.563, -50.086, 0.003, 1.482, -0.00089),
    },
    'point2': {
        'q': (5.440, 105.810, 0.420, -0.570, 51.960, 91.575),
        'qd': (4.931, -0.746, 1.125, -2.992, 0.952, 8.099),
        'qdd': (0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
        'D': ((1.76739, 0.01472, -0.98956, 0.04094, 0.01658, -0.00028),
              (0.01472, 1.43586, -0.09044, 0.00290, 0.04574, 0.0),
              (-0.98956, -0.09044, 6.47000, 0.0, -0.09050, 0.0),
              (0.04094, 0.00290, 0.0, 0.01119, 0.0, 0.00018),
              (0.01658, 0.04574, -0.09050, 0.0, 0.01600, 0.0),
              (-0.00028, 0.0, 0.0, 0.00018, 0.0, 0.00030)),
        'H': (1.586, 8.764, 2.273, 0.632, 0.665, 0.00112),
        'G': (0.0, 0.119, 17.285, 0.063, 0.426, 0.0),
        'u': (1.586, 8.884, 19.559, 0.696, 1.091, 0.00112),
    },
}


@pytest.mark.parametrize('point', sorted(STANFORD_POINTS))
def test_stanford_reproduces_seed000_example(point):
    ref = STANFORD_POINTS[point]
    model = library.load('stanford')
    pmodel, index = _pinocchio(model)
    data = pmodel.createData()
    q = np.array([math.radians(v) if i != 2 else v for i, v in enumerate(ref['q'])])
    qp, qd, qdd = pin.neutral(pmodel), np.zeros(pmodel.nv), np.zeros(pmodel.nv)
    qp[index], qd[index], qdd[index] = q, ref['qd'], ref['qdd']
    scale = 1e-3 * np.max(np.abs(ref['u']))  # about 1e-3 relative (digest section 3.1)
    pmodel.gravity.linear = np.array(stanford.THESIS_GRAVITY)
    mass_matrix = pin.crba(pmodel, data, qp)[np.ix_(index, index)]
    np.testing.assert_allclose(mass_matrix, ref['D'], atol=1e-4)
    u = pin.rnea(pmodel, data, qp, qd, qdd)[index]
    np.testing.assert_allclose(u, ref['u'], rtol=1e-3, atol=scale)
    gravity = pin.computeGeneralizedGravity(pmodel, data, qp)[index]
    np.testing.assert_allclose(gravity, ref['G'], atol=scale)
    bias = pin.nonLinearEffects(pmodel, data, qp, qd)[index] - gravity
    np.testing.assert_allclose(bias, ref['H'], atol=scale)
    # With the model's physical gravity (z up) the thesis's G(q) changes sign.
    pmodel.gravity.linear = np.array(model.gravity) * 9.806 / 9.81
    physical = pin.computeGeneralizedGravity(pmodel, data, qp)[index]
    np.testing.assert_allclose(physical, -np.array(ref['G']), atol=scale)


def test_stanford_inertias_are_converted_from_the_link_origin():
    model = library.load('stanford')
    for i, body in enumerate(model.inertials):
        frame = model.frame(f'frame{i + 1}')
        # Back into DH frame i, then to the frame origin: Paul's principal values.
        dh = body.transformed(frame.rotation.T, -frame.rotation.T @ frame.translation)
        np.testing.assert_allclose(dh.com, stanford.COM[i], atol=1e-15)
        np.testing.assert_allclose(dh.inertia_at_origin, np.diag(stanford.INERTIA_AT_ORIGIN[i]),
                                   atol=1e-15)
    assert all(a == 0.0 for a in model.armature)


def test_puma_friction_records_carry_table_3_4():
    model = library.load('puma560')
    table = puma560.TABLE_3_4
    for i, joint in enumerate(model.joints[:3]):
        bearing, trans = joint.friction.bearing, joint.friction.transmission
        assert bearing.kind == 'journal'
        assert bearing.mu == table['mu'][i] == 0.1
        assert bearing.radius == table['radius'][i]
        assert bearing.span > 0.0
        assert trans.breakaway == table['breakaway'][i]
        assert trans.rated_torque == table['max_torque'][i] == joint.limits.effort
        assert np.all(np.diff(trans.efficiency) > 0.0)
    assert [j.friction.bearing.radius for j in model.joints[:3]] == [0.10, 0.08, 0.07]
    assert [j.friction.transmission.breakaway for j in model.joints[:3]] == [6.3, 5.5, 2.6]
    assert [j.limits.effort for j in model.joints[:3]] == [97.6, 186.4, 89.4]
    assert all(j.friction.bearing is None and j.friction.transmission is None
               for j in model.joints[3:])


def test_puma_efficiency_curve_reproduces_table_3_5():
    # Table 3.5 (t = 0.6 s): total torque at the joint, sign of the joint velocity and
    # total input torque; input by the four cases of Table 3.2.
    rows = ((2.9943, 1.0, 12.8911), (-15.9646, -1.0, -33.9117), (-0.6801, 1.0, 2.3648))
    model = library.load('puma560')
    for joint, (tau_out, direction, tau_in) in zip(model.joints, rows):
        t = joint.friction.transmission
        eta = np.interp(abs(tau_out) / t.rated_torque, t.load, t.efficiency)
        driving = tau_out * direction > 0.0
        value = (tau_out / eta if driving else tau_out * eta) + direction * t.breakaway
        assert value == pytest.approx(tau_in, rel=1e-3)


def test_puma_rotor_inertia_and_consensus_data():
    model = library.load('puma560')
    np.testing.assert_allclose(model.armature, puma560.ROTOR_INERTIA)
    for i, joint in enumerate(model.joints):
        act, fr = joint.actuator, joint.friction
        assert act.gear_ratio == puma560.GEAR_RATIO[i]
        assert act.motor_inertia * act.gear_ratio ** 2 == pytest.approx(act.armature)
        g = abs(act.gear_ratio)
        assert fr.viscous_pos == fr.viscous_neg == pytest.approx(
            puma560.MOTOR_VISCOUS[i] * g ** 2)
        # The measured Coulomb level is shared by velocity friction and break-away torque.
        breakaway = fr.transmission.breakaway if fr.transmission is not None else 0.0
        assert (fr.coulomb_pos + breakaway, fr.coulomb_neg + breakaway) == pytest.approx(
            tuple(c * g for c in puma560.MOTOR_COULOMB[i]))
        assert (breakaway > 0.0) == (i < 3)
        assert fr.has_stribeck and fr.static_pos > fr.coulomb_pos
    # Links 5 and 6: AKB values, not the 10x misprint of Table 2.6.
    assert model.inertials[4].inertia[2, 2] == pytest.approx(0.4e-3)
    assert model.inertials[5].inertia[0, 0] == pytest.approx(0.15e-3)
    np.testing.assert_allclose(model.inertials[1].com, [0.068, 0.006, -0.016])


def _check(mass, com, inertia):
    check_inertial(Inertial(mass, com, inertia_matrix(inertia, 'printed')), 'printed')


def test_puma_uses_the_published_akb_inertias():
    """Link 1 massless with Izz = 0.35, link 3 as printed (breaking the triangle rule)."""
    model = library.load('puma560')
    assert puma560.INERTIA[2] == puma560.PRINTED_INERTIA[2] == (0.066, 0.0125, 0.086)
    with pytest.raises(InvalidInertiaError, match='triangle'):
        _check(puma560.MASS[2], puma560.COM[2], puma560.INERTIA[2])
    assert model.inertials[0].mass == 0.0
    np.testing.assert_array_equal(model.inertials[0].inertia, np.diag([0.0, 0.0, 0.35]))
    np.testing.assert_array_equal(model.inertials[2].inertia, np.diag([0.066, 0.0125, 0.086]))
    with pytest.raises(ModelError, match="link 'link1'"):
        load_robot('puma560', strict=True)


#: The published AKB tables as seed 004 prints them (Tables 2.1, 2.5, 2.6; links 5 and 6 with
#: the AKB values the thesis's own REDUCE input uses): modified DH (alpha, a, d), mass [kg],
#: centre of mass [m], principal inertias about it [kg m^2], rotor inertia [kg m^2].
AKB = (((0.0, 0.0, 0.0), 0.0, (0, 0, 0), (0, 0, 0.35), 1.14),
       ((-math.pi / 2, 0.0, 0.2435), 17.40, (0.068, 0.006, -0.016), (0.130, 0.524, 0.539), 4.71),
       ((0.0, 0.4318, -0.0934), 4.80, (0, -0.070, 0.014), (0.066, 0.0125, 0.086), 0.83),
       ((math.pi / 2, -0.0203, 0.4331), 0.82, (0, 0, -0.019), (0.0018, 0.0018, 0.0013), 0.20),
       ((-math.pi / 2, 0.0, 0.0), 0.34, (0, 0, 0), (0.3e-3, 0.3e-3, 0.4e-3), 0.179),
       ((math.pi / 2, 0.0, 0.0), 0.09, (0, 0, 0.032), (0.15e-3, 0.15e-3, 0.04e-3), 0.193))


def test_puma_library_equals_pinocchio_built_from_the_published_tables():
    """
    Rigid-body torques of the library PUMA 560 = Pinocchio's from the printed AKB tables.

    The Pinocchio model is built here from the tables alone (placement
    SE3(RotX(alpha), (a, -sin(alpha) d, cos(alpha) d)), seed 004 digest 4.1), not
    from our URDF, as the digest's section 6.4 asks for the clean AKB model.
    """
    pmodel = pin.Model()
    pmodel.gravity.linear = np.array([0.0, 0.0, -9.81])
    parent = 0
    for i, ((alpha, a, d), mass, com, moments, rotor) in enumerate(AKB):
        rot = pin.utils.rotate('x', alpha)
        jid = pmodel.addJoint(parent, pin.JointModelRZ(),
                              pin.SE3(rot, np.array([a, -math.sin(alpha) * d,
                                                     math.cos(alpha) * d])), f'joint{i + 1}')
        pmodel.appendBodyToJoint(jid, pin.Inertia(mass, np.array(com, dtype=float),
                                                  np.diag(moments)), pin.SE3.Identity())
        parent = jid
    pmodel.armature = np.array([row[4] for row in AKB])
    data = pmodel.createData()
    model = library.load('puma560')
    from robodyn_ros import dynamics as dyn
    rng = np.random.default_rng(560)
    for _ in range(20):
        q, qd, qdd = model.random_configuration(rng), rng.normal(0, 2, 6), rng.normal(0, 5, 6)
        expected = pin.rnea(pmodel, data, q, qd, qdd)
        np.testing.assert_allclose(dyn.inverse_dynamics(model, q, qd, qdd, friction=False),
                                   expected, atol=1e-10 * max(1.0, np.max(np.abs(expected))))


#: Corke and Armstrong-Helouvry (1994) "consensus" PUMA 560 as published in the Robotics
#: Toolbox (mdl_puma560 / roboticstoolbox.models.DH.Puma560): standard DH (a, alpha, d),
#: mass, centre of mass, principal inertias (standard-DH axes), motor inertia Jm, gear ratio.
CORKE = ((0.0, math.pi / 2, 0.0, 0.0, (0, 0, 0), (0, 0.35, 0), 200e-6, -62.6111),
         (0.4318, 0.0, 0.0, 17.4, (-0.3638, 0.006, 0.2275), (0.13, 0.524, 0.539), 200e-6,
          107.815),
         (0.0203, -math.pi / 2, 0.15005, 4.8, (-0.0203, -0.0141, 0.070), (0.066, 0.086, 0.0125),
          200e-6, -53.7063),
         (0.0, math.pi / 2, 0.4318, 0.82, (0, 0.019, 0), (1.8e-3, 1.3e-3, 1.8e-3), 33e-6,
          76.0364),
         (0.0, -math.pi / 2, 0.0, 0.34, (0, 0, 0), (0.3e-3, 0.4e-3, 0.3e-3), 33e-6, 71.923),
         (0.0, 0.0, 0.0, 0.09, (0, 0, 0.032), (0.15e-3, 0.15e-3, 0.04e-3), 33e-6, 76.686))


def test_published_puma560_reproduces_the_published_torques():
    """
    The published PUMA 560 loads (with warnings) and gives the published torques.

    Link 1 is massless with I_yy = 0.35 and link 3 has I = diag(0.066, 0.086,
    0.0125) kg m^2, as published (not physical). The reference values at the
    nominal pose qn = (0, pi/4, pi, 0, pi/4, 0) are those of Corke's Robotics
    Toolbox (test_DHRobot.py of robotics-toolbox-python: gravload, inertia and
    itorque, "numbers come from MATLAB"; the same gravload is printed in
    Corke's Robotics, Vision and Control): gravity load [N m], joint-space
    inertia with the rotor inertia Jm G^2 [kg m^2], and the inertial torque for
    qdd = (1, 2, 3, 1, 2, 3) rad/s^2 [N m].
    """
    from robodyn_ros import dynamics as dyn
    from robodyn_ros.errors import ModelWarning
    rows = [{'a': a, 'alpha': alpha, 'd': d, 'theta': 0.0, 'joint': 'R', 'mass': m, 'com': com,
             'inertia': moments, 'armature': jm * g ** 2}
            for a, alpha, d, m, com, moments, jm, g in CORKE]
    with pytest.warns(ModelWarning) as record:
        model = RobotModel.from_dh(rows, convention='standard', name='puma560_corke')
    assert sorted(str(r.message).split(':')[0] for r in record) == ["link 'link1'",
                                                                    "link 'link3'"]
    qn = np.array([0.0, math.pi / 4, math.pi, 0.0, math.pi / 4, 0.0])
    np.testing.assert_allclose(dyn.gravity_torques(model, qn),
                               [0.0, 31.6399, 6.0351, 0.0, 0.0283, 0.0], atol=1e-4)
    inertia = [[3.6594, -0.4044, 0.1006, -0.0025, 0.0000, -0.0000],
               [-0.4044, 4.4137, 0.3509, 0.0000, 0.0024, 0.0000],
               [0.1006, 0.3509, 0.9378, 0.0000, 0.0015, 0.0000],
               [-0.0025, 0.0000, 0.0000, 0.1925, 0.0000, 0.0000],
               [0.0000, 0.0024, 0.0015, 0.0000, 0.1713, 0.0000],
               [-0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.1941]]
    np.testing.assert_allclose(dyn.mass_matrix(model, qn), inertia, atol=1e-4)
    qdd = np.array([1.0, 2.0, 3.0, 1.0, 2.0, 3.0])
    np.testing.assert_allclose(dyn.inverse_dynamics(model, qn, np.zeros(6), qdd,
                                                    friction=False, gravity=False),
                               [3.1500, 9.4805, 3.6189, 0.1901, 0.3519, 0.5823], atol=1e-4)
    with pytest.raises(ModelError):
        RobotModel.from_dh(rows, convention='standard', strict=True)


def test_ma3000_printed_inertias_fail_and_corrected_pass():
    for link in ('shoulder', 'elbow'):
        data = ma3000.PRINTED[link]
        with pytest.raises(InvalidInertiaError, match='triangle'):
            _check(data['mass'], data['com'], data['inertia'])
    data = ma3000.PRINTED['waist']
    _check(data['mass'], data['com'], data['inertia'])
    model = library.load('ma3000')
    for body in model.inertials:
        moments = np.sort(np.linalg.eigvalsh(body.inertia))
        assert moments[0] + moments[1] >= moments[2]
    # Shoulder and elbow centres of mass are proximal-joint offsets (body frame).
    np.testing.assert_allclose(model.inertials[1].com, ma3000.PRINTED['shoulder']['com'])
    np.testing.assert_allclose(model.inertials[2].com, ma3000.PRINTED['elbow']['com'])
    upright = model.frame_pose(np.radians([0.0, -90.0, 0.0]), 'frame3')
    np.testing.assert_allclose(upright[:3, 3], [0.105, 0.0, 0.3045 + 0.402 + 0.3525],
                               atol=1e-12)
    np.testing.assert_allclose(np.degrees(model.velocity_limits), [22.5, 22.5, 45.0])


def test_cmu_dd_arm2_printed_inertias_fail_and_corrected_keep_printed_values():
    for i in (0, 1, 4):
        with pytest.raises(InvalidInertiaError):
            _check(cmu_dd_arm2.MASS[i], cmu_dd_arm2.PRINTED_COM[i],
                   cmu_dd_arm2.PRINTED_INERTIA[i])
    model = library.load('cmu_dd_arm2')
    for i, printed in enumerate(cmu_dd_arm2.PRINTED_INERTIA):
        moments = np.sort(np.linalg.eigvalsh(inertia_matrix(cmu_dd_arm2.INERTIA[i], 'x')))
        assert moments[0] > 0.0 and moments[0] + moments[1] >= moments[2]
        kept = set(cmu_dd_arm2.INERTIA[i])
        assert all(v in kept for v in printed if v != 0.0)
    assert np.all(model.velocity_limits == 12.0)
    assert np.all(model.acceleration_limits == 10.0)
    assert all(j.actuator.gear_ratio == 1.0 for j in model.joints)


def test_rx90_follows_the_symmetric_link_structure():
    model = library.load('rx90')
    allowed = ({2}, {0, 1, 2}, {1}, {2}, {1}, {2})
    for i, body in enumerate(model.inertials):
        origin = body.inertia_at_origin
        assert np.all(origin[~np.eye(3, dtype=bool)] == 0.0)
        for axis in range(3):
            if axis not in allowed[i]:
                assert body.first_moment[axis] == 0.0
    assert np.all(model.armature > 0.0)
    assert all(j.friction.coulomb_pos > 0.0 and j.friction.viscous_pos > 0.0
               for j in model.joints)
    wrist = model.frame_pose(np.zeros(6), 'link4')[:3, 3]
    np.testing.assert_allclose(wrist, [rx90.D3, 0.0, rx90.RL4], atol=1e-15)
