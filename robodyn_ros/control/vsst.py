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

The tuners' state is one record (:func:`~.vsst_step.tuner_dtype`), which the
loop-form sample :func:`~.vsst_step.tuner_step` works on (compiled with
numba, see :mod:`.jit`); the design (emulator, filter bank) is
:mod:`.vsst_bank`.
"""

import numpy as np

from .base import Controller
from .checks import as_vector, per_joint
from .jit import compiled, jitable, record
from .vsst_bank import emulator_design, filter_bank
from .vsst_step import tuner_dtype, tuner_setpoint, tuner_step
from ..errors import InputError

__all__ = ['APPENDIX_C', 'TUNER_OPTIONS', 'SelfTuningRelay', 'VariableStructureSelfTuner',
           'emulator_design']

#: Seed 003 Appendix C.
APPENDIX_C = {
    'a': (1.0, 2.0, 1.0), 'b': (1.0,), 'p': (1.0, 1.0), 'c': (1.0, 1.0), 'cs': (1.0, 1.0),
    'initial_variance': 1e5, 'forget_time': 1000.0, 'u_max': 10.0, 'u_min': -10.0,
    'small': 1e-4, 'integral_action': True, 'switched': True,
}

#: Keyword options of :class:`VariableStructureSelfTuner` (besides n and period).
TUNER_OPTIONS = frozenset(APPENDIX_C) | {'boundary', 'setpoint', 'compiled'}


def _poly(coeffs, name):
    c = np.trim_zeros(np.asarray(coeffs, dtype=float), 'f')
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
    compiled : bool
        Run the sample compiled when numba is installed (same numbers as
        the Python run of the same code).

    Attributes
    ----------
    state : numpy.ndarray
        The record (:func:`~.vsst_step.tuner_dtype`).
    theta, cov, residual, boundary : numpy.ndarray
        Views of it: estimates (n, p), covariances (n, p, p), last ``w -
        phi*(0)`` (n,), boundary layers (n,).

    """

    def __init__(self, n, period, *, a=APPENDIX_C['a'], b=APPENDIX_C['b'], p=APPENDIX_C['p'],
                 c=APPENDIX_C['c'], cs=APPENDIX_C['cs'],
                 initial_variance=APPENDIX_C['initial_variance'],
                 forget_time=APPENDIX_C['forget_time'], u_max=APPENDIX_C['u_max'],
                 u_min=APPENDIX_C['u_min'], small=APPENDIX_C['small'],
                 integral_action=APPENDIX_C['integral_action'],
                 switched=APPENDIX_C['switched'], boundary=0.0, setpoint='model',
                 compiled=True):
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
        self.setpoint = setpoint
        self.forgetting = float(np.exp(-self.period / forget_time))
        self.initial_variance = float(initial_variance)
        ng, nf, offset = eb.size, f.size, bool(integral_action)
        self.size = size = ng + nf + (1 if offset else 0)
        bank = filter_bank(p, c, cs, self.period, ng, nf, offset)
        self.state = record(tuner_dtype(self.n, bank.size, size))
        t = self.state[0]
        self._fill(t, bank, ng)
        self.boundary = t['boundary'][:self.n]
        self.boundary[:] = per_joint(boundary, self.n, 'boundary', low=0.0)
        # Parameter order: s^0 .. s^k coefficients (ascending) of EB, then of F, then d.
        theta0 = np.concatenate([eb[::-1], f[::-1], [0.0] if offset else []])
        self._theta0 = np.tile(theta0, (self.n, 1))
        lower = np.full(size, -1e6)
        lower[0] = small
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
    **kwargs
        Passed to :class:`~robodyn_ros.control.base.Controller`, and the
        tuner options to :class:`VariableStructureSelfTuner`.

    """

    law = 'vsst'

    def __init__(self, model, period, torque_scale, *, joints=None, **kwargs):
        tuner = {k: kwargs.pop(k) for k in list(kwargs) if k in TUNER_OPTIONS}
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
