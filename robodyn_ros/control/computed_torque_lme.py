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
Computed torque with on-line load-mass estimation (seed 003 ch. 4 and 6.7, "CT+LME").

Every sample the payload estimator takes the measured positions and the
torque applied over the last sample, updates the mass estimate, and the
computed-torque law uses the model with that payload (Fig. 6.7 of the
thesis: the LME broadcasts the estimate to the joint controllers, which
update M and Q; the rest is computed torque).
"""

import numpy as np

from . import fast_lme, fast_step
from .base import ControlStatus, Mode
from .computed_torque import ComputedTorque
from .filters import SEED003_REALTIME
from .payload import PayloadEstimator, PayloadModel


def _plain_n(arr, n):
    """Tell whether an array is C-contiguous float64 of shape (n,)."""
    return (type(arr) is np.ndarray and arr.dtype == np.float64 and arr.shape == (n,)
            and arr.flags.c_contiguous)


class ComputedTorqueLME(ComputedTorque):
    """
    Computed torque whose model carries an estimated payload.

    Parameters
    ----------
    model : RobotModel
        The controller's model without the payload.
    period : float
        Sample period [s].
    kp, kd, omega, zeta, form, ki
        As for :class:`~robodyn_ros.control.computed_torque.ComputedTorque`.
    payload_frame : str, optional
        Frame the payload is fixed to (default the end effector).
    payload_com : array_like
        Payload centre of mass in that frame [m].
    initial_mass : float
        Initial estimate [kg] (seed 003: 1.5 kg).
    forgetting : float
        RLS forgetting factor (seed 003: about 0.98).
    variance : float
        Initial RLS variance [kg^2].
    mass_bounds : tuple of float
        Bounds of the estimate [kg].
    estimator_joints : sequence of int
        Joints whose equations feed the estimator (seed 003: the waist, 0).
    filter_coefficients : sequence of float
        State-variable filter ``C(s)``, highest power first.
    adapt : bool
        Update the estimate (False freezes it at ``initial_mass``).
    compiled : bool
        Run normal samples compiled (:mod:`.fast_step`) when numba and the
        C kernels are there; False always runs the Python code (the
        reference; same numbers, slower).
    **kwargs
        Passed to :class:`~robodyn_ros.control.base.Controller`.

    """

    law = 'computed_torque_lme'

    def __init__(self, model, period, kp=None, kd=None, *, omega=None, zeta=1.0,
                 form='tracking', ki=0.0, payload_frame=None, payload_com=(0.0, 0.0, 0.0),
                 initial_mass=0.0, forgetting=0.98, variance=100.0, mass_bounds=(0.0, 50.0),
                 estimator_joints=(0,), filter_coefficients=SEED003_REALTIME, adapt=True,
                 compiled=True, **kwargs):
        super().__init__(model, period, kp, kd, omega=omega, zeta=zeta, form=form, ki=ki,
                         **kwargs)
        self.payload = PayloadModel(model, payload_frame, payload_com, dynamics=self.dynamics)
        self.estimator = PayloadEstimator(
            self.payload, self.period, initial=initial_mass, variance=variance,
            forgetting=forgetting, bounds=mass_bounds, joints=estimator_joints,
            filter_coefficients=filter_coefficients)
        self.adapt = bool(adapt)
        # A normal sample as one compiled call (fast_step), when numba and the C
        # kernels are there.
        self._form_code = fast_lme.FORM_CODES[self.form]
        self._fused = None
        addresses = fast_lme.payload_functions(self.payload) if compiled else None
        if addresses is not None and fast_step.AVAILABLE:
            n = self.n
            self._addresses = np.array(addresses, dtype=np.intp)
            self._ct_scratch = np.zeros((5, n))
            self._no_tuner = (np.zeros((1, n)), np.zeros((1, 1)), np.zeros(1),
                              np.zeros((1, 1)), np.zeros(1), np.zeros((1, 1)),
                              np.zeros((n, 1)), np.zeros((n, 1, 1)), 1.0, 1.0,
                              np.zeros(1), np.zeros(1), np.zeros(1), 0, 0.0, 0.0, 0.0,
                              False, np.zeros(n), 0, np.zeros(n))
            self._no_vsst = (np.zeros(0), np.zeros(n))
            order = self.estimator._phi_c.shape[0]
            self._no_filter = (np.zeros((order, 2 * n)), np.zeros(n))
            self._fused = fast_step.ct_lme_step
            self._warm_fused()

    @property
    def mass(self):
        """Give the current payload estimate [kg] (float)."""
        return self.estimator.mass

    def step(self, t, q, qd, reference):
        """
        Compute the torque for one sample.

        As :meth:`Controller.step <robodyn_ros.control.base.Controller.step>`.
        A normal sample (valid state and reference, filters running) runs as
        one compiled call (:mod:`.fast_step`) when numba and the C kernels are
        there; every other sample runs the Python code.

        Parameters
        ----------
        t : float
            Time [s].
        q, qd : array_like or None
            Measured positions and velocities, (n,) [rad, rad/s or m, m/s].
        reference : JointReference or None
            Desired state.

        Returns
        -------
        tuple
            ``(tau, status)``: torques (n,) [N m or N] and a ControlStatus.

        """
        fused = self._fused
        if fused is None or self._restart or reference is None:
            return super().step(t, q, qd, reference)
        n = self.n
        rq = getattr(reference, 'q', None)
        rqd = getattr(reference, 'qd', None)
        rqdd = getattr(reference, 'qdd', None)
        est = self.estimator
        adapt = self.adapt
        tuner = self._fused_tuner()
        if (tuner is None or not (_plain_n(q, n) and _plain_n(qd, n) and _plain_n(rq, n)
                                  and _plain_n(rqd, n) and _plain_n(rqdd, n))
                or (adapt and est._count < 2)):
            return super().step(t, q, qd, reference)
        buf = est.sync_rls()
        count = est._count + 1
        # The estimator's filter state (the running one, or unused stand-ins without adapt).
        x, q_prev = (est._x, est._q_prev) if adapt else self._no_filter
        tau, sat, e, u = np.empty(n), np.empty(n, dtype=bool), np.empty(n), np.empty(n)
        code, updated = fused(
            q, qd, rq, rqd, rqdd, self._last_tau, adapt, x, est._phi_c, est._g0v,
            est._g1v, est._row_c, est._b_last, q_prev, count > est._settle + 2,
            est.joints, buf, est._scratch, self.kp, self.kd, self.ki, self._integral,
            self._form_code, self.period, self.torque_limit, self._addresses,
            self._ct_scratch, *tuner, u, tau, sat, e)
        if code == fast_step.BAD_INPUT:   # nothing changed: the Python code names the fault
            return super().step(t, q, qd, reference)
        if adapt:
            est._count = count
            if updated:
                est.store_rls(buf)
        self._e = e
        self._fused_done(u)
        if code == fast_step.BAD_TORQUE:
            self._restart = True
            return self._hold(q, qd, 'the control law produced a non-finite torque')
        self._last_tau = tau
        self._last_mode = Mode.SATURATED if code == fast_step.SATURATED else Mode.OK
        return tau, ControlStatus(self._last_mode, '', sat, e)

    def _warm_fused(self):
        """Compile (or load) the compiled sample now, not in the first control step."""
        n = self.n
        est = self.estimator
        z = np.zeros(n)
        self._fused(z, z, z, z, z, z, True, self._no_filter[0].copy(),
                    est._phi_c, est._g0v, est._g1v, est._row_c, est._b_last, np.zeros(n),
                    False, est.joints, np.zeros(7), np.zeros((7, n)), z, z, z, np.zeros(n),
                    0, self.period, self.torque_limit, self._addresses, np.zeros((5, n)),
                    False, *self._no_tuner, *self._no_vsst, np.empty(n), np.empty(n),
                    np.empty(n, dtype=bool), np.empty(n))

    def _fused_tuner(self):
        """Tuner arguments of the compiled sample, or None while it cannot run."""
        return (False,) + self._no_tuner + self._no_vsst

    def _fused_done(self, u):
        """Take the tuner outputs of a compiled sample (none here)."""

    def _on_restart(self, t, q, qd):
        super()._on_restart(t, q, qd)
        self.estimator.restart_filters()

    def _compute(self, t, q, qd, ref):
        if self.adapt:
            self.estimator.update(q, self._last_tau)
        return super()._compute(t, q, qd, ref)

    def _inverse_dynamics(self, q, qd, qdd):
        return self.payload.inverse_dynamics(q, qd, qdd, self.estimator.mass)

    def _gravity(self, q):
        return self.payload.gravity(q, self.estimator.mass)

    def reset(self):
        """Forget filters and integrators and return to the initial estimate."""
        super().reset()
        self.estimator.rls.reset()

    def estimates(self):
        """
        Report the payload estimate.

        Returns
        -------
        dict
            ``{'payload_mass': float}`` [kg].

        """
        return {'payload_mass': self.estimator.mass}
