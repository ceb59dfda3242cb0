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
Coriolis matrix in Christoffel form, so that ``dM/dt - 2 C`` is skew-symmetric.

Built from the bodies' spatial quantities in world coordinates as
``C = sum_i J_i^T (I_i dJ_i/dt + B(I_i, v_i) J_i)`` with
``B(I, v) = (v x* I - I v x + (I v) xbar) / 2``, the factorisation whose
entries equal the Christoffel sums ``C_ij = sum_k c_ijk qd_k`` (seed 001 eq.
7.7).
"""

import numpy as np

from .inputs import state_array
from .rne import joint_transforms
from .spatial import cross_force, cross_motion, motion_subspace, skew_batch, spatial_inertias
from .tables import tables


def _bar(f):
    """Matrices of ``v -> v x* f`` for force vectors f, (..., 6, 6)."""
    out = np.zeros(f.shape[:-1] + (6, 6))
    n_hat = skew_batch(f[..., :3])
    f_hat = skew_batch(f[..., 3:])
    out[..., :3, :3] = -n_hat
    out[..., :3, 3:] = -f_hat
    out[..., 3:, :3] = -f_hat
    return out


def coriolis_matrix(model, q, qd):
    """
    Coriolis and centrifugal matrix ``C(q, qd)`` (Christoffel form).

    ``C(q, qd) qd`` is the velocity-product torque of :func:`bias_forces`
    without gravity and friction.

    Parameters
    ----------
    model : RobotModel
        The model.
    q, qd : array_like
        Positions and velocities, (n,) or (N, n).

    Returns
    -------
    numpy.ndarray
        (n, n) or (N, n, n) [N m s/rad].

    """
    qa = state_array(q, model.n, 'q')
    qda = state_array(qd, model.n, 'qd', qa.shape)
    single = qa.ndim == 1
    q2, qd2 = np.atleast_2d(qa), np.atleast_2d(qda)
    tab = tables(model)
    count, n = q2.shape
    rot_rel, pos_rel = joint_transforms(tab, q2)
    s_body = motion_subspace(tab)
    inertia_body = spatial_inertias(tab)
    # World poses and world-coordinate transforms 0X_i (body motion -> world).
    rot = np.zeros((count, n, 3, 3))
    pos = np.zeros((count, n, 3))
    for i in range(n):
        par = tab.parent[i]
        if par < 0:
            rot[:, i], pos[:, i] = rot_rel[:, i], pos_rel[:, i]
        else:
            rot[:, i] = rot[:, par] @ rot_rel[:, i]
            pos[:, i] = pos[:, par] + np.einsum('nij,nj->ni', rot[:, par], pos_rel[:, i])
    x0 = np.zeros((count, n, 6, 6))
    x0[..., :3, :3] = rot
    x0[..., 3:, 3:] = rot
    x0[..., 3:, :3] = skew_batch(pos) @ rot
    s_world = np.einsum('knij,nj->kni', x0, s_body)
    v_world = np.zeros((count, n, 6))
    for i in range(n):
        par = tab.parent[i]
        v_world[:, i] = s_world[:, i] * qd2[:, i, None]
        if par >= 0:
            v_world[:, i] += v_world[:, par]
    s_dot = np.einsum('knij,knj->kni', cross_motion(v_world), s_world)
    # World inertia: 0X_i^-T I_i 0X_i^-1.
    x0_inv = np.linalg.inv(x0)
    inertia_world = np.swapaxes(x0_inv, -1, -2) @ inertia_body @ x0_inv
    c = np.zeros((count, n, n))
    support = []
    for i in range(n):
        path, j = [], i
        while j >= 0:
            path.append(j)
            j = tab.parent[j]
        support.append(path[::-1])
    for i in range(n):
        cols = support[i]
        jac = s_world[:, cols]            # (count, k, 6)
        jac_dot = s_dot[:, cols]
        inert = inertia_world[:, i]
        v = v_world[:, i]
        b = 0.5 * (cross_force(v) @ inert - inert @ cross_motion(v)
                   + _bar(np.einsum('nij,nj->ni', inert, v)))
        inner = (np.einsum('nij,nkj->nik', inert, jac_dot)
                 + np.einsum('nij,nkj->nik', b, jac))   # (count, 6, k)
        block = np.einsum('nkj,njl->nkl', jac, inner)   # (count, k, k)
        c[:, np.ix_(cols, cols)[0], np.ix_(cols, cols)[1]] += block
    return c[0] if single else c
