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
The controller interface shared by every control law.

A controller is configured once with a model, gains and a sample period,
then called every period: ``tau, status = controller.step(t, q, qd,
reference)``. The base class owns what every law needs and must get right
the same way:

* input checks: a state with a NaN, an infinity or the wrong length never
  reaches the law;
* the safe outputs (:class:`Mode`):

  - ``ZERO``: zero torque when the state itself is invalid or stale, or the
    controller is deactivated (no model torque can be trusted without a
    state). Filters and integrators restart from the next valid sample;
    estimates are kept.
  - ``HOLD``: gravity hold with damping, ``tau = g(q) - D qd``, when the
    state is valid but the reference is missing or invalid, or the law
    produced a non-finite torque;

* torque saturation to the joint limits, with a hook that lets each law
  stop its integrators or adaptation while saturated (anti-windup).

:meth:`Controller.step` is the only template. A law either implements
``_compute`` (the Python laws; the default ``_compiled_step`` runs it and
saturates), or overrides ``_compiled_step(state, ref, out)``, which writes the
saturated torque, the saturated flags and the error into the preallocated
:class:`StepOutput` and returns an outcome code of :mod:`.saturation` (the
computed-torque laws: one compiled call per sample). The base class turns
the code into the :class:`ControlStatus`. The split form for a board in
impedance mode, ``setpoint, status = controller.impedance_step(...)``, is
the same template (:mod:`.split_form`), for the laws that have one.
"""

from abc import ABC

import math

import numpy as np

from .checks import check_period, checked_vector, per_joint
from .model_dynamics import ModelDynamics
from .options import checked_options
from .saturation import BAD_TORQUE, saturate_entry, SATURATED
from .split_form import SplitForm
from .step_records import ControlStatus, JointReference, MeasuredState, Mode, StepOutput
from ..errors import InputError

__all__ = ['check_period', 'ControlStatus', 'Controller', 'JointReference', 'MeasuredState',
           'Mode', 'per_joint', 'StepOutput']


class Controller(SplitForm, ABC):
    """
    A discrete-time control law with checked inputs, saturation and safe outputs.

    Parameters
    ----------
    model : RobotModel
        The controller's model of the robot (it need not be the true one).
    period : float
        Sample period [s].
    torque_limit : float or array_like, optional
        Symmetric torque limits [N m or N]; default the model's effort
        limits; ``inf`` for none.
    hold_damping : float or array_like, optional
        Damping ``D`` of the gravity hold [N m s/rad or N s/m]; default
        ``2 * 10 rad/s * M_jj`` at the zero (or mid-range) configuration.
    dynamics : ModelDynamics, optional
        Dynamics backend of ``model`` (shared between controllers);
        default the fastest available.

    """

    #: Name of the law (used by the node, the CLI and the reports).
    law = 'controller'
    #: Options of :meth:`from_options` this class adds (see :mod:`.options`).
    law_options = ('torque_limit', 'backend')
    #: Gains that may change while the law runs (see :meth:`set_gains`).
    live_gains = ()
    #: Constructor arguments (and fields of the settings records) named in errors, and the
    #: flat options they come from.
    option_arguments = {}

    def __init__(self, model, period, *, torque_limit=None, hold_damping=None, dynamics=None):
        self.model = model
        self.n = model.n
        self.period = check_period(period)
        limit = model.effort_limits if torque_limit is None else torque_limit
        self.torque_limit = per_joint(limit, self.n, 'torque_limit', low=0.0, strict=True,
                                      allow_inf=True)
        self.dynamics = dynamics if dynamics is not None else ModelDynamics(model)
        if hold_damping is None:
            hold_damping = 20.0 * np.diag(self.dynamics.mass_matrix(
                model.home_configuration(outside='middle')))
        self.hold_damping = per_joint(hold_damping, self.n, 'hold_damping', low=0.0)
        self._out = StepOutput(self.n)
        self._state = MeasuredState()
        self._last_mode = Mode.ZERO
        self._restart = True

    # ------------------------------------------------------------------ construction
    @classmethod
    def option_names(cls):
        """
        List the options of :meth:`from_options` (this class's and its bases').

        Returns
        -------
        tuple of str
            Names in :data:`~robodyn_ros.control.options.CATALOGUE`.

        """
        names = []
        for klass in reversed(cls.__mro__):
            names += klass.__dict__.get('law_options', ())
        return tuple(dict.fromkeys(names))

    @classmethod
    def from_options(cls, model, period, options=None):
        """
        Build the law from flat options (as the node's parameters give them).

        Parameters
        ----------
        model : RobotModel
            The controller's model.
        period : float
            Sample period [s].
        options : dict, optional
            Option name to value (:meth:`option_names`); unset values
            (``None``, ``''``, ``[]``) and absent options take the law's
            defaults.

        Returns
        -------
        Controller
            The law.

        Raises
        ------
        InputError
            Naming the option: not an option of this law (the message lists
            the valid ones), or an invalid value.

        """
        opts = checked_options(cls.law, cls.option_names(), options)
        try:   # the settings records are made in _keywords: their errors name fields too
            law = cls(model, period, **cls._keywords(model, opts))
        except InputError as exc:
            name = cls.option_arguments.get(exc.argument)
            if name is None or name not in opts:
                raise
            raise InputError(name, exc.reason) from None
        for name in law.live_gains:   # the gains it starts with obey the live bounds too
            law.check_gain(name, getattr(law, name), live=False)
        return law

    @classmethod
    def _keywords(cls, model, opts):
        """Turn checked options into constructor arguments (unset ones left out)."""
        kwargs = {}
        if 'torque_limit' in opts:
            kwargs['torque_limit'] = opts['torque_limit']
        if 'backend' in opts:
            kwargs['dynamics'] = ModelDynamics(model, opts['backend'])
        return kwargs

    #: How each live gain scales for the rate bound of :meth:`gain_limit`: the power of
    #: the bandwidth it carries and whether it is in joint-torque units (scaled by the
    #: joint's inertia) or normalised (the model-based laws' accelerations).
    gain_scaling = {'kp': (2, False), 'kd': (1, False), 'ki': (3, False), 'lam': (1, False),
                    'gain': (2, False), 'boundary': (0, False)}

    def gain_limit(self, name):
        """
        Largest value of a gain the sample rate allows.

        The rule: no gain may ask for a closed-loop bandwidth above a tenth of
        the sample rate, ``w_max = 2 pi / (10 T)`` [rad/s]. A gain that
        carries the bandwidth to the power ``k`` (``kp`` 2, ``kd`` 1, ``ki``
        3, a sliding surface's ``lam`` 1, its switching ``gain`` 2) may not
        exceed ``c w_max^k`` with ``c = 4`` for damping gains (``kd``: up to
        a damping ratio of 2) and 1 otherwise; gains in joint-torque units
        (PID, PD+gravity, Slotine-Li's ``kd``) are further multiplied by
        the largest diagonal inertia of the model at the home configuration
        (the inertia the default PID gains are designed for, seed 001 eq.
        9.10). A boundary layer has no upper bound.

        Parameters
        ----------
        name : str
            Gain name.

        Returns
        -------
        numpy.ndarray
            (n,) upper bounds (``inf`` where there is none).

        """
        power, torque_units = self.gain_scaling.get(name, (0, False))
        if power == 0:
            return np.full(self.n, np.inf)
        w_max = 2.0 * math.pi / (10.0 * self.period)
        bound = (4.0 if name == 'kd' else 1.0) * w_max ** power
        if torque_units:
            inertia = np.diag(self.dynamics.mass_matrix(self.model.home_configuration()))
            return np.full(self.n, bound * float(inertia.max()))
        return np.full(self.n, bound)

    def check_gain(self, name, value, live=True):
        """
        Check a new value of a live gain (range and the rate bound of :meth:`gain_limit`).

        Parameters
        ----------
        name : str
            One of :attr:`live_gains`.
        value : float or array_like
            Scalar or (n,) values.
        live : bool
            A change while running (False: the gains a law starts with).

        Returns
        -------
        numpy.ndarray
            (n,) checked values.

        Raises
        ------
        InputError
            If the gain cannot change while running or the value is invalid
            or above its bound.

        """
        if live and name not in self.live_gains:
            raise InputError(name, f'cannot change at run time for law {self.law!r} '
                                   f'(live gains: {", ".join(self.live_gains) or "none"})')
        arr = per_joint(value, self.n, name, low=0.0)
        limit = self.gain_limit(name)
        over = arr > limit
        if over.any():
            j = int(np.argmax(over))
            raise InputError(name, f'joint {j}: {arr[j]:.6g} exceeds {limit[j]:.6g}, the '
                                   f'largest a {1.0 / self.period:g} Hz loop allows (a '
                                   'bandwidth of a tenth of the sample rate; see '
                                   'Controller.gain_limit)')
        return arr

    def set_gains(self, **gains):
        """
        Change live gains, all or none: every value is checked before any is applied.

        Parameters
        ----------
        **gains : float or array_like
            Gain name (:attr:`live_gains`) to new value(s).

        Raises
        ------
        InputError
            If one cannot change or is invalid (the law is then unchanged).

        """
        checked = {name: self.check_gain(name, value) for name, value in gains.items()}
        for name, value in checked.items():
            setattr(self, name, value)

    # ------------------------------------------------------------------ public API
    def step(self, t, q, qd, reference):
        """
        Compute the torque for one sample.

        Parameters
        ----------
        t : float
            Time [s] (used by time-varying laws and in messages).
        q : array_like or None
            Measured positions, (n,) [rad or m]; None when there is no state.
        qd : array_like or None
            Measured or estimated velocities, (n,) [rad/s or m/s].
        reference : JointReference or None
            Desired state (a law-specific record for task-space laws).

        Returns
        -------
        tuple
            ``(tau, status)``: torques (n,) [N m or N] and a
            :class:`ControlStatus`.

        """
        n = self.n
        qa = checked_vector(q, n)
        qda = checked_vector(qd, n)
        if qa is None or qda is None:
            which = 'q' if qa is None else 'qd'
            return self.fault(f'invalid state: {which} missing, wrong length or not finite')
        if self._restart:
            self._on_restart(t, qa, qda)
            self._restart = False
        ref, reason = self._check_reference(reference)
        if ref is None:
            return self._hold(qa, qda, f'no valid reference: {reason}')
        state, out = self._state, self._out
        state.t, state.q, state.qd = t, qa, qda
        code = self._compiled_step(state, ref, out)
        if code == BAD_TORQUE:
            self._restart = True
            return self._hold(qa, qda, 'the control law produced a non-finite torque')
        mode = Mode.SATURATED if code == SATURATED else Mode.OK
        self._last_mode = mode
        return out.tau.copy(), ControlStatus(mode, '', out.saturated.copy(), out.error.copy())

    def fault(self, reason):
        """
        Give the zero-torque safe output (invalid or stale state, deactivation).

        The law's filters and integrators restart with the next valid
        sample; estimates are kept.

        Parameters
        ----------
        reason : str
            Why (goes into the status message).

        Returns
        -------
        tuple
            ``(zeros (n,), status)`` with mode ``ZERO``.

        """
        self._restart = True
        self._out.tau[:] = 0.0
        self._last_mode = Mode.ZERO
        return self._out.tau.copy(), ControlStatus(Mode.ZERO, reason)

    def reset(self):
        """Forget all internal state (filters, integrators) and estimates."""
        self._restart = True
        self._out.tau[:] = 0.0

    def estimates(self):
        """
        Report the current estimates of an adaptive law.

        Returns
        -------
        dict
            Name to value (float or array); empty for fixed laws.

        """
        return {}

    @property
    def last_torque(self):
        """Torque output by the last step, (n,) [N m or N] (numpy.ndarray)."""
        return self._out.tau.copy()

    @property
    def _last_tau(self):
        """Torque output by the last step (the record's own array, (n,))."""
        return self._out.tau

    @_last_tau.setter
    def _last_tau(self, value):
        self._out.tau[:] = value

    @property
    def last_mode(self):
        """Mode of the last step (Mode)."""
        return self._last_mode

    def gravity_hold_torque(self, q, qd):
        """
        Torque of the ``HOLD`` safe output, ``g(q) - D qd`` (saturated).

        Parameters
        ----------
        q, qd : numpy.ndarray
            Valid state, (n,).

        Returns
        -------
        numpy.ndarray
            (n,) [N m or N].

        """
        tau = self._gravity(q) - self.hold_damping * qd
        return np.minimum(np.maximum(tau, -self.torque_limit), self.torque_limit)

    # ------------------------------------------------------------------ hooks
    def _compiled_step(self, state, ref, out):
        """
        Run the law on a checked sample and fill ``out``; return the outcome code.

        The default runs :meth:`_compute` (Python), saturates, calls
        :meth:`_applied` and stores :meth:`_error`. Laws with a compiled
        sample override it.

        Parameters
        ----------
        state : MeasuredState
            The checked sample.
        ref : JointReference
            The checked reference (a law-specific record for task-space laws).
        out : StepOutput
            Receives the saturated torque, the saturated flags and the error.

        Returns
        -------
        int
            ``OK``, ``SATURATED`` or ``BAD_TORQUE`` (:mod:`.saturation`).

        """
        tau = self._compute(state.t, state.q, state.qd, ref)
        if tau is None:
            return BAD_TORQUE
        tau = np.ascontiguousarray(tau, dtype=float)
        if tau.shape != (self.n,):
            raise ValueError(f'{type(self).__name__}._compute gave a torque of shape '
                             f'{tau.shape}, not ({self.n},)')
        code = saturate_entry(tau, self.torque_limit, out.tau, out.saturated, self.n)
        if code != BAD_TORQUE:
            self._applied(out.tau, out.saturated)
            out.error[:] = self._error(state.q, ref)
        return code

    def _compute(self, t, q, qd, ref):
        """Return the unsaturated torque (n,) for a valid state and reference."""
        raise NotImplementedError(f'{type(self).__name__} implements neither _compute nor '
                                  '_compiled_step')

    def _applied(self, tau, saturated):
        """Learn the torque actually applied after saturation (anti-windup hook)."""

    def _on_restart(self, t, q, qd):
        """Re-initialise filters and integrators at the first valid sample."""

    def _gravity(self, q):
        """Gravity torque of the controller's current model."""
        return self.dynamics.gravity(q)

    def _check_reference(self, reference):
        """Return ``(JointReference, '')`` (the given one if it conforms) or ``(None, reason)``."""
        if reference is None:
            return None, 'none given'
        n = self.n
        parts = []
        for name in ('q', 'qd', 'qdd'):
            given = getattr(reference, name, None)
            arr = checked_vector(given, n)
            if arr is None:
                return None, f'{name} missing, not {n} values or not finite'
            parts.append(arr)
        if type(reference) is JointReference and all(
                a is getattr(reference, k) for a, k in zip(parts, ('q', 'qd', 'qdd'))):
            return reference, ''
        return JointReference(*parts), ''

    def _resize_error(self, m):
        """Size the error output for ``m`` values (task-space laws)."""
        self._out = StepOutput(self.n, m)

    def _error(self, q, ref):
        return ref.q - q

    def _hold(self, q, qd, reason):
        tau = self.gravity_hold_torque(q, qd)
        self._out.tau[:] = tau
        self._last_mode = Mode.HOLD
        return tau, ControlStatus(Mode.HOLD, reason, None, None)

    def __repr__(self):
        return f'{type(self).__name__}(robot={self.model.name!r}, period={self.period:g})'
