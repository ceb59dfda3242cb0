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
Joint-space computed torque (seed 001 §9.4.2; seeds 002 and 003).

``tau = M(q) w + h(q, qd)`` is evaluated as one inverse-dynamics call,
``tau = IDM(q, qd, w)`` (seed 001 §9.4.2.5): the mass matrix and the bias
vector are never formed. Forms:

* ``'tracking'`` (eq. 9.24): ``w = qdd_ref + Kd (qd_ref - qd) + Kp (q_ref -
  q)``; with a perfect model ``e'' + Kd e' + Kp e = 0``;
* ``'regulation'`` (eq. 9.29): ``w = Kp (q_ref - q) - Kd qd``;
* ``'predictive'`` (eq. 9.31, Khalil 78): the tracking ``w`` but the model
  evaluated on the desired state, ``tau = IDM(q_ref, qd_ref, w)``, so
  measurement noise does not enter the model terms.

An optional integral term ``Ki integral(e)`` (footnote of eq. 9.24) is added
to ``w``, with the same anti-windup as the PID.
"""

import numpy as np

from .base import Controller, per_joint
from .gains import ct_gains
from ..errors import InputError

FORMS = ('tracking', 'regulation', 'predictive')


class ComputedTorque(Controller):
    """
    Computed torque in joint space.

    Parameters
    ----------
    model : RobotModel
        The controller's model.
    period : float
        Sample period [s].
    kp, kd : float or array_like, optional
        Gains [1/s^2, 1/s]; give these or ``omega``.
    omega : float or array_like, optional
        Closed-loop natural frequency [rad/s]: ``Kp = omega^2``, ``Kd = 2
        zeta omega``.
    zeta : float
        Damping ratio with ``omega`` (1: critically damped).
    form : {'tracking', 'regulation', 'predictive'}
        Law (see the module docstring).
    ki : float or array_like
        Integral gain [1/s^3]; 0 for none.
    **kwargs
        Passed to :class:`~robodyn_ros.control.base.Controller`.

    """

    law = 'computed_torque'

    def __init__(self, model, period, kp=None, kd=None, *, omega=None, zeta=1.0,
                 form='tracking', ki=0.0, **kwargs):
        super().__init__(model, period, **kwargs)
        n = self.n
        if omega is not None:
            if kp is not None or kd is not None:
                raise InputError('omega', 'give either omega or kp and kd, not both')
            kp, kd = ct_gains(omega, zeta, n)
        if kp is None or kd is None:
            raise InputError('kp', 'give kp and kd, or omega')
        self.kp = per_joint(kp, n, 'kp', low=0.0)
        self.kd = per_joint(kd, n, 'kd', low=0.0)
        self.ki = per_joint(ki, n, 'ki', low=0.0)
        if form not in FORMS:
            raise InputError('form', f'must be one of {", ".join(FORMS)}, got {form!r}')
        self.form = form
        self._integral = np.zeros(n)
        self._e = np.zeros(n)

    def _on_restart(self, t, q, qd):
        self._integral[:] = 0.0

    def command_acceleration(self, q, qd, ref):
        """
        Outer-loop acceleration ``w`` (n,) [rad/s^2 or m/s^2].

        Parameters
        ----------
        q, qd : numpy.ndarray
            State, (n,).
        ref : JointReference
            Desired state.

        Returns
        -------
        numpy.ndarray
            ``w``.

        """
        e = ref.q - q
        self._e = e
        if self.form == 'regulation':
            w = self.kp * e - self.kd * qd
        else:
            w = ref.qdd + self.kd * (ref.qd - qd) + self.kp * e
        if self._ki_on:
            w = w + self.ki * self._integral
        return w

    @property
    def _ki_on(self):
        return bool(self.ki.any())

    def _compute(self, t, q, qd, ref):
        w = self.command_acceleration(q, qd, ref)
        if self.form == 'predictive':
            return self._inverse_dynamics(ref.q, ref.qd, w)
        return self._inverse_dynamics(q, qd, w)

    def _inverse_dynamics(self, q, qd, qdd):
        """Inverse dynamics of the current model (one call)."""
        return self.dynamics.inverse_dynamics(q, qd, qdd)

    def _applied(self, tau, saturated):
        if self._ki_on:
            e = self._e
            grow = ~(saturated & (np.sign(e) == np.sign(tau)))
            self._integral = np.where(grow, self._integral + self.period * e, self._integral)

    def __repr__(self):
        return (f'{type(self).__name__}(robot={self.model.name!r}, period={self.period:g}, '
                f'form={self.form!r}, kp={self.kp.tolist()}, kd={self.kd.tolist()})')
