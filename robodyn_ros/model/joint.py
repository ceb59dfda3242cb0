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
Joints and their limits, actuators and friction parameters.

Units: revolute and continuous joints use rad, rad/s, rad/s^2 and N m;
prismatic joints use m, m/s, m/s^2 and N. Friction and actuator values are
referred to the joint (link) side unless a name says otherwise.
"""

from dataclasses import dataclass, field, fields, replace
import math

import numpy as np

#: Joint kinds the model supports.
JOINT_KINDS = ('revolute', 'continuous', 'prismatic')


@dataclass(frozen=True)
class JointLimits:
    """
    Limits of one joint; ``inf`` where there is none.

    Attributes
    ----------
    lower, upper : float
        Position range [rad or m].
    velocity : float
        Speed limit [rad/s or m/s].
    acceleration : float
        Acceleration limit [rad/s^2 or m/s^2].
    effort : float
        Torque or force limit [N m or N].

    """

    lower: float = -math.inf
    upper: float = math.inf
    velocity: float = math.inf
    acceleration: float = math.inf
    effort: float = math.inf


@dataclass(frozen=True)
class Actuator:
    """
    Motor and transmission of one joint.

    Attributes
    ----------
    gear_ratio : float
        Motor speed over joint speed, ``N = qd_motor / qd`` (sign gives the
        direction; the magnitude is used for inertia).
    motor_inertia : float
        Rotor plus transmission inertia on the motor side, ``J_m`` [kg m^2].
    armature : float
        Link-side reflected inertia ``I_a = N^2 J_m`` [kg m^2 or kg]; it adds
        ``I_a qdd`` to the joint torque (seed 001 eq. 7.29).
    torque_constant : float
        Motor torque per ampere, ``K_t`` [N m/A]; NaN when unknown.
    current_limit : float
        Continuous current limit of the amplifier [A]; ``inf`` when unknown.

    """

    gear_ratio: float = 1.0
    motor_inertia: float = 0.0
    armature: float = 0.0
    torque_constant: float = math.nan
    current_limit: float = math.inf


@dataclass(frozen=True)
class BearingFriction:
    """
    Load-dependent bearing friction of seed 004 (Table 3.1).

    Attributes
    ----------
    mu : float
        Coefficient of friction [-].
    radius : float
        Journal or thrust radius [m] (unused for ``'linear'``).
    span : float
        Distance between the two support bearings, ``d`` [m].
    kind : str
        ``'journal'`` (eq. 3.3), ``'thrust'`` (eq. 3.5) or ``'linear'``
        (eq. 3.4, prismatic guides).

    """

    mu: float = 0.0
    radius: float = 0.0
    span: float = 0.0
    kind: str = 'journal'


@dataclass(frozen=True)
class TransmissionFriction:
    """
    Transmission losses of seed 004 (Table 3.2): efficiency curve and breakaway.

    Attributes
    ----------
    breakaway : float
        No-load (break-away) torque ``tau_B`` at the joint side [N m].
    rated_torque : float
        Output torque that the efficiency curve is normalised by [N m].
    load : tuple of float
        Points of ``tau_out / rated_torque`` where the efficiency is given.
    efficiency : tuple of float
        Efficiency ``eta`` in (0, 1] at those points; linear interpolation,
        constant beyond the ends.

    """

    breakaway: float = 0.0
    rated_torque: float = 1.0
    load: tuple = (0.0, 1.0)
    efficiency: tuple = (1.0, 1.0)


@dataclass(frozen=True)
class Friction:
    """
    Joint friction parameters for every model in the seeds.

    The velocity-dependent part is seed 001 eq. 7.26 with the asymmetric
    Coulomb and viscous terms of seed 003::

        tau_f = Fc(s) sgn(qd) + Fv(s) qd + (Fs(s) - Fc(s)) sgn(qd) exp(-|qd| / vs)

    where ``(s)`` selects the positive or negative value by the direction of
    motion and ``sgn`` is smoothed by ``tanh(qd / smoothing_velocity)``. The
    load-dependent part (seed 004) is given by ``bearing`` and
    ``transmission``.

    Attributes
    ----------
    coulomb_pos, coulomb_neg : float
        Coulomb level for positive and negative motion (both >= 0)
        [N m or N].
    viscous_pos, viscous_neg : float
        Viscous coefficient for positive and negative motion
        [N m s/rad or N s/m].
    static_pos, static_neg : float
        Static (breakaway) level of the Stribeck term; NaN disables the term
        [N m or N].
    stribeck_velocity : float
        Velocity scale ``vs`` of the Stribeck decay [rad/s or m/s].
    smoothing_velocity : float
        Width of the smooth zero-velocity band of ``sgn`` [rad/s or m/s];
        0 gives the discontinuous sign.
    bearing : BearingFriction or None
        Load-dependent bearing friction, seed 004.
    transmission : TransmissionFriction or None
        Efficiency and breakaway of the transmission, seed 004.

    """

    coulomb_pos: float = 0.0
    coulomb_neg: float = 0.0
    viscous_pos: float = 0.0
    viscous_neg: float = 0.0
    static_pos: float = math.nan
    static_neg: float = math.nan
    stribeck_velocity: float = 0.1
    smoothing_velocity: float = 1e-3
    bearing: BearingFriction = None
    transmission: TransmissionFriction = None

    @property
    def has_stribeck(self):
        """
        Tell whether the Stribeck term is active.

        Returns
        -------
        bool
            True when both static levels are set.

        """
        return not (math.isnan(self.static_pos) or math.isnan(self.static_neg))

    def is_zero(self):
        """
        Tell whether this joint has no friction at all.

        Returns
        -------
        bool
            True when every coefficient is zero and no load-dependent model is set.

        """
        return (self.coulomb_pos == 0.0 and self.coulomb_neg == 0.0
                and self.viscous_pos == 0.0 and self.viscous_neg == 0.0
                and not self.has_stribeck and self.bearing is None
                and self.transmission is None)


@dataclass(frozen=True)
class Mimic:
    """
    A URDF mimic relation, reported only (the joint stays independent).

    Attributes
    ----------
    joint : str
        Joint that is mimicked.
    multiplier : float
        Factor.
    offset : float
        Offset [rad or m].

    """

    joint: str
    multiplier: float = 1.0
    offset: float = 0.0


@dataclass(frozen=True, eq=False)
class Joint:
    """
    One movable joint and the body (link) it moves.

    The pose of the child body is ``placement(parent) * motion(q)``: the
    joint frame sits at ``(rotation, translation)`` in the parent body's
    frame, and the motion is a rotation about (or a translation along)
    ``axis``, given in the joint frame. The child body's frame is the moved
    joint frame.

    Attributes
    ----------
    name : str
        Joint name.
    kind : str
        ``'revolute'``, ``'continuous'`` or ``'prismatic'``.
    parent : int
        Index of the parent body (the body moved by joint ``parent``);
        -1 for the root link.
    link : str
        Name of the child link (the body this joint moves).
    rotation : numpy.ndarray
        Joint-frame orientation in the parent body frame, (3, 3).
    translation : numpy.ndarray
        Joint-frame origin in the parent body frame, (3,) [m].
    axis : numpy.ndarray
        Unit axis in the joint frame, (3,).
    limits : JointLimits
        Position, velocity, acceleration and effort limits.
    actuator : Actuator
        Gear, rotor inertia and electrical data.
    friction : Friction
        Friction parameters.
    mimic : Mimic or None
        URDF mimic relation (reported, not enforced).

    """

    name: str
    kind: str
    parent: int
    link: str
    rotation: np.ndarray
    translation: np.ndarray
    axis: np.ndarray
    limits: JointLimits = field(default_factory=JointLimits)
    actuator: Actuator = field(default_factory=Actuator)
    friction: Friction = field(default_factory=Friction)
    mimic: Mimic = None

    def __post_init__(self):
        for name, shape in (('rotation', (3, 3)), ('translation', (3,)), ('axis', (3,))):
            arr = np.array(getattr(self, name), dtype=float).reshape(shape)
            arr.setflags(write=False)
            object.__setattr__(self, name, arr)

    @property
    def is_prismatic(self):
        """
        Tell whether the joint translates.

        Returns
        -------
        bool
            True for a prismatic joint.

        """
        return self.kind == 'prismatic'

    def with_changes(self, **changes):
        """
        Return a copy with some fields replaced.

        Parameters
        ----------
        **changes
            Field names and new values.

        Returns
        -------
        Joint
            The modified copy.

        """
        return replace(self, **changes)


def dataclass_to_dict(obj):
    """
    Convert one of the parameter records to plain Python types.

    Parameters
    ----------
    obj : dataclass instance
        A :class:`JointLimits`, :class:`Actuator`, :class:`Friction` (nested
        records included) or similar.

    Returns
    -------
    dict
        Field name to value; ``inf`` and NaN stay floats, tuples become lists.

    """
    out = {}
    for f in fields(obj):
        value = getattr(obj, f.name)
        if hasattr(value, '__dataclass_fields__'):
            value = dataclass_to_dict(value)
        elif isinstance(value, tuple):
            value = [float(v) for v in value]
        elif isinstance(value, np.ndarray):
            value = value.tolist()
        out[f.name] = value
    return out
