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

"""The computed-torque sample (with estimator and tuners) against its numpy reference."""

import json
import os
import subprocess
import sys

from control_reference import reference_of
import numpy as np
import pytest
from robodyn_ros.control import jit
from robodyn_ros.control.base import JointReference
from robodyn_ros.control.computed_torque import ComputedTorque
from robodyn_ros.control.computed_torque_lme import ComputedTorqueLME
from robodyn_ros.control.mbvsst import MBVSST
from robodyn_ros.control.payload import PayloadEstimatorSettings as Estimator
from robodyn_ros.control.vsst import SelfTunerSettings
from robodyn_ros.model import load_robot
from robodyn_ros.planning.point_to_point import point_to_point

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _motion(model, steps, seed, h=1e-3):
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
    return q, qd, qdd, qm, qdm


def _run(ctl, model, steps, seed, noncontiguous=False):
    h = ctl.period
    q, qd, qdd, qm, qdm = _motion(model, steps, seed, h)
    taus, masses = [], []
    for k in range(len(q)):
        if noncontiguous:  # views with a stride (the C kernels take contiguous arrays only)
            qk = np.repeat(qm[k], 2)[::2]
            ref = JointReference(np.repeat(q[k], 2)[::2], qd[k], qdd[k])
        else:
            qk, ref = qm[k], JointReference(q[k], qd[k], qdd[k])
        tau, _ = ctl.step(k * h, qk, qdm[k], ref)
        taus.append(tau)
        masses.append(ctl.mass if hasattr(ctl, 'mass') else 0.0)
    return np.array(taus), np.array(masses)


CASES = [
    ('puma560', ComputedTorque, {'omega': 20.0, 'form': 'predictive'}),
    ('puma560', ComputedTorqueLME, {'omega': 20.0}),
    ('puma560', ComputedTorqueLME, {'omega': 15.0, 'form': 'regulation', 'ki': 5.0}),
    ('puma560', MBVSST, {'estimator': Estimator(joints=(1, 2), initial_mass=0.5)}),
    ('ur5', ComputedTorqueLME, {'omega': 20.0, 'form': 'predictive',
                                'estimator': Estimator(joints=(0, 1, 2))}),
    ('ur5', MBVSST, {'estimator': Estimator(com=(0.0, 0.0, 0.05))}),
    ('panda', MBVSST, {'estimator': Estimator(joints=(1, 3), forgetting=0.99)}),
    ('panda', MBVSST, {'tuner': SelfTunerSettings(boundary=0.05, setpoint='position'),
                       'vsst_joints': (0, 2)}),
    ('puma560', MBVSST, {'adapt': False, 'estimator': Estimator(initial_mass=1.0)}),
    ('ur5', ComputedTorqueLME, {'omega': 20.0, 'adapt': False,
                                'estimator': Estimator(initial_mass=0.7), 'form': 'predictive'}),
]


@pytest.mark.parametrize('robot, cls, options', CASES)
def test_sample_equals_the_numpy_reference(robot, cls, options):
    """Torques and mass estimates along a motion agree with the numpy reference (1e-9)."""
    model = load_robot(robot)
    ctl = cls(model, 1e-3, **options)
    assert ctl.compiled == jit.AVAILABLE
    ref = reference_of(cls(model, 1e-3, **options))
    tau_c, m_c = _run(ctl, model, 1500, 1)
    tau_r, m_r = _run(ref, model, 1500, 1)
    assert np.allclose(m_c, m_r, rtol=1e-9, atol=1e-12)
    if getattr(ctl, 'adapt', False):
        assert ctl.estimator.rls.updates == ref.estimator.updates > 100
        assert np.ptp(m_c) > 1e-3   # the estimate moved: the comparison covers the RLS step
    elif ctl.estimator is not None:
        assert np.all(m_c == options['estimator'].initial_mass)
    scale = np.abs(tau_r).max(axis=0) + 1e-9
    assert np.all(np.abs(tau_c - tau_r) <= 1e-9 * scale)
    if ctl.tuner is not None:
        assert np.allclose(ctl.tuner.theta, ref.tuner.theta, rtol=1e-9, atol=1e-12)
        assert np.allclose(ctl.estimates()['vsst_residual'], ref.tuner.residual, rtol=1e-9,
                           atol=1e-12)


def test_python_run_equals_the_compiled_run():
    """compiled=False runs the same loop code as Python: the same numbers."""
    model = load_robot('puma560')
    options = {'estimator': Estimator(joints=(1, 2)), 'ki': 3.0, 'omega': 25.0}
    fast = MBVSST(model, 1e-3, **options)
    slow = MBVSST(model, 1e-3, compiled=False, **options)
    assert not slow.compiled and not slow.tuner.compiled
    tau_f, m_f = _run(fast, model, 400, 3)
    tau_s, m_s = _run(slow, model, 400, 3)
    assert np.allclose(tau_f, tau_s, rtol=1e-12, atol=1e-9)
    assert np.allclose(m_f, m_s, rtol=1e-12, atol=1e-12) and np.ptp(m_s) > 0.0


def test_reference_without_fields_gives_the_hold():
    """A reference record without q/qd/qdd is refused (gravity hold)."""
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
    ctl = ComputedTorqueLME(model, 1e-3, omega=20.0, estimator=Estimator(initial_mass=1.0))
    est = ctl.estimator
    n = model.n
    for k in range(est.settle_samples + 3):
        est.update(np.full(n, 0.1 * k), np.ones(n))
    before = (est.mass, float(est.rls.covariance[0, 0]), est.rls.updates)
    est.update(np.full(n, np.nan), np.ones(n))
    assert (est.mass, float(est.rls.covariance[0, 0]), est.rls.updates) == before


