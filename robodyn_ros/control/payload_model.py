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
The payload model: inverse dynamics linear in an unknown payload mass (seed 003 eq. 4.1).

The payload is a point mass ``m`` (or a body whose inertia scales with its
mass) fixed at a known place on the last link. The rigid-body dynamics are
linear in the inertial parameters, so the torque is exactly linear in ``m``::

    tau = tau_0(q, qd, qdd) + m y_m(q, qd, qdd)

``tau_0`` is the inverse dynamics of the controller's model without the
payload (friction included) and ``y_m`` the rigid-body torque of a unit
point mass [N m/kg]. Both come from the robot's payload-parametric kernels
(:func:`robodyn_ros.dynamics.codegen.kernels` with the payload frame): one
call each for ``tau_0 + m y_m`` (``inverse_dynamics_payload``), ``y_m``
(``payload_torque``) and the gravity with the payload. (Load-dependent
friction, seed 004, is the one part that is not linear in the payload; it is
evaluated without the payload, so the model is exactly linear in ``m``.)

The model also tells which joints a payload loads with its weight
(:func:`gravity_joints`, :func:`estimating_joints`): the default equations
of the payload estimator (:mod:`.payload`).
"""

import numpy as np

from .model_dynamics import ModelDynamics
from ..dynamics.codegen import kernels
from ..errors import InputError

#: Share of the largest gravity sensitivity that makes a default estimating joint.
GRAVITY_SHARE = 0.3


class PayloadModel:
    """
    Inverse dynamics linear in an unknown payload mass.

    Parameters
    ----------
    model : RobotModel
        The controller's model without the payload.
    frame : str, optional
        Frame the payload is fixed to; default the model's end effector.
    com : array_like
        Payload centre of mass in that frame [m].
    backend : str
        Dynamics backend (see :class:`ModelDynamics`).
    dynamics : ModelDynamics, optional
        The model's dynamics, shared with the controller; its backend is
        used for the payload kernels too.

    Attributes
    ----------
    base : ModelDynamics
        Dynamics without the payload.
    kernels : Kernels or NumpyKernels
        The model's kernels with the payload in ``frame``.

    """

    def __init__(self, model, frame=None, com=(0.0, 0.0, 0.0), backend='auto', dynamics=None):
        self.model = model
        self.frame = frame or model.end_effector
        self.com = np.array(com, dtype=float).reshape(3)
        if not np.all(np.isfinite(self.com)):
            raise InputError('com', 'must be finite')
        self.base = dynamics if dynamics is not None else ModelDynamics(model, backend)
        self.kernels = kernels(model, self.base.kernels.backend, payload_frame=self.frame)
        self._payload = np.concatenate(([0.0], self.com))
        self._idp = self.kernels.inverse_dynamics_payload
        self._ym = self.kernels.payload_torque
        self._gp = self.kernels.gravity_payload

    def regressor(self, q, qd, qdd):
        """
        Torque of a 1 kg payload, ``y_m`` (n,) [N m/kg].

        Parameters
        ----------
        q, qd, qdd : numpy.ndarray
            State and acceleration, float64 (n,).

        Returns
        -------
        numpy.ndarray
            ``y_m``.

        """
        return self._ym(q, qd, qdd, self.com)

    def inverse_dynamics(self, q, qd, qdd, mass):
        """
        Torque with a payload of ``mass`` kg, ``tau_0 + mass y_m``.

        Parameters
        ----------
        q, qd, qdd : numpy.ndarray
            State and acceleration, float64 (n,).
        mass : float
            Payload [kg].

        Returns
        -------
        numpy.ndarray
            (n,) [N m or N].

        """
        payload = self._payload
        payload[0] = mass
        return self._idp(q, qd, qdd, payload)

    def gravity(self, q, mass):
        """
        Gravity torque with the payload, (n,) [N m or N].

        Parameters
        ----------
        q : numpy.ndarray
            Positions, float64 (n,).
        mass : float
            Payload [kg].

        Returns
        -------
        numpy.ndarray
            ``g_0(q) + mass y_m(q, 0, 0)``.

        """
        payload = self._payload
        payload[0] = mass
        return self._gp(q, payload)


def gravity_joints(payload, q=None, share=GRAVITY_SHARE):
    """
    Return the joints whose gravity torque the payload changes most: the default estimating joints.

    A payload shows in the torque of a gravity-loaded joint at every speed,
    at rest included; in a joint about a vertical axis (the waist) only
    through its inertia, where an unmodelled torque of the joint (friction)
    can outweigh it.

    Parameters
    ----------
    payload : PayloadModel
        The linear-in-mass model (frame and centre of mass of the payload).
    q : array_like, optional
        Configuration [rad or m]; default the model's home configuration.
    share : float
        Keep the joints whose sensitivity is at least this share of the
        largest.

    Returns
    -------
    list of int
        Joint indices (0-based); every joint when no joint's gravity torque
        depends on the payload in ``q``.

    """
    model = payload.model
    q = model.home_configuration() if q is None else np.asarray(q, dtype=float)
    zero = np.zeros(model.n)
    sens = np.abs(payload.regressor(q, zero, zero))
    if not sens.max() > 0.0:
        return list(range(model.n))
    return [int(j) for j in np.flatnonzero(sens >= share * sens.max())]


def estimating_joints(model, share=GRAVITY_SHARE):
    """
    Return the joints whose gravity torque a payload at the end effector changes most.

    The payload estimator's joints as the demo chooses them, for a robot
    rather than a payload model: :func:`gravity_joints` of a unit point
    mass at the end effector's origin, in the home configuration, on the
    numpy dynamics (no kernels are compiled for it).

    Parameters
    ----------
    model : RobotModel
        The robot (payload at its end effector).
    share : float
        Keep the joints with at least this share of the largest sensitivity
        [-].

    Returns
    -------
    list of int
        Joint indices (0-based): a payload shows in their torque even at
        rest, unlike in the waist's.

    """
    return gravity_joints(PayloadModel(model, backend='numpy'), share=share)
