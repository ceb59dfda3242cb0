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


"""
Piecewise polynomials evaluated in one pass: the compiled core of the trajectories' sampling.

:func:`evaluate` gives per-joint polynomials on consecutive segments (a
trajectory's positions and the tables of their derivatives, put together
by :func:`stack`) at many times: for each time the segment by bisection
(the last break at or before it, as ``searchsorted(breaks, t,
side='right') - 1`` clipped to the segments), then per joint a Horner
scheme on each table. These are the operations of the NumPy form
(:class:`~.trajectory.PiecewisePolynomialTrajectory`) in the same order,
so both give the same bits, and no ``(N, n, d + 1)`` gather of
coefficients is made: the planner samples its motions tens of thousands of
times per plan. Compiled with numba when it is installed; :data:`COMPILED`
tells, and the callers keep the NumPy form otherwise.
"""

import os

import numpy as np

try:  # numba is optional: the NumPy form runs without it.
    if os.environ.get('ROBODYN_NO_NUMBA'):
        raise ImportError('disabled by ROBODYN_NO_NUMBA')
    import numba
except ImportError:  # pragma: no cover - depends on the installation
    numba = None

#: Whether :func:`evaluate` is compiled (else the callers use their NumPy form).
COMPILED = numba is not None


def _segment(breaks, t):
    """Give the index of the last break at or before t, within the segments."""
    lo, hi = 0, breaks.shape[0]
    while lo < hi:
        mid = (lo + hi) // 2
        if breaks[mid] <= t:
            lo = mid + 1
        else:
            hi = mid
    return min(max(lo - 1, 0), breaks.shape[0] - 2)


def _fill(breaks, tables, times, out):
    """Write every table's polynomials at the times into out (in place)."""
    count, _, n, terms = tables.shape
    for i in range(times.shape[0]):
        k = _segment(breaks, times[i])
        tau = times[i] - breaks[k]
        for m in range(count):
            for j in range(n):
                acc = 0.0
                for p in range(terms - 1, -1, -1):
                    acc = acc * tau + tables[m, k, j, p]
                out[m, i, j] = acc


if COMPILED:
    _jit = numba.njit(cache=True, nogil=True)
    _segment = _jit(_segment)
    _fill = _jit(_fill)


def stack(*tables):
    """
    Put coefficient tables on the same segments into one array for :func:`evaluate`.

    Parameters
    ----------
    *tables : numpy.ndarray
        Ascending coefficients, each (S, n, d_m + 1): e.g. a trajectory's
        positions and the tables of their first two derivatives.

    Returns
    -------
    numpy.ndarray
        (M, S, n, D + 1) float64, C-contiguous; shorter tables are padded
        with zero high-order coefficients (a Horner scheme through leading
        zeros gives the same bits).

    """
    terms = max(t.shape[2] for t in tables)
    out = np.zeros((len(tables),) + tables[0].shape[:2] + (terms,))
    for m, table in enumerate(tables):
        out[m, :, :, :table.shape[2]] = table
    return out


def evaluate(breaks, tables, times):
    """
    Piecewise polynomials on the same segments at many times.

    Parameters
    ----------
    breaks : numpy.ndarray
        Segment boundaries, (S + 1,) float64, increasing [s].
    tables : numpy.ndarray
        Coefficient tables from :func:`stack`, (M, S, n, D + 1).
    times : numpy.ndarray
        Times, (N,) float64 [s] (before the first segment or after the
        last, that segment's polynomial is extended).

    Returns
    -------
    numpy.ndarray
        (M, N, n): each table's values at the times.

    """
    times = np.ascontiguousarray(times, dtype=float)
    out = np.empty((tables.shape[0], times.shape[0], tables.shape[2]))
    _fill(breaks, tables, times, out)
    return out
