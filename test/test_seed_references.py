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

"""Numeric references of the seeds: Khalil's Example 7.1 and Dhanaraj's Appendix D.4."""

from dyn_models import random_inertia
import numpy as np
import pytest
from robodyn_ros.dynamics import (base_parameters, gravity_torques, inverse_dynamics,
                                  mass_matrix, parameter_vector, regressor)
from robodyn_ros.model import RobotModel


# --------------------------------------------------------------------------- seed 001
def _rx90_three_links(seed):
    rng = np.random.default_rng(seed)
    d3 = 0.45
    rows = [(0.0, 0.0), (0.0, np.pi / 2), (d3, 0.0)]
    links = []
    for a, alpha in rows:
        mass = rng.uniform(1.0, 6.0)
        links.append({'a': a, 'alpha': alpha, 'd': 0.0, 'theta': 0.0, 'joint': 'R',
                      'mass': mass, 'com': rng.normal(0, 0.15, 3),
                      'inertia': random_inertia(rng, mass), 'armature': rng.uniform(0, 1)})
    return RobotModel.from_dh(links, convention='modified', gravity=(0, 0, -9.81)), d3


@pytest.mark.parametrize('seed', range(5))
def test_example_7_1_closed_forms(seed):
    """A(q) and Q(q) of the RX-90's first three links equal Khalil's Example 7.1."""
    m, d3 = _rx90_three_links(seed)
    g3 = m.gravity[2]
    p = {}
    for j, body in enumerate(m.inertials, 1):
        io = body.inertia_at_origin
        p.update({f'XX{j}': io[0, 0], f'XY{j}': io[0, 1], f'XZ{j}': io[0, 2],
                  f'YY{j}': io[1, 1], f'YZ{j}': io[1, 2], f'ZZ{j}': io[2, 2],
                  f'MX{j}': body.first_moment[0], f'MY{j}': body.first_moment[1],
                  f'MZ{j}': body.first_moment[2], f'M{j}': body.mass})
    ia = m.armature
    rng = np.random.default_rng(100 + seed)
    for _ in range(20):
        q = rng.uniform(-np.pi, np.pi, 3)
        s2, c2 = np.sin(q[1]), np.cos(q[1])
        s3, c3 = np.sin(q[2]), np.cos(q[2])
        s23, c23 = np.sin(q[1] + q[2]), np.cos(q[1] + q[2])
        a11 = (ia[0] + p['ZZ1'] + s2 * s2 * p['XX2'] + 2 * c2 * s2 * p['XY2']
               + c2 * c2 * p['YY2'] + s23 * s23 * p['XX3'] + 2 * c23 * s23 * p['XY3']
               + c23 * c23 * p['YY3'] + 2 * c2 * c23 * d3 * p['MX3']
               - 2 * c2 * s23 * d3 * p['MY3'] + c2 * c2 * d3 * d3 * p['M3'])
        a12 = (s2 * p['XZ2'] + c2 * p['YZ2'] + s23 * p['XZ3'] + c23 * p['YZ3']
               - s2 * d3 * p['MZ3'])
        a13 = s23 * p['XZ3'] + c23 * p['YZ3']
        a22 = (ia[1] + p['ZZ2'] + p['ZZ3'] + 2 * c3 * d3 * p['MX3'] - 2 * s3 * d3 * p['MY3']
               + d3 * d3 * p['M3'])
        a23 = p['ZZ3'] + c3 * d3 * p['MX3'] - s3 * d3 * p['MY3']
        a33 = ia[2] + p['ZZ3']
        expected = np.array([[a11, a12, a13], [a12, a22, a23], [a13, a23, a33]])
        assert np.allclose(mass_matrix(m, q), expected, atol=1e-12)
        q2 = -g3 * (c2 * p['MX2'] - s2 * p['MY2'] + c23 * p['MX3'] - s23 * p['MY3']
                    + d3 * c2 * p['M3'])
        q3 = -g3 * (c23 * p['MX3'] - s23 * p['MY3'])
        assert np.allclose(gravity_torques(m, q), [0.0, q2, q3], atol=1e-12)


