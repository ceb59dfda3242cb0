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
Small polynomial tools for the planners (ascending coefficients, numpy only).

Coefficient arrays hold ``c[0] + c[1] x + ... + c[d] x^d`` along their last
axis; leading axes are batches.
"""

from math import comb

import numpy as np


def compose_affine(coeffs, offset, scale=1.0):
    """
    Coefficients of ``p(offset + scale * x)``.

    Parameters
    ----------
    coeffs : array_like
        Ascending coefficients, (..., d + 1).
    offset, scale : float or array_like
        The affine map of the argument (arrays broadcast against
        ``coeffs[..., 0]``).

    Returns
    -------
    numpy.ndarray
        Ascending coefficients of the composed polynomial, same shape.

    """
    c = np.asarray(coeffs, dtype=float)
    d = c.shape[-1] - 1
    out = np.zeros_like(c)
    for k in range(d + 1):
        for i in range(k + 1):
            out[..., i] += c[..., k] * comb(k, i) * offset ** (k - i) * scale ** i
    return out


def derivative(coeffs):
    """
    Coefficients of the derivative.

    Parameters
    ----------
    coeffs : array_like
        Ascending coefficients, (..., d + 1).

    Returns
    -------
    numpy.ndarray
        (..., max(d, 1)) coefficients of ``p'``.

    """
    c = np.asarray(coeffs, dtype=float)
    if c.shape[-1] == 1:
        return np.zeros_like(c)
    return c[..., 1:] * np.arange(1, c.shape[-1])


def pad(coeffs, size):
    """
    Pad coefficients with zeros up to ``size`` terms.

    Parameters
    ----------
    coeffs : array_like
        Ascending coefficients, (..., k).
    size : int
        Wanted count of terms (>= k).

    Returns
    -------
    numpy.ndarray
        (..., size).

    """
    c = np.asarray(coeffs, dtype=float)
    width = [(0, 0)] * (c.ndim - 1) + [(0, size - c.shape[-1])]
    return np.pad(c, width)


def polyval(coeffs, x):
    """
    Evaluate batched polynomials at matching points (Horner).

    Parameters
    ----------
    coeffs : numpy.ndarray
        (..., d + 1).
    x : numpy.ndarray
        Points broadcastable against ``coeffs[..., 0]``.

    Returns
    -------
    numpy.ndarray
        Values.

    """
    out = np.zeros(np.broadcast(coeffs[..., 0], x).shape)
    for k in range(coeffs.shape[-1] - 1, -1, -1):
        out = out * x + coeffs[..., k]
    return out


def _candidates(coeffs, lengths):
    """Normalised coefficients and the candidate extremum points ``u`` in [0, 1]."""
    c = np.atleast_2d(np.asarray(coeffs, dtype=float))
    lengths = np.broadcast_to(np.asarray(lengths, dtype=float), (c.shape[0],))
    k_count, terms = c.shape
    # Work in normalised u = x / length in [0, 1] for conditioning.
    cn = c * lengths[:, None] ** np.arange(terms)
    cand = [np.zeros(k_count), np.ones(k_count)]
    dn = derivative(cn)
    m = dn.shape[1] - 1
    if m >= 1:
        # Effective degree of each derivative (trailing coefficients negligible against
        # the largest one), then one batched companion eigenproblem per degree.
        scale = np.maximum(np.max(np.abs(dn), axis=1), 1e-300)
        big = np.abs(dn) > 1e-9 * scale[:, None]
        degree = np.where(big.any(axis=1), dn.shape[1] - 1 - np.argmax(big[:, ::-1], axis=1), 0)
        roots = np.full((k_count, m), np.nan)
        for e in np.unique(degree):
            if e < 1:
                continue
            rows = np.flatnonzero(degree == e)
            g = dn[rows, :e + 1]
            comp = np.zeros((rows.size, e, e))
            if e > 1:
                comp[:, 1:, :-1] = np.eye(e - 1)
            comp[:, :, -1] = -g[:, :-1] / g[:, -1:]
            eig = np.linalg.eigvals(comp)
            real = np.abs(eig.imag) <= 1e-9 * np.maximum(1.0, np.abs(eig.real))
            roots[rows, :e] = np.where(real, eig.real, np.nan)
        inside = (roots > 0.0) & (roots < 1.0)
        cand.extend(np.where(inside[:, i], roots[:, i], 0.0) for i in range(m))
    return cn, np.stack(cand, axis=1), lengths


def max_abs(coeffs, lengths):
    """
    Exact maximum of ``|p(x)|`` over ``0 <= x <= length`` for many polynomials.

    The candidates are both ends and the real roots of ``p'`` inside the
    interval (eigenvalues of the companion matrices, batched by the
    effective degree of ``p'``).

    Parameters
    ----------
    coeffs : array_like
        Ascending coefficients, (K, d + 1).
    lengths : array_like
        Interval lengths, (K,) (>= 0).

    Returns
    -------
    tuple of numpy.ndarray
        ``(peak, where)``: max |p| (K,) and the argument where it occurs (K,).

    """
    cn, u, lengths = _candidates(coeffs, lengths)
    values = np.abs(polyval(cn[:, None, :], u))
    best = np.argmax(values, axis=1)
    rows = np.arange(cn.shape[0])
    return values[rows, best], u[rows, best] * lengths


def extrema(coeffs, lengths):
    """
    Exact minimum and maximum of ``p(x)`` over ``0 <= x <= length``.

    Parameters
    ----------
    coeffs : array_like
        Ascending coefficients, (K, d + 1).
    lengths : array_like
        Interval lengths, (K,) (>= 0).

    Returns
    -------
    tuple of numpy.ndarray
        ``(low, where_low, high, where_high)``, each (K,).

    """
    cn, u, lengths = _candidates(coeffs, lengths)
    values = polyval(cn[:, None, :], u)
    rows = np.arange(cn.shape[0])
    lo = np.argmin(values, axis=1)
    hi = np.argmax(values, axis=1)
    return (values[rows, lo], u[rows, lo] * lengths, values[rows, hi],
            u[rows, hi] * lengths)


def hermite_quintic(p0, v0, a0, p1, v1, a1, h):
    """
    Quintic matching position, velocity and acceleration at both ends.

    Parameters
    ----------
    p0, v0, a0 : array_like
        State at the start [rad, rad/s, rad/s^2 or m, m/s, m/s^2].
    p1, v1, a1 : array_like
        State at the end (same units).
    h : float or array_like
        Length of the piece [s] (> 0).

    Returns
    -------
    numpy.ndarray
        Ascending coefficients in the time since the start, (..., 6).

    """
    p0, v0, a0, p1, v1, a1, h = np.broadcast_arrays(
        *(np.asarray(x, dtype=float) for x in (p0, v0, a0, p1, v1, a1, h)))
    dp = p1 - p0
    vv0, vv1, aa0, aa1 = v0 * h, v1 * h, a0 * h * h, a1 * h * h
    c3 = 10.0 * dp - 6.0 * vv0 - 4.0 * vv1 - 1.5 * aa0 + 0.5 * aa1
    c4 = -15.0 * dp + 8.0 * vv0 + 7.0 * vv1 + 1.5 * aa0 - aa1
    c5 = 6.0 * dp - 3.0 * vv0 - 3.0 * vv1 - 0.5 * aa0 + 0.5 * aa1
    return np.stack([p0, v0, a0 / 2.0, c3 / h ** 3, c4 / h ** 4, c5 / h ** 5], axis=-1)
