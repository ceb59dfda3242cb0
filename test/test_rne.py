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

"""Inverse dynamics (our RNE) against Pinocchio, friction, wrench and bad input."""

import os
import subprocess
import sys

from dyn_models import example_models, random_dh_model, without_friction
import numpy as np
import pinocchio as pin
import pytest
from robodyn_ros.dynamics import inverse_dynamics
from robodyn_ros.dynamics.crosscheck import random_states
from robodyn_ros.dynamics.rne import joint_friction
from robodyn_ros.dynamics.tables import tables
from robodyn_ros.errors import InputError
from robodyn_ros.friction.models import velocity_friction
from robodyn_ros.pinocchio_bridge import PinocchioBridge


@pytest.fixture(scope='module')
def models():
    return example_models()


def test_matches_pinocchio_rnea(models):
    """Friction off, armature on: our RNE equals pinocchio.rnea to 1e-12 relative."""
    for name, m in models.items():
        bridge = PinocchioBridge(m)
        q, qd, qdd = random_states(m, 200, seed=5)
        tau = inverse_dynamics(m, q, qd, qdd, friction=False)
        for k in range(200):
            ref = bridge.from_v(pin.rnea(bridge.pin_model, bridge.pin_data, bridge.q(q[k]),
                                         bridge.v(qd[k]), bridge.v(qdd[k])))
            assert np.allclose(tau[k], ref, rtol=0, atol=1e-12 * max(1, np.abs(ref).max())), name


def test_batch_equals_single(models):
    """A batch gives the same rows as single calls."""
    m = models['panda']
    q, qd, qdd = random_states(m, 7, seed=1)
    batch = inverse_dynamics(m, q, qd, qdd)
    assert batch.shape == (7, m.n)
    for k in range(7):
        assert np.allclose(inverse_dynamics(m, q[k], qd[k], qdd[k]), batch[k], rtol=1e-14,
                           atol=1e-13)


def test_external_wrench_matches_pinocchio_fext(models):
    """A wrench exerted on the environment equals Pinocchio's fext = -wrench on the body."""
    for name in ('ur5', 'dh_modified_rrprrr', 'panda'):
        m = models[name]
        bridge = PinocchioBridge(m)
        frame = m.frame(m.end_effector)
        q, qd, qdd = random_states(m, 20, seed=2)
        rng = np.random.default_rng(0)
        for k in range(20):
            w = rng.normal(0, 10, 6)
            tau = inverse_dynamics(m, q[k], qd[k], qdd[k], f_ext=w, friction=False)
            # Same wrench on the body, in body coordinates, moment about the joint origin.
            force = frame.rotation @ w[:3]
            moment = frame.rotation @ w[3:] + np.cross(frame.translation, force)
            fext = [pin.Force.Zero() for _ in range(bridge.pin_model.njoints)]
            jid = bridge.pin_model.getJointId(m.joints[frame.body].name)
            fext[jid] = pin.Force(-force, -moment)
            ref = bridge.from_v(pin.rnea(bridge.pin_model, bridge.pin_data, bridge.q(q[k]),
                                         bridge.v(qd[k]), bridge.v(qdd[k]), fext))
            assert np.allclose(tau, ref, atol=1e-10), name


def test_static_wrench_is_jacobian_transpose(models):
    """At rest without gravity, the torque of a wrench is J^T F (seed 001 eq. 7.30)."""
    m = models['ur5']
    q = m.random_configuration(np.random.default_rng(4))
    w = np.array([3.0, -2.0, 5.0, 0.4, 0.1, -0.3])
    tau = inverse_dynamics(m, q, np.zeros(6), np.zeros(6), f_ext=w, friction=False,
                           gravity=False)
    jac = m.jacobian(q, m.end_effector, 'local')
    assert np.allclose(tau, jac.T @ w, atol=1e-12)


def test_velocity_friction_formula():
    """Friction adds exactly the seed 001 eq. 7.26 torque (asymmetric, Stribeck, smoothed)."""
    m = random_dh_model(3, stribeck=True)
    q, qd, qdd = random_states(m, 50, seed=3)
    diff = inverse_dynamics(m, q, qd, qdd) - inverse_dynamics(m, q, qd, qdd, friction=False)
    for k in range(50):
        for j, joint in enumerate(m.joints):
            f, v = joint.friction, qd[k, j]
            s = np.tanh(v / f.smoothing_velocity)
            e = np.exp(-abs(v) / f.stribeck_velocity)
            if v >= 0:
                expected = (f.coulomb_pos + (f.static_pos - f.coulomb_pos) * e) * s \
                    + f.viscous_pos * v
            else:
                expected = (f.coulomb_neg + (f.static_neg - f.coulomb_neg) * e) * s \
                    + f.viscous_neg * v
            assert diff[k, j] == pytest.approx(expected, abs=1e-12)
    assert np.allclose(velocity_friction(tables(m), np.zeros((1, m.n))), 0.0)