# --------------------------------------------------------------------------- seed 004
def _d4(q, v):
    """Seed 004 Appendix D.4 closed forms (3-DOF PUMA with a 10 kg payload, g = 9.8)."""
    s2, c2, s3, c3 = np.sin(q[1]), np.cos(q[1]), np.sin(q[2]), np.cos(q[2])
    v1, v2, v3 = v
    d = np.zeros((3, 3))
    d[0, 0] = 6.881538 * (c2 * s2 * c3 * s3 + 0.5946234 * c2 * s2 * c3 - s2 ** 2 * s3 ** 2
                          - 0.5946234 * s2 ** 2 * s3 - 0.0035408 * s2 ** 2 + 0.5 * s3 ** 2
                          + 0.5946234 * s3 + 0.9436266)
    d[0, 1] = d[1, 0] = -0.7112062 * (c2 * c3 - s2 * s3 - 1.056647 * s2)
    d[0, 2] = d[2, 0] = -0.7112062 * (c2 * c3 - s2 * s3)
    d[1, 1] = 4.091923 * (s3 + 3.085665)
    d[1, 2] = d[2, 1] = 2.045961 * (s3 + 2.104716)
    d[2, 2] = 4.306169
    h1 = -13.76656 * (
        c2 * s2 * s3 ** 2 * v1 * v2 + c2 * s2 * s3 ** 2 * v1 * v3
        + 0.5948432 * c2 * s2 * s3 * v1 * v2 + 0.2974216 * c2 * s2 * s3 * v1 * v3
        + 0.0036841 * c2 * s2 * v1 * v2 - 0.5 * c2 * s2 * v1 * v3
        - 0.0516941 * c2 * s3 * v2 ** 2 - 0.1033881 * c2 * s3 * v2 * v3
        - 0.0516941 * c2 * s3 * v3 ** 2 - 0.0546354 * c2 * v2 ** 2
        + s2 ** 2 * c3 * s3 * v1 * v2 + s2 ** 2 * c3 * s3 * v1 * v3
        + 0.5948432 * s2 ** 2 * c3 * v1 * v2 + 0.2974216 * s2 ** 2 * c3 * v1 * v3
        - 0.0516941 * s2 * c3 * v2 ** 2 - 0.1033881 * s2 * c3 * v2 * v3
        - 0.0516941 * s2 * c3 * v3 ** 2 - 0.5 * c3 * s3 * v1 * v2 - 0.5 * c3 * s3 * v1 * v3
        - 0.2974216 * c3 * v1 * v2 - 0.2974216 * c3 * v1 * v3)
    h2 = 6.883283 * (
        c2 * s2 * s3 ** 2 * v1 ** 2 + 0.5948432 * c2 * s2 * s3 * v1 ** 2
        + 0.0036841 * c2 * s2 * v1 ** 2 - 6.750189 * c2 * s3 - 8.182499 * c2
        + s2 ** 2 * c3 * s3 * v1 ** 2 + 0.5948432 * s2 ** 2 * c3 * v1 ** 2
        - 6.750189 * s2 * c3 - 0.5 * c3 * s3 * v1 ** 2 - 0.2974216 * c3 * v1 ** 2
        + 0.5948432 * c3 * v2 * v3 + 0.2974216 * c3 * v3 ** 2)
    h3 = 6.883283 * (
        c2 * s2 * s3 ** 2 * v1 ** 2 + 0.2974216 * c2 * s2 * s3 * v1 ** 2
        - 0.5 * c2 * s2 * v1 ** 2 - 6.750189 * c2 * s3 + s2 ** 2 * c3 * s3 * v1 ** 2
        + 0.2974216 * s2 ** 2 * c3 * v1 ** 2 - 6.750189 * s2 * c3
        - 0.5 * c3 * s3 * v1 ** 2 - 0.2974216 * c3 * v1 ** 2 - 0.2974216 * c3 * v2 ** 2)
    return d, np.array([h1, h2, h3])


def _puma3(links):
    return RobotModel.from_dh(links, convention='modified', gravity=(0, 0, -9.8),
                              name='puma560_3dof_d4')


_GEOMETRY = [{'a': 0.0, 'alpha': 0.0, 'd': 0.0}, {'a': 0.0, 'alpha': -np.pi / 2, 'd': 0.2435},
             {'a': 0.4318, 'alpha': 0.0, 'd': -0.0934}]


def _d4_printed_parameters():
    """Return the standard parameters of the identified D.4 model (not physical as printed)."""
    bodies = [(0.0, [0, 0, 0], [0.0, 0.0, 1.49]),
              (17.4, [-0.068, 0, 0], [0.130, 0.524, 5.249]),
              (16.05, [0, -0.295421, 0], [2.056512, 0.0154, 2.906512])]
    theta = []
    for mass, com, diag in bodies:
        c = np.array(com, dtype=float)
        io = np.diag(diag) + mass * (c @ c * np.eye(3) - np.outer(c, c))
        theta += [io[0, 0], io[0, 1], io[0, 2], io[1, 1], io[1, 2], io[2, 2]]
        theta += list(mass * c) + [mass]
    return np.array(theta + [0.0, 0.0, 0.0])


