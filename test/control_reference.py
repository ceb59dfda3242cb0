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
Vectorised (numpy) forms of the loop-form control code, as references for the tests.

The package computes one sample of the payload estimator, the
variable-structure tuners and the computed-torque laws once, in loop form
(``robodyn_ros.control.payload.estimator_sample``, ``vsst_step.tuner_step``,
``ct_step.ct_step``), compiled or not. These classes compute the same
samples with whole-array numpy operations and their own state, taking only
the configuration (gains, filter and bank matrices, settings) from a
production object that never steps. The tests hold the two to 1e-9.
"""

import numpy as np
from robodyn_ros.control.base import Controller
from robodyn_ros.errors import InputError

OK, SATURATED, BAD_TORQUE = 0, 1, 2   # the outcome codes of a step


class ReferenceEstimator:
    """The payload estimator's sample (seed 003 ch. 4) in numpy, state of its own."""

    def __init__(self, est):
        f = est.filter
        self.payload = est.payload
        self.n = est.payload.model.n
        self.phi = f.phi.copy()
        self.g0, self.g1 = f.g0.copy()[:, None], f.g1.copy()[:, None]
        self.row, self.b_last, self.c_last = f.row.copy(), f.b_last, f.coefficients[-1]
        self.sel = est.joints.copy()
        self.settle = est.settle_samples
        self.min_excitation = est.min_excitation
        st = est.state[0]
        self.window, self.freeze_below = float(st['window']), float(st['freeze_below'])
        rls = est.rls
        self.theta, self.p = float(rls.theta[0]), float(rls.covariance[0, 0])
        self.lam, self.max_var = rls.forgetting, rls.max_variance
        self.lower, self.upper = float(rls.lower[0]), float(rls.upper[0])
        self.updates = 0
        self.restart()

    @property
    def mass(self):
        """Give the estimate [kg]."""
        return self.theta

    def restart(self):
        """Restart the filters, keep the estimate."""
        self.count = 0
        self.x = None
        self.excitation, self.frozen = 0.0, False

    def update(self, q, tau, steps=1):
        """Take positions now and the torque applied since the last sample, ``steps`` ago."""
        n = self.n
        self.count += 1
        if self.count == 1:
            self.q_prev = q.copy()
            return
        if self.count == 2:
            self.x = np.zeros((self.phi.shape[0], 2 * n))
            self.x[0, :n] = self.q_prev / self.c_last
            self.x[0, n:] = tau / self.c_last
        # Over several periods: positions on the line between the samples, torque held.
        slope = np.concatenate(((q - self.q_prev) / steps, np.zeros(n)))
        x = self.x
        for i in range(steps):
            held = np.concatenate((self.q_prev + i * slope[:n], tau))
            x = self.phi @ x + self.g0 * held + self.g1 * slope
        self.x = x
        self.q_prev = q.copy()
        if self.count <= self.settle + 2:
            return
        qf, qdf = x[0, :n], x[1, :n]
        qddf = x[2, :n] if x.shape[0] > 2 else self.row @ x[:, :n] + self.b_last * q
        ym = self.payload.regressor(qf, qdf, qddf)[self.sel]
        if not np.isfinite(ym).all():
            return
        # Excitation: windowed mean square of the inertial regressor rows; freeze below.
        inertial = ym - self.payload.regressor(qf, qdf, np.zeros(n))[self.sel]
        weight = 1.0 - (1.0 - self.window) ** steps
        self.excitation += weight * (float(inertial @ inertial) - self.excitation)
        self.frozen = self.freeze_below > 0.0 and not self.excitation >= self.freeze_below ** 2
        if self.frozen:
            return
        if not float(np.abs(ym).max()) >= self.min_excitation:
            return
        psi = x[0, n:][self.sel] - self.payload.base.inverse_dynamics(qf, qdf, qddf)[self.sel]
        if not np.isfinite(psi).all():
            return
        # One parameter, several equations: information form, with the variance cap.
        sxx = float(ym @ ym)
        p_new = self.p / (self.lam + self.p * sxx)
        if p_new > self.max_var:
            p_new = self.p / (1.0 + self.p * sxx)
        theta = self.theta + p_new * float(ym @ (psi - ym * self.theta))
        self.theta = min(max(theta, self.lower), self.upper)
        self.p = p_new
        self.updates += 1


