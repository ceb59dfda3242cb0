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

from codegen_models import random_dh, random_states, random_tree, with_random_friction
import numpy as np
import pytest

from robodyn_ros.dynamics.codegen import kernels
from robodyn_ros.dynamics.forward import forward_dynamics, ForwardDynamicsError
from robodyn_ros.dynamics.rne import inverse_dynamics
from robodyn_ros.dynamics.tables import tables
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
    models += [with_random_friction(m, rng) for m in models[:2]]
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
    """Compare crba and aba with the rigid kernels, aba of tau - tau_v with the friction pair."""
    pin = pytest.importorskip('pinocchio')
    from robodyn_ros.pinocchio_bridge import PinocchioBridge
    bridge = PinocchioBridge(model)
    pm, pd = bridge.pin_model, bridge.pin_data
    rng = np.random.default_rng(10)
    k = kernels(model, backend='c')
    q, qd, tau = random_states(rng, model, 100)
    tau = tau * 10.0
    mm = k.mass_matrix_batch(q)
    fd = k.forward_dynamics_rigid_batch(q, qd, tau)
    load = tables(model).has_load_friction
    with_friction = None if load else k.forward_dynamics_batch(q, qd, tau)
    tau_v = k.friction_batch(q, qd, np.zeros_like(q))   # velocity friction: qdd plays no part
    for r in range(len(q)):
        ref_m = bridge.from_matrix(pin.crba(pm, pd, bridge.q(q[r])))
        ref_m = np.triu(ref_m) + np.triu(ref_m, 1).T
        assert np.abs(mm[r] - ref_m).max() <= 1e-10 * np.abs(ref_m).max()
        ref_a = bridge.from_v(pin.aba(pm, pd, bridge.q(q[r]), bridge.v(qd[r]), bridge.v(tau[r])))
        assert np.abs(fd[r] - ref_a).max() <= 1e-10 * max(np.abs(ref_a).max(), 1.0)
        if not load:
            ref_f = bridge.from_v(pin.aba(pm, pd, bridge.q(q[r]), bridge.v(qd[r]),
                                          bridge.v(tau[r] - tau_v[r])))
            assert np.abs(with_friction[r] - ref_f).max() <= 1e-10 * max(np.abs(ref_f).max(), 1)
    assert np.array_equal(k.mass_matrix(q[5]), mm[5])
    assert np.array_equal(k.forward_dynamics_rigid(q[5], qd[5], tau[5]), fd[5])


@pytest.mark.parametrize('model', MODELS, ids=IDS)
def test_forward_dynamics_inverts_inverse_dynamics(model):
    """Both pairs round-trip to round-off, single and batch, and match the numpy reference."""
    rng = np.random.default_rng(11)
    k = kernels(model, backend='c')
    q, qd, qdd = random_states(rng, model, 300)
    tau = k.inverse_dynamics_batch(q, qd, qdd)
    back = k.forward_dynamics_batch(q, qd, tau)
    assert np.abs(back - qdd).max() <= 1e-9
    rigid = k.inverse_dynamics_rigid_batch(q, qd, qdd)
    assert np.abs(k.forward_dynamics_rigid_batch(q, qd, rigid) - qdd).max() <= 1e-9
    for r in (0, 7, 299):
        assert np.array_equal(k.forward_dynamics(q[r], qd[r], tau[r]), back[r])
    ref = forward_dynamics(model, q[:20], qd[:20], tau[:20])
    assert np.abs(back[:20] - ref).max() <= 1e-9
    kn = kernels(model, backend='numpy')
    assert np.abs(kn.forward_dynamics_batch(q[:8], qd[:8], tau[:8]) - back[:8]).max() <= 1e-9
    assert np.abs(kn.forward_dynamics(q[3], qd[3], tau[3]) - back[3]).max() <= 1e-9
    assert np.abs(kn.forward_dynamics_rigid_batch(q[:8], qd[:8], rigid[:8]) - qdd[:8]).max() <= (
        1e-9)
    has_friction = any(not j.friction.is_zero() for j in model.joints)
    assert (np.abs(k.forward_dynamics_rigid_batch(q, qd, tau) - qdd).max() > 1e-6) == (
        has_friction)


