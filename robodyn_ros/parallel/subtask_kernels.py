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
The subtasks of seed 004's modified Newton-Euler algorithm as small functions.

T1-T3 the angular velocity, T4-T6 the angular acceleration, T7-T11 the
acceleration matrix ``lambda = S(dw) + S(w)^2``, T12-T19 the origin's
acceleration, T20-T26 the centre-of-mass acceleration and force, T27-T29
the moment, T30-T43 the backward recursion, in the model's body frames at
the joint origins (seed 004 Table 2.4), for any joint axis, prismatic
joints and branching trees. Each works on a batch of states (arrays of N
states) held in a :class:`Store`.
"""

import numpy as np

from .subtasks import label
from ..dynamics.rne import joint_transforms
from ..dynamics.tables import tables


class Store:
    """
    Arrays of one run: every intermediate of every body, (N, ...) each.

    Parameters
    ----------
    tab : DynamicsTables
        Model arrays.
    q, qd, qdd : numpy.ndarray
        States, (N, n).

    """

    def __init__(self, tab, q, qd, qdd):
        count, n = q.shape
        self.q, self.qd, self.qdd = q, qd, qdd
        self.rot, self.pos = joint_transforms(tab, q)
        shape3 = (n, count, 3)
        for name in ('win', 'w', 'c', 'dwin', 'dw', 'k', 'sq', 'a1', 'a2', 'a', 'ac1', 'ac',
                     'F', 'N', 'f', 'n2', 'n', 'fc', 'n1', 'n3'):
            setattr(self, name, np.zeros(shape3))
        self.lam = np.zeros((n, count, 3, 3))
        self.zero3 = np.zeros((count, 3))
        self.zero33 = np.zeros((count, 3, 3))
        self.base_acc = np.broadcast_to(-tab.gravity, (count, 3))


def _dot_rows(mat_rows, vec):
    # (N, 3) . (N, 3) -> (N,)
    return np.einsum('nj,nj->n', mat_rows, vec)


def subtask_function(model, children, lab):
    """
    Return the function of one subtask of the modified Newton-Euler algorithm.

    Parameters
    ----------
    model : RobotModel
        The robot.
    children : sequence of sequence of int
        Children of each body.
    lab : str
        Task code (``'201'``, ``'230.8'``).

    Returns
    -------
    callable
        ``f(store)`` computing the subtask's outputs into a :class:`Store`.

    """
    base = lab.split('.')[0]
    i, step = int(base[:-2]) - 1, int(base[-2:])
    child = -1
    for c in children[i]:
        if lab == label(i, step, c, children[i][0]):
            child = c
    tab, joint = tables(model), model.joints[i]
    axis = tab.axis[i]
    prismatic = bool(tab.prismatic[i])
    p = joint.parent
    inertial = model.inertials[i]
    mass, com, inertia = tab.mass[i], inertial.com, inertial.inertia

    def parent(st, name):
        if p >= 0:
            return getattr(st, name)[p]
        if name == 'a':
            return st.base_acc
        return st.zero33 if name == 'lam' else st.zero3

    def omega_in(j):
        def f(st):
            st.win[i][:, j] = _dot_rows(st.rot[:, i, :, j], parent(st, 'w'))
        return f

    def alpha_in(j):
        def f(st):
            st.dwin[i][:, j] = _dot_rows(st.rot[:, i, :, j], parent(st, 'dw'))
        return f

    def t3(st):
        omega_in(2)(st)
        win = st.win[i]
        rate = np.outer(st.qd[:, i], axis)
        if prismatic:
            st.w[i][:] = win
            st.c[i][:] = np.outer(st.qdd[:, i], axis) + 2.0 * np.cross(win, rate)
        else:
            st.w[i][:] = win + rate
            st.c[i][:] = np.cross(win, rate) + np.outer(st.qdd[:, i], axis)

    def t6(st):
        alpha_in(2)(st)
        st.dw[i][:] = st.dwin[i] if prismatic else st.dwin[i] + st.c[i]

    def t7(st):
        w = st.w[i]
        st.k[i][:] = np.stack([w[:, 1] * w[:, 2], w[:, 2] * w[:, 0], w[:, 0] * w[:, 1]], -1)

    def t8(st):
        st.sq[i][:] = st.w[i] ** 2

    def t9(st):
        sq, lam = st.sq[i], st.lam[i]
        lam[:, 0, 0] = -(sq[:, 1] + sq[:, 2])
        lam[:, 1, 1] = -(sq[:, 0] + sq[:, 2])
        lam[:, 2, 2] = -(sq[:, 0] + sq[:, 1])

    def t10(st):
        k, dw, lam = st.k[i], st.dw[i], st.lam[i]
        lam[:, 1, 0] = k[:, 2] + dw[:, 2]
        lam[:, 0, 2] = k[:, 1] + dw[:, 1]
        lam[:, 2, 1] = k[:, 0] + dw[:, 0]

    def t11(st):
        k, dw, lam = st.k[i], st.dw[i], st.lam[i]
        lam[:, 1, 2] = k[:, 0] - dw[:, 0]
        lam[:, 2, 0] = k[:, 1] - dw[:, 1]
        lam[:, 0, 1] = k[:, 2] - dw[:, 2]

    def lam_p(j):
        def f(st):
            st.a1[i][:, j] = _dot_rows(parent(st, 'lam')[:, j, :], st.pos[:, i])
        return f

    def acc_sum(j):
        def f(st):
            st.a2[i][:, j] = parent(st, 'a')[:, j] + st.a1[i][:, j]
        return f

    def acc_rot(cols):
        def f(st):
            for j in cols:
                st.a[i][:, j] = _dot_rows(st.rot[:, i, :, j], st.a2[i])
                if prismatic:
                    st.a[i][:, j] += st.c[i][:, j]
        return f

    def lam_s(j):
        def f(st):
            st.ac1[i][:, j] = st.lam[i][:, j, :] @ com
        return f

    def acc_com(j):
        def f(st):
            st.ac[i][:, j] = st.a[i][:, j] + st.ac1[i][:, j]
        return f

    def t26(st):
        st.F[i][:] = mass * st.ac[i]

    def moment(j):
        def f(st):
            w, dw = st.w[i], st.dw[i]
            iw = w @ inertia.T
            st.N[i][:, j] = dw @ inertia[j] + np.cross(w, iw)[:, j]
        return f

    def force_child(cols):
        def f(st):
            for j in cols:
                st.fc[child][:, j] = _dot_rows(st.rot[:, child, j, :], st.f[child])
        return f

    def t32(st):
        st.f[i][:] = st.F[i] + sum((st.fc[c] for c in children[i]), st.zero3)

    def arm_child(j):
        def f(st):
            st.n1[child][:, j] = np.cross(st.pos[:, child], st.fc[child])[:, j]
        return f

    def arm_com(j):
        def f(st):
            st.n2[i][:, j] = np.cross(com, st.F[i])[:, j]
        return f

    def moment_child(cols):
        def f(st):
            for j in cols:
                st.n3[child][:, j] = _dot_rows(st.rot[:, child, j, :], st.n[child])
        return f

    def moment_sum(j):
        def f(st):
            total = st.N[i][:, j] + st.n2[i][:, j]
            for c in children[i]:
                total = total + st.n1[c][:, j] + st.n3[c][:, j]
            st.n[i][:, j] = total
        return f

    table = {1: omega_in(0), 2: omega_in(1), 3: t3, 4: alpha_in(0), 5: alpha_in(1), 6: t6,
             7: t7, 8: t8, 9: t9, 10: t10, 11: t11, 12: lam_p(0), 13: lam_p(1),
             14: lam_p(2), 15: acc_sum(0), 16: acc_sum(1), 17: acc_sum(2),
             18: acc_rot((0,)), 19: acc_rot((1, 2)), 20: lam_s(0), 21: lam_s(1),
             22: lam_s(2), 23: acc_com(0), 24: acc_com(1), 25: acc_com(2), 26: t26,
             27: moment(0), 28: moment(1), 29: moment(2), 30: force_child((0,)),
             31: force_child((1, 2)), 32: t32, 33: arm_child(0), 34: arm_child(1),
             35: arm_child(2), 36: arm_com(0), 37: arm_com(1), 38: arm_com(2),
             39: moment_child((0,)), 40: moment_child((1, 2)), 41: moment_sum(0),
             42: moment_sum(1), 43: moment_sum(2)}
    return table[step]
