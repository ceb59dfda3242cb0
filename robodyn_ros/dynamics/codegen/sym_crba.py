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
Symbolic mass matrix (composite rigid bodies) and forward dynamics.

Mass matrix: the composite-rigid-body algorithm, straight-line. Composite
inertias ``(m, h, I_O)`` are accumulated from the leaves to the root in
body frames; column ``i`` is the wrench ``F = I_c S_i`` carried up the
ancestors, ``M_ji = S_j . F``. It is O(n^2) with small constants and keeps
tree sparsity (Panda's fingers), where n RNE columns (Walker-Orin) would cost
n full recursions.

Forward dynamics: ``M qdd = tau - h(q, qd)`` with ``h`` the symbolic RNE at
``qdd = 0`` and the branch-sparse ``L^T D L`` factorization of
Featherstone (RBDA §6.5), also straight-line, with one division per joint.
For n <= 9 this costs about the same as a straight-line ABA and shares the
mass-matrix and RNE code, and a symmetric positive definite solve is as
accurate as ABA.
"""

import numpy as np

from .spatial import cmatvec, const_vec, cross, vadd


def _skew_sym_update(g, inertia, h, p, mass):
    """Return ``I - ([p][h] + [h][p]) - m [p]^2`` (moved reference point), symmetric."""
    ph = g.dot(p, h)
    pp = g.dot(p, p)
    diag_extra = g.add(g.add(ph, ph), g.mul(mass, pp))
    out = [[None] * 3 for _ in range(3)]
    for i in range(3):
        for j in range(i, 3):
            cross_term = g.add(g.mul(h[i], p[j]), g.mul(p[i], h[j]))
            mpp = g.mul(mass, g.mul(p[i], p[j]))
            v = g.sub(inertia[i][j], g.add(cross_term, mpp))
            if i == j:
                v = g.add(v, diag_extra)
            out[i][j] = out[j][i] = v
    return out


def _rotate_inertia(g, tr, inertia):
    """Return ``E I E^T`` for a joint transform ``E`` and a symmetric node matrix."""
    cols = [tr.to_parent([inertia[0][j], inertia[1][j], inertia[2][j]]) for j in range(3)]
    rows = [tr.to_parent([cols[j][i] for j in range(3)]) for i in range(3)]
    out = [[None] * 3 for _ in range(3)]
    for i in range(3):
        for j in range(i, 3):
            out[i][j] = out[j][i] = rows[i][j]
    return out


def mass_matrix(g, params, transforms):
    """
    Symbolic joint-space mass matrix (without armature).

    Parameters
    ----------
    g : Graph
        The graph.
    params : DynParams
        Model data.
    transforms : list of JointTransform
        Joint transforms of ``q``.

    Returns
    -------
    list of list of int
        ``M[i][j]`` nodes, symmetric [kg m^2, kg m or kg].

    """
    bodies = params.bodies
    n = len(bodies)
    mass = [g.const(b.mass) for b in bodies]
    h = [const_vec(g, b.first_moment) for b in bodies]
    inertia = [[[g.const(v) for v in row] for row in np.asarray(b.inertia, float)]
               for b in bodies]
    for k in range(n - 1, -1, -1):
        p = bodies[k].parent
        if p < 0:
            continue
        tr = transforms[k]
        hc = tr.to_parent(h[k])
        rot_i = _rotate_inertia(g, tr, inertia[k])
        moved = _skew_sym_update(g, rot_i, hc, tr.trans, mass[k])
        mass[p] = g.add(mass[p], mass[k])
        h[p] = vadd(g, h[p], vadd(g, hc, [g.mul(mass[k], x) for x in tr.trans]))
        inertia[p] = [[g.add(inertia[p][i][j], moved[i][j]) for j in range(3)]
                      for i in range(3)]
    out = [[g.zero] * n for _ in range(n)]
    for i, b in enumerate(bodies):
        if b.prismatic:
            f = [g.zero, g.zero, mass[i]]
            m = cross(g, h[i], [g.zero, g.zero, g.one])
        else:
            f = [g.neg(h[i][1]), h[i][0], g.zero]
            m = [inertia[i][0][2], inertia[i][1][2], inertia[i][2][2]]
        out[i][i] = f[2] if b.prismatic else m[2]
        j = i
        while bodies[j].parent >= 0:
            tr = transforms[j]
            f = tr.to_parent(f)
            m = vadd(g, tr.to_parent(m), cross(g, tr.trans, f))
            j = bodies[j].parent
            out[i][j] = out[j][i] = f[2] if bodies[j].prismatic else m[2]
    return out


def ltdl_solve(g, params, mat, rhs):
    """
    Solve ``M x = rhs`` by the branch-sparse ``L^T D L`` factorization.

    Parameters
    ----------
    g : Graph
        The graph.
    params : DynParams
        Model data (parent indices).
    mat : list of list of int
        Symmetric positive definite matrix nodes (not modified).
    rhs : list of int
        Right-hand side nodes.

    Returns
    -------
    list of int
        Solution nodes.

    """
    par = [b.parent for b in params.bodies]
    n = len(par)
    hmat = [list(row) for row in mat]
    inv_d = [None] * n
    for k in range(n - 1, -1, -1):
        inv_d[k] = g.div(g.one, hmat[k][k])
        i = par[k]
        while i >= 0:
            a = g.mul(hmat[k][i], inv_d[k])
            j = i
            while j >= 0:
                hmat[i][j] = g.sub(hmat[i][j], g.mul(hmat[k][j], a))
                j = par[j]
            hmat[k][i] = a
            i = par[i]
    x = list(rhs)
    for i in range(n - 1, -1, -1):
        j = par[i]
        while j >= 0:
            x[j] = g.sub(x[j], g.mul(hmat[i][j], x[i]))
            j = par[j]
    x = [g.mul(x[i], inv_d[i]) for i in range(n)]
    for i in range(n):
        j = par[i]
        while j >= 0:
            x[i] = g.sub(x[i], g.mul(hmat[i][j], x[j]))
            j = par[j]
    return x


def with_armature(g, params, mat):
    """Return ``M + diag(armature)`` (nodes)."""
    out = [list(row) for row in mat]
    for i, b in enumerate(params.bodies):
        out[i][i] = g.add(out[i][i], g.const(b.armature))
    return out


def cmat(g, values):
    """Return constant nodes of a numeric matrix (list of lists)."""
    return [[g.const(v) for v in row] for row in np.asarray(values, float)]


__all__ = ['cmat', 'cmatvec', 'ltdl_solve', 'mass_matrix', 'with_armature']
