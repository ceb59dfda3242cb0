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

"""The compiled estimator and computed-torque sample give the numpy code's numbers."""

import ctypes

import numpy as np
import pytest
from robodyn_ros.control import fast_lme
from robodyn_ros.control.base import JointReference
from robodyn_ros.control.computed_torque_lme import ComputedTorqueLME
from robodyn_ros.control.mbvsst import MBVSST
from robodyn_ros.dynamics.codegen import kernels
from robodyn_ros.model import load_robot
from robodyn_ros.planning.point_to_point import point_to_point

pytestmark = pytest.mark.skipif(not fast_lme.AVAILABLE, reason='numba is not installed')


def _numpy_twin(cls, model, options):
    """Build the same controller on the Python (numpy) reference code."""
    ctl = cls(model, 1e-3, compiled=False, **options)
    assert ctl._fused is None
    return ctl


def _run(ctl, model, steps, seed, noncontiguous=False):
    h = ctl.period
    q0 = np.clip(np.zeros(model.n), model.lower_limits, model.upper_limits)
    amp = 0.6 * np.where(np.arange(model.n) % 2 == 0, 1.0, -1.0)
    traj = point_to_point(q0, q0 + amp, 'quintic', duration=steps * h,
                          joint_names=model.joint_names)
    _, q, qd, qdd = traj.dense(h)
    rng = np.random.default_rng(seed)
    # A tracking error that moves, so every term of the law and the estimator is excited.
    qm = q + 0.02 * np.sin(np.arange(len(q))[:, None] * 0.01 + np.arange(model.n)) \
        + rng.normal(0.0, 1e-4, q.shape)
    qdm = qd + rng.normal(0.0, 1e-3, q.shape)
    taus, masses = [], []
    for k in range(len(q)):
        if noncontiguous:  # views with a stride (the C kernels take contiguous arrays only)
            qk = np.repeat(qm[k], 2)[::2]
            ref = JointReference(np.repeat(q[k], 2)[::2], qd[k], qdd[k])
        else:
            qk, ref = qm[k], JointReference(q[k], qd[k], qdd[k])
        tau, _ = ctl.step(k * h, qk, qdm[k], ref)
        taus.append(tau)
        masses.append(ctl.estimator.mass)
    return np.array(taus), np.array(masses)


CASES = [
    ('puma560', ComputedTorqueLME, {'omega': 20.0}),
    ('puma560', ComputedTorqueLME, {'omega': 15.0, 'form': 'regulation', 'ki': 5.0}),
    ('puma560', MBVSST, {'estimator_joints': (1, 2), 'initial_mass': 0.5}),
    ('ur5', ComputedTorqueLME, {'omega': 20.0, 'form': 'predictive',
                                'estimator_joints': (0, 1, 2)}),
    ('ur5', MBVSST, {'payload_com': (0.0, 0.0, 0.05)}),
    ('panda', MBVSST, {'estimator_joints': (1, 3), 'forgetting': 0.99}),
    ('puma560', MBVSST, {'adapt': False, 'initial_mass': 1.0}),
    ('ur5', ComputedTorqueLME, {'omega': 20.0, 'adapt': False, 'initial_mass': 0.7,
                                'form': 'predictive'}),
]


@pytest.mark.parametrize('robot, cls, options', CASES)
def test_compiled_equals_numpy(robot, cls, options):
    """Torques and mass estimates along a motion agree with the numpy code (other robots too)."""
    model = load_robot(robot)
    fast = cls(model, 1e-3, **options)
    assert fast._fused is not None
    ref = _numpy_twin(cls, model, options)
    calls = _counting(fast)
    tau_f, m_f = _run(fast, model, 1500, 1)
    tau_r, m_r = _run(ref, model, 1500, 1)
    assert len(calls) > 1400   # the compiled sample ran (all but the first samples)
    assert np.allclose(m_f, m_r, rtol=1e-9, atol=1e-12)
    if fast.adapt:
        assert fast.estimator.rls.updates == ref.estimator.rls.updates > 100
        assert np.ptp(m_f) > 1e-3   # the estimate moved: the comparison covers the RLS step
    else:
        assert np.all(m_f == options['initial_mass'])
    scale = np.abs(tau_r).max(axis=0) + 1e-9
    assert np.all(np.abs(tau_f - tau_r) <= 1e-9 * scale)


def test_reference_without_fields_gives_the_hold():
    """A reference record without q/qd/qdd is refused as in the Python code (gravity hold)."""
    model = load_robot('puma560')
    ctl = MBVSST(model, 1e-3)
    q = np.zeros(model.n)
    for k in range(5):
        ctl.step(k * 1e-3, q, q, JointReference(q, q, q))
    tau, status = ctl.step(0.005, q, q, object())
    assert status.mode.value == 'hold' and 'no valid reference' in status.message


