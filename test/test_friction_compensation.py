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

"""Friction compensation against closed forms and against the inverse dynamics."""

import math

import numpy as np
import pytest
from robodyn_ros.dynamics import inverse_dynamics
from robodyn_ros.errors import InputError, ModelError, ParameterError
from robodyn_ros.friction.compensation import FrictionCompensator, with_friction
from robodyn_ros.model import load_robot
import yaml


def _closed_form(f, qd, band):
    """Velocity friction of one joint, written out independently."""
    s = math.tanh(qd / max(band, f.smoothing_velocity))
    e = math.exp(-abs(qd) / f.stribeck_velocity)
    if qd >= 0:
        return (f.coulomb_pos + (f.static_pos - f.coulomb_pos) * e) * s + f.viscous_pos * qd
    return (f.coulomb_neg + (f.static_neg - f.coulomb_neg) * e) * s + f.viscous_neg * qd


def test_velocity_term_is_the_seed_formula_with_a_band():
    """Asymmetric Coulomb, viscous and Stribeck, sign smoothed over the band."""
    puma = load_robot('puma560')
    comp = FrictionCompensator(puma, band=0.02)
    rng = np.random.default_rng(0)
    for qd in [np.zeros(6), rng.normal(0, 0.01, 6), rng.normal(0, 1.0, 6)]:
        tau = comp.velocity_term(qd)
        for i, j in enumerate(puma.joints):
            assert tau[i] == pytest.approx(_closed_form(j.friction, qd[i], 0.02), rel=1e-12,
                                           abs=1e-12)
    assert np.all(comp.velocity_term(np.zeros(6)) == 0.0)
    f1 = puma.joints[0].friction
    near = comp.velocity_term(np.full(6, 1e-4))[0]
    assert 0 < near < 0.01 * f1.static_pos  # no jump at zero velocity
    far = comp.velocity_term(np.full(6, 0.2))[0]
    assert far == pytest.approx(f1.coulomb_pos + f1.viscous_pos * 0.2, rel=1e-3)


def test_load_term_matches_the_inverse_dynamics():
    """Velocity + load-dependent terms = ID with friction minus ID without (qdd = 0)."""
    puma = load_robot('puma560')
    band = max(j.friction.smoothing_velocity for j in puma.joints)
    comp = FrictionCompensator(puma, band=band, load=True)
    rng = np.random.default_rng(1)
    for _ in range(5):
        q = puma.random_configuration(rng)
        qd = rng.normal(0, 0.5, 6)
        zero = np.zeros(6)
        expected = (inverse_dynamics(puma, q, qd, zero)
                    - inverse_dynamics(puma, q, qd, zero, friction=False))
        assert np.allclose(comp.torque(q, qd), expected, rtol=1e-10, atol=1e-9)
    assert comp.load and np.any(comp.load_term(q, qd, zero) != 0.0)


def test_compiled_kernels_give_the_same_load_term():
    """The 'auto' backend (generated C kernels) equals the numpy RNE reactions path."""
    puma = load_robot('puma560')
    numpy_comp = FrictionCompensator(puma, band=0.03, load=True, backend='numpy')
    auto = FrictionCompensator(puma, band=0.03, load=True, backend='auto')
    rng = np.random.default_rng(2)
    for _ in range(5):
        q = puma.random_configuration(rng)
        qd, qdd = rng.normal(0, 0.3, 6), rng.normal(0, 1.0, 6)
        assert np.allclose(auto.load_term(q, qd, qdd), numpy_comp.load_term(q, qd, qdd),
                           rtol=1e-10, atol=1e-10)
    wider = auto.replaced(band=0.1, scale=0.5)
    assert (wider.band, wider.scale, wider.load, wider.backend) == (0.1, 0.5, True, 'auto')
    assert auto.band == 0.03  # the original is untouched
    with pytest.raises(InputError, match='backend'):
        FrictionCompensator(puma, backend='fortran')


def test_load_term_refresh_period_and_scale():
    """The load term is held between refreshes; the scale multiplies everything."""
    puma = load_robot('puma560')
    comp = FrictionCompensator(puma, load=True, load_period=0.02, scale=0.5)
    q0, q1 = np.zeros(6), np.full(6, 0.5)
    qd = np.full(6, 0.3)
    a = comp.torque(q0, qd, now=10.0)
    assert np.allclose(comp.torque(q1, qd, now=10.01), a)
    b = comp.torque(q1, qd, now=10.03)
    assert not np.allclose(a, b)
    full = FrictionCompensator(puma, load=True).torque(q1, qd)
    assert np.allclose(b, 0.5 * full)
    comp.configure(scale=0.0)
    assert np.all(comp.torque(q1, qd) == 0.0)


def test_no_load_friction_in_the_model_means_velocity_only():
    """load=True on a model without bearing/transmission data adds nothing."""
    ur5 = load_robot('ur5')
    comp = FrictionCompensator(ur5, load=True)
    assert not comp.load


def test_settings_are_checked():
    """Band and scale out of range are refused with the parameter name."""
    puma = load_robot('puma560')
    with pytest.raises(InputError, match='friction_band'):
        FrictionCompensator(puma, band=0.0)
    with pytest.raises(InputError, match='friction_scale'):
        FrictionCompensator(puma, scale=2.0)
    with pytest.raises(InputError, match='friction_scale'):
        FrictionCompensator(puma).configure(scale=math.nan)


def test_with_friction_reads_an_identification_file(tmp_path):
    """Only the friction entries are taken; the rest of the model stays."""
    ma = load_robot('ma3000')
    doc = {'robot': 'ma3000',
           'joints': {'joint2': {'friction': {'coulomb': [1.5, 1.25], 'viscous': 0.5,
                                              'static': [2.0, 1.75],
                                              'stribeck_velocity': 0.04}}},
           'identification': {'joints': {'joint2': {'rms_residual': 0.01}}}}
    path = tmp_path / 'friction.yaml'
    path.write_text(yaml.safe_dump(doc))
    out = with_friction(ma, path)
    f = out.joints[1].friction
    assert (f.coulomb_pos, f.coulomb_neg, f.viscous_pos, f.static_neg) == (1.5, 1.25, 0.5, 1.75)
    assert out.joints[0].friction == ma.joints[0].friction
    assert out.joints[1].limits == ma.joints[1].limits
    with pytest.raises(ParameterError, match='unknown joint'):
        with_friction(ma, {'joints': {'elbow': {'friction': {'coulomb': 1.0}}}})
    with pytest.raises(ParameterError, match='mapping'):
        with_friction(ma, {'joints': {'joint1': [1, 2]}})
    with pytest.raises(ParameterError, match='mapping'):
        with_friction(ma, {'joints': [1]})
    with pytest.raises(ModelError, match='must be finite'):
        with_friction(ma, {'joints': {'joint1': {'friction': {'coulomb': math.nan}}}})
