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

"""Optional compilation of the loop code: records, kernel calls, the no-numba switch."""

import os
import subprocess
import sys

import numpy as np
import pytest
from robodyn_ros.control import jit
from robodyn_ros.dynamics.codegen import kernels
from robodyn_ros.model import load_robot


def _scale(rec, values):
    """Count the calls and scale the values into the record (a loop-form function)."""
    r = rec[0]
    r['count'] = r['count'] + 1
    x = r['x']
    for i in range(values.shape[0]):
        x[i] = r['factor'] * values[i]


_scale_compiled = jit.compiled(jit.jitable(_scale))


def test_capacity_and_records_shared_with_python():
    """Capacities round up to the block; the record's fields are views of one memory."""
    assert [jit.capacity(n) for n in (1, 6, 16, 17)] == [16, 16, 16, 32]
    assert jit.capacity(5, 4) == 8
    rec = jit.record(np.dtype([('count', np.int64), ('factor', np.float64),
                               ('x', np.float64, (jit.capacity(3),))]))
    x = rec[0]['x'][:3]
    rec[0]['factor'] = 2.0
    _scale_compiled(rec, np.array([1.0, 2.0, 3.0]))
    _scale(rec, np.array([1.0, -1.0, 0.5]))
    assert x.tolist() == [2.0, -2.0, 1.0] and rec[0]['count'] == 2


def test_kernel_call_by_address_and_by_callable():
    """call_kernel gives the kernel's torque through the C address (compiled) or a callable."""
    model = load_robot('puma560')
    k = kernels(model)

    def call(handles, q, out):
        jit.call_kernel(handles, 0, (q, q, q, out))

    compiled_call = jit.compiled(jit.jitable(call))
    q = np.linspace(-0.5, 0.5, model.n)
    by_address, by_callable = np.empty(model.n), np.empty(model.n)
    compiled_call(np.array([k.c_address('inverse_dynamics')], dtype=np.intp), q, by_address)
    call((k.inverse_dynamics,), q, by_callable)
    expected = k.inverse_dynamics(q, q, q)
    assert np.array_equal(by_address, expected) and np.array_equal(by_callable, expected)


def test_non_finite_input_gives_nan_in_both_forms():
    """A NaN input: NaN torques by address and by callable (the entry point itself raises)."""
    model = load_robot('puma560')
    k = kernels(model)

    def call(handles, q, out):
        jit.call_kernel(handles, 0, (q, q, q, out))

    compiled_call = jit.compiled(jit.jitable(call))
    q = np.linspace(-0.5, 0.5, model.n)
    q[2] = np.nan
    by_address, by_callable = np.zeros(model.n), np.zeros(model.n)
    compiled_call(np.array([k.c_address('inverse_dynamics')], dtype=np.intp), q, by_address)
    call((k.inverse_dynamics,), q, by_callable)
    assert np.isnan(by_callable).all() and np.isnan(by_address).any()
    with pytest.raises(ValueError, match='q has a NaN'):
        k.inverse_dynamics(q, q, q)
    with pytest.raises(ValueError, match='shape'):     # other errors still raise
        call((k.inverse_dynamics,), np.zeros(model.n + 1), by_callable)


@pytest.mark.parametrize('bad', [np.nan, np.inf, -np.inf])
def test_finite(bad):
    """finite() is False for any NaN or infinity, True otherwise (also for huge values)."""
    values = np.array([1.0, 1e308, 1e308])
    assert jit.finite(values) and jit.all_finite(values)
    values[1] = bad
    assert not jit.finite(values) and not jit.all_finite(values)


def test_no_numba_switch():
    """ROBODYN_NO_NUMBA=1 leaves the loop functions as Python (and they still run)."""
    code = ('from robodyn_ros.control import jit; import numpy as np; '
            'print(jit.AVAILABLE, jit.finite is jit.all_finite, '
            'jit.finite(np.ones(3)))')
    run = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         env={**os.environ, 'ROBODYN_NO_NUMBA': '1'}, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ['False', 'True', 'True']
