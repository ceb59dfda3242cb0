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

"""Backward differences through a first-order low-pass filter."""

import math

import numpy as np
import pytest
from robodyn_ros.control.filtered_difference import FilteredDifference
from robodyn_ros.errors import InputError


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


def test_sinusoid_lags_like_a_first_order_filter():
    """A slow sine's velocity comes out with the filter's gain and phase."""
    h, fc, w = 1e-3, 20.0, 2.0 * math.pi
    fd = FilteredDifference(h, fc)
    t = np.arange(0.0, 3.0, h)
    v = np.array([fd.update([math.sin(w * tk)])[1][0] for tk in t])
    alpha = math.exp(-2.0 * math.pi * fc * h)
    z = np.exp(1j * w * h)
    gain = (1.0 - alpha) * (1.0 - 1.0 / z) / h / (1.0 - alpha / z)
    expected = np.abs(gain) * np.sin(w * t + np.angle(gain))
    assert np.max(np.abs(v[-1000:] - expected[-1000:])) < 1e-3
    assert fd.update([math.sin(w * 3.0)])[0].shape == (1,)
    fd.reset()
    q, v0, a0 = fd.update([5.0])
    assert q[0] == 5.0 and v0[0] == 0.0 and a0[0] == 0.0