@pytest.mark.parametrize('robot, cls', [('puma560', MBVSST), ('ur5', ComputedTorqueLME),
                                        ('ur5', MBVSST), ('puma560', ComputedTorque)])
def test_faults_saturation_and_recovery_as_the_reference(robot, cls):
    """Saturation, anti-windup, NaN state, bad reference, huge torque: as the reference."""
    model = load_robot(robot)
    options = {'omega': 25.0, 'ki': 20.0, 'torque_limit': 0.5 * model.effort_limits}
    ctl = cls(model, 1e-3, **options)
    ref_ctl = reference_of(cls(model, 1e-3, **options))
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
        tau_c, st_c = ctl.step(k * 1e-3, qk, qdk, ref)
        tau_r, st_r = ref_ctl.step(k * 1e-3, qk, qdk, ref)
        assert st_c.mode == st_r.mode, k
        assert st_c.message == st_r.message, k
        scale = np.abs(tau_r).max() + 1e-9
        assert np.all(np.abs(tau_c - tau_r) <= 1e-9 * scale), k
        if st_r.saturated is not None:
            assert np.array_equal(st_c.saturated, st_r.saturated), k
            assert np.allclose(st_c.error, st_r.error, rtol=0, atol=1e-15), k
        modes.append(st_r.mode.value)
        if k == 299:   # the integral wound up (with anti-windup) during the large error
            assert np.allclose(ctl.integral, ref_ctl.integral, rtol=1e-9, atol=1e-12)
            assert (ctl.integral == 0.0).any() and (ctl.integral != 0.0).any()
    assert {'ok', 'saturated', 'zero', 'hold'} <= set(modes)
    assert np.allclose(ctl.integral, ref_ctl.integral, rtol=1e-9, atol=1e-12)
    if ctl.estimator is not None:
        assert abs(ctl.mass - ref_ctl.mass) <= 1e-9 * (1.0 + abs(ref_ctl.mass))


_SCRIPT = """
import json, sys
import numpy as np
sys.path.insert(0, {test!r})
from test_ct_step import _run
from robodyn_ros.control import jit
from robodyn_ros.control.mbvsst import MBVSST
from robodyn_ros.control.payload import PayloadEstimatorSettings
from robodyn_ros.model import load_robot
model = load_robot('puma560')
ctl = MBVSST(model, 1e-3, ki=3.0, omega=25.0,
             estimator=PayloadEstimatorSettings(joints=(1, 2), initial_mass=0.5))
tau, mass = _run(ctl, model, 400, 5)
print(json.dumps({{'numba': jit.AVAILABLE, 'compiled': ctl.compiled,
                  'kernels': ctl.dynamics.backend, 'tau': tau.tolist(),
                  'mass': mass.tolist()}}))
"""


@pytest.mark.parametrize('env', [{'ROBODYN_NO_NUMBA': '1'},
                                 {'ROBODYN_CODEGEN_BACKEND': 'numpy'},
                                 {'ROBODYN_NO_NUMBA': '1', 'ROBODYN_CODEGEN_BACKEND': 'numpy'}])
def test_without_numba_or_c_kernels_the_same_numbers(env):
    """Without numba (Python loops) or C kernels (numpy dynamics) the law gives its numbers."""
    model = load_robot('puma560')
    ctl = MBVSST(model, 1e-3, ki=3.0, omega=25.0,
                 estimator=Estimator(joints=(1, 2), initial_mass=0.5))
    tau, mass = _run(ctl, model, 400, 5)
    run = subprocess.run([sys.executable, '-c', _SCRIPT.format(test=os.path.join(ROOT, 'test'))],
                         env={**os.environ, **env}, capture_output=True, text=True, timeout=600,
                         cwd=ROOT)
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout.strip().splitlines()[-1])
    assert got['numba'] == ('ROBODYN_NO_NUMBA' not in env) and not got['compiled']
    assert got['kernels'] == ('numpy' if 'ROBODYN_CODEGEN_BACKEND' in env else 'codegen')
    assert np.allclose(got['tau'], tau, rtol=1e-9, atol=1e-9)
    assert np.allclose(got['mass'], mass, rtol=1e-9, atol=1e-12) and np.ptp(mass) > 0.0


@pytest.mark.parametrize('cls, options', [
    (MBVSST, {'estimator': Estimator(joints=(1, 2), initial_mass=0.5), 'ki': 3.0}),
    (ComputedTorqueLME, {'omega': 20.0})])
def test_missed_samples_advance_the_filters_by_the_time_passed(cls, options):
    """A loop that misses samples: the filters advance by the periods passed, as the reference."""
    model = load_robot('puma560')
    ctl, ref_ctl = cls(model, 1e-3, **options), reference_of(cls(model, 1e-3, **options))
    q, qd, qdd, qm, qdm = _motion(model, 1500, 4)
    rng = np.random.default_rng(9)
    k, taken = 0, []
    while k < len(q):
        ref = JointReference(q[k], qd[k], qdd[k])
        tau_c, _ = ctl.step(k * 1e-3, qm[k], qdm[k], ref)
        tau_r, _ = ref_ctl.step(k * 1e-3, qm[k], qdm[k], ref)
        assert np.all(np.abs(tau_c - tau_r) <= 1e-9 * (np.abs(tau_r).max() + 1e-9)), k
        taken.append(k)
        k += int(rng.integers(1, 5))     # one to four periods to the next sample
    assert ctl._law[0]['steps'] > 1 and ctl.estimator.rls.updates > 50
    assert abs(ctl.mass - ref_ctl.mass) <= 1e-9 * (1.0 + abs(ref_ctl.mass))
