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
The hardware interface's own position hold (the "quick stop" of a drive).

When the command stream stops, the interface holds the arm where it is with
its own model, without the controller::

    tau = g(q) + Kp (q_hold - q) - Kd qd        (+ friction compensation)

``g`` is the gravity torque of the interface's model; the gains are a
critically damped second-order response of natural frequency
``bandwidth`` per joint, scaled by that joint's diagonal inertia at the
held position: ``Kp_j = M_jj w^2``, ``Kd_j = 2 w M_jj``. A payload the
model does not know is carried by the PD term (a steady error of its
gravity torque over ``Kp``). The friction compensation and the effort and
current limits of the interface apply to this torque as to any command.

With the board in impedance mode the hold is the same law as a set-point
(:meth:`PositionHold.setpoint`: ``q_ref`` the held position, ``qd_ref = 0``,
the hold's gains, the gravity torque as feed-forward), so the board keeps
closing it between the host's frames.
"""

import math

import numpy as np

from ..control.split_form import ImpedanceSetpoint
from ..dynamics.codegen import kernels
from ..errors import InputError


class PositionHold:
    """
    Gravity compensation plus a stiff PD on a held position.

    Parameters
    ----------
    model : RobotModel
        The interface's model (gravity, inertia).
    bandwidth : float
        Natural frequency of the hold [rad/s] (> 0).

    Attributes
    ----------
    position : numpy.ndarray or None
        Held position (n,) [rad or m]; None before :meth:`start`.
    kp, kd : numpy.ndarray
        Gains of the current hold [N m/rad, N m s/rad or N/m, N s/m].
    kernels : Kernels or NumpyKernels
        The model's dynamics kernels (gravity, mass matrix).

    """

    def __init__(self, model, bandwidth=40.0):
        if not (math.isfinite(bandwidth) and bandwidth > 0.0):
            raise InputError('hold_bandwidth', f'must be finite and > 0 rad/s, got {bandwidth}')
        self.model = model
        self.bandwidth = float(bandwidth)
        self.kernels = kernels(model)
        self.position = None
        self.kp = np.zeros(model.n)
        self.kd = np.zeros(model.n)

    def start(self, q):
        """
        Hold ``q`` from now on (gains from the inertia there).

        Parameters
        ----------
        q : numpy.ndarray
            Position to hold, (n,), finite.

        """
        q = np.array(q, dtype=float)
        inertia = np.diag(self.kernels.mass_matrix(q)).copy()
        w = self.bandwidth
        self.kp = inertia * w * w
        self.kd = 2.0 * w * inertia
        self.position = q

    def torque(self, q, qd):
        """
        Hold torque at a measured state.

        Parameters
        ----------
        q, qd : numpy.ndarray
            Measured positions and velocities, (n,).

        Returns
        -------
        numpy.ndarray
            (n,) [N m or N] (before friction compensation and limits).

        """
        return (self.kernels.gravity(np.ascontiguousarray(q, dtype=float))
                + self.kp * (self.position - q) - self.kd * qd)

    def setpoint(self, q):
        """
        Hold as an impedance set-point (impedance mode).

        Parameters
        ----------
        q : numpy.ndarray
            Measured positions, (n,) (the gravity torque is taken there, as
            :meth:`torque` does).

        Returns
        -------
        ImpedanceSetpoint
            ``q_ref`` the held position, ``qd_ref = 0``, ``kp``, ``kd`` and
            ``tau_ff = g(q)`` (before friction compensation and limits); at
            the sample's state its torque is :meth:`torque`'s.

        """
        gravity = self.kernels.gravity(np.ascontiguousarray(q, dtype=float))
        return ImpedanceSetpoint(self.position, np.zeros(self.model.n), self.kp, self.kd,
                                 np.array(gravity, dtype=float))

    def __repr__(self):
        return f'PositionHold({self.model.name!r}, bandwidth={self.bandwidth:g} rad/s)'
