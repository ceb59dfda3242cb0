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
On-line payload mass estimation (seed 003 ch. 4, "LME").

The payload is a point mass ``m`` (or a body whose inertia scales with its
mass) fixed at a known place on the last link. The rigid-body dynamics are
linear in the inertial parameters, so the torque is exactly linear in ``m``
(seed 003 eq. 4.1)::

    tau = tau_0(q, qd, qdd) + m y_m(q, qd, qdd)

``tau_0`` is the inverse dynamics of the controller's model without the
payload (friction included) and ``y_m`` the rigid-body torque of a unit
payload, computed as the difference of two inverse-dynamics calls (models
with and without 1 kg), so both come from the fastest kernels available.
(Load-dependent friction, seed 004, is the one part that is not linear in
the payload; it is evaluated without the payload.)

The estimator (eqs. 4.10-4.15) runs recursive least squares with forgetting
on ``psi = tau - tau_0 = y_m m`` with every signal passed through the same
state-variable filter (Appendix B): the measured positions give the filtered
position, velocity and acceleration, and the applied torque (held constant
over each sample) is filtered alike. Only the joints in ``joints`` feed the
estimator; seed 003 uses the waist.
"""

import numpy as np

from .filters import SEED003_REALTIME, StateVariableFilter
from .model_dynamics import ModelDynamics
from .rls import RecursiveLeastSquares
from ..errors import InputError


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

    """

    def __init__(self, model, frame=None, com=(0.0, 0.0, 0.0), backend='auto', dynamics=None):
        self.model = model
        self.frame = frame or model.end_effector
        self.com = np.array(com, dtype=float).reshape(3)
        if not np.all(np.isfinite(self.com)):
            raise InputError('com', 'must be finite')
        self.base = dynamics if dynamics is not None else ModelDynamics(model, backend)
        self.unit = ModelDynamics(model.with_payload(1.0, self.com, frame=self.frame),
                                  self.base.backend)

    def regressor(self, q, qd, qdd):
        """
        Torque of a 1 kg payload, ``y_m`` (n,) [N m/kg].

        Parameters
        ----------
        q, qd, qdd : numpy.ndarray
            State and acceleration, (n,).

        Returns
        -------
        numpy.ndarray
            ``y_m``.

        """
        return (self.unit.inverse_dynamics_rigid(q, qd, qdd)
                - self.base.inverse_dynamics_rigid(q, qd, qdd))

    def inverse_dynamics(self, q, qd, qdd, mass):
        """
        Torque with a payload of ``mass`` kg, ``tau_0 + mass y_m``.

        Parameters
        ----------
        q, qd, qdd : numpy.ndarray
            State and acceleration, (n,).
        mass : float
            Payload [kg].

        Returns
        -------
        numpy.ndarray
            (n,) [N m or N].

        """
        tau0 = self.base.inverse_dynamics(q, qd, qdd)
        if mass == 0.0:
            return tau0
        return tau0 + mass * self.regressor(q, qd, qdd)

    def gravity(self, q, mass):
        """
        Gravity torque with the payload, (n,) [N m or N].

        Parameters
        ----------
        q : numpy.ndarray
            Positions, (n,).
        mass : float
            Payload [kg].

        Returns
        -------
        numpy.ndarray
            ``g_0(q) + mass (g_1(q) - g_0(q))``.

        """
        g0 = self.base.gravity(q)
        return g0 + mass * (self.unit.gravity(q) - g0)


