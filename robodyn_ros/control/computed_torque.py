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

Computed torque is also the frame of the seed 003 laws: a payload estimator
(:class:`~robodyn_ros.control.computed_torque_lme.ComputedTorqueLME`) and
variable-structure self-tuners (:class:`~robodyn_ros.control.mbvsst.MBVSST`)
are optional parts composed into this one implementation, whose sample is
the loop-form :func:`~robodyn_ros.control.ct_step.ct_step` on the parts'
records (one compiled call with numba and the C kernels).

Every form has a split form for a board in impedance mode
(:meth:`~robodyn_ros.control.split_form.SplitForm.impedance_step`): the
reference, the gains scaled by the diagonal of the model inertia (the
decoupled approximation) and the model terms along the reference as
feed-forward, one compiled call of :func:`~robodyn_ros.control.ct_split.ct_split`.
"""

import math

import numpy as np

from . import ct_step as step
from .base import Controller
from .checks import as_vector, per_joint
from .ct_split import ct_split_entry, python_split
from .gains import ct_gains
from .jit import AVAILABLE, record
from .payload import estimator_dtype
from .step_dynamics import StepKernels
from .vsst_step import tuner_dtype
from ..errors import InputError

FORMS = tuple(step.FORM_CODES)

#: Longest time between two samples that the filters advance over [s] (a longer gap
#: counts as this long; the control cycle's state timeout restarts the law sooner).
MAX_GAP = 0.05


class ComputedTorque(Controller):
    """
    Computed torque in joint space, with optional payload estimator and tuners.

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
    compiled : bool
        Run the sample compiled when numba and the C kernels are there
        (else, or with False, the same code runs as Python).
    **kwargs
        Passed to :class:`~robodyn_ros.control.base.Controller`.

    Attributes
    ----------
    kp, kd, ki, torque_limit : numpy.ndarray
        Views of the law's record (assigning writes into it).
    payload, estimator, tuner : object or None
        The optional parts (see the subclasses).

    """

    law = 'computed_torque'
    law_options = ('omega', 'zeta', 'kp', 'kd', 'ki', 'form', 'compiled')
    live_gains = ('kp', 'kd', 'ki')
    has_split_form = True
    #: Natural frequency of the gains built from options without gains [rad/s] (None:
    #: the constructor's own gains).
    default_omega = 20.0

    def __init__(self, model, period, kp=None, kd=None, *, omega=None, zeta=1.0,
                 form='tracking', ki=0.0, compiled=True, **kwargs):
        n = model.n
        self._law = record(step.law_dtype(n))
        g = self._law[0]
        self._kp, self._kd, self._ki = g['kp'][:n], g['kd'][:n], g['ki'][:n]
        self._limit, self._integral = g['limit'][:n], g['integral'][:n]
        super().__init__(model, period, **kwargs)
        if omega is not None:
            if kp is not None or kd is not None:
                raise InputError('omega', 'give either omega or kp and kd, not both')
            kp, kd = ct_gains(omega, zeta, n)
        if kp is None or kd is None:
            raise InputError('kp', 'give kp and kd, or omega')
        self.kp, self.kd, self.ki = kp, kd, ki
        if form not in FORMS:
            raise InputError('form', f'must be one of {", ".join(FORMS)}, got {form!r}')
        self.form = form
        g['form'], g['period'] = step.FORM_CODES[form], self.period
        g['band_high'][:] = np.inf
        self.payload = self.estimator = self.tuner = None
        self._compiled = bool(compiled)
        g['steps'] = 1
        self._last_t = None
        self._max_steps = max(1, int(round(MAX_GAP / self.period)))
        # Stand-ins for the parts this law does not use (the step leaves them alone).
        self._est = record(estimator_dtype(n, 2))
        self._tun = record(tuner_dtype(n, 10, 4))
        self._use_kernels(StepKernels(self.dynamics, None, compiled))

    @classmethod
    def _keywords(cls, model, opts):
        kwargs = super()._keywords(model, opts)
        if 'kp' in opts and 'kd' in opts:
            kwargs['kp'], kwargs['kd'] = opts['kp'], opts['kd']
        elif 'omega' in opts or cls.default_omega is not None:
            kwargs['omega'] = opts.get('omega', cls.default_omega)
            if 'zeta' in opts:
                kwargs['zeta'] = opts['zeta']
        for key in ('ki', 'form', 'compiled'):
            if key in opts:
                kwargs[key] = opts[key]
        return kwargs

    # ------------------------------------------------------------------ gains (record views)
    @property
    def kp(self):
        """Give the proportional gains, (n,) [1/s^2] (the record's array)."""
        return self._kp

    @kp.setter
    def kp(self, value):
        self._kp[:] = per_joint(value, self.n, 'kp', low=0.0)

    @property
    def kd(self):
        """Give the derivative gains, (n,) [1/s] (the record's array)."""
        return self._kd

    @kd.setter
    def kd(self, value):
        self._kd[:] = per_joint(value, self.n, 'kd', low=0.0)

    @property
    def ki(self):
        """Give the integral gains, (n,) [1/s^3] (the record's array)."""
        return self._ki

    @ki.setter
    def ki(self, value):
        self._ki[:] = per_joint(value, self.n, 'ki', low=0.0)

    @property
    def integral(self):
        """Integral of the error, (n,) [rad s or m s] (a copy)."""
        return self._integral.copy()

    @property
    def compiled(self):
        """Tell whether the sample runs as numba-compiled code on the C kernels (bool)."""
        return self._native

    @property
    def torque_limit(self):
        """Symmetric torque limits, (n,) [N m or N] (the record's array)."""
        return self._limit

    @torque_limit.setter
    def torque_limit(self, value):
        self._limit[:] = value

    # ------------------------------------------------------------------ parts
    def _use_kernels(self, kernels):
        """Take the kernels of the model in use; choose the compiled or Python step."""
        self._kernels = kernels
        self._handles = kernels.handles
        self._native = native = self._compiled and kernels.compiled
        python = step.python_functions()
        self._step = step.ct_step_entry if native else python[0]
        entries = self._compiled and AVAILABLE
        self._command = step.command_entry if entries else python[1]
        self._integrate = step.integrate_entry if entries else python[2]
        self._split_step = ct_split_entry if native else python_split()
        self._split_warm = not native
        if native and type(self)._compiled_step is ComputedTorque._compiled_step:
            self._warm()

    def _attach_estimator(self, payload, estimator, adapt):
        """Compose a payload estimator in: its estimate enters the model torque."""
        self.payload, self.estimator = payload, estimator
        self._est = estimator.state
        g = self._law[0]
        g['adapt'], g['payload'] = bool(adapt), True
        self._use_kernels(estimator.kernels)

    def _attach_tuner(self, tuner, relay):
        """Compose tuners in: ``relay * u`` (n,) [N m per unit] is added to the torque."""
        self.tuner = tuner
        self._tun = tuner.state
        g = self._law[0]
        g['tune'] = True
        g['relay'][:self.n] = relay
        if self._native and type(self)._compiled_step is ComputedTorque._compiled_step:
            self._warm()

    def _warm(self):
        """Compile (or load) the step now, on copies of the records, not in a control step."""
        z = np.zeros(self.n)
        out = record(self._out.record.dtype)
        self._step(self._law.copy(), self._est.copy(), self._tun.copy(), self._handles, z, z,
                   z, z, z, out)

    def prepare_split(self):
        """
        Compile (or load) the split form now, on copies of the records, not in a cycle.

        Raises
        ------
        InputError
            If the law has no split form (a subclass that computes in Python).

        """
        super().prepare_split()
        if self._split_warm:
            return
        z = np.zeros(self.n)
        out = record(self._out.record.dtype)
        split = self._split_output()
        self._split_step(self._law.copy(), self._est.copy(), self._tun.copy(), self._handles,
                         z, z, z, z, z, out, split.record.copy())
        self._split_warm = True

    # ------------------------------------------------------------------ the law
    def _compiled_split(self, state, ref, out, setpoint):
        self._law[0]['steps'] = self._elapsed(state.t)
        return self._split_step(self._law, self._est, self._tun, self._handles, state.q,
                                state.qd, ref.q, ref.qd, ref.qdd, out.record, setpoint.record)

    def _compiled_step(self, state, ref, out):
        self._law[0]['steps'] = self._elapsed(state.t)
        return self._step(self._law, self._est, self._tun, self._handles, state.q, state.qd,
                          ref.q, ref.qd, ref.qdd, out.record)

    def _elapsed(self, t):
        """
        Count the periods since the last sample from the step times (1 when unknown).

        A loop that misses samples (a loaded host takes the newest board
        report) calls the law less often than every period: the filters of
        the estimator and the tuners then advance by the periods that
        passed, not by one. At most :data:`MAX_GAP` worth of periods.
        """
        last, self._last_t = self._last_t, t
        if last is None or not math.isfinite(t - last):
            return 1
        gap = round((t - last) / self.period)
        return int(min(max(gap, 1), self._max_steps))

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
            ``w`` (a copy); the error is kept for the anti-windup.

        """
        n = self.n
        self._command(self._law, as_vector(q, n, 'q'), as_vector(qd, n, 'qd'),
                      as_vector(ref.q, n, 'ref.q'), as_vector(ref.qd, n, 'ref.qd'),
                      as_vector(ref.qdd, n, 'ref.qdd'))
        return self._law[0]['work'][step.W][:self.n].copy()

    def _applied(self, tau, saturated):
        """Anti-windup of a law that computes its torque in Python (subclasses)."""
        self._integrate(self._law, tau, saturated, self.n)

    def _on_restart(self, t, q, qd):
        self._last_t = None
        self._integral[:] = 0.0
        if self.estimator is not None:
            self.estimator.restart_filters()
        if self.tuner is not None:
            self.tuner.restart()

    def _gravity(self, q):
        if self.payload is not None:
            return self.payload.gravity(q, self.estimator.mass)
        return self.dynamics.gravity(q)

    def reset(self):
        """Forget filters and integrators; return to the initial estimates."""
        super().reset()
        if self.estimator is not None:
            self.estimator.rls.reset()
        if self.tuner is not None:
            self.tuner.reset()

    def estimates(self):
        """
        Report the estimates of the composed parts.

        Returns
        -------
        dict
            With an estimator: ``payload_mass`` [kg], ``payload_excitation``
            (the windowed RMS of the inertial part of its regressor) [N m/kg]
            and ``payload_frozen`` (the estimate held for want of excitation:
            its value is the one reached while the motion excited it); with
            tuners: ``vsst_output`` (n,) [tuner units] and ``vsst_residual``
            ``w - phi*`` (n,).

        """
        out = {}
        if self.estimator is not None:
            out['payload_mass'] = self.estimator.mass
            out['payload_excitation'] = self.estimator.excitation
            out['payload_frozen'] = self.estimator.frozen
        if self.tuner is not None:
            out['vsst_output'] = self.tuner.output
            out['vsst_residual'] = self.tuner.residual.copy()
        return out

    def __repr__(self):
        return (f'{type(self).__name__}(robot={self.model.name!r}, period={self.period:g}, '
                f'form={self.form!r}, kp={self.kp.tolist()}, kd={self.kd.tolist()})')