class ReferenceTuner:
    """The variable-structure self-tuners' sample (seed 003 App. C) in numpy."""

    def __init__(self, tuner):
        t = tuner.state[0]
        n, k, p, ng = int(t['n']), int(t['size']), int(t['p']), int(t['ng'])
        self.n, self.ng = n, ng
        self.a, self.b = t['a'][:k, :k].copy(), t['b'][:k].copy()[:, None]
        self.m_id, self.m_target = t['m_id'][:p, :k].copy(), t['m_target'][:k].copy()
        self.m_em, self.unit = t['m_em'][:p, :k].copy(), t['unit'][:ng].copy()
        self.dc_u, self.dc_y = t['dc_u'][:k].copy(), t['dc_y'][:k].copy()
        self.iu, self.i1 = int(t['iu']), int(t['i1'])
        self.lower, self.upper = t['lower'][:p].copy(), t['upper'][:p].copy()
        self.lam, self.var_cap = float(t['forgetting']), float(t['var_cap'])
        self.small = float(t['small'])
        self.u_min, self.u_max = float(t['u_min']), float(t['u_max'])
        self.switched, self.boundary = bool(t['switched']), t['boundary'][:n].copy()
        self.setpoint = t['setpoint'][:int(t['n_setpoint'])].copy()
        self.theta, self.cov = tuner.theta.copy(), tuner.cov.copy()
        self.restart()

    def restart(self):
        """Restart the filters, keep the estimates."""
        self.z = np.zeros((self.a.shape[0], self.n))
        self.started = False
        self.residual = np.zeros(self.n)
        self.u = np.zeros(self.n)

    def setpoint_value(self, q_ref, qd_ref, qdd_ref):
        """Set-point: the position, or ``P(s) q_ref``."""
        if self.setpoint.size == 0:
            return q_ref
        derivs = (q_ref, qd_ref, qdd_ref)
        return sum(self.setpoint[i] * derivs[i] for i in range(self.setpoint.size))

    def update(self, y, w, steps=1):
        """Take the angles (``steps`` periods after the last ones), tune, return the outputs."""
        if not self.started:
            self.z = np.outer(self.dc_u, self.z[self.iu]) + np.outer(self.dc_y, y)
            self.z[self.i1] = 1.0
            self.started = True
        else:
            for i in range(1, steps + 1):
                self.z = self.a @ self.z + self.b * (self.y_prev + (y - self.y_prev) * (i / steps))
            self._identify(self.m_id @ self.z, self.m_target @ self.z)
        self.y_prev = np.array(y, dtype=float)
        phi0 = np.einsum('nj,jn->n', self.theta, self.m_em @ self.z)
        slope = self.theta[:, :self.ng] @ self.unit
        resid = w - phi0
        self.residual = resid
        with np.errstate(divide='ignore', invalid='ignore'):
            u_lin = np.where(np.abs(slope) > self.small, resid / slope, 0.0)
        u = np.minimum(np.maximum(u_lin, self.u_min), self.u_max)
        if self.switched:
            relay = np.where(u > 0.5 * (self.u_min + self.u_max), self.u_max, self.u_min)
            with np.errstate(divide='ignore', invalid='ignore'):
                smooth = self.u_max * np.minimum(np.maximum(resid / self.boundary, -1.0), 1.0)
            smooth = np.minimum(np.maximum(smooth, self.u_min), self.u_max)
            u = np.where(self.boundary > 0.0, smooth, relay)
        self.z[self.iu] = u
        self.u = u
        return u.copy()

    def _identify(self, x, target):
        lam = self.lam
        px = np.einsum('nij,jn->ni', self.cov, x)
        denom = lam + np.einsum('jn,nj->n', x, px)
        gain = px / denom[:, None]
        err = target - np.einsum('nj,jn->n', self.theta, x)
        theta = self.theta + gain * err[:, None]
        cov = self.cov - gain[:, :, None] * px[:, None, :]
        ok = (np.isfinite(err) & np.isfinite(denom) & (denom != 0.0)
              & np.isfinite(theta).all(axis=1) & np.isfinite(cov).all(axis=(1, 2)))
        diag = cov.diagonal(axis1=1, axis2=2)
        scale = np.where(diag.max(axis=1) <= lam * self.var_cap, 1.0 / lam, 1.0)
        cov = 0.5 * (cov + cov.transpose(0, 2, 1)) * scale[:, None, None]
        self.theta = np.where(ok[:, None], np.minimum(np.maximum(theta, self.lower), self.upper),
                              self.theta)
        self.cov = np.where(ok[:, None, None], cov, self.cov)


