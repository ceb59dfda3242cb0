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


"""CompiledFunctions: compile once, warn once on failure, never compile in a cycle."""

import threading
import time
import warnings

import numpy as np
import pytest
from robodyn_ros.realtime.compiled_functions import CompiledFunctions


def _twice(x):
    return 2.0 * x


def _double_all(a):
    out = np.empty(a.shape[0])
    for i in range(a.shape[0]):
        out[i] = _twice(a[i])
    return out


def _warm(fns):
    fns[0](np.ones(1))


def test_load_compiles_once_and_no_other_argument_type_compiles_later():
    """The same compiled tuple every time; an int array raises TypeError instead of compiling."""
    funcs = CompiledFunctions('a test set', (_double_all,), _warm, helpers=(_twice,))
    assert funcs.get() is None
    got = funcs.load()
    assert got is not None and funcs.load() is got and funcs.get() is got
    np.testing.assert_array_equal(got[0](np.arange(3.0)), [0.0, 2.0, 4.0])
    with pytest.raises(TypeError):
        got[0](np.arange(3))
    with pytest.raises(TypeError):
        got[0](np.arange(6.0)[::2])
    # a second set sharing the helper compiles too (the helper is registered once)
    other = CompiledFunctions('another test set', (_double_all,), _warm, helpers=(_twice,))
    assert other.load() is not None


def test_a_failed_compile_warns_once_and_leaves_none(monkeypatch):
    """A function numba cannot type: one RuntimeWarning naming the set, then None quietly."""
    def untypable(a):
        return {object(): a}

    funcs = CompiledFunctions('the broken set', (untypable,), _warm)
    with pytest.warns(RuntimeWarning, match='the broken set could not be compiled'):
        assert funcs.load() is None
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        assert funcs.load() is None and funcs.get() is None


def test_without_numba_by_request_nothing_compiles(monkeypatch):
    """ROBODYN_NO_NUMBA=1: load gives None; the callers keep their NumPy form."""
    monkeypatch.setenv('ROBODYN_NO_NUMBA', '1')
    funcs = CompiledFunctions('a test set', (_double_all,), _warm, helpers=(_twice,))
    assert funcs.load() is None and funcs.get() is None


def test_start_returns_at_once_and_the_functions_follow():
    """Starting never waits, even while another thread holds the compile lock."""
    funcs = CompiledFunctions('a test set', (_double_all,), _warm, helpers=(_twice,))
    gate = threading.Event()

    def hold():
        with funcs.lock:
            gate.wait(30)

    holder = threading.Thread(target=hold)
    holder.start()
    time.sleep(0.1)
    began = time.monotonic()
    funcs.start()
    funcs.start()                       # once per process: no second thread
    took = time.monotonic() - began
    assert funcs.get() is None
    gate.set()
    holder.join()
    deadline = time.monotonic() + 60.0
    while funcs.get() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert took < 5.0 and funcs.get() is not None
