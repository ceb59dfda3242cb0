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
Symbolic recursive Newton-Euler inverse dynamics over a kinematic tree.

The recursion of seed 001 §1.6 at the joint origins, in axis-aligned body
frames (:mod:`.bodies`): angular velocity and acceleration, the
acceleration matrix ``U`` (eq. 7.57) shared by the child origins and the
first moment, ``f = m a + U ms``, ``n = I dw + ms x a + w x (I w)`` (the
gyroscopic term in product form, seed 004 eq. 2.41), then the backward sum
of child wrenches. The graph drops every term that a zero or one makes
trivial. The result also holds the joint reaction wrenches (for the
bearing friction), the shared transforms (for the mass matrix) and the body
accelerations (for the payload point mass, :mod:`.sym_payload`).
"""

from dataclasses import dataclass

import numpy as np

from .spatial import (accel_matrix, cmatvec, const_vec, cross, gyroscopic, JointTransform,
                      umatvec, vadd, zeros)


@dataclass
class SymRne:
    """
    Nodes of one symbolic recursion.

    Attributes
    ----------
    tau : list of int
        Rigid-body joint torques (no armature, no friction).
    force, moment : list of list of int
        Reaction force and moment at each joint, body frame.
    transforms : list of JointTransform
        Joint transforms (shared with other kernels in the same graph).
    acc : list of list of int
        Linear acceleration of each body origin, gravity included, body frame.
    umat : list of list of list of int
        Acceleration matrix ``U`` of each body (rows), see :func:`.spatial.accel_matrix`.

    """

    tau: list
    force: list
    moment: list
    transforms: list
    acc: list
    umat: list


def joint_transforms(g, params, q):
    """
    Build the joint transforms of every body.

    Parameters
    ----------
    g : Graph
        The graph.
    params : DynParams
        Model data.
    q : list of int
        Joint coordinate nodes.

    Returns
    -------
    list of JointTransform
        One per body.

    """
    return [JointTransform(g, b, q[i]) for i, b in enumerate(params.bodies)]


def ext_wrench(g, params, f_ext):
    """
    Force and moment of an end-effector wrench in its body frame.

    Parameters
    ----------
    g : Graph
        The graph.
    params : DynParams
        Model data (frame of the wrench).
    f_ext : list of int
        Six nodes: force then moment, frame axes [N, N m].

    Returns
    -------
    tuple of list of int
        Force and moment about the body origin.

    """
    force = cmatvec(g, params.ext_rot, f_ext[:3])
    moment = vadd(g, cmatvec(g, params.ext_rot, f_ext[3:]),
                  cross(g, const_vec(g, params.ext_trans), force))
    return force, moment


def rne(g, params, q, qd, qdd, f_ext=None, gravity=True, transforms=None):
    """
    Symbolic rigid-body inverse dynamics with joint reactions.

    Parameters
    ----------
    g : Graph
        The graph.
    params : DynParams
        Model data.
    q, qd, qdd : list of int
        Joint position, velocity and acceleration nodes (constants allowed).
    f_ext : list of int, optional
        End-effector wrench nodes (6), exerted by the robot.
    gravity : bool
        Include gravity (base acceleration ``-g``).
    transforms : list of JointTransform, optional
        Transforms to reuse.

    Returns
    -------
    SymRne
        Torques, reactions and transforms.

    """
    bodies = params.bodies
    n = len(bodies)
    tr = transforms or joint_transforms(g, params, q)
    base_acc = const_vec(g, -np.asarray(params.gravity) if gravity else np.zeros(3))
    w, dw, acc, umat = [None] * n, [None] * n, [None] * n, [None] * n
    force, moment = [None] * n, [None] * n
    for i, b in enumerate(bodies):
        t = tr[i]
        p = b.parent
        if p < 0:
            w_in, dw_in = zeros(g), zeros(g)
            acc_in = t.to_child(base_acc)
        else:
            w_in, dw_in = t.to_child(w[p]), t.to_child(dw[p])
            acc_in = t.to_child(vadd(g, acc[p], umatvec(g, umat[p], t.trans)))
        # w_in x (qd e_z) = qd (w_in_y, -w_in_x, 0)
        cor = [g.mul(qd[i], w_in[1]), g.neg(g.mul(qd[i], w_in[0])), g.zero]
        if b.prismatic:
            w[i], dw[i] = w_in, dw_in
            acc[i] = [g.add(acc_in[0], g.add(cor[0], cor[0])),
                      g.add(acc_in[1], g.add(cor[1], cor[1])), g.add(acc_in[2], qdd[i])]
        else:
            w[i] = [w_in[0], w_in[1], g.add(w_in[2], qd[i])]
            dw[i] = [g.add(dw_in[0], cor[0]), g.add(dw_in[1], cor[1]),
                     g.add(dw_in[2], qdd[i])]
            acc[i] = acc_in
        umat[i] = accel_matrix(g, w[i], dw[i])
        ms = const_vec(g, b.first_moment)
        force[i] = vadd(g, [g.mul(g.const(b.mass), x) for x in acc[i]],
                        umatvec(g, umat[i], ms))
        moment[i] = vadd(g, vadd(g, cmatvec(g, b.inertia, dw[i]), cross(g, ms, acc[i])),
                         gyroscopic(g, w[i], b.inertia))
    if f_ext is not None and params.ext_body >= 0:
        fe, me = ext_wrench(g, params, f_ext)
        force[params.ext_body] = vadd(g, force[params.ext_body], fe)
        moment[params.ext_body] = vadd(g, moment[params.ext_body], me)
    for i in range(n - 1, -1, -1):
        p = bodies[i].parent
        if p >= 0:
            f_par = tr[i].to_parent(force[i])
            force[p] = vadd(g, force[p], f_par)
            moment[p] = vadd(g, moment[p], vadd(g, tr[i].to_parent(moment[i]),
                                                cross(g, tr[i].trans, f_par)))
    tau = [force[i][2] if b.prismatic else moment[i][2] for i, b in enumerate(bodies)]
    return SymRne(tau, force, moment, tr, acc, umat)
