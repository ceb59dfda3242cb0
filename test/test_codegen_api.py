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

"""Kernel entry points: argument checks, caching, concurrent builds, the numpy fallback."""

import os
import subprocess
import sys
import textwrap

from codegen_models import random_dh, random_states
import numpy as np
import pytest

from robodyn_ros.dynamics import codegen
from robodyn_ros.dynamics.codegen import build, CodegenWarning, CompilerUnavailable, kernels
from robodyn_ros.dynamics.rne import inverse_dynamics
from robodyn_ros.model import load_robot

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope='module')
def ur5():
    model = load_robot('ur5')
    return model, kernels(model, backend='c')


def _good(n):
    return np.zeros(n), np.zeros(n), np.zeros(n)


@pytest.mark.parametrize('bad, match', [
    (np.zeros(5), r'shape \(6,\)'),
    (np.zeros(7), r'shape \(6,\)'),
    (np.zeros((6, 1)), 'shape'),
    (np.zeros(12)[::2], 'C-contiguous'),
    (np.zeros(6, dtype=np.float32), 'float64'),
    (np.zeros(6, dtype=np.int64), 'float64'),
    ([0.0] * 6, 'numpy array'),
    (b'abcdefgh' * 6, 'float64'),
])
def test_bad_input_arrays_raise_value_error(ur5, bad, match):
    _, k = ur5
    q, qd, qdd = _good(6)
    with pytest.raises(ValueError, match=match):
        k.inverse_dynamics(q, bad, qdd)
    with pytest.raises(ValueError, match=match):
        k.gravity(bad)


def test_other_buffer_exporters_work(ur5):
    import array
    _, k = ur5
    rng = np.random.default_rng(0)
    q, qd, qdd = rng.normal(size=(3, 6))
    ref = k.inverse_dynamics(q, qd, qdd)
    out = array.array('d', [0.0] * 6)
    res = k.inverse_dynamics(array.array('d', q), memoryview(qd), array.array('d', qdd), out)
    assert res is out and np.array_equal(np.array(out), ref)
    with pytest.raises(ValueError, match='float64'):
        k.inverse_dynamics(array.array('f', q), qd, qdd)
    with pytest.raises(ValueError, match='shape'):
        k.inverse_dynamics(array.array('d', q[:5]), qd, qdd)
    frozen = memoryview(bytes(48)).cast('d')
    with pytest.raises(ValueError, match='writable'):
        k.inverse_dynamics(q, qd, qdd, frozen)


def test_bad_out_raises(ur5):
    _, k = ur5
    q, qd, qdd = _good(6)
    for out, match in ((np.zeros(5), 'shape'), (np.zeros(7), 'shape'),
                       (np.zeros((6, 6))[:, 0], 'C-contiguous'),
                       (np.zeros(6, dtype=np.float32), 'float64')):
        with pytest.raises(ValueError, match=match):
            k.inverse_dynamics(q, qd, qdd, out)
    frozen = np.zeros(6)
    frozen.setflags(write=False)
    with pytest.raises(ValueError, match='writable'):
        k.inverse_dynamics(q, qd, qdd, out=frozen)
    with pytest.raises(ValueError, match=r'shape \(6, 6\)'):
        k.mass_matrix(q, np.zeros(36))
    with pytest.raises(ValueError, match='f_ext'):
        k.inverse_dynamics(q, qd, qdd, f_ext=np.zeros(5))


def test_bad_argument_lists_raise_type_error(ur5):
    _, k = ur5
    q, qd, qdd = _good(6)
    with pytest.raises(TypeError, match='missing'):
        k.inverse_dynamics(q, qd)
    with pytest.raises(TypeError, match='at most'):
        k.inverse_dynamics(q, qd, qdd, None, None, None)
    with pytest.raises(TypeError, match='unexpected'):
        k.inverse_dynamics(q, qd, qdd, bogus=q)
    with pytest.raises(TypeError, match='repeated'):
        k.inverse_dynamics(q, qd, qdd, None, out=None)
    with pytest.raises(TypeError, match='missing'):
        k.inverse_dynamics(q, None, qdd)


