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
Recursive Newton-Euler inverse dynamics in numpy (the readable reference).

Body-frame recursion at the joint origins (Luh-Walker-Paul, written linear in
the standard inertial parameters as in seed 001 §7.4), over any kinematic
tree, for one state ``(n,)`` or a batch ``(N, n)``. Gravity enters as the base
acceleration ``-g``. The backward recursion also returns the joint reaction
wrenches that the load-dependent friction of seed 004 needs.
"""

from dataclasses import dataclass

import numpy as np

from .inputs import state_batches
from .tables import tables
from ..errors import InputError
from ..friction.models import load_friction, velocity_friction


@dataclass(frozen=True, eq=False)
class RneResult:
    """
    Output of the rigid-body recursion.

    Attributes
    ----------
    tau : numpy.ndarray
        Rigid-body joint torque (no armature, no friction), (N, n).
    force : numpy.ndarray
        Force on each body from its parent at the joint, body frame, (N, n, 3) [N].
    moment : numpy.ndarray
        Moment on each body from its parent about the joint origin, body
        frame, (N, n, 3) [N m].

    """

    tau: np.ndarray
    force: np.ndarray
    moment: np.ndarray


def cross(a, b):
    """
    Cross products of batches of 3-vectors (a faster ``numpy.cross``).

    Parameters
    ----------
    a, b : numpy.ndarray
        Vectors, (..., 3), broadcastable.

    Returns
    -------
    numpy.ndarray
        ``a x b``, (..., 3).

    """
    out = np.empty(np.broadcast_shapes(a.shape, b.shape))
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    out[..., 0] = a1 * b2 - a2 * b1
    out[..., 1] = a2 * b0 - a0 * b2
    out[..., 2] = a0 * b1 - a1 * b0
    return out


def rotation_about(axis, angle):
    """
    Rotation matrices about a fixed unit axis for a batch of angles.

    Parameters
    ----------
    axis : numpy.ndarray
        Unit axis, (3,).
    angle : numpy.ndarray
        Angles, (N,) [rad].

    Returns
    -------
    numpy.ndarray
        Rotations, (N, 3, 3).

    """
    x, y, z = axis
    k = np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])
    s = np.sin(angle)[:, None, None]
    c = np.cos(angle)[:, None, None]
    return np.eye(3) + s * k + (1.0 - c) * (k @ k)


def joint_transforms(tab, q):
    """
    Poses of each body frame in its parent body frame.

    Parameters
    ----------
    tab : DynamicsTables
        Model arrays.
    q : numpy.ndarray
        Joint coordinates, (N, n).

    Returns
    -------
    tuple of numpy.ndarray
        Rotations (N, n, 3, 3) and origins (N, n, 3) [m].

    """
    count = q.shape[0]
    rot = np.empty((count, tab.n, 3, 3))
    pos = np.empty((count, tab.n, 3))
    for i in range(tab.n):
        if tab.prismatic[i]:
            rot[:, i] = tab.rotation[i]
            pos[:, i] = tab.translation[i] + np.outer(q[:, i], tab.rotation[i] @ tab.axis[i])
        else:
            rot[:, i] = tab.rotation[i] @ rotation_about(tab.axis[i], q[:, i])
            pos[:, i] = tab.translation[i]
    return rot, pos


def external_wrench(model, f_ext, ext_frame, count):
    """
    Turn an end-effector wrench into a body-frame force and moment.

    Parameters
    ----------
    model : RobotModel
        The model.
    f_ext : array_like
        Wrench exerted by the robot on the environment, ``[fx, fy, fz, mx,
        my, mz]`` in the frame's axes, moment about the frame origin, (6,) or
        (N, 6) [N, N m].
    ext_frame : str or None
        Frame where it acts; default ``model.end_effector``.
    count : int
        Batch size N.

    Returns
    -------
    tuple
        ``(body index, force (N, 3), moment (N, 3))`` in the body frame.

    """
    frame = model.frame(ext_frame or model.end_effector)
    w = np.asarray(f_ext, dtype=float)
    if w.shape == (6,):
        w = np.broadcast_to(w, (count, 6))
    if w.shape != (count, 6):
        raise InputError('f_ext', f'expected shape (6,) or ({count}, 6), got {w.shape}')
    if not np.all(np.isfinite(w)):
        raise InputError('f_ext', 'must be finite')
    force = w[:, :3] @ frame.rotation.T
    moment = w[:, 3:] @ frame.rotation.T + cross(frame.translation, force)
    return frame.body, force, moment


@dataclass(frozen=True, eq=False)
class MotionPass:
    """
    Forward recursion of the RNE: poses and body motion at the joint origins.

    Attributes
    ----------
    rot, pos : numpy.ndarray
        Pose of each body in its parent body frame, (N, n, 3, 3) and (N, n, 3).
    w, dw : numpy.ndarray
        Angular velocity and acceleration in the body frame, (N, n, 3).
    acc : numpy.ndarray
        Linear acceleration of the body origin in the body frame, gravity
        included as base acceleration, (N, n, 3).

    """

    rot: np.ndarray
    pos: np.ndarray
    w: np.ndarray
    dw: np.ndarray
    acc: np.ndarray


def motion_pass(tab, q, qd, qdd, gravity=True):
    """
    Run the forward recursion of the RNE.

    Parameters
    ----------
    tab : DynamicsTables
        Model arrays.
    q, qd, qdd : numpy.ndarray
        States, (N, n).
    gravity : bool
        Include gravity as the base acceleration ``-g``.

    Returns
    -------
    MotionPass
        Poses, velocities and accelerations of every body.

    """
    count, n = q.shape
    rot, pos = joint_transforms(tab, q)
    w = np.zeros((count, n, 3))
    dw = np.zeros((count, n, 3))
    acc = np.zeros((count, n, 3))
    base_acc = -tab.gravity if gravity else np.zeros(3)
    for i in range(n):
        par = tab.parent[i]
        r, p = rot[:, i], pos[:, i]
        axis = tab.axis[i]
        if par < 0:
            w_in = np.zeros((count, 3))
            dw_in = np.zeros((count, 3))
            acc_in = np.einsum('nji,j->ni', r, base_acc)
        else:
            w_p, dw_p = w[:, par], dw[:, par]
            w_in = np.einsum('nji,nj->ni', r, w_p)
            dw_in = np.einsum('nji,nj->ni', r, dw_p)
            a_p = acc[:, par] + cross(dw_p, p) + cross(w_p, cross(w_p, p))
            acc_in = np.einsum('nji,nj->ni', r, a_p)
        rate = np.outer(qd[:, i], axis)
        if tab.prismatic[i]:
            w[:, i] = w_in
            dw[:, i] = dw_in
            acc[:, i] = acc_in + np.outer(qdd[:, i], axis) + 2.0 * cross(w_in, rate)
        else:
            w[:, i] = w_in + rate
            dw[:, i] = dw_in + np.outer(qdd[:, i], axis) + cross(w_in, rate)
            acc[:, i] = acc_in
    return MotionPass(rot, pos, w, dw, acc)


def rne(model, q, qd, qdd, *, f_ext=None, ext_frame=None, gravity=True):
    """
    Rigid-body recursion with joint reactions (no armature, no friction).

    Parameters
    ----------
    model : RobotModel
        The model.
    q, qd, qdd : numpy.ndarray
        Positions, velocities, accelerations, (N, n) (already validated).
    f_ext : array_like, optional
        End-effector wrench, see :func:`external_wrench`.
    ext_frame : str, optional
        Frame of ``f_ext``.
    gravity : bool
        Include gravity.

    Returns
    -------
    RneResult
        Torques and reaction wrenches.

    """
    tab = tables(model)
    count, n = q.shape
    mp = motion_pass(tab, q, qd, qdd, gravity)
    rot, pos = mp.rot, mp.pos
    force = np.empty((count, n, 3))
    moment = np.empty((count, n, 3))
    for i in range(n):
        ms, inertia = tab.first_moment[i], tab.inertia_origin[i]
        wi, dwi, ai = mp.w[:, i], mp.dw[:, i], mp.acc[:, i]
        force[:, i] = (tab.mass[i] * ai + cross(dwi, ms) + cross(wi, cross(wi, ms)))
        moment[:, i] = (dwi @ inertia.T + cross(ms, ai) + cross(wi, wi @ inertia.T))
    if f_ext is not None:
        body, fe, me = external_wrench(model, f_ext, ext_frame, count)
        if body >= 0:
            force[:, body] += fe
            moment[:, body] += me
    for i in range(n - 1, -1, -1):
        par = tab.parent[i]
        if par >= 0:
            f_par = np.einsum('nij,nj->ni', rot[:, i], force[:, i])
            force[:, par] += f_par
            moment[:, par] += (np.einsum('nij,nj->ni', rot[:, i], moment[:, i])
                               + cross(pos[:, i], f_par))
    tau = np.where(tab.prismatic, np.einsum('nij,ij->ni', force, tab.axis),
                   np.einsum('nij,ij->ni', moment, tab.axis))
    return RneResult(tau, force, moment)


def inverse_dynamics(model, q, qd, qdd, *, f_ext=None, ext_frame=None, friction=True,
                     gravity=True):
    """
    Joint torques for given positions, velocities and accelerations.

    ``tau = T(tau_rigid + tau_bearing, qd) + Ia qdd + tau_friction(qd)``,
    see :mod:`robodyn_ros.friction.models`; with ``friction=False`` it is
    ``tau_rigid + Ia qdd``, which is what Pinocchio's ``rnea`` computes with
    the model's armature. This is the readable reference; for speed, call
    the robot's compiled kernels (:func:`robodyn_ros.dynamics.codegen.kernels`,
    same torques to 1e-12).

    Parameters
    ----------
    model : RobotModel
        The model.
    q : array_like
        Joint positions, (n,) or (N, n) [rad or m].
    qd : array_like
        Joint velocities, same shape [rad/s or m/s].
    qdd : array_like
        Joint accelerations, same shape [rad/s^2 or m/s^2].
    f_ext : array_like, optional
        Wrench the end effector exerts on the environment, (6,) or (N, 6):
        force [N] then moment about the frame origin [N m], in the frame's
        axes.
    ext_frame : str, optional
        Frame of ``f_ext``; default ``model.end_effector``.
    friction : bool
        Include every friction model of the joints.
    gravity : bool
        Include gravity.

    Returns
    -------
    numpy.ndarray
        Joint torques, same shape as ``q`` [N m or N].

    Raises
    ------
    InputError
        On a wrong shape or a non-finite value (never broadcast).

    """
    single, q2, qd2, qdd2 = state_batches(model, q, qd, qdd)
    if f_ext is not None and single:
        f_ext = np.asarray(f_ext, dtype=float)
        if f_ext.shape != (6,):
            raise InputError('f_ext', f'expected shape (6,), got {f_ext.shape}')
    tab = tables(model)
    res = rne(model, q2, qd2, qdd2, f_ext=f_ext, ext_frame=ext_frame, gravity=gravity)
    tau = res.tau
    if friction and tab.has_load_friction:
        tau = load_friction(tab, tau, qd2, res.force, res.moment)
    tau = tau + tab.armature * qdd2
    if friction and tab.has_velocity_friction:
        tau = tau + velocity_friction(tab, qd2)
    return tau[0] if single else tau


def joint_friction(model, q, qd, qdd):
    """
    Friction torques alone: every friction model of the joints, from one recursion.

    ``tau_friction(qd) + T(tau_rigid + tau_bearing, qd) - tau_rigid``: what
    :func:`inverse_dynamics` adds to the rigid body and the armature (the
    load-dependent part from the joint reactions at this state).

    Parameters
    ----------
    model : RobotModel
        The model.
    q, qd, qdd : array_like
        Positions, velocities, accelerations, (n,) or (N, n).

    Returns
    -------
    numpy.ndarray
        Friction torques, same shape as ``q`` [N m or N].

    Raises
    ------
    InputError
        On a wrong shape or a non-finite value.

    """
    single, q2, qd2, qdd2 = state_batches(model, q, qd, qdd)
    tab = tables(model)
    out = np.zeros_like(q2)
    if tab.has_load_friction:
        res = rne(model, q2, qd2, qdd2)
        out = load_friction(tab, res.tau, qd2, res.force, res.moment) - res.tau
    if tab.has_velocity_friction:
        out = out + velocity_friction(tab, qd2)
    return out[0] if single else out
