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
The simulated plant: Pinocchio forward dynamics with the plant's own friction.

The plant is deliberately not our RNE: its rigid-body dynamics is
Pinocchio's articulated-body algorithm (``pinocchio.aba``, rotor inertia as
``armature``), on a model that carries the plant's *true* parameters
(payload, inertia errors, friction), which the controller's model need not
know. Joint friction acts as in the seeds::

    tau_motor = T(tau_rigid + tau_bearing) + Ia qdd + tau_v(qd)

with ``T`` the transmission map (seed 004 Table 3.2), ``tau_bearing`` the
bearing friction from the joint reactions (Table 3.1), ``Ia`` the rotor
inertia on the motor side and ``tau_v`` the velocity friction, the same
composition as :func:`robodyn_ros.dynamics.inverse_dynamics`; the rigid
torque and the joint reactions come from Pinocchio. Integration is classic
RK4 or semi-implicit Euler at a fixed sub-step, finer than any control
period.
"""

import math

import numpy as np

from . import plant_step
from ..dynamics.tables import tables
from ..errors import InputError
from ..friction.models import smooth_sign
from ..pinocchio_bridge import PinocchioBridge


def _transmission_scalar(t, tau_out, s):
    """Scalar transmission map (same formula as friction.transmission_input)."""
    breakaway, rated, load, eta = t
    e = float(np.interp(abs(tau_out) / rated, load, eta))
    pos = (tau_out / e if tau_out > 0.0 else tau_out * e) + breakaway
    neg = (tau_out / e if tau_out < 0.0 else tau_out * e) - breakaway
    return 0.5 * (1.0 + s) * pos + 0.5 * (1.0 - s) * neg


def _bearing_scalar(bearing, f, m):
    """Bearing friction magnitude (same formulas as friction.bearing_torque), floats."""
    kind, mu, radius, span = bearing
    fx, fy, fz = float(f[0]), float(f[1]), float(f[2])
    nx, ny = float(m[0]), float(m[1])
    if kind == 'thrust':
        return mu * radius * abs(fz)
    if kind == 'linear':
        if span <= 0.0:
            return mu * (abs(fx) + abs(fy))
        h = 0.5 * span
        return mu / span * (abs(h * fx - ny) + abs(h * fy - nx) + abs(h * fx + ny)
                            + abs(h * fy + nx))
    if span <= 0.0:
        return mu * radius * math.hypot(fx, fy)
    h = 0.5 * span
    return mu * radius / span * (math.hypot(h * fx + ny, h * fy - nx)
                                 + math.hypot(h * fx - ny, h * fy + nx))


class Plant:
    """
    A simulated arm integrating Pinocchio forward dynamics.

    Parameters
    ----------
    model : RobotModel
        The plant's true model (use ``with_payload`` and friction parameters
        to make it differ from the controller's model).
    q0 : array_like, optional
        Initial positions [rad or m]; default zeros.
    qd0 : array_like, optional
        Initial velocities; default zeros.
    dt : float
        Integration sub-step [s].
    friction : bool
        Apply the model's friction.
    smoothing_velocity : float, optional
        Lower bound on the width of the smooth sign of the friction [rad/s].
        Default (None): the model's own width (``Friction.smoothing_velocity``,
        0.001 rad/s unless a parameter file says otherwise), so that a
        controller whose model is the plant's compensates exactly the
        plant's friction. A wider band is a friction mismatch between plant
        and model, available for studies (seed 003's experiments use one).
    integrator : {'rk4', 'semi_implicit'}
        Classic Runge-Kutta (accurate; offline simulation) or semi-implicit
        Euler with the friction's velocity slope treated implicitly (one
        dynamics evaluation per sub-step; real-time simulated boards).

    """

    def __init__(self, model, q0=None, qd0=None, dt=2.5e-4, friction=True,
                 smoothing_velocity=None, integrator='rk4'):
        if not (math.isfinite(dt) and dt > 0.0):
            raise InputError('dt', f'must be a positive time step, got {dt}')
        if integrator not in ('rk4', 'semi_implicit'):
            raise InputError('integrator', f"must be 'rk4' or 'semi_implicit', got {integrator!r}")
        self.integrator = integrator
        self.model = model
        self.dt = float(dt)
        self.friction = bool(friction)
        self._bridge = PinocchioBridge(model)
        self._tab = tables(model)
        own = self._tab.smoothing_velocity
        self._eps = own if smoothing_velocity is None else np.maximum(own, smoothing_velocity)
        n = model.n
        self.q = np.zeros(n) if q0 is None else model.check_configuration(q0, 'q0').copy()
        self.qd = np.zeros(n) if qd0 is None else model.check_configuration(qd0, 'qd0').copy()
        self.qdd = np.zeros(n)
        self.time = 0.0
        self._joint_ids = [self._bridge.pin_model.getJointId(j.name) for j in model.joints]
        self._load = any(b is not None for b in self._tab.bearing) or any(
            t is not None for t in self._tab.transmission)
        tab = self._tab
        self._slip = bool(self.friction and any(
            np.any(c) for c in (tab.coulomb_pos, tab.coulomb_neg, tab.stribeck_pos,
                                tab.stribeck_neg, tab.viscous_pos, tab.viscous_neg)))
        self._banded = bool(np.all(self._eps > 0.0))
        self._probe = np.zeros((3, n))  # qd, qd + dv, qd - dv: friction and its slope at once
        self._friction_table = plant_step.friction_table(tab, self._eps)
        if self._slip and integrator == 'semi_implicit':
            plant_step.start()      # the compiled step, loaded in the background

    # ------------------------------------------------------------------ friction
    def _velocity_friction(self, qd):
        tab = self._tab
        # smooth_sign, with its band known to be positive on every joint
        s = np.tanh(qd / self._eps) if self._banded else smooth_sign(qd, self._eps)
        sp, sn = np.maximum(s, 0.0), np.minimum(s, 0.0)
        decay = np.exp(-np.abs(qd) / tab.stribeck_velocity)
        return ((tab.coulomb_pos + tab.stribeck_pos * decay) * sp
                + (tab.coulomb_neg + tab.stribeck_neg * decay) * sn
                + tab.viscous_pos * np.maximum(qd, 0.0) + tab.viscous_neg * np.minimum(qd, 0.0))

    def _transmission(self, tau_out, s):
        """Transmission input torque and its slope d(tau_in)/d(tau_out) per joint."""
        tau_in = np.array(tau_out, dtype=float)
        slope = np.ones_like(tau_in)
        for i, t in enumerate(self._tab.transmission):
            if t is None:
                continue
            x = float(tau_out[i])
            tau_in[i] = _transmission_scalar(t, x, float(s[i]))
            h = 1e-6 * max(1.0, abs(x))
            slope[i] = (_transmission_scalar(t, x + h, float(s[i])) - tau_in[i]) / h
        return tau_in, slope

    def _bearing_friction(self, s):
        """Bearing friction from the reactions of Pinocchio's last RNE call (scalar math)."""
        data = self._bridge.pin_data
        tau = np.zeros(self.model.n)
        for i, bearing in enumerate(self._tab.bearing):
            if bearing is None:
                continue
            f = data.f[self._joint_ids[i]]
            basis = self._tab.basis[i]
            lin, ang = basis @ f.linear, basis @ f.angular
            tau[i] = s[i] * _bearing_scalar(bearing, lin, ang)
        return tau

    def acceleration(self, q, qd, tau):
        """
        Joint accelerations of the plant for a motor torque.

        Without load-dependent friction this is one ``pinocchio.aba`` call;
        with it, Newton iterations on ``T(tau_rigid + tau_bearing) + Ia qdd +
        tau_v = tau`` using Pinocchio's ``rnea`` (for the rigid torque and the
        joint reactions) and ``crba``.

        Parameters
        ----------
        q, qd : numpy.ndarray
            State, (n,).
        tau : numpy.ndarray
            Motor torque referred to the joint side, (n,) [N m or N].

        Returns
        -------
        numpy.ndarray
            Accelerations, (n,).

        """
        applied = np.asarray(tau, dtype=float)
        if self.friction:
            applied = applied - self._velocity_friction(qd)
        return self._accel(q, qd, applied)

    def _accel(self, q, qd, applied):
        """Accelerations for the torque left after the velocity friction, (n,)."""
        import pinocchio as pin
        b = self._bridge
        pm, pd = b.pin_model, b.pin_data
        if not (self.friction and self._load):
            if b.plain:
                return np.array(pin.aba(pm, pd, q, qd, applied))
            return b.from_v(pin.aba(pm, pd, b.q(q), b.v(qd), b.v(applied)))
        pq, pv = b.q(q), b.v(qd)
        arm = self._tab.armature
        rigid_m = b.from_matrix(pin.crba(pm, pd, pq)) - np.diag(arm)
        rigid_m = np.triu(rigid_m) + np.triu(rigid_m, 1).T
        s = smooth_sign(qd, self._eps)
        x = self.qdd.copy()
        scale = max(1.0, float(np.max(np.abs(applied))))
        for _ in range(20):
            rigid = b.from_v(pin.rnea(pm, pd, pq, pv, b.v(x))) - arm * x
            out = rigid + self._bearing_friction(s)
            tau_in, slope = self._transmission(out, s)
            resid = tau_in + arm * x - applied
            if np.max(np.abs(resid)) <= 1e-11 * scale:
                break
            x = x - np.linalg.solve(slope[:, None] * rigid_m + np.diag(arm), resid)
        return x

    # ------------------------------------------------------------------ stepping
    def step(self, tau, duration=None):
        """
        Advance the plant with a constant motor torque (zero-order hold).

        Parameters
        ----------
        tau : array_like
            Motor torque referred to the joint side, (n,) [N m or N].
        duration : float, optional
            Time to advance [s]; default one sub-step. It is split into equal
            sub-steps no longer than ``dt``.

        Returns
        -------
        tuple of numpy.ndarray
            New ``(q, qd)`` (copies).

        """
        tau = self.model.check_configuration(tau, 'tau')
        duration = self.dt if duration is None else float(duration)
        if not (math.isfinite(duration) and duration >= 0.0):
            raise InputError('duration', f'must be finite and >= 0, got {duration}')
        steps = max(1, int(math.ceil(duration / self.dt - 1e-9))) if duration > 0 else 0
        h = duration / steps if steps else 0.0
        advance = self._rk4 if self.integrator == 'rk4' else self._semi_implicit
        for _ in range(steps):
            advance(tau, h)
        self.time += duration
        return self.q.copy(), self.qd.copy()

    def _rk4(self, tau, h, check=True):
        q, qd = self.q, self.qd
        a1 = self.acceleration(q, qd, tau)
        q2, v2 = q + 0.5 * h * qd, qd + 0.5 * h * a1
        a2 = self.acceleration(q2, v2, tau)
        q3, v3 = q + 0.5 * h * v2, qd + 0.5 * h * a2
        a3 = self.acceleration(q3, v3, tau)
        q4, v4 = q + h * v3, qd + h * a3
        a4 = self.acceleration(q4, v4, tau)
        self.q = q + h / 6.0 * (qd + 2 * v2 + 2 * v3 + v4)
        self.qd = qd + h / 6.0 * (a1 + 2 * a2 + 2 * a3 + a4)
        self.qdd = a4
        if check and not self.finite():
            raise FloatingPointError('plant state diverged (check torques and time step)')

    def advance(self, tau, h):
        """
        Advance one integration step of ``h`` with a constant torque (the real-time path).

        The same step as :meth:`step` for a duration of one sub-step, without
        its input checks and without the divergence check: the caller passes
        a float array of shape (n,) and ``h > 0``, and checks
        :meth:`finite` when it needs to (the simulated board, once per cycle).

        Parameters
        ----------
        tau : numpy.ndarray
            Motor torque referred to the joint side, (n,) [N m or N].
        h : float
            Step [s].

        """
        if self.integrator == 'rk4':
            self._rk4(tau, h, check=False)
        else:
            self._semi_implicit(tau, h, check=False)
        self.time += h

    def finite(self):
        """Tell whether every position and velocity is a finite number (bool)."""
        return bool(np.isfinite(self.q).all() and np.isfinite(self.qd).all())

    def _semi_implicit(self, tau, h, check=True):
        q, qd = self.q, self.qd
        fast = plant_step.compiled() if self._slip else None
        if fast is None or not self._compiled_step(fast, q, qd, tau, h):
            if self._slip:
                # Friction slope d(tau_f)/d(qd) >= 0 treated implicitly, per joint.
                dv = 1e-6
                probe = self._probe
                probe[0] = qd
                np.add(qd, dv, out=probe[1])
                np.subtract(qd, dv, out=probe[2])
                friction = self._velocity_friction(probe)
                acc = self._accel(q, qd, tau - friction[0])
                slope = (friction[1] - friction[2]) / (2 * dv)
                inertia = self._diag_inertia(q)
                qd_new = qd + h * acc / (1.0 + h * np.maximum(slope, 0.0) / inertia)
            else:  # no velocity friction: the implicit term is zero
                qd_new = qd + h * self._accel(q, qd, tau)
            self.q = q + h * qd_new
            self.qd = qd_new
            self.qdd = (qd_new - qd) / h
        if check and not self.finite():
            raise FloatingPointError('plant state diverged (check torques and time step)')

    def _compiled_step(self, fast, q, qd, tau, h):
        """Take the same step in compiled loop form (plant_step): a few us instead of ~20."""
        try:
            friction, slope = fast[0](qd, self._friction_table, 1e-6)
            acc = self._accel(q, qd, tau - friction)
            self.q, self.qd, self.qdd = fast[1](q, qd, acc, slope, self._diag_inertia(q), h)
        except TypeError:   # an array type it was not compiled for: the NumPy form
            return False
        return True

    def _diag_inertia(self, q):
        import pinocchio as pin
        b = self._bridge
        if b.plain:
            return pin.crba(b.pin_model, b.pin_data, q).diagonal().copy()
        m = pin.crba(b.pin_model, b.pin_data, b.q(q))
        return np.diag(b.from_matrix(m)).copy()

    def velocity_friction(self, qd):
        """
        Return the plant's true velocity friction (for reports and identification checks).

        Parameters
        ----------
        qd : array_like
            Velocities, (n,) or (N, n).

        Returns
        -------
        numpy.ndarray
            Friction torque, same shape [N m or N].

        """
        return self._velocity_friction(np.asarray(qd, dtype=float))
