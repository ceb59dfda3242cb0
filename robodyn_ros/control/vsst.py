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
Seed 003's variable-structure self-tuner (VSST), one per joint.

Gawthrop's continuous-time, emulator-based, implicit model-reference
self-tuning controller (seed 003 ch. 6.5.3, 6.8 and Appendix C) with no
control weighting (``Q = 0``), which makes it a relay, i.e. a sliding-mode
controller whose switching surface is produced by the self-tuned emulator.

Per joint, output ``y`` (the joint angle) and input ``u`` (the tuner's own
output, in the thesis's DAC-volt units, scaled to torque by
``torque_scale``):

* assumed system ``A y = B u`` (Appendix C: ``A = s^2 + 2 s + 1``, ``B =
  1``); emulator polynomial ``P`` and observer polynomial ``C`` (both ``s +
  1``); the Diophantine identity ``P C = E A + F`` gives the emulator
  ``phi* = (E B / C) u + (F / C) y + d`` of ``phi = P y`` (``d`` is the
  offset that gives the integral action);
* identification (implicit, the emulator's own parameters ``theta = [E B,
  F, d]``): recursive least squares with forgetting on ``(P / Cs) y =
  theta' X / Cs``, ``X = [s^i u / C, s^i y / C, 1]``, ``1 / Cs`` the
  realisability filter; initial estimate from the assumed system;
* control (``R = 1``, ``Q = 0``): the input that makes the emulator output
  equal to the set-point one sample ahead, ``u = (w - phi*(u = 0)) / (phi*(u
  = 1) - phi*(u = 0))``, limited to ``[u_min, u_max]`` and then *switched*
  to the nearer limit (Appendix C ``Switched = TRUE``), or, with a
  boundary layer ``Phi > 0``, ``u = u_max sat((w - phi*(0)) / Phi)``.