def test_friction_opposes_motion():
    """Friction dissipates power for every velocity: qd . tau_f >= 0."""
    m = random_dh_model(4, stribeck=True)
    rng = np.random.default_rng(0)
    qd = rng.normal(0, 1, (500, m.n))
    tf = velocity_friction(tables(m), qd)
    assert np.all(qd * tf >= 0.0)


def test_friction_only_changes_with_velocity():
    """Without friction the model gives the rigid torque plus armature."""
    m = random_dh_model(5)
    q, qd, qdd = random_states(m, 10, seed=8)
    assert np.allclose(inverse_dynamics(without_friction(m), q, qd, qdd),
                       inverse_dynamics(m, q, qd, qdd, friction=False), atol=1e-13)


@pytest.mark.parametrize('args, text', [
    (([0.0] * 5, [0.0] * 6, [0.0] * 6), r'q: expected shape \(6,\) or \(N, 6\)'),
    (([0.0] * 6, [0.0] * 5, [0.0] * 6), r'qd: expected shape \(6,\) \(same as q\)'),
    ((np.zeros((3, 6)), np.zeros((1, 6)), np.zeros((3, 6))), r'qd: expected shape \(3, 6\)'),
    (([0.0] * 6, [0.0] * 6, [0.0, np.nan, 0, 0, 0, 0]), 'qdd: entry 1 is nan'),
    (([np.inf] + [0.0] * 5, [0.0] * 6, [0.0] * 6), 'q: entry 0 is inf'),
    ((np.zeros((2, 6)), np.zeros((2, 6)), np.full((2, 6), np.nan)), 'qdd: row 0, joint 0'),
    (('abc', [0.0] * 6, [0.0] * 6), 'q: must be numbers'),
])
def test_bad_input(models, args, text):
    """Wrong shapes and non-finite values raise InputError naming the argument."""
    with pytest.raises(InputError, match=text):
        inverse_dynamics(models['ur5'], *args)


def test_bad_wrench(models):
    """A wrench of the wrong shape or with NaN is refused."""
    m = models['ur5']
    z = np.zeros(6)
    with pytest.raises(InputError, match='f_ext'):
        inverse_dynamics(m, z, z, z, f_ext=np.zeros(5))
    with pytest.raises(InputError, match='f_ext'):
        inverse_dynamics(m, z, z, z, f_ext=[np.nan] * 6)


def test_joint_friction_is_full_minus_rigid():
    """joint_friction (one recursion) equals the torque with friction less the one without."""
    from robodyn_ros.model import load_robot
    for m in (load_robot('puma560'), random_dh_model(4, stribeck=True)):
        q, qd, qdd = random_states(m, 40, seed=11)
        ref = inverse_dynamics(m, q, qd, qdd) - inverse_dynamics(m, q, qd, qdd, friction=False)
        fric = joint_friction(m, q, qd, qdd)
        assert np.allclose(fric, ref, rtol=0, atol=1e-12 * np.abs(ref).max()), m.name
        assert np.allclose(joint_friction(m, q[3], qd[3], qdd[3]), fric[3], rtol=0, atol=1e-12)
    assert tables(load_robot('puma560')).has_load_friction
    with pytest.raises(InputError, match='qd: entry 2 is nan'):
        bad = np.zeros(m.n)
        bad[2] = np.nan
        joint_friction(m, np.zeros(m.n), bad, np.zeros(m.n))


def test_the_reference_does_not_import_the_kernels():
    """Importing the numpy RNE leaves robodyn_ros.dynamics.codegen unloaded (no cycle)."""
    code = ('import sys, robodyn_ros.dynamics.rne, robodyn_ros.dynamics.point_mass; '
            'print(sorted(m for m in sys.modules if "codegen" in m))')
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         timeout=120, env=dict(os.environ, PYTHONPATH=root), check=True)
    assert out.stdout.strip() == '[]', out.stdout