@pytest.mark.parametrize('model', MODELS, ids=IDS)
def test_any_torque_gives_an_acceleration_that_inverse_dynamics_maps_back(model):
    """
    Map the answer back to tau with inverse_dynamics, for torques no qdd was made from.

    Only the random trees, whose linear bearings carry large moments, may meet a torque
    that no acceleration gives (the friction grows faster than the inertia resists):
    ForwardDynamicsError then, never a wrong answer.
    """
    rng = np.random.default_rng(17)
    k = kernels(model, backend='c')
    q, qd, _ = random_states(rng, model, 300)
    qd[:100] = 0.0                        # at rest: smoothed signs 0 (or sign(0) = 0)
    tau = rng.normal(0.0, 30.0, q.shape)
    solved = 0
    for r in range(len(q)):
        try:
            qdd = k.forward_dynamics(q[r], qd[r], tau[r])
        except ForwardDynamicsError:
            assert model.name.startswith('random_'), r
            continue
        back = k.inverse_dynamics(q[r], qd[r], qdd)
        assert np.abs(back - tau[r]).max() <= 1e-10 * max(1.0, np.abs(tau[r]).max()), r
        solved += 1
    assert solved >= 290


def test_no_acceleration_for_the_torque_raises():
    """Where no acceleration gives the torque: ForwardDynamicsError (row named), NaN by address."""
    import ctypes
    rng = np.random.default_rng(17)
    model = MODELS[6]                     # the third random tree: strong bearing friction
    k = kernels(model, backend='c')
    q, qd, _ = random_states(rng, model, 300)
    qd[:100] = 0.0
    tau = rng.normal(0.0, 30.0, q.shape)
    bad = []
    for r in range(len(q)):
        try:
            k.forward_dynamics(q[r], qd[r], tau[r])
        except ForwardDynamicsError as exc:
            assert 'forward_dynamics: the friction equations did not converge' in str(exc)
            bad.append(r)
    assert bad
    with pytest.raises(ForwardDynamicsError, match=f'for row {bad[0]}'):
        k.forward_dynamics_batch(q, qd, tau)
    with pytest.raises(ForwardDynamicsError):
        kernels(model, backend='numpy').forward_dynamics(q[bad[0]], qd[bad[0]], tau[bad[0]])
    ptr = ctypes.c_void_p
    fn = ctypes.CFUNCTYPE(None, ptr, ptr, ptr, ptr)(k.c_address('forward_dynamics'))
    out = np.zeros(model.n)
    args = [np.ascontiguousarray(a[bad[0]]) for a in (q, qd, tau)]
    fn(*[a.ctypes.data for a in args], out.ctypes.data)
    assert np.isnan(out).all()


def test_forward_dynamics_is_the_inverse_to_first_order():
    """Check d qdd / d tau of forward_dynamics times d tau / d qdd of inverse_dynamics is I."""
    model = load_robot('puma560')
    k = kernels(model, backend='c')
    rng = np.random.default_rng(15)
    q, qd, qdd = random_states(rng, model, 5)
    h = 1e-6
    for r in range(5):
        tau = k.inverse_dynamics(q[r], qd[r], qdd[r])
        eye = np.eye(model.n)
        d_id = np.array([(k.inverse_dynamics(q[r], qd[r], qdd[r] + h * e)
                          - k.inverse_dynamics(q[r], qd[r], qdd[r] - h * e)) / (2 * h)
                         for e in eye]).T
        d_fd = np.array([(k.forward_dynamics(q[r], qd[r], tau + h * e)
                          - k.forward_dynamics(q[r], qd[r], tau - h * e)) / (2 * h)
                         for e in eye]).T
        assert np.abs(d_fd @ d_id - eye).max() <= 1e-5


@pytest.mark.parametrize('backend', ['c', 'numpy'])
@pytest.mark.parametrize('name', ['forward_dynamics', 'forward_dynamics_rigid'])
def test_forward_dynamics_refuses_non_finite_input(backend, name):
    """A NaN or inf in q, qd or tau raises ValueError, single and batch, on both backends."""
    model = load_robot('puma560')
    k = kernels(model, backend=backend)
    rng = np.random.default_rng(16)
    arrays = list(random_states(rng, model, 12))
    single, batch = getattr(k, name), getattr(k, name + '_batch')
    for which, value in ((0, np.nan), (1, np.inf), (2, -np.inf)):
        bad = [a.copy() for a in arrays]
        bad[which][5, 3] = value
        arg = ('q', 'qd', 'tau')[which]
        with pytest.raises(ValueError, match=f'{arg}(: entry| has a NaN)'):
            single(*(a[5] for a in bad))
        with pytest.raises(ValueError, match='row 5'):
            batch(*bad)


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
