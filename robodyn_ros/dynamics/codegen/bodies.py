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
Constant data of a model for the code generator, in axis-aligned body frames.

Each body is re-expressed in a frame whose z axis is its joint axis: the
frame of ``tables(model).basis[i]`` (rows ``u, w, axis``), so ``A_i =
basis_i^T`` maps these coordinates to the model's body frame. Then every
joint is a rotation about (or a translation along) z, a joint transform is
``C_i Rz(q_i)`` with a constant ``C_i = A_parent^T R_i A_i``, and the reaction
wrench needed by the bearing friction is already in the bearing frame. For
axis-aligned models (DH, most URDFs) ``A_i`` and ``C_i`` are signed
permutations or ``Rx(alpha)``, so zeros and ones survive the change.
"""

from dataclasses import dataclass, replace

import numpy as np

from ..tables import tables


@dataclass(frozen=True, eq=False)
class Body:
    """
    One body for the generator, in its axis-aligned frame.

    Attributes
    ----------
    prismatic : bool
        Prismatic joint (else revolute or continuous).
    parent : int
        Parent body index, -1 for the root.
    rot : numpy.ndarray
        ``C``: constant part of the rotation from this frame to the parent's, (3, 3).
    trans : numpy.ndarray
        Joint origin in the parent frame at q = 0, (3,) [m].
    mass : float
        Mass [kg].
    first_moment : numpy.ndarray
        ``m c`` about the body origin, (3,) [kg m].
    inertia : numpy.ndarray
        Inertia about the body origin, (3, 3) [kg m^2].
    armature : float
        Rotor inertia on the joint side [kg m^2 or kg].

    """

    prismatic: bool
    parent: int
    rot: np.ndarray
    trans: np.ndarray
    mass: float
    first_moment: np.ndarray
    inertia: np.ndarray
    armature: float

    def with_inertial(self, mass, first_moment, inertia):
        """
        Return a copy with other inertial parameters.

        Parameters
        ----------
        mass : float
            Mass [kg].
        first_moment : array_like
            ``m c`` [kg m], (3,).
        inertia : array_like
            Inertia about the origin [kg m^2], (3, 3).

        Returns
        -------
        Body
            The copy.

        """
        return replace(self, mass=float(mass), first_moment=np.array(first_moment, float),
                       inertia=np.array(inertia, float))


@dataclass(frozen=True, eq=False)
class FramePlacement:
    """
    A frame of the model placed in its body's axis-aligned frame.

    Attributes
    ----------
    name : str
        Frame name.
    body : int
        Body the frame is fixed to (-1: the root, which does not move).
    rot : numpy.ndarray
        Frame axes to the body's axis-aligned axes, (3, 3).
    trans : numpy.ndarray
        Frame origin in the body's axis-aligned frame, (3,) [m].

    """

    name: str
    body: int
    rot: np.ndarray
    trans: np.ndarray


def place_frame(model, frames, name):
    """
    Place a named frame of a model in its body's axis-aligned frame.

    Parameters
    ----------
    model : RobotModel
        The model.
    frames : numpy.ndarray
        ``A_i`` per body, (n, 3, 3) (see :class:`DynParams`).
    name : str
        Frame name.

    Returns
    -------
    FramePlacement
        The placement (root frames keep their root coordinates).

    """
    frame = model.frame(name)
    if frame.body >= 0:
        a = frames[frame.body]
        return FramePlacement(name, frame.body, a.T @ frame.rotation, a.T @ frame.translation)
    return FramePlacement(name, frame.body, np.array(frame.rotation, float),
                          np.array(frame.translation, float))


@dataclass(frozen=True, eq=False)
class DynParams:
    """
    All constant data the generator needs.

    Attributes
    ----------
    bodies : tuple of Body
        One per joint, tree order.
    gravity : numpy.ndarray
        Gravity in the root frame [m/s^2], (3,).
    ext_body : int
        Body of the end-effector frame (-1: the root).
    ext_rot, ext_trans : numpy.ndarray
        End-effector frame in the body's axis-aligned frame, (3, 3) and (3,) [m].
    frames : numpy.ndarray
        ``A_i`` per body, (n, 3, 3): axis-aligned to model body coordinates.
    payload : FramePlacement
        Frame of the run-time payload (a point mass) of the payload kernels.

    """

    bodies: tuple
    gravity: np.ndarray
    ext_body: int
    ext_rot: np.ndarray
    ext_trans: np.ndarray
    frames: np.ndarray
    payload: 'FramePlacement' = None

    @property
    def n(self):
        """Return the number of joints (int)."""
        return len(self.bodies)

    def with_bodies(self, bodies):
        """
        Return a copy with other bodies (same kinematics).

        Parameters
        ----------
        bodies : sequence of Body
            Replacement bodies.

        Returns
        -------
        DynParams
            The copy.

        """
        return replace(self, bodies=tuple(bodies))


def dyn_params(model, ext_frame=None, payload_frame=None):
    """
    Gather the generator's data of a model.

    Parameters
    ----------
    model : RobotModel
        The model.
    ext_frame : str, optional
        Frame of the external wrench; default ``model.end_effector``.
    payload_frame : str, optional
        Frame of the payload point mass; default ``model.end_effector``.

    Returns
    -------
    DynParams
        The data, in axis-aligned body frames.

    """
    tab = tables(model)
    frames = np.array([b.T for b in tab.basis]).reshape(tab.n, 3, 3)
    bodies = []
    for i in range(tab.n):
        a = frames[i]
        par = int(tab.parent[i])
        ap = frames[par] if par >= 0 else np.eye(3)
        bodies.append(Body(
            prismatic=bool(tab.prismatic[i]), parent=par,
            rot=ap.T @ tab.rotation[i] @ a, trans=ap.T @ tab.translation[i],
            mass=float(tab.mass[i]), first_moment=a.T @ tab.first_moment[i],
            inertia=a.T @ tab.inertia_origin[i] @ a, armature=float(tab.armature[i])))
    ext = place_frame(model, frames, ext_frame or model.end_effector)
    payload = place_frame(model, frames, payload_frame or model.end_effector)
    return DynParams(tuple(bodies), np.array(model.gravity, float), ext.body, ext.rot,
                     ext.trans, frames, payload)
