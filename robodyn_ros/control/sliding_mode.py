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
Variable-structure (sliding-mode) control on top of computed-torque decoupling.

Per joint the sliding variable is ``s = e' + Lambda e`` with ``e = q_ref -
q`` (seed 003 eq. 6.82, Bailey and Arapostathis). Two forms:

* ``'decoupled'`` (Slotine's boundary-layer law): the switching acts on the
  decoupled joints, ``tau = IDM(q, qd, qdd_ref + Lambda e' + K sat(s /
  Phi))``. With the model error ``eta = M^-1 [(M - M_hat) qdd + h - h_hat]``
  the sliding variable obeys ``s' = -K sat(s / Phi) - eta``; a switching gain
  ``K_j > |eta_j|`` (see :func:`switching_gain`) makes ``|s|`` reach the
  boundary layer ``|s| <= Phi`` in finite time and stay there, so ``|e_j| <=
  Phi_j / Lambda_j`` in steady state. ``Phi = 0`` is the discontinuous
  ``sign(s)``, which chatters at the sample rate.
* ``'relay'`` (seed 003's form): a torque relay added to the computed torque,
  ``tau = IDM(q, qd, qdd_ref + Lambda e') + U sat(s / Phi)``, ``U`` [N m] per
  joint; with ``Phi = 0`` it is the pure relay ``U sign(s)`` the thesis
  applied (its VSC switched the full drive voltage).

Widening the boundary layer trades chattering for tracking error (seed 003
ch. 6.6, Slotine; Xu et al.).
"""

import numpy as np

from .base import Controller
from .checks import per_joint
from ..dynamics import inverse_dynamics, mass_matrix, parameter_vector, regressor
from ..errors import InputError

FORMS = ('decoupled', 'relay')


def saturation(x):
    """
    Clip to [-1, 1] elementwise (the boundary-layer switching function).

    Parameters
    ----------
    x : numpy.ndarray
        Argument.

    Returns
    -------
    numpy.ndarray
        ``min(max(x, -1), 1)``.

    """
    return np.minimum(np.maximum(x, -1.0), 1.0)


def switching_gain(model, q, qd, qdd, *, inertial_error=0.1, friction_error=0.5, margin=0.2,
                   floor=0.0):
    """
    Switching gain ``K_j`` that dominates a bounded model error along a motion.

    For relative errors ``a`` of every inertial parameter (and ``b`` of the
    friction) the torque error is bounded by ``a sum_i |Y_ji theta_i| + b
    |tau_f,j|`` (``Y`` the regressor, ``theta`` the parameters, ``tau_f``
    the friction torque); the acceleration error by ``|M^-1|`` times that.
    The gain is ``(1 + margin)`` times the largest bound over the given
    samples, plus ``floor``.

    Parameters
    ----------
    model : RobotModel
        The controller's (nominal) model.
    q, qd, qdd : array_like
        Samples of the motion (e.g. the reference), (N, n).
    inertial_error : float
        Relative error bound of the inertial parameters (and rotor inertia).
    friction_error : float
        Relative error bound of the friction torque.
    margin : float
        Safety margin.
    floor : float or array_like
        Added to the gain [rad/s^2 or m/s^2].

    Returns
    -------
    numpy.ndarray
        (n,) [rad/s^2 or m/s^2].

    """
    q = np.atleast_2d(np.asarray(q, dtype=float))
    qd = np.atleast_2d(np.asarray(qd, dtype=float))
    qdd = np.atleast_2d(np.asarray(qdd, dtype=float))
    n = model.n
    # Inertial parameters and rotor inertia only (no friction columns).
    y = regressor(model, q, qd, qdd, friction='none')
    theta = parameter_vector(model, friction='none')
    torque_bound = inertial_error * np.abs(y * theta).sum(axis=-1)
    friction = (inverse_dynamics(model, q, qd, qdd)
                - inverse_dynamics(model, q, qd, qdd, friction=False))
    torque_bound = torque_bound + friction_error * np.abs(friction)
    minv = np.abs(np.linalg.inv(mass_matrix(model, q)))
    accel_bound = np.einsum('kij,kj->ki', minv, torque_bound)
    return (1.0 + margin) * accel_bound.max(axis=0) + per_joint(floor, n, 'floor', low=0.0)


class SlidingMode(Controller):
    """
    Sliding-mode control with a boundary layer on computed-torque decoupling.

    Parameters
    ----------
    model : RobotModel
        The controller's model.
    period : float
        Sample period [s].
    lam : float or array_like
        Slope ``Lambda`` of the sliding surface [1/s] (> 0).
    gain : float or array_like
        ``K`` [rad/s^2] (``'decoupled'``) or ``U`` [N m] (``'relay'``).
    boundary : float or array_like
        Boundary-layer width ``Phi`` [rad/s]; 0 for the discontinuous sign.
    form : {'decoupled', 'relay'}
        See the module docstring.
    **kwargs
        Passed to :class:`~robodyn_ros.control.base.Controller`.

    """

    law = 'sliding_mode'
    law_options = ('omega', 'lam', 'gain', 'boundary', 'sliding_form')
    live_gains = ('lam', 'gain', 'boundary')
    option_arguments = {'form': 'sliding_form'}
    #: ``Lambda`` and ``K = omega^2`` from this when not given [rad/s].
    default_omega = 20.0

    def __init__(self, model, period, lam, gain, boundary=0.05, *, form='decoupled', **kwargs):
        super().__init__(model, period, **kwargs)
        n = self.n
        if form not in FORMS:
            raise InputError('form', f'must be one of {", ".join(FORMS)}, got {form!r}')
        self.form = form
        self.lam = per_joint(lam, n, 'lam', low=0.0, strict=True)
        self.gain = per_joint(gain, n, 'gain', low=0.0)
        self.boundary = per_joint(boundary, n, 'boundary', low=0.0)
        self._s = np.zeros(n)

    @classmethod
    def _keywords(cls, model, opts):
        kwargs = super()._keywords(model, opts)
        omega = opts.get('omega', cls.default_omega)
        kwargs['lam'] = opts.get('lam', omega)
        kwargs['gain'] = opts.get('gain', omega * omega)
        if 'boundary' in opts:
            kwargs['boundary'] = opts['boundary']
        if 'sliding_form' in opts:
            kwargs['form'] = opts['sliding_form']
        return kwargs

    def check_gain(self, name, value, live=True):
        """Check a live gain (see :meth:`Controller.check_gain`); ``lam`` must be > 0."""
        if name == 'lam':
            per_joint(value, self.n, name, low=0.0, strict=True)
        return super().check_gain(name, value, live)

    def sliding_variable(self, q, qd, ref):
        """
        Sliding variable ``s = e' + Lambda e``, (n,) [rad/s or m/s].

        Parameters
        ----------
        q, qd : numpy.ndarray
            State, (n,).
        ref : JointReference
            Desired state.

        Returns
        -------
        numpy.ndarray
            ``s``.

        """
        return (ref.qd - qd) + self.lam * (ref.q - q)

    def switching(self, s):
        """
        Switching function ``sat(s / Phi)`` (``sign(s)`` where ``Phi = 0``), (n,).

        Parameters
        ----------
        s : numpy.ndarray
            Sliding variable.

        Returns
        -------
        numpy.ndarray
            In [-1, 1].

        """
        phi = self.boundary
        with np.errstate(divide='ignore', invalid='ignore'):
            smooth = saturation(s / phi)
        return np.where(phi > 0.0, smooth, np.sign(s))

    def _compute(self, t, q, qd, ref):
        s = self.sliding_variable(q, qd, ref)
        self._s = s
        qdd_r = ref.qdd + self.lam * (ref.qd - qd)
        sw = self.switching(s)
        if self.form == 'decoupled':
            return self.dynamics.inverse_dynamics(q, qd, qdd_r + self.gain * sw)
        return self.dynamics.inverse_dynamics(q, qd, qdd_r) + self.gain * sw

    def estimates(self):
        """
        Report the sliding variable.

        Returns
        -------
        dict
            ``{'sliding_variable': s}`` (n,) [rad/s or m/s].

        """
        return {'sliding_variable': self._s.copy()}