def _d4_physical_model():
    """
    Build a physically consistent model with the same base parameters as D.4.

    The printed model lumps rotor inertia into Izz and double-counts the
    payload, so two links break the triangle inequality. The rotor inertia of
    joint 2 becomes armature (it groups into ZZR2), and XX, YY of links 2-3
    move along the null space of the grouping (YY3 into XX2/YY2, YY2 into
    ZZ1); link 1's mass and XX, YY have no effect at all.
    """
    delta, eps = 0.42, 0.5
    bodies = [(1.0, [0, 0, 0], [0.6, 0.6, 1.49 - eps]),
              (17.4, [-0.068, 0, 0], [0.130 - delta + eps, 0.524 - delta + eps, 0.539]),
              (16.05, [0, -0.295421, 0], [2.056512 + delta, 0.0154 + delta, 2.906512])]
    links = []
    for geo, (mass, com, diag), arm in zip(_GEOMETRY, bodies, (0.0, 4.71, 0.0)):
        links.append(dict(geo, theta=0.0, joint='R', mass=mass, com=com, inertia=diag,
                          armature=arm))
    return _puma3(links)


def test_d4_model_as_printed_is_not_physical():
    """The printed D.4 link inertias break the triangle inequality (why we transform it)."""
    for diag in ([0.130, 0.524, 5.249], [2.056512, 0.0154, 2.906512]):
        a, b, c = sorted(diag)
        assert a + b < c


def test_d4_closed_forms():
    """D(q) and h(q, qd) of seed 004 App. D.4 within 0.01, from the regressor and the RNE."""
    physical = _d4_physical_model()
    theta_printed = _d4_printed_parameters()
    bp = base_parameters(physical, friction='none')
    assert np.allclose(bp.values(parameter_vector(physical, friction='none')),
                       bp.values(theta_printed), atol=1e-9)
    rng = np.random.default_rng(4)
    for _ in range(300):
        q = rng.uniform(-np.pi, np.pi, 3)
        v = rng.uniform(-2, 2, 3)
        d_ref, h_ref = _d4(q, v)
        zero = np.zeros(3)
        d_ours = mass_matrix(physical, q)
        h_ours = inverse_dynamics(physical, q, v, zero)
        assert np.allclose(d_ours, d_ref, atol=0.01)
        assert np.allclose(h_ours, h_ref, atol=0.01)
        # The printed (non-physical) parameters through the regressor give the same.
        cols = np.array([regressor(physical, q, zero, e, friction='none', gravity=False)
                         @ theta_printed for e in np.eye(3)]).T
        assert np.allclose(cols, d_ref, atol=0.01)
        h_printed = regressor(physical, q, v, zero, friction='none') @ theta_printed
        assert np.allclose(h_printed, h_ref, atol=0.01)


def test_d4_reference_states():
    """The three states tabulated in the seed-004 digest (simulation start among them)."""
    m = _d4_physical_model()
    d, h = mass_matrix(m, [3.6997, 2.3083, 0.5951]), inverse_dynamics(
        m, [3.6997, 2.3083, 0.5951], np.zeros(3), np.zeros(3))
    assert np.allclose(d, [[4.1377, 1.2473, 0.6911], [1.2473, 14.9202, 5.4531],
                           [0.6911, 5.4531, 4.3062]], atol=0.01)
    assert np.allclose(h, [0.0, 26.9107, -10.9629], atol=0.01)
    h = inverse_dynamics(m, [0.5, -0.8, 1.2], [1.0, -0.5, 0.8], np.zeros(3))
    assert np.allclose(h, [-0.6198, -62.3055, -20.8274], atol=0.01)


def test_d3_4_negative_reference():
    """Pure joint-1 velocity at q = 0 needs no joint-1 torque (seed 004's D.3.4 gives 0.342)."""
    m = _d4_physical_model()
    tau = inverse_dynamics(m, np.zeros(3), [1.0, 0.0, 0.0], np.zeros(3))
    assert abs(tau[0]) < 1e-12


# --------------------------------------------------------------------------- seed 000
@pytest.mark.parametrize('point', ['point1', 'point2'])
def test_seed000_stanford_points_with_our_dynamics(point):
    """Our D(q), H, G and u reproduce seed 000's two numerical points (Stanford arm)."""
    from robodyn_ros.dynamics import bias_forces
    from robodyn_ros.model import library
    from robodyn_ros.model.library import stanford
    from test_library import STANFORD_POINTS
    ref = STANFORD_POINTS[point]
    model = library.load('stanford').with_gravity(stanford.THESIS_GRAVITY)
    q = np.array([np.radians(v) if i != 2 else v for i, v in enumerate(ref['q'])])
    qd, qdd = np.array(ref['qd']), np.array(ref['qdd'])
    scale = 1e-3 * np.max(np.abs(ref['u']))
    assert np.allclose(mass_matrix(model, q), ref['D'], atol=1e-4)
    g = gravity_torques(model, q)
    assert np.allclose(g, ref['G'], atol=scale)
    assert np.allclose(bias_forces(model, q, qd) - g, ref['H'], atol=scale)
    assert np.allclose(inverse_dynamics(model, q, qd, qdd), ref['u'], rtol=1e-3, atol=scale)