def test_bad_batches_raise(ur5):
    _, k = ur5
    q = np.zeros((10, 6))
    with pytest.raises(ValueError, match='shape'):
        k.inverse_dynamics_batch(q, np.zeros((9, 6)), q)
    with pytest.raises(ValueError, match='shape'):
        k.inverse_dynamics_batch(np.zeros((10, 5)), q, q)
    with pytest.raises(ValueError, match='shape'):
        k.inverse_dynamics_batch(q, q, q, np.zeros((10, 5)))
    with pytest.raises(ValueError, match='shape'):
        k.mass_matrix_batch(q, np.zeros((10, 6)))
    with pytest.raises(ValueError, match='f_ext'):
        k.inverse_dynamics_batch(q, q, q, f_ext=np.zeros((9, 6)))
    with pytest.raises(ValueError, match='C-contiguous'):
        k.gravity_batch(np.zeros((6, 10)).T)
    for start, stop in ((-1, 5), (0, 11), (6, 5)):
        with pytest.raises(ValueError, match='start'):
            k.inverse_dynamics_batch(q, q, q, None, start, stop)
    with pytest.raises(TypeError):
        k.gravity_batch(q, None, 'a')


def test_kernels_are_built_once_per_model(monkeypatch):
    rng = np.random.default_rng(1)
    model = random_dh(rng)
    calls = []
    real = codegen.generate

    def counting(m, *args, **kwargs):
        calls.append(m)
        return real(m, *args, **kwargs)

    monkeypatch.setattr(codegen, 'generate', counting)
    first = kernels(model)
    assert kernels(model) is first
    assert kernels(model).inverse_dynamics is first.inverse_dynamics
    codegen.op_counts(model)
    assert len(calls) == 1


def test_disk_cache_reused(monkeypatch, tmp_path):
    monkeypatch.setenv('ROBODYN_CACHE_DIR', str(tmp_path))
    rng = np.random.default_rng(2)
    rows_seed = rng.integers(1 << 30)
    model = random_dh(np.random.default_rng(rows_seed), n=3)
    k = kernels(model, backend='c')
    files = [f for f in os.listdir(tmp_path) if f.startswith('rdk_')]
    assert len(files) == 1 and k.path == os.path.join(tmp_path, files[0])
    assert not [f for f in os.listdir(tmp_path) if f.endswith(('.tmp', '.c'))]

    def no_compile(*args):
        raise AssertionError('compiled again')

    monkeypatch.setattr(build, '_compile', no_compile)
    build._LOADED.clear()
    again = kernels(random_dh(np.random.default_rng(rows_seed), n=3), backend='c')
    assert again.path == k.path
    q, qd, qdd = random_states(rng, model, 1)
    assert np.array_equal(again.inverse_dynamics(q[0], qd[0], qdd[0]),
                          k.inverse_dynamics(q[0], qd[0], qdd[0]))


