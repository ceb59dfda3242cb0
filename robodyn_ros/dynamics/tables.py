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
Arrays derived once per model for the numpy dynamics algorithms.

Every quantity is in the body frame of its joint: placements (rotation and
translation of the joint frame in the parent body frame), unit axes, mass
[kg], first moments ``m c`` [kg m], inertia about the body origin [kg m^2],
armature [kg m^2], and friction coefficients.
"""

from dataclasses import dataclass
import math

import numpy as np


@dataclass(frozen=True, eq=False)
class DynamicsTables:
    """
    Per-joint arrays of one model (n joints).

    Attributes
    ----------
    n : int
        Number of joints.
    parent : numpy.ndarray
        Parent body index, (n,), -1 for the root.
    children : tuple of tuple of int
        Child joints of each body.
    rotation, translation : numpy.ndarray
        Joint placement in the parent body frame, (n, 3, 3) and (n, 3) [m].
    axis : numpy.ndarray
        Unit joint axes in the body frame, (n, 3).
    prismatic : numpy.ndarray
        Prismatic flags, (n,) bool.
    mass : numpy.ndarray
        Body masses, (n,) [kg].
    first_moment : numpy.ndarray
        ``m c`` per body, (n, 3) [kg m].
    inertia_origin : numpy.ndarray
        Inertia about the body origin, (n, 3, 3) [kg m^2].
    armature : numpy.ndarray
        Link-side rotor inertia, (n,) [kg m^2 or kg].
    gravity : numpy.ndarray
        Gravity in the root frame, (3,) [m/s^2].
    coulomb_pos, coulomb_neg, viscous_pos, viscous_neg : numpy.ndarray
        Velocity-friction coefficients, (n,).
    stribeck_pos, stribeck_neg : numpy.ndarray
        ``Fs - Fc`` per direction, 0 without a Stribeck term, (n,).
    stribeck_velocity, smoothing_velocity : numpy.ndarray
        Velocity scales, (n,) [rad/s or m/s].
    bearing : tuple
        Per joint ``None`` or ``(kind, mu, radius, span)``.
    transmission : tuple
        Per joint ``None`` or ``(breakaway, rated_torque, load, efficiency)``.
    basis : numpy.ndarray
        Per joint an orthonormal basis ``(u, w, axis)`` as rows, (n, 3, 3),
        used to split reaction wrenches into radial and axial parts.

    """

    n: int
    parent: np.ndarray
    children: tuple
    rotation: np.ndarray
    translation: np.ndarray
    axis: np.ndarray
    prismatic: np.ndarray
    mass: np.ndarray
    first_moment: np.ndarray
    inertia_origin: np.ndarray
    armature: np.ndarray
    gravity: np.ndarray
    coulomb_pos: np.ndarray
    coulomb_neg: np.ndarray
    viscous_pos: np.ndarray
    viscous_neg: np.ndarray
    stribeck_pos: np.ndarray
    stribeck_neg: np.ndarray
    stribeck_velocity: np.ndarray
    smoothing_velocity: np.ndarray
    bearing: tuple
    transmission: tuple
    basis: np.ndarray

    @property
    def has_load_friction(self):
        """Whether any joint has bearing or transmission friction (bool)."""
        return any(b is not None for b in self.bearing) or any(
            t is not None for t in self.transmission)

    @property
    def has_velocity_friction(self):
        """Whether any velocity-friction coefficient is non-zero (bool)."""
        return bool(np.any(self.coulomb_pos) or np.any(self.coulomb_neg)
                    or np.any(self.viscous_pos) or np.any(self.viscous_neg)
                    or np.any(self.stribeck_pos) or np.any(self.stribeck_neg))


def _basis(axis):
    a = np.asarray(axis, dtype=float)
    helper = np.array([1.0, 0.0, 0.0]) if abs(a[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    if np.allclose(a, [0.0, 0.0, 1.0]):
        return np.eye(3)
    u = np.cross(helper, a)
    u /= np.linalg.norm(u)
    w = np.cross(a, u)
    return np.array([u, w, a])


def build_tables(model):
    """
    Build the arrays of a model (use :func:`tables` for the cached copy).

    Parameters
    ----------
    model : RobotModel
        The model.

    Returns
    -------
    DynamicsTables
        The arrays.

    """
    joints = model.joints
    n = len(joints)
    fr = [j.friction for j in joints]

    def arr(values):
        a = np.array(values, dtype=float)
        a.setflags(write=False)
        return a

    def stribeck(f, sign):
        if not f.has_stribeck:
            return 0.0
        return (f.static_pos - f.coulomb_pos) if sign > 0 else (f.static_neg - f.coulomb_neg)

    bearing = tuple(None if f.bearing is None else
                    (f.bearing.kind, f.bearing.mu, f.bearing.radius, f.bearing.span) for f in fr)
    transmission = tuple(None if f.transmission is None else
                         (f.transmission.breakaway, f.transmission.rated_torque,
                          np.array(f.transmission.load), np.array(f.transmission.efficiency))
                         for f in fr)
    return DynamicsTables(
        n=n,
        parent=np.array([j.parent for j in joints], dtype=int),
        children=model.children,
        rotation=arr([j.rotation for j in joints]).reshape(n, 3, 3),
        translation=arr([j.translation for j in joints]).reshape(n, 3),
        axis=arr([j.axis for j in joints]).reshape(n, 3),
        prismatic=np.array([j.is_prismatic for j in joints], dtype=bool),
        mass=arr([b.mass for b in model.inertials]),
        first_moment=arr([b.first_moment for b in model.inertials]).reshape(n, 3),
        inertia_origin=arr([b.inertia_at_origin for b in model.inertials]).reshape(n, 3, 3),
        armature=arr([j.actuator.armature for j in joints]),
        gravity=arr(model.gravity),
        coulomb_pos=arr([f.coulomb_pos for f in fr]),
        coulomb_neg=arr([f.coulomb_neg for f in fr]),
        viscous_pos=arr([f.viscous_pos for f in fr]),
        viscous_neg=arr([f.viscous_neg for f in fr]),
        stribeck_pos=arr([stribeck(f, 1) for f in fr]),
        stribeck_neg=arr([stribeck(f, -1) for f in fr]),
        # Used only with static friction (Stribeck term); without it any positive value
        # gives a zero term: a zero or infinite one would give 0 * NaN at rest.
        stribeck_velocity=arr([f.stribeck_velocity if f.has_stribeck and math.isfinite(
            f.stribeck_velocity) and f.stribeck_velocity > 0.0 else 1.0 for f in fr]),
        smoothing_velocity=arr([f.smoothing_velocity for f in fr]),
        bearing=bearing,
        transmission=transmission,
        basis=arr([_basis(j.axis) for j in joints]).reshape(n, 3, 3),
    )


def tables(model):
    """
    Return the cached :class:`DynamicsTables` of a model.

    Parameters
    ----------
    model : RobotModel
        The model.

    Returns
    -------
    DynamicsTables
        The arrays, built once per model.

    """
    return model.derived('dynamics_tables', build_tables)
