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

"""Saturation and anti-windup against their numpy forms."""

import numpy as np
import pytest
from robodyn_ros.control.saturation import (BAD_TORQUE, integrate_entry, integrate_error, OK,
                                            saturate, saturate_entry, SATURATED)


@pytest.mark.parametrize('clip, integrate', [(saturate_entry, integrate_entry),
                                             (saturate, integrate_error)])
def test_against_numpy(clip, integrate):
    """Clipping, flags, codes and conditional integration equal the numpy expressions."""
    rng = np.random.default_rng(0)
    limit = np.array([5.0, 10.0, np.inf, 2.0])
    low, high = np.array([0.0, 0.01, 0.0, 0.0]), np.array([np.inf, 1.0, np.inf, 0.5])
    codes = set()
    for _ in range(200):
        tau = rng.normal(0.0, 6.0, 4)
        out, sat = np.empty(4), np.zeros(4, dtype=bool)
        code = clip(tau, limit, out, sat, 4)
        expected = np.minimum(np.maximum(tau, -limit), limit)
        assert np.array_equal(out, expected) and np.array_equal(sat, expected != tau)
        assert code == (SATURATED if sat.any() else OK)
        codes.add(code)
        e, integral = rng.normal(0.0, 0.5, 4), rng.normal(0.0, 1.0, 4)
        grow = (np.abs(e) >= low) & (np.abs(e) <= high) & ~(sat & (np.sign(e) == np.sign(out)))
        want = np.where(grow, integral + 0.01 * e, integral)
        integrate(integral, e, out, sat, 0.01, low, high, 4)
        assert np.array_equal(integral, want)
    assert codes == {OK, SATURATED}
    tau = np.array([1.0, np.nan, 0.0, 0.0])
    out = np.full(4, 7.0)
    assert clip(tau, limit, out, np.zeros(4, dtype=bool), 4) == BAD_TORQUE
    assert np.all(out == 7.0)   # nothing written