class ReferenceComputedTorque(Controller):
    """
    Computed torque with the optional estimator and tuners, in numpy.

    Built from a production controller of the same configuration (``twin``,
    which is never stepped); runs through the same ``Controller.step``
    template, so modes and messages are comparable.
    """

    law = 'reference'

    def __init__(self, twin):
        super().__init__(twin.model, twin.period, torque_limit=twin.torque_limit.copy(),
                         hold_damping=twin.hold_damping.copy(), dynamics=twin.dynamics)
        self.kp, self.kd, self.ki = twin.kp.copy(), twin.kd.copy(), twin.ki.copy()
        self.form = twin.form
        self.integral = np.zeros(self.n)
        self.payload = twin.payload
        self.estimator = None if twin.estimator is None else ReferenceEstimator(twin.estimator)
        self.adapt = getattr(twin, 'adapt', False)
        self.tuner = None if twin.tuner is None else ReferenceTuner(twin.tuner)
        self.relay = (np.where(twin.vsst_mask, twin.torque_scale, 0.0) if self.tuner else None)
        self.max_steps = max(1, int(round(0.05 / self.period)))
        self.last_t, self.steps = None, 1

    @property
    def mass(self):
        """Give the payload estimate [kg]."""
        return self.estimator.mass

    def _on_restart(self, t, q, qd):
        self.last_t = None
        self.integral[:] = 0.0
        if self.estimator is not None:
            self.estimator.restart()
        if self.tuner is not None:
            self.tuner.restart()

    def _compute(self, t, q, qd, ref):
        # Periods since the last sample, from the step times (a loop that missed samples).
        self.steps = 1 if self.last_t is None else int(min(max(round(
            (t - self.last_t) / self.period), 1), self.max_steps))
        self.last_t = t
        if self.estimator is not None and self.adapt:
            self.estimator.update(q, self._last_tau.copy(), self.steps)
        e = ref.q - q
        self._e = e
        if self.form == 'regulation':
            w = self.kp * e - self.kd * qd
        else:
            w = ref.qdd + self.kd * (ref.qd - qd) + self.kp * e
        if self.ki.any():
            w = w + self.ki * self.integral
        at = (ref.q, ref.qd) if self.form == 'predictive' else (q, qd)
        if self.payload is not None:
            tau = self.payload.inverse_dynamics(at[0], at[1], w, self.estimator.mass)
        else:
            tau = self.dynamics.inverse_dynamics(at[0], at[1], w)
        if self.tuner is not None:
            u = self.tuner.update(q, self.tuner.setpoint_value(ref.q, ref.qd, ref.qdd),
                                  self.steps)
            tau = tau + np.where(self.relay != 0.0, self.relay * u, 0.0)
        return tau

    def _compiled_step(self, state, ref, out):
        tau = self._compute(state.t, state.q, state.qd, ref)
        if not np.isfinite(tau).all():
            return BAD_TORQUE
        clipped = np.minimum(np.maximum(tau, -self.torque_limit), self.torque_limit)
        sat = clipped != tau
        out.tau[:], out.saturated[:], out.error[:] = clipped, sat, self._e
        if self.ki.any():
            e = self._e
            grow = ~(sat & (np.sign(e) == np.sign(clipped)))
            self.integral = np.where(grow, self.integral + self.period * self.steps * e,
                                     self.integral)
        return SATURATED if sat.any() else OK

    def _gravity(self, q):
        if self.payload is not None:
            return self.payload.gravity(q, self.estimator.mass)
        return self.dynamics.gravity(q)


def reference_of(ctl):
    """Build the numpy reference of a computed-torque controller's configuration."""
    if not hasattr(ctl, 'kp'):
        raise InputError('ctl', 'not a computed-torque law')
    return ReferenceComputedTorque(ctl)
