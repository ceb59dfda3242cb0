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
One link's share of the Newton-Euler recursion, for a batch of states or samples.

The functions implement the equations of :mod:`.linkframes` for link ``i``
on arrays whose first axis is a batch (states, or the samples of a
trajectory). They are written element by element (no BLAS, no ``einsum``),
so that a result does not depend on the batch size: one sample computed by a
worker thread and the same sample inside a vectorised run agree to the bit.
"""

import numpy as np


def cross(a, b):
    """
    Cross products, (N, 3) x (N, 3) or with one side (3,).

    Parameters
    ----------
    a, b : numpy.ndarray
        Vectors.

    Returns
    -------
    numpy.ndarray
        ``a x b``, (N, 3).

    """
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    return np.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], -1)


def mat_vec(m, v):
    """
    Return ``m v`` for batches of 3x3 matrices.

    Parameters
    ----------
    m : numpy.ndarray
        Matrices, (N, 3, 3).
    v : numpy.ndarray
        Vectors, (N, 3) or (3,).

    Returns
    -------
    numpy.ndarray
        (N, 3).

    """
    return m[..., :, 0] * v[..., 0, None] + m[..., :, 1] * v[..., 1, None] + (
        m[..., :, 2] * v[..., 2, None])


def mat_t_vec(m, v):
    """
    Return ``m^T v`` for batches of 3x3 matrices.

    Parameters
    ----------
    m : numpy.ndarray
        Matrices, (N, 3, 3).
    v : numpy.ndarray
        Vectors, (N, 3).

    Returns
    -------
    numpy.ndarray
        (N, 3).

    """
    return m[..., 0, :] * v[..., 0, None] + m[..., 1, :] * v[..., 1, None] + (
        m[..., 2, :] * v[..., 2, None])


def const_mat_vec(m, v):
    """
    Return ``m v`` for one constant 3x3 matrix and a batch of vectors.

    Parameters
    ----------
    m : numpy.ndarray
        Matrix, (3, 3).
    v : numpy.ndarray
        Vectors, (N, 3).

    Returns
    -------
    numpy.ndarray
        (N, 3).

    """
    return m[:, 0] * v[..., 0, None] + m[:, 1] * v[..., 1, None] + m[:, 2] * v[..., 2, None]


def acc_matrix(w, dw):
    """
    Return the acceleration matrix ``L = S(dw) + S(w)^2`` (seed 004 eq. 2.27).

    Parameters
    ----------
    w, dw : numpy.ndarray
        Angular velocity and acceleration, (N, 3) [rad/s, rad/s^2].

    Returns
    -------
    numpy.ndarray
        (N, 3, 3), ``L r = dw x r + w x (w x r)``.

    """
    x, y, z = w[..., 0], w[..., 1], w[..., 2]
    ax, ay, az = dw[..., 0], dw[..., 1], dw[..., 2]
    xx, yy, zz = x * x, y * y, z * z
    kx, ky, kz = y * z, z * x, x * y
    rows = [np.stack([-(yy + zz), kz - az, ky + ay], -1),
            np.stack([kz + az, -(xx + zz), kx - ax], -1),
            np.stack([ky - ay, kx + ax, -(xx + yy)], -1)]
    return np.stack(rows, -2)


def forward(frames, i, rot, r_in, r_out, qd, qdd, parent):
    """
    Link i's forward step from its parent's motion.

    Parameters
    ----------
    frames : LinkFrames
        Link data.
    i : int
        Link index.
    rot : numpy.ndarray
        Frame i in the parent frame, (N, 3, 3).
    r_in, r_out : numpy.ndarray
        Joint point offsets, (N, 3) [m].
    qd, qdd : numpy.ndarray
        Joint i's velocity and acceleration, (N,).
    parent : tuple
        ``(w, dw, a, L)`` of the parent (or of the base), as used by link i.

    Returns
    -------
    tuple of numpy.ndarray
        ``(w, dw, a, L)`` of link i: (N, 3), (N, 3), (N, 3), (N, 3, 3).

    """
    w_p, dw_p, a_p, lam_p = parent
    z = frames.axis[i]
    w_in = mat_t_vec(rot, w_p)
    dw_in = mat_t_vec(rot, dw_p)
    rate = qd[:, None] * z
    if frames.prismatic[i]:
        w, dw = w_in, dw_in
    else:
        w = w_in + rate
        dw = dw_in + qdd[:, None] * z + cross(w_in, rate)
    lam = acc_matrix(w, dw)
    a = mat_t_vec(rot, a_p + mat_vec(lam_p, r_in))
    if frames.prismatic[i]:
        a = a + qdd[:, None] * z + 2.0 * cross(w, rate)
    return w, dw, a + mat_vec(lam, r_out), lam


def wrench(frames, i, w, dw, a, lam):
    """
    Force and moment (about the centre of mass) that link i needs.

    Parameters
    ----------
    frames : LinkFrames
        Link data.
    i : int
        Link index.
    w, dw, a, lam : numpy.ndarray
        Link i's motion from :func:`forward`.

    Returns
    -------
    tuple of numpy.ndarray
        ``F`` [N] and ``N`` [N m], (N, 3) each.

    """
    force = frames.mass[i] * (a + mat_vec(lam, frames.com[i]))
    inertia = frames.inertia[i]
    moment = const_mat_vec(inertia, dw) + cross(w, const_mat_vec(inertia, w))
    return force, moment


def backward(frames, i, force, moment, r_out, children):
    """
    Link i's backward step from its children's reactions.

    Parameters
    ----------
    frames : LinkFrames
        Link data.
    i : int
        Link index.
    force, moment : numpy.ndarray
        From :func:`wrench`, (N, 3).
    r_out : numpy.ndarray
        Link i's joint point to frame origin, (N, 3) [m].
    children : sequence of tuple
        ``(rot_c, r_in_c, f_c, n_c)`` of each child as used by link i.

    Returns
    -------
    tuple of numpy.ndarray
        ``f`` [N] and ``n`` [N m] (about the joint point ``J_i``), (N, 3) each.

    """
    f = force
    n = moment + cross(r_out + frames.com[i], force)
    for rot_c, r_in_c, f_c, n_c in children:
        f_in = mat_vec(rot_c, f_c)
        f = f + f_in
        n = n + mat_vec(rot_c, n_c) + cross(r_out + r_in_c, f_in)
    return f, n


def joint_torque(frames, i, f, n):
    """
    Return joint i's torque from its reaction.

    Parameters
    ----------
    frames : LinkFrames
        Link data.
    i : int
        Link index.
    f, n : numpy.ndarray
        Reaction force and moment, (N, 3).

    Returns
    -------
    numpy.ndarray
        (N,) [N m or N].

    """
    z = frames.axis[i]
    v = f if frames.prismatic[i] else n
    return v[:, 0] * z[0] + v[:, 1] * z[1] + v[:, 2] * z[2]


def base_motion(frames, count):
    """
    Motion of the base: at rest, accelerating with ``-g`` (gravity as base acceleration).

    Parameters
    ----------
    frames : LinkFrames
        Link data.
    count : int
        Batch size.

    Returns
    -------
    tuple of numpy.ndarray
        ``(w, dw, a, L)`` of the base.

    """
    zero = np.zeros((count, 3))
    return zero, zero, np.tile(-frames.gravity, (count, 1)), np.zeros((count, 3, 3))
