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

"""Polynomial tools: composition, derivatives, exact extrema, Hermite quintics."""

import numpy as np
import pytest
from robodyn_ros.planning.polynomials import (compose_affine, derivative, extrema,
                                              hermite_quintic, max_abs, pad, polyval)

P = np.polynomial.polynomial


def test_compose_affine_and_derivative_match_numpy():
    """p(a + b x) and p' agree with numpy's polynomial module."""
    rng = np.random.default_rng(0)
    for _ in range(20):
        c = rng.normal(size=rng.integers(1, 7))
        a, b = rng.normal(size=2)
        x = rng.uniform(-2, 2, 11)
        assert np.allclose(P.polyval(x, compose_affine(c, a, b)), P.polyval(a + b * x, c))
        assert np.allclose(P.polyval(x, derivative(c)), P.polyval(x, P.polyder(c)))
        assert np.allclose(polyval(c, x), P.polyval(x, c))
    assert pad([[1.0, 2.0]], 4).tolist() == [[1.0, 2.0, 0.0, 0.0]]


def test_exact_extrema_bound_a_fine_grid():
    """Exact max |p| and min/max of p never fall below a fine grid, and match it closely."""
    rng = np.random.default_rng(1)
    coeffs = rng.normal(size=(300, 6))
    coeffs[:20, -1] = 0.0          # degenerate leading terms
    coeffs[20:30, -2:] = 0.0
    lengths = rng.uniform(0.05, 4.0, 300)
    peak, where = max_abs(coeffs, lengths)
    lo, at_lo, hi, at_hi = extrema(coeffs, lengths)
    u = np.linspace(0.0, 1.0, 20001)
    grid = np.array([P.polyval(u * lengths[k], coeffs[k]) for k in range(300)])
    assert np.all(peak >= np.abs(grid).max(axis=1) - 1e-9)
    assert np.all(hi >= grid.max(axis=1) - 1e-9) and np.all(lo <= grid.min(axis=1) + 1e-9)
    assert np.allclose(peak, np.abs(grid).max(axis=1), rtol=1e-5, atol=1e-9)
    assert np.allclose(np.abs([P.polyval(w, c) for w, c in zip(where, coeffs)]), peak)
    assert np.allclose([P.polyval(w, c) for w, c in zip(at_hi, coeffs)], hi)
    assert np.all((where >= 0.0) & (where <= lengths + 1e-12))


def test_hermite_quintic_matches_end_states():
    """The Hermite quintic has the given position, velocity, acceleration at both ends."""
    rng = np.random.default_rng(2)
    p0, v0, a0, p1, v1, a1 = rng.normal(size=(6, 4))
    h = 0.7
    c = hermite_quintic(p0, v0, a0, p1, v1, a1, h)
    d1, d2 = derivative(c), derivative(derivative(c))
    for x, (p, v, a) in ((0.0, (p0, v0, a0)), (h, (p1, v1, a1))):
        assert np.allclose(polyval(c, x), p) and np.allclose(polyval(d1, x), v)
        assert np.allclose(polyval(d2, x), a)


def test_hermite_quintic_rejects_nothing_silently():
    """A zero-length piece gives non-finite coefficients rather than a wrong polynomial."""
    with np.errstate(divide='ignore', invalid='ignore'):
        c = hermite_quintic(0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0)
    assert not np.all(np.isfinite(c))
    with pytest.raises(ValueError):
        hermite_quintic([0.0, 1.0], 0.0, 0.0, [1.0, 2.0, 3.0], 0.0, 0.0, 1.0)
