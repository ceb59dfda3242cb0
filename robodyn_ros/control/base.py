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
"""

from abc import ABC, abstractmethod
from dataclasses import dataclass
import enum
import math

import numpy as np

from .model_dynamics import ModelDynamics
from ..errors import InputError


class Mode(enum.Enum):
    """What the controller did in one step."""

    OK = 'ok'
    SATURATED = 'saturated'
    HOLD = 'hold'
    ZERO = 'zero'

    @property
    def is_safe_output(self):
        """Whether this is one of the safe outputs (bool)."""
        return self in (Mode.HOLD, Mode.ZERO)


@dataclass(frozen=True, eq=False)
class JointReference:
    """
    Desired joint state at one instant.

    Attributes
    ----------
    q : numpy.ndarray
        Desired positions, (n,) [rad or m].
    qd : numpy.ndarray
        Desired velocities, (n,) [rad/s or m/s].
    qdd : numpy.ndarray
        Desired accelerations, (n,) [rad/s^2 or m/s^2].

    """

    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray

    @classmethod
    def hold(cls, q):
        """
        Build the reference that holds a position at rest.

        Parameters
        ----------
        q : array_like
            Position to hold, (n,) [rad or m].

        Returns
        -------
        JointReference
            ``q`` with zero velocity and acceleration.

        """
        q = np.array(q, dtype=float)
        return cls(q, np.zeros_like(q), np.zeros_like(q))

    @classmethod
    def from_trajectory(cls, trajectory, t):
        """
        Sample a :class:`~robodyn_ros.planning.trajectory.Trajectory`.

        Parameters
        ----------
        trajectory : Trajectory
            The trajectory.
        t : float
            Time since the trajectory start [s].

        Returns
        -------
        JointReference
            Its position, velocity and acceleration at ``t``.

        """
        return cls(*trajectory.sample(t))


@dataclass(frozen=True, eq=False)
class ControlStatus:
    """
    Outcome of one controller step.

    Attributes
    ----------
    mode : Mode
        Normal, saturated, or one of the safe outputs.
    message : str
        Empty when normal; the reason for a safe output.
    saturated : numpy.ndarray or None
        Joints whose torque was clipped, (n,) bool.
    error : numpy.ndarray or None
        Tracking error ``q_ref - q`` (joint space) or the task error of a
        task-space law, None when there was no reference or state.

    """

    mode: Mode
    message: str = ''
    saturated: np.ndarray = None
    error: np.ndarray = None

    @property
    def ok(self):
        """Whether the law ran normally, saturated or not (bool)."""
        return not self.mode.is_safe_output


def per_joint(value, n, name, *, low=None, allow_inf=False, strict=False):
    """
    Broadcast a scalar or check a per-joint sequence.

    Parameters
    ----------
    value : float or array_like
        Scalar (used for every joint) or (n,) values.
    n : int
        Number of joints.
    name : str
        Name for error messages.
    low : float, optional
        Lower bound (inclusive, or exclusive with ``strict``).
    allow_inf : bool
        Accept ``+inf`` (e.g. no torque limit).
    strict : bool
        Require ``value > low``.

    Returns
    -------
    numpy.ndarray
        (n,) float array (a copy).

    Raises
    ------
    InputError
        Wrong length, NaN, infinity (unless allowed) or out of range.

    """
    try:
        arr = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise InputError(name, f'must be a number or {n} numbers, got {value!r}') from None
    if arr.ndim == 0:
        arr = np.full(n, float(arr))
    if arr.shape != (n,):
        raise InputError(name, f'expected a scalar or {n} values, got shape {arr.shape}')
    if np.any(np.isnan(arr)) or (not allow_inf and not np.all(np.isfinite(arr))):
        raise InputError(name, f'must be finite, got {arr.tolist()}')
    if low is not None:
        bad = arr <= low if strict else arr < low
        if np.any(bad):
            j = int(np.argmax(bad))
            rel = '>' if strict else '>='
            raise InputError(name, f'joint {j}: must be {rel} {low}, got {arr[j]}')
    return arr


def check_period(period):
    """
    Validate a sample period.

    Parameters
    ----------
    period : float
        Period [s].

    Returns
    -------
    float
        The period.

    Raises
    ------
    InputError
        Unless it is finite and positive.

    """
    try:
        h = float(period)
    except (TypeError, ValueError):
        raise InputError('period', f'must be a number, got {period!r}') from None
    if not (math.isfinite(h) and h > 0.0):
        raise InputError('period', f'must be finite and > 0 s, got {period}')
    return h


def _vector(value, n):
    """Return a finite, C-contiguous float (n,) array, or None."""
    if value is None:
        return None
    if type(value) is np.ndarray and value.dtype == np.float64 and value.flags.c_contiguous:
        arr = value
    else:  # the dynamics kernels take C-contiguous float64 only (a strided view is copied)
        try:
            arr = np.ascontiguousarray(value, dtype=float)
        except (TypeError, ValueError):
            return None
    if arr.shape != (n,):
        return None
    # A NaN or an infinity anywhere makes the sum non-finite (fast check); a
    # non-finite sum of finite values (overflow) is told apart by the exact check.
    if not math.isfinite(arr.sum()) and not np.isfinite(arr).all():
        return None
    return arr


class Controller(ABC):
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
        self._last_tau = np.zeros(self.n)
        self._last_mode = Mode.ZERO
        self._restart = True

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
        qa = _vector(q, self.n)
        qda = _vector(qd, self.n)
        if qa is None or qda is None:
            which = 'q' if qa is None else 'qd'
            return self.fault(f'invalid state: {which} missing, wrong length or not finite')
        if self._restart:
            self._on_restart(t, qa, qda)
            self._restart = False
        ref, reason = self._check_reference(reference)
        if ref is None:
            return self._hold(qa, qda, f'no valid reference: {reason}')
        tau = self._compute(t, qa, qda, ref)
        if tau is None or not np.isfinite(tau).all():
            self._restart = True
            return self._hold(qa, qda, 'the control law produced a non-finite torque')
        limit = self.torque_limit
        out = np.minimum(np.maximum(tau, -limit), limit)
        sat = out != tau
        self._applied(out, sat)
        self._last_tau = out
        self._last_mode = Mode.SATURATED if sat.any() else Mode.OK
        return out, ControlStatus(self._last_mode, '', sat, self._error(qa, ref))

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
        self._last_tau = np.zeros(self.n)
        self._last_mode = Mode.ZERO
        return self._last_tau.copy(), ControlStatus(Mode.ZERO, reason)

    def reset(self):
        """Forget all internal state (filters, integrators) and estimates."""
        self._restart = True
        self._last_tau = np.zeros(self.n)

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
        return self._last_tau.copy()

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
    @abstractmethod
    def _compute(self, t, q, qd, ref):
        """Return the unsaturated torque (n,) for a valid state and reference."""

    def _applied(self, tau, saturated):
        """Learn the torque actually applied after saturation (anti-windup hook)."""

    def _on_restart(self, t, q, qd):
        """Re-initialise filters and integrators at the first valid sample."""

    def _gravity(self, q):
        """Gravity torque of the controller's current model."""
        return self.dynamics.gravity(q)

    def _check_reference(self, reference):
        """Return ``(JointReference, '')`` or ``(None, reason)``."""
        if reference is None:
            return None, 'none given'
        n = self.n
        parts = []
        for name in ('q', 'qd', 'qdd'):
            arr = _vector(getattr(reference, name, None), n)
            if arr is None:
                return None, f'{name} missing, not {n} values or not finite'
            parts.append(arr)
        return JointReference(*parts), ''

    def _error(self, q, ref):
        return ref.q - q

    def _hold(self, q, qd, reason):
        tau = self.gravity_hold_torque(q, qd)
        self._last_tau = tau
        self._last_mode = Mode.HOLD
        return tau.copy(), ControlStatus(Mode.HOLD, reason, None, None)

    def __repr__(self):
        return f'{type(self).__name__}(robot={self.model.name!r}, period={self.period:g})'
