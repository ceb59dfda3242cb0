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
Design of the variable-structure self-tuner: the emulator and its filter bank (seed 003 App. C).

:func:`emulator_design` solves the Diophantine identity ``P C = E A + F``;
:func:`filter_bank` stacks the tuner's state-variable filters (``1 / C``,
``1 / (C Cs)``, ``1 / Cs``) into one augmented state whose sample update,
identification data, target and one-sample-ahead emulator data are fixed
matrices. Both run once, when a tuner is built; the per-sample arithmetic is
:mod:`.vsst_step`.
"""

from dataclasses import dataclass

import numpy as np

from .filters import StateVariableFilter


def emulator_design(a, b, p, c):
    """
    Solve ``P C = E A + F`` (``deg F < deg A``) and return ``(E B, F)``.

    Parameters
    ----------
    a, b, p, c : sequence of float
        Polynomials, highest power first.

    Returns
    -------
    tuple of numpy.ndarray
        ``(EB, F)`` coefficients, highest power first.

    """
    e, f = np.polydiv(np.polymul(p, c), a)
    f = np.asarray(f, dtype=float)
    f = np.concatenate([np.zeros(max(0, len(a) - 1 - f.size)), f])[-(len(a) - 1):]
    return np.polymul(e, b), f


@dataclass(frozen=True, eq=False)
class FilterBank:
    """
    The tuner's filters as one augmented state ``Z`` (per joint, a column).

    ``Z = [x_u; u; x_y; y; 1]``: ``x_u`` the states of ``1 / C`` and ``1 / (C
    Cs)`` driven by the held input ``u``, ``x_y`` those of ``1 / C``, ``1 / (C
    Cs)`` and ``1 / Cs`` driven by the angle ``y`` (linearly interpolated).

    Attributes
    ----------
    a, b : numpy.ndarray
        One sample: ``Z <- A Z + b y_new``, (size, size) and (size,).
    m_id : numpy.ndarray
        Identification data ``X / Cs = m_id Z``, (p, size).
    m_target : numpy.ndarray
        Its target ``(P / Cs) y = m_target . Z``, (size,).
    m_em : numpy.ndarray
        Emulator data one sample ahead with ``u = 0`` held, (p, size).
    unit : numpy.ndarray
        Change of the ``E B`` data per unit of held input, (ng,).
    dc_u, dc_y : numpy.ndarray
        Steady state of ``Z`` per unit input and per unit angle, (size,).
    iu, i1 : int
        Rows of ``u`` and of the constant 1 in ``Z``.

    """

    a: np.ndarray
    b: np.ndarray
    m_id: np.ndarray
    m_target: np.ndarray
    m_em: np.ndarray
    unit: np.ndarray
    dc_u: np.ndarray
    dc_y: np.ndarray
    iu: int
    i1: int

    @property
    def size(self):
        """Count the rows of ``Z`` (int)."""
        return self.a.shape[0]


def _stack(parts):
    """Block-diagonal discrete model of several filters; offsets of each."""
    size = sum(f.order for f in parts)
    phi = np.zeros((size, size))
    g0, g1 = np.zeros(size), np.zeros(size)
    offsets, o = [], 0
    for f in parts:
        k = f.order
        phi[o:o + k, o:o + k] = f.phi
        g0[o:o + k], g1[o:o + k] = f.g0, f.g1
        offsets.append(o)
        o += k
    return phi, g0, g1, offsets, size


def filter_bank(p, c, cs, period, ng, nf, offset):
    """
    Build the tuner's filter bank (see :class:`FilterBank`).

    Parameters
    ----------
    p, c, cs : numpy.ndarray
        Emulator, observer and realisability polynomials, highest power first.
    period : float
        Sample period [s].
    ng, nf : int
        Number of coefficients of ``E B`` and of ``F``.
    offset : bool
        Estimate an offset ``d`` (the constant row enters the data).

    Returns
    -------
    FilterBank
        The matrices.

    """
    filters = (StateVariableFilter(c, period), StateVariableFilter(np.polymul(c, cs), period),
               StateVariableFilter(cs, period))
    f_c, f_cc, f_cs = filters
    phi_u, g0_u, _, (ou_c, ou_cc), ku = _stack([f_c, f_cc])
    phi_y, g0_y, g1_y, (oy_c, oy_cc, oy_cs), ky = _stack([f_c, f_cc, f_cs])
    iu, iy, i1 = ku, ku + 1 + ky, ku + ky + 2     # rows of u, y and the constant in Z
    size = ku + ky + 3
    yo = ku + 1                                   # first row of x_y in Z

    def rows(f, first, input_row, count):
        # Map Z -> s^i x / F for i < count (x the filter's input).
        out = np.zeros((count, size))
        for i in range(count):
            if i < f.order:
                out[i, first + i] = 1.0
            else:
                out[i, first:first + f.order] = f.row
                out[i, input_row] = f.b_last
        return out

    # One sample: x_u <- Phi_u x_u + g0_u u (u held); x_y <- Phi_y x_y + g0_y y_old
    # + g1_y (y_new - y_old); y <- y_new; u and 1 unchanged.
    a = np.eye(size)
    a[:ku, :ku] = phi_u
    a[:ku, iu] = g0_u
    a[yo:yo + ky, yo:yo + ky] = phi_y
    a[yo:yo + ky, iy] = g0_y - g1_y
    a[iy, iy] = 0.0
    b = np.zeros(size)
    b[yo:yo + ky] = g1_y
    b[iy] = 1.0
    ident = [rows(f_cc, ou_cc, iu, ng), rows(f_cc, yo + oy_cc, iy, nf)]
    emul = [rows(f_c, ou_c, iu, ng), rows(f_c, yo + oy_c, iy, nf)]
    if offset:
        one = np.zeros((1, size))
        one[0, i1] = 1.0
        ident.append(one)
        emul.append(one)
    p_asc = p[::-1]
    m_target = p_asc @ rows(f_cs, yo + oy_cs, iy, p_asc.size)
    # Prediction one sample ahead with u = 0 held and y held: Z1 = P Z.
    pred = np.eye(size)
    pred[:ku, :ku] = phi_u
    pred[:ku, iu] = 0.0
    pred[iu, iu] = 0.0
    pred[yo:yo + ky, yo:yo + ky] = phi_y
    pred[yo:yo + ky, iy] = g0_y
    unit_z = np.zeros(size)
    unit_z[:ku] = g0_u
    unit_z[iu] = 1.0
    dc_u = np.zeros(size)
    dc_u[[ou_c, ou_cc]] = [1.0 / f_c.coefficients[-1], 1.0 / f_cc.coefficients[-1]]
    dc_y = np.zeros(size)
    dc_y[[yo + oy_c, yo + oy_cc, yo + oy_cs]] = [1.0 / f.coefficients[-1] for f in filters]
    dc_y[iy] = 1.0
    return FilterBank(a, b, np.vstack(ident), m_target, np.vstack(emul) @ pred,
                      np.vstack(emul[:1]) @ unit_z, dc_u, dc_y, iu, i1)
