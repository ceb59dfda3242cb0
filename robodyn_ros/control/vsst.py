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

The design constants are one settings record, :class:`SelfTunerSettings`,
whose defaults are Appendix C's. The tuners' state is one record
(:func:`~.vsst_step.tuner_dtype`), which the loop-form sample
:func:`~.vsst_step.tuner_step` works on (compiled with numba, see
:mod:`.jit`); the design (emulator, filter bank) is :mod:`.vsst_bank`.
"""

from dataclasses import dataclass

import numpy as np

from .base import Controller
from .checks import as_vector, per_joint, setting_number, setting_numbers
from .jit import compiled, jitable, record
from .vsst_bank import emulator_design, filter_bank
from .vsst_step import tuner_dtype, tuner_setpoint, tuner_step
from ..errors import InputError

__all__ = ['SelfTunerSettings', 'SelfTuningRelay', 'VariableStructureSelfTuner',
           'emulator_design']

SETPOINTS = ('model', 'position')


@dataclass(frozen=True)
class SelfTunerSettings:
    """
    Design of the per-joint VS self-tuners; the defaults are seed 003's Appendix C.

    Polynomials are in ``s`` [1/s per power], highest power first. Every
    field is checked (polynomials trimmed and made tuples) when the record
    is made; a per-joint ``boundary`` is checked against the number of
    joints where it is used.

    Attributes
    ----------
    a, b : tuple of float
        Assumed system ``B / A`` (initial emulator): ``A = s^2 + 2 s + 1``,
        ``B = 1``.
    p, c, cs : tuple of float
        Emulator, observer and realisability polynomials (all ``s + 1``).
    initial_variance : float
        Initial RLS variance of the emulator parameters [-] (1e5).
    forget_time : float
        Forgetting time constant [s]: ``lambda = exp(-period / forget_time)``
        (1000 s; ``inf`` for none).
    u_max, u_min : float
        Output limits [tuner units, the thesis's DAC volts] (+-10).
    small : float
        Smallest accepted ``phi*(1) - phi*(0)`` [tuner units] (1e-4).
    integral_action : bool
        Estimate an offset ``d`` (integral action).
    switched : bool
        Relay output (the nearer limit).
    boundary : float or tuple of float
        Boundary layer ``Phi`` [tuner units], one or one per joint (replaces
        the relay where > 0; 0, the relay, is Appendix C's).
    setpoint : {'model', 'position'}
        Set-point ``w = P(s) q_ref`` or the thesis's literal ``w = q_ref``
        (see the module docstring).

    """

    a: tuple = (1.0, 2.0, 1.0)
    b: tuple = (1.0,)
    p: tuple = (1.0, 1.0)
    c: tuple = (1.0, 1.0)
    cs: tuple = (1.0, 1.0)
    initial_variance: float = 1e5
    forget_time: float = 1000.0
    u_max: float = 10.0
    u_min: float = -10.0
    small: float = 1e-4
    integral_action: bool = True
    switched: bool = True
    boundary: float = 0.0
    setpoint: str = 'model'

    def __post_init__(self):
        for name in ('a', 'b', 'p', 'c', 'cs'):
            object.__setattr__(self, name, tuple(_poly(getattr(self, name), name).tolist()))
        checked = {
            'initial_variance': setting_number(self.initial_variance, 'initial_variance',
                                               low=0.0, strict=True),
            'forget_time': setting_number(self.forget_time, 'forget_time', low=0.0,
                                          strict=True, allow_inf=True),
            'u_max': setting_number(self.u_max, 'u_max'),
            'u_min': setting_number(self.u_min, 'u_min'),
            'small': setting_number(self.small, 'small', low=0.0, strict=True),
            'integral_action': bool(self.integral_action),
            'switched': bool(self.switched),
            'boundary': setting_numbers(self.boundary, 'boundary', low=0.0),
        }
        for name, value in checked.items():
            object.__setattr__(self, name, value)
        if len(self.a) < 2:
            raise InputError('a', 'the assumed system must have degree >= 1')
        eb, f = emulator_design(*(np.array(v) for v in (self.a, self.b, self.p, self.c)))
        nc = len(self.c) - 1
        if eb.size - 1 > nc or f.size - 1 > nc:
            raise InputError('c', 'deg C too small for the emulator (need deg C >= deg EB and '
                                  '>= deg A - 1)')
        if len(self.p) > len(self.cs):
            raise InputError('cs', 'deg Cs must be >= deg P (P / Cs proper)')
        if not (self.u_max > self.u_min):
            raise InputError('u_max', f'must exceed u_min ({self.u_min}), got {self.u_max}')
        if self.setpoint not in SETPOINTS:
            raise InputError('setpoint', f"must be 'model' or 'position', got "
                                         f'{self.setpoint!r}')
        if self.setpoint == 'model' and len(self.p) > 3:
            raise InputError('p', "setpoint='model' supports deg P <= 2")


def _poly(coeffs, name):
    try:
        c = np.trim_zeros(np.asarray(coeffs, dtype=float).reshape(-1), 'f')
    except (TypeError, ValueError):
        c = np.zeros(0)
    if c.size == 0 or not np.all(np.isfinite(c)):
        raise InputError(name, f'must be a finite non-zero polynomial, got {coeffs!r}')
    return c


def _setpoint_call(state, rq, rqd, rqdd, w):
    tuner_setpoint(state[0], rq, rqd, rqdd, w)


def _step_call(state, y, w):
    tuner_step(state[0], y, w)


_step_entry = compiled(jitable(_step_call))
_setpoint_entry = compiled(jitable(_setpoint_call))


class VariableStructureSelfTuner:
    """
    ``n`` independent per-joint VS self-tuners.

    Parameters
    ----------
    n : int
        Number of joints.
    period : float
        Sample period [s] (Appendix C: 0.008251 s).
    settings : SelfTunerSettings
        The design (default Appendix C's, with ``setpoint='model'``).
    compiled : bool
        Run the sample compiled when numba is installed (same numbers as
        the Python run of the same code).

    Attributes
    ----------
    settings : SelfTunerSettings
        The design it was built with.
    state : numpy.ndarray
        The record (:func:`~.vsst_step.tuner_dtype`).
    theta, cov, residual, boundary : numpy.ndarray
        Views of it: estimates (n, p), covariances (n, p, p), last ``w -
        phi*(0)`` (n,), boundary layers (n,).

    """

    def __init__(self, n, period, settings=SelfTunerSettings(), *, compiled=True):
        if not isinstance(settings, SelfTunerSettings):
            raise InputError('settings', f'must be a SelfTunerSettings, got {settings!r}')
        self.settings = st = settings
        a, b, p, c, cs = (np.array(v) for v in (st.a, st.b, st.p, st.c, st.cs))
        eb, f = emulator_design(a, b, p, c)
        self.n, self.period = int(n), float(period)
        self.p = p
        self.u_max, self.u_min, self.small = st.u_max, st.u_min, st.small
        self.switched = st.switched
        self.setpoint = st.setpoint
        self.forgetting = float(np.exp(-self.period / st.forget_time))
        self.initial_variance = st.initial_variance
        ng, nf, offset = eb.size, f.size, st.integral_action
        self.size = size = ng + nf + (1 if offset else 0)
        bank = filter_bank(p, c, cs, self.period, ng, nf, offset)
        self.state = record(tuner_dtype(self.n, bank.size, size))
        t = self.state[0]
        self._fill(t, bank, ng)
        self.boundary = t['boundary'][:self.n]
        self.boundary[:] = per_joint(st.boundary, self.n, 'boundary', low=0.0)
        # Parameter order: s^0 .. s^k coefficients (ascending) of EB, then of F, then d.
        theta0 = np.concatenate([eb[::-1], f[::-1], [0.0] if offset else []])
        self._theta0 = np.tile(theta0, (self.n, 1))
        lower = np.full(size, -1e6)
        lower[0] = st.small
        t['lower'][:size], t['upper'][:size] = lower, 1e6
        self.theta = t['theta'][:self.n, :size]
        self.cov = t['cov'][:self.n, :size, :size]
        self.residual = t['residual'][:self.n]
        self._u = t['u'][:self.n]
        self._step = _step_entry if compiled else _step_call
        self._setpoint = _setpoint_entry if compiled else _setpoint_call
        self.compiled = bool(compiled) and self._step is not _step_call
        self.reset()
        if self.compiled:   # compile (or load from the cache) now, not in a control step
            zero = np.zeros(self.n)
            self.update(zero, self.setpoint_value(zero, zero, zero))
            self.update(zero, zero)
            self.reset()

    def _fill(self, t, bank, ng):
        """Write the sizes, settings and the bank's matrices into the record."""
        k = bank.size
        p, n = self.size, self.n
        t['n'], t['size'], t['p'], t['ng'], t['iu'], t['i1'] = n, k, p, ng, bank.iu, bank.i1
        t['switched'], t['forgetting'] = self.switched, self.forgetting
        t['var_cap'], t['small'] = self.initial_variance, self.small
        t['u_min'], t['u_max'] = self.u_min, self.u_max
        if self.setpoint == 'model':
            t['n_setpoint'] = self.p.size
            t['setpoint'][:self.p.size] = self.p[::-1]
        t['a'][:k, :k], t['b'][:k] = bank.a, bank.b
        t['m_id'][:p, :k], t['m_target'][:k] = bank.m_id, bank.m_target
        t['m_em'][:p, :k] = bank.m_em
        t['unit'][:ng], t['dc_u'][:k], t['dc_y'][:k] = bank.unit, bank.dc_u, bank.dc_y

    @property
    def started(self):
        """Tell whether the filters are running (bool)."""
        return bool(self.state[0]['started'])

    @property
    def output(self):
        """Give the outputs of the last sample, (n,) [tuner units] (a copy)."""
        return self._u.copy()

    def reset(self):
        """Restart the filters and return to the initial estimate."""
        self.theta[:] = self._theta0
        self.cov[:] = np.eye(self.size) * self.initial_variance
        self.restart()

    def restart(self):
        """Restart the filters (after a gap in the data); keep the estimate."""
        t = self.state[0]
        t['z'][:] = 0.0
        t['u'][:] = 0.0
        t['started'] = False
        self.residual[:] = 0.0

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
        w = np.empty(self.n)
        named = ((q_ref, 'q_ref'), (qd_ref, 'qd_ref'), (qdd_ref, 'qdd_ref'))
        self._setpoint(self.state, *(as_vector(v, self.n, k) for v, k in named), w)
        return w

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
        self._step(self.state, as_vector(y, self.n, 'y'), as_vector(w, self.n, 'w'))
        return self._u.copy()


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
    tuner : SelfTunerSettings
        Design of the tuners (default Appendix C's).
    compiled : bool
        Run the tuners' sample compiled when numba is installed.
    **kwargs
        Passed to :class:`~robodyn_ros.control.base.Controller`.

    """

    law = 'vsst'

    def __init__(self, model, period, torque_scale, *, joints=None, tuner=SelfTunerSettings(),
                 compiled=True, **kwargs):
        super().__init__(model, period, **kwargs)
        self.torque_scale = per_joint(torque_scale, self.n, 'torque_scale', low=0.0)
        mask = np.zeros(self.n, dtype=bool)
        mask[list(range(self.n)) if joints is None else list(joints)] = True
        self.mask = mask
        self.tuner = VariableStructureSelfTuner(self.n, self.period, tuner, compiled=compiled)

    def _on_restart(self, t, q, qd):
        self.tuner.restart()

    def _compute(self, t, q, qd, ref):
        u = self.tuner.update(q, self.tuner.setpoint_value(ref.q, ref.qd, ref.qdd))
        return np.where(self.mask, self.torque_scale * u, 0.0)

    def reset(self):
        """Restart the tuners from the assumed system."""
        super().reset()
        self.tuner.reset()