class PayloadEstimator:
    """
    Recursive payload-mass estimator on state-variable-filtered signals.

    Parameters
    ----------
    payload : PayloadModel
        The linear-in-mass model.
    period : float
        Sample period [s].
    initial : float
        Initial estimate [kg] (seed 003: 1.5 kg in simulation).
    variance : float
        Initial variance [kg^2].
    forgetting : float
        Forgetting factor (seed 003: "usually about 0.98").
    bounds : tuple of float
        Estimate bounds [kg].
    joints : sequence of int, optional
        Joints whose torque equation feeds the estimator; default (0,),
        the waist of seed 003.
    filter_coefficients : sequence of float
        ``C(s)`` of the state-variable filter, highest power first, degree
        >= 2 (seed 003 Appendix B: 0.01, 0.2, 1).
    min_excitation : float
        Samples whose regressor norm is below this [N m/kg] are skipped.
    settle_time : float, optional
        Time after a (re)start during which the filters settle and the
        estimate is not updated [s]; default the sum of the filter's time
        constants, ``c_(k-1) / c_k`` (0.2 s for seed 003's filter).

    """

    def __init__(self, payload, period, *, initial=0.0, variance=100.0, forgetting=0.98,
                 bounds=(0.0, 50.0), joints=(0,), filter_coefficients=SEED003_REALTIME,
                 min_excitation=1e-6, settle_time=None):
        self.payload = payload
        n = payload.model.n
        self.joints = np.array(sorted({int(j) for j in joints}), dtype=int)
        if self.joints.size == 0 or self.joints.min() < 0 or self.joints.max() >= n:
            raise InputError('joints', f'need joint indices in 0..{n - 1}, got {list(joints)}')
        if len(filter_coefficients) < 3:
            raise InputError('filter_coefficients', 'C(s) must have degree >= 2 (the '
                                                    'filter must give an acceleration)')
        self.rls = RecursiveLeastSquares([initial], variance, forgetting, bounds[0], bounds[1])
        self.min_excitation = float(min_excitation)
        # One filter, 2n channels: positions (linear hold) then torques (zero hold).
        self._filter = StateVariableFilter(filter_coefficients, period, 2 * n, hold='linear')
        self._n = n
        c = self._filter.coefficients
        settle = c[-2] / c[-1] if settle_time is None else float(settle_time)
        if not settle >= 0.0:
            raise InputError('settle_time', f'must be >= 0 s, got {settle_time}')
        self._settle = int(round(settle / period))
        self._count = 0
        self._x = None
        self._no_slope = np.zeros(n)
        f = self._filter
        self._phi, self._g0, self._g1 = f.phi, f.g0[:, None], f.g1[:, None]
        self._row, self._b_last = f.row, f.b_last
        j = self.joints
        contiguous = np.array_equal(j, np.arange(j[0], j[-1] + 1))
        self._sel = slice(int(j[0]), int(j[-1]) + 1) if contiguous else j
        # The filter's matrices as the compiled sample of the controllers takes
        # them (robodyn_ros.control.fast_step), with its RLS buffer and work space.
        self._phi_c = np.ascontiguousarray(self._phi)
        self._g0v = np.ascontiguousarray(self._g0[:, 0])
        self._g1v = np.ascontiguousarray(self._g1[:, 0])
        self._row_c = np.ascontiguousarray(self._row, dtype=float)
        self._rls_buf = np.zeros(7)
        self._scratch = np.zeros((7, n))

    @property
    def mass(self):
        """Give the current estimate [kg] (float)."""
        return float(self.rls.theta[0])

    def sync_rls(self):
        """
        Copy the RLS state into the buffer the compiled sample works on.

        Returns
        -------
        numpy.ndarray
            ``[theta, P, lambda, max_variance, lower, upper, min_excitation]``.

        """
        rls = self.rls
        buf = self._rls_buf
        buf[0] = rls.theta[0]
        buf[1] = rls.covariance[0, 0]
        buf[2] = rls.forgetting
        buf[3] = rls.max_variance
        buf[4] = rls.lower[0]
        buf[5] = rls.upper[0]
        buf[6] = self.min_excitation
        return buf

    def store_rls(self, buf):
        """
        Take back the estimate and variance after a compiled RLS step.

        Parameters
        ----------
        buf : numpy.ndarray
            The buffer of :meth:`sync_rls`, updated.

        """
        rls = self.rls
        rls.theta[0] = buf[0]
        rls.covariance[0, 0] = buf[1]
        rls.updates += 1

    def restart_filters(self):
        """Restart the filters (after a gap in the data); keep the estimate."""
        self._x = None
        self._count = 0

    def update(self, q, tau_applied):
        """
        Add a sample and return the estimate.

        Parameters
        ----------
        q : numpy.ndarray
            Measured positions at this sample, (n,).
        tau_applied : numpy.ndarray
            Torque applied over the sample that just ended, (n,).

        Returns
        -------
        float
            Estimate [kg].

        """
        n = self._n
        self._count += 1
        if self._count == 1:
            # No torque has been applied yet: only remember the position.
            self._q_prev = q.copy()
            return self.mass
        if self._count == 2:
            # Start every channel at the steady state of its first value.
            self._x = np.zeros((self._filter.order, 2 * n))
            self._x[0, :n] = self._q_prev / self._filter.coefficients[-1]
            self._x[0, n:] = tau_applied / self._filter.coefficients[-1]
        # Positions interpolated linearly over the sample, torques held (zero order).
        held = np.concatenate((self._q_prev, tau_applied))
        slope = np.concatenate((q - self._q_prev, self._no_slope))
        x = self._phi @ self._x + self._g0 * held + self._g1 * slope
        self._x = x
        self._q_prev = q.copy()
        if self._count <= self._settle + 2:
            return self.mass
        # Filtered position, velocity, acceleration (s^i q / C) and torque (tau / C).
        qf, qdf = x[0, :n], x[1, :n]
        qddf = x[2, :n] if x.shape[0] > 2 else self._row @ x[:, :n] + self._b_last * q
        ftau = x[0, n:]
        sel = self._sel
        ym = self.payload.regressor(qf, qdf, qddf)[sel]
        if not float(np.abs(ym).max()) >= self.min_excitation:   # also false for NaN
            return self.mass
        psi = ftau[sel] - self.payload.base.inverse_dynamics(qf, qdf, qddf)[sel]
        if np.isfinite(psi).all():
            self.rls._update_scalar(ym, psi)
        return self.mass