def test_two_processes_build_at_once(tmp_path):
    code = textwrap.dedent("""
        import numpy as np
        from robodyn_ros.dynamics.codegen import kernels
        from robodyn_ros.model import RobotModel
        rows = [dict(a=0.3, alpha=1.0, d=0.1, theta=0.0, joint='R', mass=2.0,
                     com=[0.1, 0.0, 0.0], inertia=[0.1, 0.1, 0.1]) for _ in range(4)]
        k = kernels(RobotModel.from_dh(rows), backend='c')
        print(k.path, float(k.gravity(np.full(4, 0.3))[1]))
    """)
    env = dict(os.environ, ROBODYN_CACHE_DIR=str(tmp_path), PYTHONPATH=ROOT)
    procs = [subprocess.Popen([sys.executable, '-c', code], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    assert outs[0][0] == outs[1][0]
    assert len([f for f in os.listdir(tmp_path) if f.startswith('rdk_')]) == 1


def test_no_compiler_falls_back_to_numpy_with_a_warning(monkeypatch):
    monkeypatch.setenv('ROBODYN_CC', '/nonexistent/cc')
    monkeypatch.setattr(codegen, '_WARNED', set())
    monkeypatch.setattr(build, '_LOADED', {})
    rng = np.random.default_rng(3)
    model = random_dh(rng, n=4)
    with pytest.warns(CodegenWarning, match='numpy reference'):
        k = kernels(model)
    assert k.backend == 'numpy'
    q, qd, qdd = random_states(rng, model, 5)
    assert np.allclose(k.inverse_dynamics(q[0], qd[0], qdd[0]),
                       inverse_dynamics(model, q[0], qd[0], qdd[0]), rtol=0, atol=1e-12)
    out = k.inverse_dynamics_batch(q, qd, qdd)
    assert np.allclose(out, inverse_dynamics(model, q, qd, qdd), rtol=0, atol=1e-12)
    other = random_dh(rng, n=4)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        assert kernels(other).backend == 'numpy'    # warned once, not again
    with pytest.raises(CompilerUnavailable):
        kernels(random_dh(rng, n=4), backend='c')


def test_numpy_backend_matches_c(monkeypatch):
    rng = np.random.default_rng(4)
    model = random_dh(rng, n=5)
    monkeypatch.setenv('ROBODYN_CODEGEN_BACKEND', 'numpy')
    kn = kernels(model)
    assert kn.backend == 'numpy' and kn.op_counts['rne']['mul'] > 0
    monkeypatch.delenv('ROBODYN_CODEGEN_BACKEND')
    kc = kernels(model, backend='c')
    q, qd, qdd = random_states(rng, model, 20)
    fe = rng.normal(size=(20, 6))
    for name, args in (('inverse_dynamics', (q, qd, qdd)), ('inverse_dynamics_rigid',
                                                            (q, qd, qdd)),
                       ('gravity', (q,)), ('mass_matrix', (q,)),
                       ('forward_dynamics', (q, qd, qdd))):
        a = getattr(kn, name + '_batch')(*args)
        b = getattr(kc, name + '_batch')(*args)
        assert np.allclose(a, b, rtol=1e-10, atol=1e-10), name
        assert np.allclose(getattr(kn, name)(*(x[2] for x in args)), b[2], rtol=1e-10,
                           atol=1e-10)
    assert np.allclose(kn.inverse_dynamics_batch(q, qd, qdd, f_ext=fe),
                       kc.inverse_dynamics_batch(q, qd, qdd, f_ext=fe), rtol=1e-10, atol=1e-10)
    with pytest.raises(ValueError):
        kernels(model, backend='fortran')


def test_build_without_numpy_headers(monkeypatch, tmp_path):
    """The module also works through the buffer protocol alone (numpy.empty outputs)."""
    monkeypatch.setenv('ROBODYN_CACHE_DIR', str(tmp_path))
    rng = np.random.default_rng(5)
    model = random_dh(rng, n=3)
    with_numpy = kernels(model, backend='c')
    monkeypatch.setattr(build, 'numpy_flags', lambda: [])
    plain = kernels(random_dh(np.random.default_rng(5), n=3), backend='c')
    assert plain.path != with_numpy.path
    q, qd, qdd = random_states(rng, model, 4)
    assert np.array_equal(plain.inverse_dynamics(q[0], qd[0], qdd[0]),
                          with_numpy.inverse_dynamics(q[0], qd[0], qdd[0]))
    assert np.array_equal(plain.mass_matrix_batch(q), with_numpy.mass_matrix_batch(q))
    with pytest.raises(ValueError, match='C-contiguous'):
        plain.gravity(np.zeros(6)[::2])
    with pytest.raises(ValueError, match='float64'):
        plain.gravity(np.zeros(3, dtype=np.float32))


@pytest.mark.parametrize('name, nin', [('inverse_dynamics', 3), ('inverse_dynamics_rigid', 3),
                                       ('gravity', 1), ('mass_matrix', 1),
                                       ('forward_dynamics', 3)])
def test_batch_kernels_refuse_non_finite_rows(ur5, name, nin):
    """A NaN or inf in any input names the first bad row (absolute index), in any range."""
    k = ur5[1]
    rng = np.random.default_rng(4)
    arrays = [rng.normal(size=(40, 6)) for _ in range(nin)]
    fn = getattr(k, name + '_batch')
    fn(*arrays)  # all finite: no error
    for which, row, value in ((0, 7, np.nan), (nin - 1, 31, np.inf), (nin // 2, 39, -np.inf)):
        bad = [a.copy() for a in arrays]
        bad[which][row, 3] = value
        with pytest.raises(ValueError, match=f'row {row} has a NaN'):
            fn(*bad)
        with pytest.raises(ValueError, match=f'row {row} has a NaN'):
            fn(*bad, None, row, 40)
        fn(*bad, None, 0, row)   # the rows before it are fine


#: Inputs of each entry point: argument names and lengths (n: the joints).
SIGNATURES = {
    'inverse_dynamics': (('q', 'n'), ('qd', 'n'), ('qdd', 'n')),
    'inverse_dynamics_rigid': (('q', 'n'), ('qd', 'n'), ('qdd', 'n')),
    'gravity': (('q', 'n'),),
    'mass_matrix': (('q', 'n'),),
    'forward_dynamics': (('q', 'n'), ('qd', 'n'), ('tau', 'n')),
    'forward_dynamics_rigid': (('q', 'n'), ('qd', 'n'), ('tau', 'n')),
    'inverse_dynamics_payload': (('q', 'n'), ('qd', 'n'), ('qdd', 'n'), ('payload', 4)),
    'payload_torque': (('q', 'n'), ('qd', 'n'), ('qdd', 'n'), ('com', 3)),
    'gravity_payload': (('q', 'n'), ('payload', 4)),
    'friction': (('q', 'n'), ('qd', 'n'), ('qdd', 'n')),
}


def test_signatures_cover_every_entry_point():
    from robodyn_ros.dynamics.codegen.kernels import ENTRY_POINTS
    assert set(SIGNATURES) == set(ENTRY_POINTS)


@pytest.mark.parametrize('backend', ['c', 'numpy'])
@pytest.mark.parametrize('name', sorted(SIGNATURES))
def test_every_entry_point_refuses_non_finite_inputs(backend, name):
    """Refuse a NaN or +-inf in any entry of any input, single and batch calls (ValueError)."""
    model = load_robot('puma560')
    k = kernels(model, backend=backend)
    rng = np.random.default_rng(6)
    sizes = [model.n if size == 'n' else size for _, size in SIGNATURES[name]]
    rows = [rng.uniform(-0.5, 0.5, (6, size)) for size in sizes]
    single, batch = getattr(k, name), getattr(k, name + '_batch')
    batch(*rows)
    single(*(r[2] for r in rows))            # finite: no error
    for arg, (argname, _) in enumerate(SIGNATURES[name]):
        for j, value in ((0, np.nan), (sizes[arg] - 1, np.inf), (sizes[arg] // 2, -np.inf)):
            bad = [r.copy() for r in rows]
            bad[arg][4, j] = value
            message = (f'{name}: {argname} has a NaN or infinite value at index {j}'
                       if backend == 'c' else argname)
            with pytest.raises(ValueError, match=message):
                single(*(r[4] for r in bad))
            with pytest.raises(ValueError, match='row 4'):
                batch(*bad)


@pytest.mark.parametrize('backend', ['c', 'numpy'])
def test_non_finite_wrench_refused(backend):
    """The end-effector wrench is checked too, single and batch."""
    model = load_robot('puma560')
    k = kernels(model, backend=backend)
    q = np.zeros((3, 6))
    wrench = np.zeros((3, 6))
    wrench[1, 4] = np.nan
    for name in ('inverse_dynamics', 'inverse_dynamics_rigid'):
        with pytest.raises(ValueError, match='f_ext'):
            getattr(k, name)(q[1], q[1], q[1], f_ext=wrench[1])
        with pytest.raises(ValueError, match='row 1'):
            getattr(k, name + '_batch')(q, q, q, f_ext=wrench)
