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

"""The generated C kernels against the numpy reference and Pinocchio."""

from codegen_models import random_dh, random_states, random_tree
import numpy as np
import pytest

from robodyn_ros.dynamics.codegen import kernels
from robodyn_ros.dynamics.rne import inverse_dynamics
from robodyn_ros.model import library, load_robot

STATES = 1000


def _library_models():
    out = []
    for name in library.names():
        try:
            out.append(library.load(name))
        except Exception:  # not merged into this branch yet
            continue
    return out


def _models():
    rng = np.random.default_rng(2026)
    models = [load_robot('ur5'), load_robot('panda')]
    models += [random_dh(rng, convention=c) for c in ('standard', 'modified')]
    models += [random_tree(rng, tree=t) for t in (True, False, True)]
    return models + _library_models()


MODELS = _models()
IDS = [f'{m.name}-{i}' for i, m in enumerate(MODELS)]


def _rel(a, b):
    """Largest error per state relative to the largest reference torque of that state."""
    scale = np.maximum(np.abs(b).reshape(len(b), -1).max(axis=1), 1e-300)
    return float(np.max(np.abs(a - b).reshape(len(b), -1).max(axis=1) / scale))


@pytest.mark.parametrize('model', MODELS, ids=IDS)
@pytest.mark.parametrize('friction', [True, False])
@pytest.mark.parametrize('with_wrench', [False, True])
def test_inverse_dynamics_equals_numpy_reference(model, friction, with_wrench):
    rng = np.random.default_rng(7)
    k = kernels(model, backend='c')
    q, qd, qdd = random_states(rng, model, STATES)
    fe = rng.normal(0.0, 20.0, (STATES, 6)) if with_wrench else None
    batch = k.inverse_dynamics_batch if friction else k.inverse_dynamics_rigid_batch
    got = batch(q, qd, qdd, f_ext=fe)
    ref = inverse_dynamics(model, q, qd, qdd, f_ext=fe, friction=friction)
    assert _rel(got, ref) <= 1e-12
    single = k.inverse_dynamics if friction else k.inverse_dynamics_rigid
    for r in (0, STATES // 2, STATES - 1):
        one = single(q[r], qd[r], qdd[r], f_ext=None if fe is None else fe[r])
        assert np.array_equal(one, got[r])


@pytest.mark.parametrize('model', MODELS, ids=IDS)
def test_friction_really_included(model):
    """The friction kernel differs from the rigid one exactly when the model has friction."""
    rng = np.random.default_rng(8)
    k = kernels(model, backend='c')
    q, qd, qdd = random_states(rng, model, 50)
    diff = np.abs(k.inverse_dynamics_batch(q, qd, qdd) - k.inverse_dynamics_rigid_batch(
        q, qd, qdd)).max()
    has = any(not j.friction.is_zero() for j in model.joints)
    assert (diff > 0.0) == has


@pytest.mark.parametrize('model', MODELS, ids=IDS)
def test_friction_kernel_equals_full_minus_rigid(model):
    """friction() is the numpy torque with friction less the one without, load terms included."""
    rng = np.random.default_rng(10)
    k = kernels(model, backend='c')
    q, qd, qdd = random_states(rng, model, STATES)
    ref = (inverse_dynamics(model, q, qd, qdd)
           - inverse_dynamics(model, q, qd, qdd, friction=False))
    got = k.friction_batch(q, qd, qdd)
    scale = max(1.0, np.abs(inverse_dynamics(model, q, qd, qdd)).max())
    assert np.abs(got - ref).max() <= 1e-12 * scale
    assert np.array_equal(k.friction(q[5], qd[5], qdd[5]), got[5])
    assert (np.abs(got).max() > 0.0) == any(not j.friction.is_zero() for j in model.joints)


@pytest.mark.parametrize('model', MODELS, ids=IDS)
def test_gravity_kernel(model):
    rng = np.random.default_rng(9)
    k = kernels(model, backend='c')
    q = random_states(rng, model, 200)[0]
    zero = np.zeros_like(q)
    ref = inverse_dynamics(model, q, zero, zero, friction=False)
    got = k.gravity_batch(q)
    assert _rel(got, ref) <= 1e-12
    assert np.array_equal(k.gravity(q[3]), got[3])


@pytest.mark.parametrize('model', MODELS, ids=IDS)
def test_mass_matrix_and_forward_dynamics_equal_pinocchio(model):
    pin = pytest.importorskip('pinocchio')
    from robodyn_ros.pinocchio_bridge import PinocchioBridge
    bridge = PinocchioBridge(model)
    pm, pd = bridge.pin_model, bridge.pin_data
    rng = np.random.default_rng(10)
    k = kernels(model, backend='c')
    q, qd, tau = random_states(rng, model, 100)
    tau = tau * 10.0
    mm = k.mass_matrix_batch(q)
    fd = k.forward_dynamics_batch(q, qd, tau)
    for r in range(len(q)):
        ref_m = bridge.from_matrix(pin.crba(pm, pd, bridge.q(q[r])))
        ref_m = np.triu(ref_m) + np.triu(ref_m, 1).T
        assert np.abs(mm[r] - ref_m).max() <= 1e-10 * np.abs(ref_m).max()
        ref_a = bridge.from_v(pin.aba(pm, pd, bridge.q(q[r]), bridge.v(qd[r]), bridge.v(tau[r])))
        assert np.abs(fd[r] - ref_a).max() <= 1e-10 * max(np.abs(ref_a).max(), 1.0)
    assert np.array_equal(k.mass_matrix(q[5]), mm[5])
    assert np.array_equal(k.forward_dynamics(q[5], qd[5], tau[5]), fd[5])


@pytest.mark.parametrize('model', MODELS[:4], ids=IDS[:4])
def test_forward_dynamics_inverts_inverse_dynamics(model):
    rng = np.random.default_rng(11)
    k = kernels(model, backend='c')
    q, qd, qdd = random_states(rng, model, 100)
    tau = k.inverse_dynamics_rigid_batch(q, qd, qdd)
    assert np.abs(k.forward_dynamics_batch(q, qd, tau) - qdd).max() <= 1e-9


def test_batch_row_range_and_out():
    model = MODELS[0]
    k = kernels(model, backend='c')
    rng = np.random.default_rng(12)
    q, qd, qdd = random_states(rng, model, 40)
    out = np.full((40, model.n), 7.0)
    res = k.inverse_dynamics_batch(q, qd, qdd, out, 10, 20)
    assert res is out
    assert np.all(out[:10] == 7.0) and np.all(out[20:] == 7.0)
    assert np.array_equal(out[10:20], k.inverse_dynamics_batch(q[10:20], qd[10:20],
                                                               qdd[10:20]))
    res = k.inverse_dynamics_batch(q, qd, qdd, out=out, start=30)
    assert np.array_equal(out[30:], k.inverse_dynamics_batch(q, qd, qdd)[30:])
    empty = k.gravity_batch(q, None, 5, 5)
    assert empty.shape == (40, model.n)


def test_threads_split_a_batch():
    from robodyn_ros.dynamics.codegen.threads import row_ranges, run_batch
    model = MODELS[1]
    k = kernels(model, backend='c')
    rng = np.random.default_rng(13)
    q, qd, qdd = random_states(rng, model, 1001)
    ref = k.inverse_dynamics_batch(q, qd, qdd)
    out = np.zeros_like(ref)
    run_batch(k.inverse_dynamics_batch, (q, qd, qdd), out, threads=3)
    assert np.array_equal(out, ref)
    assert row_ranges(10, 3) == [(0, 3), (3, 7), (7, 10)]


def test_output_may_alias_an_input():
    model = MODELS[0]
    k = kernels(model, backend='c')
    rng = np.random.default_rng(14)
    q, qd, qdd = (x[0] for x in random_states(rng, model, 1))
    ref = k.inverse_dynamics(q, qd, qdd)
    alias = qdd.copy()
    k.inverse_dynamics(q, qd, alias, out=alias)
    assert np.array_equal(alias, ref)


@pytest.mark.parametrize('rows, threads, min_rows', [(100_000, 2, 500), (1000, 2, 500),
                                                     (7, 3, 1), (0, 2, 500), (12_345, 4, 100)])
def test_guided_ranges_cover_every_row_once_large_first(rows, threads, min_rows):
    """Guided scheduling: contiguous, complete, shrinking ranges; only the last may be small."""
    from robodyn_ros.dynamics.codegen.threads import _GuidedRanges
    g = _GuidedRanges(rows, threads, min_rows)
    ranges = []
    while (got := g.take()) is not None:
        ranges.append(got)
    if rows == 0:
        assert ranges == []
        return
    assert [a for a, _ in ranges] == [0] + [b for _, b in ranges[:-1]]
    assert ranges[-1][1] == rows
    sizes = [b - a for a, b in ranges]
    assert sizes == sorted(sizes, reverse=True)
    assert all(s >= min_rows for s in sizes[:-1])
    if rows >= 100_000:
        assert len(ranges) < 40   # few ranges: little Python per row
