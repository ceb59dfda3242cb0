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
Khalil's symbolic grouping of inertial parameters (seed 001 §1.8).

Used to count the customized inverse dynamics "with base parameters": the
grouped model gives the same joint torques as the standard one but has many
parameters equal to zero, so the generator drops their terms. The rules are
written for axis-aligned body frames (z along the joint axis, any constant
placement), which contain the modified-DH rules of the seed as a special
case:

* revolute joint j: the part ``(M_j, MZ_j e_z, YY_j diag(1, 1, 0))`` of body j
  does not change under the joint rotation; it is moved rigidly into the
  parent body (``XXR_j = XX_j - YY_j``, ``YY_j = MZ_j = M_j = 0``), or
  dropped when the parent is the fixed base;
* prismatic joint j: the inertia tensor acts as a pure couple of a body that
  does not rotate relative to its parent; it is added to the parent's
  (rotated) and set to zero;
* first joint revolute, on the base: only ``ZZ_1`` (and ``MX_1, MY_1`` when
  gravity is not along its axis) reach the torques; its rotor inertia
  joins ``ZZ_1``;
* second joint revolute, perpendicular to a first revolute joint on the
  base: its rotor inertia joins ``ZZ_2``.

Only the joint torques are preserved (not the reaction wrenches), so the
grouped parameters are for rigid-body counts and checks, not for the
bearing friction.
"""

import numpy as np


def _skew(v):
    x, y, z = v
    return np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])


def transfer(mass, h, inertia, rot, trans):
    """
    Express rigid inertial parameters given at a child origin in the parent frame.

    Parameters
    ----------
    mass : float
        Mass [kg].
    h : numpy.ndarray
        First moment about the child origin, child axes, (3,) [kg m].
    inertia : numpy.ndarray
        Inertia about the child origin, child axes, (3, 3) [kg m^2].
    rot : numpy.ndarray
        Child axes to parent axes, (3, 3).
    trans : numpy.ndarray
        Child origin in the parent frame, (3,) [m].

    Returns
    -------
    tuple
        ``(mass, first moment, inertia)`` about the parent origin, parent axes.

    """
    hc = rot @ h
    p = np.asarray(trans, float)
    sp, sh = _skew(p), _skew(hc)
    inertia_p = rot @ inertia @ rot.T - (sp @ sh + sh @ sp) - mass * (sp @ sp)
    return mass, hc + mass * p, inertia_p


def group_parameters(params):
    """
    Group the inertial parameters of a tree by Khalil's rules.

    Parameters
    ----------
    params : DynParams
        Standard parameters, axis-aligned body frames.

    Returns
    -------
    DynParams
        Grouped parameters (zero mass allowed); the joint torques of the
        rigid-body model with armature are unchanged.

    """
    bodies = list(params.bodies)
    mass = [b.mass for b in bodies]
    h = [np.array(b.first_moment, float) for b in bodies]
    inertia = [np.array(b.inertia, float) for b in bodies]
    armature = [b.armature for b in bodies]
    for j in range(len(bodies) - 1, -1, -1):
        b = bodies[j]
        p = b.parent
        if b.prismatic:
            moved = (0.0, np.zeros(3), inertia[j])
            inertia[j] = np.zeros((3, 3))
            if p >= 0:
                inertia[p] = inertia[p] + b.rot @ moved[2] @ b.rot.T
            continue
        yy = inertia[j][1, 1]
        part_i = np.diag([yy, yy, 0.0])
        part_h = np.array([0.0, 0.0, h[j][2]])
        part_m = mass[j]
        inertia[j] = inertia[j] - part_i
        h[j] = h[j] - part_h
        mass[j] = 0.0
        if p >= 0:
            m2, h2, i2 = transfer(part_m, part_h, part_i, b.rot, b.trans)
            mass[p] += m2
            h[p] = h[p] + h2
            inertia[p] = inertia[p] + i2
    root = [j for j, b in enumerate(bodies) if b.parent < 0 and not b.prismatic]
    for j in root:
        zz = inertia[j][2, 2] + armature[j]
        inertia[j] = np.diag([0.0, 0.0, zz])
        armature[j] = 0.0
        g_local = bodies[j].rot.T @ np.asarray(params.gravity, float)
        if g_local[0] == 0.0 and g_local[1] == 0.0:
            h[j] = np.zeros(3)
        for k, b in enumerate(bodies):
            if b.parent == j and not b.prismatic and b.rot[2, 2] == 0.0:
                inertia[k] = inertia[k] + np.diag([0.0, 0.0, armature[k]])
                armature[k] = 0.0
    out = [b.with_inertial(mass[j], h[j], inertia[j]) for j, b in enumerate(bodies)]
    out = [_with_armature(b, a) for b, a in zip(out, armature)]
    return params.with_bodies(out)


def _with_armature(body, armature):
    from dataclasses import replace
    return replace(body, armature=float(armature))
