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


"""The velocity friction's loop form, compiled and as Python, against the NumPy law."""

import math

import numpy as np
import pytest
from robodyn_ros.dynamics.tables import tables
from robodyn_ros.friction import loop_form
from robodyn_ros.friction.compensation import FrictionCompensator
from robodyn_ros.friction.models import velocity_friction
from robodyn_ros.model import load_robot
from robodyn_ros.model.joint import Friction


@pytest.fixture(scope='module')
def compiled():
    fns = loop_form.COMPILED.load()
    if fns is None:
        pytest.fail('numba is a dependency: the friction loop form must compile here')
    return fns[0]


def _random_model(rng, base):
    """Return the robot with random asymmetric friction (some without Stribeck or band)."""
    joints = []
    for k, j in enumerate(base.joints):
        cp, cn = rng.uniform(0.0, 5.0, 2)
        joints.append(j.with_changes(friction=Friction(
            coulomb_pos=cp, coulomb_neg=cn, static_pos=cp + rng.uniform(0, 3) * (k % 3 != 0),
            static_neg=cn + rng.uniform(0, 3) * (k % 3 != 0),
            viscous_pos=rng.uniform(0, 2), viscous_neg=rng.uniform(0, 2),
            stribeck_velocity=rng.uniform(0.005, 0.5),
            smoothing_velocity=rng.uniform(0.0, 0.05) * (k % 2 == 0))))
    return base.replace_joints(joints)


def test_both_loop_forms_match_the_numpy_law(compiled):
    """Random friction, velocities from rest to fast, bands of zero and wider: same torque."""
    rng = np.random.default_rng(5)
    for robot in ('puma560', 'ur5', 'stanford'):
        base = load_robot(robot)
        for _ in range(20):
            model = _random_model(rng, base)
            tab = tables(model)
            table = loop_form.friction_table(tab, tab.smoothing_velocity)
            for qd in (np.zeros(model.n), rng.normal(0, 0.01, model.n),
                       rng.normal(0, 2.0, model.n)):
                scale = float(rng.uniform(0.0, 1.5))
                want = scale * velocity_friction(tab, qd)
                for form in (loop_form.scaled_friction, compiled):
                    np.testing.assert_allclose(form(qd, table, scale), want, rtol=1e-13,
                                               atol=1e-13)


def test_the_compensator_gives_the_same_torque_in_either_form(compiled):
    """The compensator with the compiled form loaded equals its NumPy law; 2-D falls back."""
    puma = load_robot('puma560')
    comp = FrictionCompensator(puma, band=0.03, scale=0.8)
    rng = np.random.default_rng(2)
    for qd in (np.zeros(6), rng.normal(0, 0.02, 6), rng.normal(0, 1.0, 6)):
        want = 0.8 * velocity_friction(comp._vtab, qd)
        np.testing.assert_allclose(comp.torque(np.zeros(6), qd), want, rtol=1e-13, atol=1e-13)
        np.testing.assert_allclose(comp.velocity_term(qd), want / 0.8, rtol=1e-13, atol=1e-13)
    batch = rng.normal(0, 1.0, (4, 6))     # not what the compiled form takes: the NumPy law
    np.testing.assert_array_equal(comp.velocity_term(batch),
                                  velocity_friction(comp._vtab, batch))
    ints = np.arange(6)                    # integers are converted, then compiled
    np.testing.assert_allclose(comp.velocity_term(ints),
                               velocity_friction(comp._vtab, ints.astype(float)), rtol=1e-13)
    with pytest.raises(ValueError):        # a wrong length fails as the NumPy law fails
        comp.velocity_term(np.zeros(5))


def test_the_compensation_takes_the_compiled_form(compiled, monkeypatch):
    """A velocity estimate as the cycle has it runs compiled: the NumPy law is not called."""
    from robodyn_ros.friction import compensation
    comp = FrictionCompensator(load_robot('ur5'), band=0.02, scale=1.0)
    qd = np.linspace(-1.0, 1.0, 6)
    want = comp.torque(np.zeros(6), qd)

    def numpy_law(*args):
        raise AssertionError('the NumPy law ran: the compiled form refused the arguments')

    monkeypatch.setattr(compensation, 'velocity_friction', numpy_law)
    np.testing.assert_array_equal(comp.torque(np.zeros(6), qd), want)
    np.testing.assert_array_equal(comp.velocity_term(qd), want)


def test_friction_at_rest_is_zero_and_finite_without_a_stribeck_velocity(compiled):
    """Stribeck velocity 0 without static friction (the tables carry 1.0): zero at rest."""
    ur5 = load_robot('ur5')
    joints = [j.with_changes(friction=Friction(coulomb_pos=1.0, coulomb_neg=1.0,
                                               stribeck_velocity=0.0))
              for j in ur5.joints]
    tab = tables(ur5.replace_joints(joints))
    table = loop_form.friction_table(tab, np.full(ur5.n, 0.02))
    assert np.all(compiled(np.zeros(ur5.n), table, 1.0) == 0.0)
    moving = compiled(np.full(ur5.n, 0.5), table, 1.0)
    assert np.all(np.isfinite(moving)) and moving[0] == pytest.approx(math.tanh(25.0))


def test_a_length_mismatch_is_refused_not_read_past(compiled):
    """Velocities longer than the table raise (compiled code has no bounds checks)."""
    table = np.ones((8, 3))
    with pytest.raises(ValueError, match='differ in length'):
        compiled(np.zeros(4), table, 1.0)
    with pytest.raises(ValueError, match='differ in length'):
        loop_form.scaled_friction(np.zeros(2), table, 1.0)