Set-point. With ``R = 1`` the closed loop follows ``y = w / P(s)``; with
``w`` the desired angle (``setpoint='position'``, the thesis's literal
choice) the joint lags a moving reference by ``P``'s time constant (1 s).
The default ``setpoint='model'`` feeds ``w = P(s) q_ref`` (computed from the
reference's derivatives), so that the sliding surface is ``P(s) e = e' + e =
0`` and the tuner drives the tracking error, not a lagged copy of it, to
zero. The thesis's remark that a set-point filter did not help concerns a
different filter, whose expression is lost.
"""

import numpy as np

from . import fast_tuner
from .base import Controller, per_joint
from .filters import StateVariableFilter
from ..errors import InputError

#: Seed 003 Appendix C.
APPENDIX_C = {
    'a': (1.0, 2.0, 1.0), 'b': (1.0,), 'p': (1.0, 1.0), 'c': (1.0, 1.0), 'cs': (1.0, 1.0),
    'initial_variance': 1e5, 'forget_time': 1000.0, 'u_max': 10.0, 'u_min': -10.0,
    'small': 1e-4, 'integral_action': True, 'switched': True,
}


def _poly(coeffs, name):
    c = np.trim_zeros(np.asarray(coeffs, dtype=float), 'f')
    if c.size == 0 or not np.all(np.isfinite(c)):
        raise InputError(name, f'must be a finite non-zero polynomial, got {coeffs!r}')
    return c


def emulator_design(a, b, p, c):
    """
    Solve ``P C = E A + F`` (``deg F < deg A``) and return ``(E B, F)``.

    Parameters
    ----------
    a, b, p, c : sequence of float
        Polynomials, highest power first.

    Returns
    -------
    tuple of numpy.ndarray
        ``(EB, F)`` coefficients, highest power first.

    """
    e, f = np.polydiv(np.polymul(p, c), a)
    f = np.asarray(f, dtype=float)
    f = np.concatenate([np.zeros(max(0, len(a) - 1 - f.size)), f])[-(len(a) - 1):]
    return np.polymul(e, b), f


class VariableStructureSelfTuner:
    """
    ``n`` independent per-joint VS self-tuners (vectorised).

    Parameters
    ----------
    n : int
        Number of joints.
    period : float
        Sample period [s] (Appendix C: 0.008251 s).
    a, b : sequence of float
        Assumed system ``B / A`` (initial emulator), highest power first.
    p, c, cs : sequence of float
        Emulator, observer and realisability polynomials.
    initial_variance : float
        Initial RLS variance.
    forget_time : float
        Forgetting time constant [s]: ``lambda = exp(-period / forget_time)``.
    u_max, u_min : float
        Output limits (tuner units).
    small : float
        Smallest accepted ``phi*(1) - phi*(0)``.
    integral_action : bool
        Estimate an offset ``d``.
    switched : bool
        Relay output (the nearer limit).
    boundary : float or array_like
        Boundary layer ``Phi`` (replaces the relay when > 0).
    setpoint : {'model', 'position'}
        See the module docstring.
    accelerate : bool
        Use the compiled sample of :mod:`.fast_tuner` when numba is
        installed (same numbers as the numpy code).

    """

    def __init__(self, n, period, *, a=APPENDIX_C['a'], b=APPENDIX_C['b'], p=APPENDIX_C['p'],
                 c=APPENDIX_C['c'], cs=APPENDIX_C['cs'],
                 initial_variance=APPENDIX_C['initial_variance'],
                 forget_time=APPENDIX_C['forget_time'], u_max=APPENDIX_C['u_max'],
                 u_min=APPENDIX_C['u_min'], small=APPENDIX_C['small'],
                 integral_action=APPENDIX_C['integral_action'],
                 switched=APPENDIX_C['switched'], boundary=0.0, setpoint='model',
                 accelerate=True):
        named = ((a, 'a'), (b, 'b'), (p, 'p'), (c, 'c'), (cs, 'cs'))
        a, b, p, c, cs = (_poly(v, k) for v, k in named)
        if a.size < 2:
            raise InputError('a', 'the assumed system must have degree >= 1')
        eb, f = emulator_design(a, b, p, c)
        nc, ncs = c.size - 1, cs.size - 1
        if eb.size - 1 > nc or f.size - 1 > nc:
            raise InputError('c', 'deg C too small for the emulator (need deg C >= deg EB and '
                                  '>= deg A - 1)')
        if p.size - 1 > ncs:
            raise InputError('cs', 'deg Cs must be >= deg P (P / Cs proper)')
        if not (u_max > u_min):
            raise InputError('u_max', f'must exceed u_min ({u_min}), got {u_max}')
        if setpoint not in ('model', 'position'):
            raise InputError('setpoint', f"must be 'model' or 'position', got {setpoint!r}")
        if setpoint == 'model' and p.size > 3:
            raise InputError('p', "setpoint='model' supports deg P <= 2")
        self.n, self.period = int(n), float(period)
        self.p = p
        self.u_max, self.u_min, self.small = float(u_max), float(u_min), float(small)
        self.switched = bool(switched)
        self.boundary = per_joint(boundary, self.n, 'boundary', low=0.0)
        self.setpoint = setpoint
        self.forgetting = float(np.exp(-self.period / forget_time))
        self.initial_variance = float(initial_variance)
        self._ng, self._nf = eb.size, f.size
        self._offset = bool(integral_action)
        size = self._ng + self._nf + (1 if self._offset else 0)
        # Parameter order: s^0 .. s^k coefficients (ascending) of EB, then of F, then d.
        theta0 = np.concatenate([eb[::-1], f[::-1], [0.0] if self._offset else []])
        self._theta0 = np.tile(theta0, (self.n, 1))
        self._lower = np.full(size, -1e6)
        self._lower[0] = small
        self._upper = np.full(size, 1e6)
        self.size = size
        h = self.period
        self._build_banks([StateVariableFilter(c, h), StateVariableFilter(np.polymul(c, cs), h),
                           StateVariableFilter(cs, h)])
        self.accelerated = bool(accelerate and fast_tuner.AVAILABLE)
        self.reset()
        if self.accelerated:
            # Compile (or load from the cache) now, not in the first control step.
            self.update(np.zeros(self.n), np.zeros(self.n))
            self.update(np.zeros(self.n), np.zeros(self.n))
            self.reset()

    def _build_banks(self, filters):
        """
        Stack the filters into one augmented state with linear output maps.

        ``Z = [x_u; u; x_y; y; 1]``: ``x_u`` the states of ``1 / C`` and ``1 /
        (C Cs)`` driven by the held input ``u``, ``x_y`` those of ``1 / C``,
        ``1 / (C Cs)`` and ``1 / Cs`` driven by the angle ``y`` (linearly
        interpolated). One sample is ``Z <- A Z + b y_new``; the
        identification data, its target and the one-sample-ahead emulator
        data are fixed matrices times ``Z`` (precomputed here).
        """
        f_c, f_cc, f_cs = filters

        def bank(parts):
            size = sum(f.order for f in parts)
            phi = np.zeros((size, size))
            g0, g1 = np.zeros(size), np.zeros(size)
            offsets, o = [], 0
            for f in parts:
                k = f.order
                phi[o:o + k, o:o + k] = f.phi
                g0[o:o + k], g1[o:o + k] = f.g0, f.g1
                offsets.append(o)
                o += k
            return phi, g0, g1, offsets, size

        phi_u, g0_u, _, (ou_c, ou_cc), ku = bank([f_c, f_cc])
        phi_y, g0_y, g1_y, (oy_c, oy_cc, oy_cs), ky = bank([f_c, f_cc, f_cs])
        iu, iy, i1 = ku, ku + 1 + ky, ku + ky + 2     # rows of u, y and the constant in Z
        size = ku + ky + 3
        yo = ku + 1                                   # first row of x_y in Z

        def rows(f, offset, input_row, count):
            # Map Z -> s^i x / F for i < count (x the filter's input).
            out = np.zeros((count, size))
            for i in range(count):
                if i < f.order:
                    out[i, offset + i] = 1.0
                else:
                    out[i, offset:offset + f.order] = f.row
                    out[i, input_row] = f.b_last
            return out

        # One sample: x_u <- Phi_u x_u + g0_u u (u held); x_y <- Phi_y x_y + g0_y y_old
        # + g1_y (y_new - y_old); y <- y_new; u and 1 unchanged.
        a = np.eye(size)
        a[:ku, :ku] = phi_u
        a[:ku, iu] = g0_u
        a[yo:yo + ky, yo:yo + ky] = phi_y
        a[yo:yo + ky, iy] = g0_y - g1_y
        a[iy, iy] = 0.0
        b = np.zeros(size)
        b[yo:yo + ky] = g1_y
        b[iy] = 1.0
        self._a, self._b, self._b0 = a, b[:, None], b
        ng, nf = self._ng, self._nf
        ident = [rows(f_cc, ou_cc, iu, ng), rows(f_cc, yo + oy_cc - 0, iy, nf)]
        emul = [rows(f_c, ou_c, iu, ng), rows(f_c, yo + oy_c, iy, nf)]
        if self._offset:
            one = np.zeros((1, size))
            one[0, i1] = 1.0
            ident.append(one)
            emul.append(one)
        self._m_id = np.vstack(ident)
        p_asc = self.p[::-1]
        self._m_target = p_asc @ rows(f_cs, yo + oy_cs, iy, p_asc.size)
        # Prediction one sample ahead with u = 0 held and y held: Z1 = P Z.
        pred = np.eye(size)
        pred[:ku, :ku] = phi_u
        pred[:ku, iu] = 0.0
        pred[iu, iu] = 0.0
        pred[yo:yo + ky, yo:yo + ky] = phi_y
        pred[yo:yo + ky, iy] = g0_y
        self._m_em = np.vstack(emul) @ pred
        unit_z = np.zeros(size)
        unit_z[:ku] = g0_u
        unit_z[iu] = 1.0
        self._unit = (np.vstack(emul[:1]) @ unit_z)
        dc = np.zeros(size)
        dc[[ou_c, ou_cc]] = [1.0 / f_c.coefficients[-1], 1.0 / f_cc.coefficients[-1]]
        dc_y = np.zeros(size)
        dc_y[[yo + oy_c, yo + oy_cc, yo + oy_cs]] = [1.0 / f.coefficients[-1] for f in filters]
        dc_y[iy] = 1.0
        self._dc_u, self._dc_y = dc, dc_y
        self._iu, self._i1, self._size = iu, i1, size

    def reset(self):
        """Restart the filters and return to the initial estimate."""
        self.theta = self._theta0.copy()
        self.cov = np.tile(np.eye(self.size) * self.initial_variance, (self.n, 1, 1))
        self.restart()

    def restart(self):
        """Restart the filters (after a gap in the data); keep the estimate."""
        self._z = np.zeros((self._size, self.n))
        self._steps = 0
        self._started = False
        self.residual = np.zeros(self.n)

    def setpoint_value(self, q_ref, qd_ref, qdd_ref):
        """
        Set-point ``w`` for a reference (see ``setpoint``).

        Parameters
        ----------
        q_ref, qd_ref, qdd_ref : numpy.ndarray
            Reference, (n,).

        Returns
        -------
        numpy.ndarray
            ``w``, (n,).

        """
        if self.setpoint == 'position':
            return q_ref
        derivs = (q_ref, qd_ref, qdd_ref)
        p = self.p[::-1]
        return sum(p[i] * derivs[i] for i in range(p.size))

    def compiled_state(self):
        """
        Return the tuners' state and matrices as the compiled sample takes them.

        The arrays are the tuners' own (updated in place by
        :func:`robodyn_ros.control.fast_tuner.tuner_step`), in its argument
        order from ``z`` to ``resid_out`` without ``y``, ``w`` and
        ``identify``.

        Returns
        -------
        tuple or None
            None until the filters have started, or without the compiled
            tuner step.

        """
        if not (self.accelerated and self._started):
            return None
        return (self._z, self._a, self._b0, self._m_id, self._m_target, self._m_em,
                self.theta, self.cov, self.forgetting, self.initial_variance, self._lower,
                self._upper, self._unit, self._ng, self.small, self.u_min, self.u_max,
                self.switched, self.boundary, self._iu, self.residual)

    def update(self, y, w):
        """
        Take the new joint angles, tune, and return the new outputs.

        Parameters
        ----------
        y : numpy.ndarray
            Joint angles, (n,) [rad or m].
        w : numpy.ndarray
            Set-points, (n,).

        Returns
        -------
        numpy.ndarray
            Outputs ``u`` (n,) in ``[u_min, u_max]`` (tuner units).

        """
        z = self._z
        if self.accelerated and self._started:
            u = fast_tuner.tuner_step(
                z, self._a, self._b0, np.ascontiguousarray(y, dtype=float), self._m_id,
                self._m_target, self._m_em, self.theta, self.cov, self.forgetting,
                self.initial_variance, self._lower, self._upper, self._unit, self._ng,
                np.ascontiguousarray(w, dtype=float), self.small, self.u_min, self.u_max,
                self.switched, self.boundary, True, self._iu, self.residual)
            return u
        if not self._started:
            # Steady state of the current input (zero) and angle.
            z = np.outer(self._dc_u, z[self._iu]) + np.outer(self._dc_y, y)
            z[self._i1] = 1.0
            self._started = True
        else:
            z = self._a @ z + self._b * y
            self._identify(self._m_id @ z, self._m_target @ z)
        # Emulator one sample ahead with u held: phi*(u) = phi*(0) + u * slope.
        phi0 = np.einsum('nj,jn->n', self.theta, self._m_em @ z)
        slope = self.theta[:, :self._ng] @ self._unit
        resid = w - phi0
        self.residual = resid
        with np.errstate(divide='ignore', invalid='ignore'):
            u_lin = np.where(np.abs(slope) > self.small, resid / slope, 0.0)
        u = np.minimum(np.maximum(u_lin, self.u_min), self.u_max)
        if self.switched:
            relay = np.where(u > 0.5 * (self.u_min + self.u_max), self.u_max, self.u_min)
            phi = self.boundary
            if phi.any():
                with np.errstate(divide='ignore', invalid='ignore'):
                    smooth = self.u_max * np.minimum(np.maximum(resid / phi, -1.0), 1.0)
                relay = np.where(phi > 0.0, np.minimum(np.maximum(smooth, self.u_min),
                                                       self.u_max), relay)
            u = relay
        z[self._iu] = u
        self._z = z
        return u.copy()

    def _identify(self, x, z):
        """One RLS step per joint; ``x`` is the data (p, n), ``z`` the targets (n,)."""
        lam = self.forgetting
        cov = self.cov
        px = np.einsum('nij,jn->ni', cov, x)
        gain = px / (lam + np.einsum('jn,nj->n', x, px))[:, None]
        theta = self.theta + gain * (z - np.einsum('nj,jn->n', self.theta, x))[:, None]
        cov = cov - gain[:, :, None] * px[:, None, :]
        diag = cov.diagonal(axis1=1, axis2=2)
        cov *= np.where(diag.max(axis=1) <= lam * self.initial_variance, 1.0 / lam,
                        1.0)[:, None, None]
        if not np.isfinite(theta).all():
            ok = np.isfinite(theta).all(axis=1) & np.isfinite(cov).all(axis=(1, 2))
            theta = np.where(ok[:, None], theta, self.theta)
            cov = np.where(ok[:, None, None], cov, self.cov)
        self.theta = np.minimum(np.maximum(theta, self._lower), self._upper)
        self._steps += 1
        if self._steps % 64 == 0:
            cov = 0.5 * (cov + cov.transpose(0, 2, 1))
        self.cov = cov


class SelfTuningRelay(Controller):
    """
    The VS self-tuners alone, without model-based decoupling (seed 003 claim 4).

    ``tau = torque_scale * u`` per joint.

    Parameters
    ----------
    model : RobotModel
        The model (limits and gravity hold only).
    period : float
        Sample period [s].
    torque_scale : float or array_like
        Torque per tuner unit [N m].
    joints : sequence of int, optional
        Joints driven by a tuner (others get zero torque); default all.
    **kwargs
        Passed to :class:`~robodyn_ros.control.base.Controller`, and the
        tuner options to :class:`VariableStructureSelfTuner`.

    """

    law = 'vsst'

    def __init__(self, model, period, torque_scale, *, joints=None, **kwargs):
        tuner_keys = set(APPENDIX_C) | {'a', 'b', 'p', 'c', 'cs', 'boundary', 'setpoint'}
        tuner = {k: kwargs.pop(k) for k in list(kwargs) if k in tuner_keys}
        super().__init__(model, period, **kwargs)
        self.torque_scale = per_joint(torque_scale, self.n, 'torque_scale', low=0.0)
        mask = np.zeros(self.n, dtype=bool)
        mask[list(range(self.n)) if joints is None else list(joints)] = True
        self.mask = mask
        self.tuner = VariableStructureSelfTuner(self.n, self.period, **tuner)

    def _on_restart(self, t, q, qd):
        self.tuner.restart()

    def _compute(self, t, q, qd, ref):
        u = self.tuner.update(q, self.tuner.setpoint_value(ref.q, ref.qd, ref.qdd))
        return np.where(self.mask, self.torque_scale * u, 0.0)

    def reset(self):
        """Restart the tuners from the assumed system."""
        super().reset()
        self.tuner.reset()
