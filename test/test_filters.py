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

"""State-variable filter (seed 003 Appendix B) and filtered differences."""

import numpy as np
import pytest
from robodyn_ros.control.filters import (FilteredDifference, SEED003_OFFLINE, SEED003_REALTIME,
                                         StateVariableFilter)
from robodyn_ros.errors import InputError
from scipy import signal


@pytest.mark.parametrize('coeffs', [SEED003_REALTIME, SEED003_OFFLINE])
def test_outputs_match_continuous_filters(coeffs):
    """Each output s^i y / C(s) equals scipy's simulation of that transfer function."""
    h = 1.0 / 121.0
    t = np.arange(0, 3.0, h)
    y = np.sin(2.0 * t) + 0.3 * t ** 2
    f = StateVariableFilter(coeffs, h, 1, hold='linear')
    f.reset(np.zeros(1))
    out = np.array([f.update([v])[:, 0] for v in y[1:]])
    out = np.vstack([np.zeros(len(coeffs)), out])
    for i in range(len(coeffs)):
        num = np.zeros(i + 1)
        num[0] = 1.0
        # lsim interpolates the input linearly between samples (first-order hold).
        _, ref, _ = signal.lsim((num, list(coeffs)), y - y[0] * 0, t, interp=True)
        assert np.allclose(out[:, i], ref, atol=1e-6 * max(1.0, np.abs(ref).max())), i


def test_zero_hold_is_exact_for_held_inputs_and_steady_state():
    """A held input is filtered exactly; a constant gives the static gain, zero derivatives."""
    h = 0.01
    f = StateVariableFilter(SEED003_REALTIME, h, 2, hold='zero')
    f.reset([1.0, -2.0])
    out = f.update([1.0, -2.0])
    assert np.allclose(out[0], [1.0, -2.0]) and np.allclose(out[1:], 0.0)
    steps = np.repeat([0.0, 1.0, -0.5, 2.0], 25)
    g = StateVariableFilter(SEED003_REALTIME, h, 1, hold='zero')
    g.reset([0.0])
    got = [g.update([u])[0, 0] for u in steps[1:]]
    a, b, c, d = signal.tf2ss([1.0], list(SEED003_REALTIME))
    ad, bd, cd, dd, _ = signal.cont2discrete((a, b, c, d), h, method='zoh')
    _, ref, _ = signal.dlsim((ad, bd, cd, dd, h), steps[1:])
    # update(u) means u was held over the sample that just ended: one sample ahead of dlsim.
    assert np.allclose(got[:-1], np.asarray(ref)[1:, 0], atol=1e-9)


def test_predict_and_unit_response_are_linear():
    """predict(u) = predict(0) + u * unit_response(); the state is not changed."""
    f = StateVariableFilter((1.0, 1.0), 0.01, 3, hold='zero')
    f.update([0.2, -0.1, 0.5])
    f.update([0.4, 0.0, 1.0])
    before = f.outputs().copy()
    u = np.array([2.0, -1.0, 0.5])
    assert np.allclose(f.predict(u), f.predict(np.zeros(3)) + np.outer(f.unit_response(), u))
    assert np.allclose(f.outputs(), before)
    expected = f.predict(u)
    assert np.allclose(f.update(u), expected)


def test_bad_filters_are_refused():
    """Unstable, degenerate or mis-sized filters raise input errors."""
    for coeffs in ((1.0,), (0.0, 1.0), (1.0, 0.0), (1.0, -1.0), (1.0, np.nan)):
        with pytest.raises(InputError):
            StateVariableFilter(coeffs, 0.01)
    with pytest.raises(InputError):
        StateVariableFilter((1.0, 1.0), 0.0)
    with pytest.raises(InputError):
        StateVariableFilter((1.0, 1.0), 0.01, hold='cubic')
    f = StateVariableFilter((1.0, 1.0), 0.01, 2)
    with pytest.raises(InputError):
        f.update([1.0])


def test_filtered_difference_on_a_ramp():
    """A ramp gives its slope and zero acceleration after the filter settles."""
    h = 1e-3
    fd = FilteredDifference(h, 20.0, 2)
    for k in range(2000):
        q, v, a = fd.update([0.5 * k * h, -2.0 * k * h])
    assert np.allclose(v, [0.5, -2.0], atol=1e-6) and np.allclose(a, 0.0, atol=1e-4)
    with pytest.raises(InputError):
        FilteredDifference(h, 600.0)
    with pytest.raises(InputError):
        fd.update([1.0])