def test_strided_views_give_the_same_torques():
    """Strided state and reference views are accepted (copied) and give the same torques."""
    model = load_robot('puma560')
    a = ComputedTorqueLME(model, 1e-3, omega=20.0)
    b = ComputedTorqueLME(model, 1e-3, omega=20.0)
    tau_a, m_a = _run(a, model, 600, 2, noncontiguous=True)
    tau_b, m_b = _run(b, model, 600, 2)
    assert np.allclose(tau_a, tau_b, rtol=1e-9, atol=1e-9)
    assert np.allclose(m_a, m_b, rtol=1e-9, atol=1e-12)


def test_bad_state_gives_no_estimate_step():
    """A NaN in the filtered signals leaves the estimate and its variance unchanged."""
    model = load_robot('puma560')
    ctl = ComputedTorqueLME(model, 1e-3, omega=20.0, initial_mass=1.0)
    est = ctl.estimator
    n = model.n
    for k in range(est._settle + 3):
        est.update(np.full(n, 0.1 * k), np.ones(n))
    before = (est.mass, float(est.rls.covariance[0, 0]), est.rls.updates)
    est.update(np.full(n, np.nan), np.ones(n))
    assert (est.mass, float(est.rls.covariance[0, 0]), est.rls.updates) == before


@pytest.mark.parametrize('robot', ['puma560', 'ur5'])
def test_kernel_addresses_are_the_entry_points(robot):
    """The exported C functions compute what the Python entry points compute."""
    model = load_robot(robot)
    k = kernels(model)
    rng = np.random.default_rng(0)
    q, qd, qdd = rng.normal(size=(3, model.n))
    ptr = ctypes.c_void_p
    for name, args in (('inverse_dynamics', (q, qd, qdd)),
                       ('inverse_dynamics_rigid', (q, qd, qdd)), ('gravity', (q,)),
                       ('mass_matrix', (q,)), ('forward_dynamics', (q, qd, qdd))):
        fn = ctypes.CFUNCTYPE(None, *([ptr] * (len(args) + 1)))(k.c_address(name))
        expected = getattr(k, name)(*args)
        out = np.full(expected.shape, np.nan)
        fn(*[a.ctypes.data for a in args], out.ctypes.data)
        assert np.array_equal(out, expected), name


def _counting(ctl):
    calls = []
    inner = ctl._fused

    def fused(*args):
        calls.append(1)
        return inner(*args)
    ctl._fused = fused
    return calls


@pytest.mark.parametrize('robot, cls', [('puma560', MBVSST), ('ur5', ComputedTorqueLME),
                                        ('ur5', MBVSST)])
def test_compiled_sample_faults_saturation_and_recovery(robot, cls):
    """Saturation, anti-windup, NaN state, bad reference, huge torque: same as the Python code."""
    model = load_robot(robot)
    options = {'omega': 25.0, 'ki': 20.0, 'torque_limit': 0.5 * model.effort_limits}
    fast = cls(model, 1e-3, **options)
    calls = _counting(fast)
    ref_ctl = _numpy_twin(cls, model, options)
    n = model.n
    q0 = np.clip(np.zeros(n), model.lower_limits, model.upper_limits)
    traj = point_to_point(q0, q0 + 0.8, 'quintic', duration=1.2,
                          joint_names=model.joint_names)
    _, q, qd, qdd = traj.dense(1e-3)
    modes = []
    for k in range(len(q)):
        qk, qdk = q[k] - (0.08 if k < 250 else 0.0), qd[k].copy()   # a large error first
        ref = JointReference(q[k], qd[k], qdd[k])
        if 300 <= k < 305:
            qk = qk.copy()
            qk[k % n] = np.nan                               # invalid state: zero torque
        if 500 <= k < 503:
            ref = JointReference(q[k], np.full(n, np.inf), qdd[k])   # bad reference: hold
        if k == 700:
            ref = JointReference(q[k], qd[k], np.full(n, 1e308))     # torque overflows: hold
        tau_f, st_f = fast.step(k * 1e-3, qk, qdk, ref)
        tau_r, st_r = ref_ctl.step(k * 1e-3, qk, qdk, ref)
        assert st_f.mode == st_r.mode, k
        assert st_f.message == st_r.message, k
        scale = np.abs(tau_r).max() + 1e-9
        assert np.all(np.abs(tau_f - tau_r) <= 1e-9 * scale), k
        if st_r.saturated is not None:
            assert np.array_equal(st_f.saturated, st_r.saturated), k
            assert np.allclose(st_f.error, st_r.error, rtol=0, atol=1e-15), k
        modes.append(st_r.mode.value)
    assert {'ok', 'saturated', 'zero', 'hold'} <= set(modes)
    assert np.allclose(fast._integral, ref_ctl._integral, rtol=1e-9, atol=1e-12)
    assert abs(fast.estimator.mass - ref_ctl.estimator.mass) <= 1e-9 * (
        1.0 + abs(ref_ctl.estimator.mass))
    assert len(calls) > 0.9 * len(q)   # the compiled sample ran nearly every step
