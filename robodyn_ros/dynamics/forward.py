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
Forward dynamics, with rotor inertia and friction.

The O(n) articulated-body algorithm (seed 001 §7.6.2) and the solve with
the inertia matrix (§7.6.1).
"""

import numpy as np

from .inputs import state_array
from .mass_matrix import bias_forces, mass_matrix
from .rne import inverse_dynamics, joint_transforms
from .spatial import child_transform, cross_force, cross_motion, motion_subspace, spatial_inertias
from .tables import tables
from ..errors import InputError, RobodynError
from ..friction.models import velocity_friction


class ForwardDynamicsError(RobodynError):
    """The friction equations could not be solved for the acceleration."""


def articulated_body(model, q, qd, tau, gravity=True):
    """
    Accelerations of the rigid-body model (with rotor inertia) by the ABA.

    Parameters
    ----------
    model : RobotModel
        The model.
    q, qd, tau : numpy.ndarray
        Validated (N, n) arrays [rad, rad/s, N m].
    gravity : bool
        Include gravity.

    Returns
    -------
    numpy.ndarray
        Accelerations, (N, n) [rad/s^2 or m/s^2].

    """
    tab = tables(model)
    count, n = q.shape
    rot, pos = joint_transforms(tab, q)
    x = child_transform(rot, pos)
    xt = np.swapaxes(x, -1, -2)
    s = motion_subspace(tab)
    ia = np.broadcast_to(spatial_inertias(tab), (count, n, 6, 6)).copy()
    v = np.zeros((count, n, 6))
    c = np.zeros((count, n, 6))
    pa = np.zeros((count, n, 6))
    for i in range(n):
        vj = np.outer(qd[:, i], s[i])
        par = tab.parent[i]
        v[:, i] = vj if par < 0 else np.einsum('nij,nj->ni', x[:, i], v[:, par]) + vj
        c[:, i] = np.einsum('nij,nj->ni', cross_motion(v[:, i]), vj)
        iv = np.einsum('nij,nj->ni', ia[:, i], v[:, i])
        pa[:, i] = np.einsum('nij,nj->ni', cross_force(v[:, i]), iv)
    u_vec = np.zeros((count, n, 6))
    d = np.zeros((count, n))
    u = np.zeros((count, n))
    for i in range(n - 1, -1, -1):
        u_vec[:, i] = ia[:, i] @ s[i]
        d[:, i] = u_vec[:, i] @ s[i] + tab.armature[i]
        u[:, i] = tau[:, i] - pa[:, i] @ s[i]
        par = tab.parent[i]
        if par >= 0:
            ua = u_vec[:, i] / d[:, i, None]
            i_art = ia[:, i] - np.einsum('ni,nj->nij', u_vec[:, i], ua)
            p_art = (pa[:, i] + np.einsum('nij,nj->ni', i_art, c[:, i])
                     + u_vec[:, i] * (u[:, i] / d[:, i])[:, None])
            ia[:, par] += xt[:, i] @ i_art @ x[:, i]
            pa[:, par] += np.einsum('nij,nj->ni', xt[:, i], p_art)
    base = np.zeros(6)
    if gravity:
        base[3:] = -tab.gravity
    acc = np.zeros((count, n, 6))
    qdd = np.zeros((count, n))
    for i in range(n):
        par = tab.parent[i]
        a_par = np.broadcast_to(base, (count, 6)) if par < 0 else acc[:, par]
        a = np.einsum('nij,nj->ni', x[:, i], a_par) + c[:, i]
        qdd[:, i] = (u[:, i] - np.einsum('ni,ni->n', u_vec[:, i], a)) / d[:, i]
        acc[:, i] = a + np.outer(qdd[:, i], s[i])
    return qdd


def _solve_with_load_friction(model, q, qd, tau, qdd0, tol=1e-14, accept=1e-12, max_iter=60):
    """
    Damped Newton on ``inverse_dynamics(q, qd, qdd) = tau`` (load-dependent friction).

    Stops when the largest residual is below ``tol`` times ``max(1, |tau|)``,
    or below ``accept`` times that when no step lowers it any more (round-off).
    """
    out = qdd0.copy()
    n = model.n
    for k in range(q.shape[0]):
        x = qdd0[k].copy()
        scale = max(1.0, float(np.max(np.abs(tau[k]))))

        def resid(v):
            return inverse_dynamics(model, q[k], qd[k], v) - tau[k]

        r = resid(x)
        for _ in range(max_iter):
            err = float(np.max(np.abs(r)))
            if err <= tol * scale:
                break
            h = 1e-7 * max(1.0, float(np.max(np.abs(x))))
            jac = np.array([(resid(x + h * e) - r) / h for e in np.eye(n)]).T
            try:
                step = np.linalg.solve(jac, r)
            except np.linalg.LinAlgError:
                step = np.linalg.lstsq(jac, r, rcond=None)[0]
            t = 1.0
            while t > 1e-4:
                trial = x - t * step
                r_trial = resid(trial)
                if np.max(np.abs(r_trial)) < err:
                    break
                t *= 0.5
            else:
                if err <= accept * scale:   # round-off: no step lowers the residual
                    break
            x, r = trial, r_trial
        if not float(np.max(np.abs(r))) <= accept * scale:
            raise ForwardDynamicsError(
                f'friction equations did not converge for state {k} (residual '
                f'{np.max(np.abs(r)):.3g} N m)')
        out[k] = x
    return out


def forward_dynamics(model, q, qd, tau, *, method='aba', friction=True, gravity=True):
    """
    Joint accelerations produced by given joint torques.

    Solves ``inverse_dynamics(q, qd, qdd) = tau`` for ``qdd``: rigid body with
    rotor inertia by the articulated-body algorithm (``method='aba'``) or by
    ``M(q) qdd = tau - h(q, qd)`` (``method='crba'``). Velocity friction is
    subtracted from ``tau``; load-dependent friction (bearings,
    transmissions), which depends on the acceleration through the joint
    reactions, is solved by Newton iterations started from the frictionless
    answer.

    Parameters
    ----------
    model : RobotModel
        The model.
    q, qd : array_like
        Positions and velocities, (n,) or (N, n) [rad, rad/s or m, m/s].
    tau : array_like
        Joint torques, same shape [N m or N].
    method : {'aba', 'crba'}
        Algorithm for the rigid-body part.
    friction : bool
        Include the joint friction.
    gravity : bool
        Include gravity.

    Returns
    -------
    numpy.ndarray
        Accelerations, same shape as ``q`` [rad/s^2 or m/s^2].

    Raises
    ------
    InputError
        On wrong shapes, non-finite values or an unknown method.
    ForwardDynamicsError
        If the load-dependent friction equations do not converge.

    """
    if method not in ('aba', 'crba'):
        raise InputError('method', f"must be 'aba' or 'crba', got {method!r}")
    qa = state_array(q, model.n, 'q')
    qda = state_array(qd, model.n, 'qd', qa.shape)
    taua = state_array(tau, model.n, 'tau', qa.shape)
    single = qa.ndim == 1
    q2, qd2, tau2 = (np.atleast_2d(v) for v in (qa, qda, taua))
    tab = tables(model)
    effective = tau2 - velocity_friction(tab, qd2) if friction else tau2
    if method == 'aba':
        qdd = articulated_body(model, q2, qd2, effective, gravity=gravity)
    else:
        h = bias_forces(model, q2, qd2, friction=False) if gravity else inverse_dynamics(
            model, q2, qd2, np.zeros_like(q2), friction=False, gravity=False)
        m = mass_matrix(model, q2)
        qdd = np.linalg.solve(m, (effective - h)[..., None])[..., 0]
    if friction and tab.has_load_friction:
        if not gravity:
            raise InputError('gravity', 'load-dependent friction needs gravity=True')
        qdd = _solve_with_load_friction(model, q2, qd2, tau2, qdd)
    return qdd[0] if single else qdd
