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
Symbolic 3-vectors and joint transforms on a :class:`~.expr.Graph`.

A vector is a list of three nodes; constant vectors and matrices are plain
numpy arrays and are turned into nodes only where they meet a variable, so
their zeros and ones vanish. A joint transform ``C Rz(q)`` (revolute) or
``C`` plus a translation ``t + q C e_z`` (prismatic) is applied in two
stages, constant part and joint rotation, which costs 4 multiplications and
2 additions for ``Rz`` plus whatever the constant ``C`` needs (nothing for a
signed permutation, 4 and 2 for ``Rx(alpha)``).
"""

import numpy as np


def const_vec(g, values):
    """Return constant nodes for a numeric 3-vector (list of int)."""
    return [g.const(v) for v in np.asarray(values, float)]


def zeros(g):
    """Return the zero vector (list of int)."""
    return [g.zero, g.zero, g.zero]


def vadd(g, a, b):
    """Return ``a + b`` for node vectors."""
    return [g.add(x, y) for x, y in zip(a, b)]


def cross(g, a, b):
    """Return ``a x b`` for node vectors."""
    return [g.sub(g.mul(a[1], b[2]), g.mul(a[2], b[1])),
            g.sub(g.mul(a[2], b[0]), g.mul(a[0], b[2])),
            g.sub(g.mul(a[0], b[1]), g.mul(a[1], b[0]))]


def cmatvec(g, mat, v):
    """Return ``M v`` for a constant matrix and a node vector."""
    mat = np.asarray(mat, float)
    return [g.total(g.mul(g.const(mat[i, j]), v[j]) for j in range(3)) for i in range(3)]


class JointTransform:
    """
    The transform from a body frame to its parent's, ``(C Rz(q), t)``.

    Parameters
    ----------
    g : Graph
        The graph.
    body : Body
        Body data (constant part ``rot``, ``trans``, joint kind).
    q : int
        Node of the joint coordinate.

    """

    def __init__(self, g, body, q):
        self.g = g
        self.rot = np.asarray(body.rot, float)
        self.prismatic = body.prismatic
        if self.prismatic:
            self.s = self.c = None
            axis = self.rot[:, 2]
            self.trans = [g.add(g.const(t), g.mul(g.const(a), q))
                          for t, a in zip(body.trans, axis)]
        else:
            self.s, self.c = g.sin(q), g.cos(q)
            self.trans = const_vec(g, body.trans)

    def to_child(self, v):
        """Return ``(C Rz)^T v``: parent coordinates to this body's."""
        g = self.g
        w = cmatvec(g, self.rot.T, v)
        if self.prismatic:
            return w
        s, c = self.s, self.c
        return [g.add(g.mul(c, w[0]), g.mul(s, w[1])),
                g.sub(g.mul(c, w[1]), g.mul(s, w[0])), w[2]]

    def to_parent(self, v):
        """Return ``C Rz v``: this body's coordinates to the parent's."""
        g = self.g
        if not self.prismatic:
            s, c = self.s, self.c
            v = [g.sub(g.mul(c, v[0]), g.mul(s, v[1])),
                 g.add(g.mul(s, v[0]), g.mul(c, v[1])), v[2]]
        return cmatvec(g, self.rot, v)


def accel_matrix(g, w, dw):
    """
    Return ``U = skew(dw) + skew(w)^2`` (seed 001 eq. 7.57) as rows of nodes.

    ``U r`` is the acceleration of a point ``r`` relative to the frame
    origin; the squares and products of ``w`` are shared with the
    gyroscopic term (:func:`gyroscopic`).
    """
    wx, wy, wz = w
    sq = [g.mul(x, x) for x in w]
    xy, xz, yz = g.mul(wx, wy), g.mul(wx, wz), g.mul(wy, wz)
    return [[g.neg(g.add(sq[1], sq[2])), g.sub(xy, dw[2]), g.add(xz, dw[1])],
            [g.add(xy, dw[2]), g.neg(g.add(sq[0], sq[2])), g.sub(yz, dw[0])],
            [g.sub(xz, dw[1]), g.add(yz, dw[0]), g.neg(g.add(sq[0], sq[1]))]]


def umatvec(g, u, r):
    """Return ``U r`` for node rows ``u`` and a node vector ``r``."""
    return [g.dot(row, r) for row in u]


def gyroscopic(g, w, inertia):
    """
    Return ``w x (I w)`` for a constant symmetric ``I``, in product form.

    Written with the products ``w_x w_y, ...`` and squares that ``U`` also
    uses (seed 004 eq. 2.41), so a diagonal ``I`` costs three products.
    """
    i = np.asarray(inertia, float)
    wx, wy, wz = w
    xy, xz, yz = g.mul(wx, wy), g.mul(wx, wz), g.mul(wy, wz)
    sq = [g.mul(x, x) for x in w]

    def c(v):
        return g.const(v)

    def lin(*pairs):
        return g.total(g.mul(c(k), x) for k, x in pairs)

    return [lin((i[2, 2] - i[1, 1], yz), (i[1, 2], g.sub(sq[1], sq[2])),
                (i[0, 2], xy), (-i[0, 1], xz)),
            lin((i[0, 0] - i[2, 2], xz), (i[0, 2], g.sub(sq[2], sq[0])),
                (i[0, 1], yz), (-i[1, 2], xy)),
            lin((i[1, 1] - i[0, 0], xy), (i[0, 1], g.sub(sq[0], sq[1])),
                (i[1, 2], xz), (-i[0, 2], yz))]
