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
The split form of a control law: an impedance set-point for a board that closes the PD.

A board in impedance mode (``docs/driver_board_protocol.md`` §5.1) closes,
per joint and at its own inner rate until the next host frame::

    tau = kp (q_ref + qd_ref (t - t_s) - q) + kd (qd_ref - qd) + tau_ff

:meth:`SplitForm.impedance_step` gives that set-point for one sample
(:class:`ImpedanceSetpoint`): the reference at the sample's time, per-joint
gains in joint-torque units and the feed-forward of the model terms along
the reference, so a late host frame means a late model correction, not a
missing feedback. Only laws whose torque splits that way have the form
(:attr:`SplitForm.has_split_form`: the computed-torque family,
:mod:`.ct_split`); the others refuse it with an :class:`~robodyn_ros.errors.InputError`
naming the law.

The template is the same as :meth:`Controller.step <robodyn_ros.control.base.Controller.step>`'s:
the input checks, the safe outputs (``ZERO``: no set-point; ``HOLD``: the
gravity hold ``g(q) - D qd`` as the set-point ``q_ref = q``, ``qd_ref = 0``,
``kp = 0``, ``kd = D``, ``tau_ff = g(q)``) and the status. The controller's
:class:`~.step_records.StepOutput` then holds the torque the board's PD
gives at the sample's own state (``t = t_s``): the torque the law reports
and its estimators see as applied.
"""

from dataclasses import dataclass
import functools

import numpy as np

from .checks import checked_vector
from .jit import capacity, record
from .saturation import BAD_TORQUE, SATURATED
from .step_records import ControlStatus, Mode
from ..errors import InputError

#: Fields of an impedance set-point, in the order of ``BoardDriver.send_impedance``.
FIELDS = ('q_ref', 'qd_ref', 'kp', 'kd', 'tau_ff')


@dataclass(frozen=True, eq=False)
class ImpedanceSetpoint:
    """
    One impedance command for the board, joint side.

    Attributes
    ----------
    q_ref : numpy.ndarray
        Position reference at the sample's time, (n,) [rad or m].
    qd_ref : numpy.ndarray
        Velocity reference (the line the board extrapolates along), (n,)
        [rad/s or m/s].
    kp : numpy.ndarray
        Stiffness, (n,) [N m/rad or N/m], >= 0.
    kd : numpy.ndarray
        Damping, (n,) [N m s/rad or N s/m], >= 0.
    tau_ff : numpy.ndarray
        Feed-forward torque, (n,) [N m or N].

    """

    q_ref: np.ndarray
    qd_ref: np.ndarray
    kp: np.ndarray
    kd: np.ndarray
    tau_ff: np.ndarray

    def torque(self, q, qd):
        """
        Torque the board's PD gives at a state at the set-point's own time (``t = t_s``).

        Parameters
        ----------
        q, qd : numpy.ndarray
            Positions [rad or m] and velocities [rad/s or m/s], (n,).

        Returns
        -------
        numpy.ndarray
            ``kp (q_ref - q) + kd (qd_ref - qd) + tau_ff``, (n,) [N m or N].

        """
        return self.kp * (self.q_ref - q) + self.kd * (self.qd_ref - qd) + self.tau_ff

    def with_feedforward(self, tau_ff):
        """
        Give the same set-point with another feed-forward.

        Parameters
        ----------
        tau_ff : numpy.ndarray
            Feed-forward torque, (n,) [N m or N].

        Returns
        -------
        ImpedanceSetpoint
            A new record (the arrays other than ``tau_ff`` are shared).

        """
        return ImpedanceSetpoint(self.q_ref, self.qd_ref, self.kp, self.kd, tau_ff)


@functools.lru_cache(maxsize=None)
def impedance_dtype(n):
    """
    Record type of one impedance set-point for ``n`` joints (the compiled split writes it).

    Parameters
    ----------
    n : int
        Joints.

    Returns
    -------
    numpy.dtype
        The :data:`FIELDS`, each (capacity,) float, padded (see
        :func:`~robodyn_ros.control.jit.capacity`).

    """
    return np.dtype([(name, np.float64, (capacity(n),)) for name in FIELDS], align=True)


class ImpedanceOutput:
    """
    Preallocated set-point of a controller's split steps (views of one record).

    Parameters
    ----------
    n : int
        Joints.

    Attributes
    ----------
    record : numpy.ndarray
        The record (:func:`impedance_dtype`) that compiled splits write.
    q_ref, qd_ref, kp, kd, tau_ff : numpy.ndarray
        Its fields, (n,) views.

    """

    def __init__(self, n):
        self.record = record(impedance_dtype(n))
        r = self.record[0]
        for name in FIELDS:
            setattr(self, name, r[name][:n])

    def setpoint(self):
        """
        Copy the set-point out (the record is refilled by the next split step).

        Returns
        -------
        ImpedanceSetpoint
            Copies of the five fields.

        """
        return ImpedanceSetpoint(*(getattr(self, name).copy() for name in FIELDS))


class SplitForm:
    """
    The split form of a law: impedance set-points (a mixin of the Controller).

    A law with a split form sets :attr:`has_split_form` and implements
    ``_compiled_split(state, ref, out, setpoint)``, which fills the
    :class:`ImpedanceOutput` and the :class:`~.step_records.StepOutput`
    (the torque of the board's PD at the sample, saturated, its flags and
    the error) and returns an outcome code of :mod:`.saturation`.
    """

    #: Whether the law gives impedance set-points (:meth:`impedance_step`).
    has_split_form = False

    def _split_refused(self):
        return InputError('law', f'{self.law!r} has no split form (impedance set-points): '
                                 'board_mode impedance needs computed_torque, '
                                 'computed_torque_lme or mbvsst; use board_mode current '
                                 'with this law')

    def prepare_split(self):
        """
        Get the split form ready before a loop uses it (compiled now, not in a cycle).

        Raises
        ------
        InputError
            If the law has no split form (the message names the law).

        """
        if not self.has_split_form:
            raise self._split_refused()

    def impedance_step(self, t, q, qd, reference):
        """
        Compute the impedance set-point for one sample (the split form of :meth:`step`).

        Parameters
        ----------
        t : float
            Time [s] (the sample's: filters count the periods on it).
        q : array_like or None
            Measured positions, (n,) [rad or m]; None when there is no state.
        qd : array_like or None
            Measured or estimated velocities, (n,) [rad/s or m/s].
        reference : JointReference or None
            Desired state at ``t``.

        Returns
        -------
        tuple
            ``(setpoint, status)``: an :class:`ImpedanceSetpoint` (None with
            mode ``ZERO``: no state to trust) and a :class:`ControlStatus`
            whose error is ``q_ref - q``.

        Raises
        ------
        InputError
            If the law has no split form (the message names the law).

        """
        if not self.has_split_form:
            raise self._split_refused()
        n = self.n
        qa = checked_vector(q, n)
        qda = checked_vector(qd, n)
        if qa is None or qda is None:
            which = 'q' if qa is None else 'qd'
            return None, self.fault(f'invalid state: {which} missing, wrong length or not '
                                    'finite')[1]
        if self._restart:
            self._on_restart(t, qa, qda)
            self._restart = False
        ref, reason = self._check_reference(reference)
        if ref is None:
            return self._hold_setpoint(qa, qda, f'no valid reference: {reason}')
        state, out = self._state, self._out
        state.t, state.q, state.qd = t, qa, qda
        split = self._split_output()
        code = self._compiled_split(state, ref, out, split)
        if code == BAD_TORQUE:
            self._restart = True
            return self._hold_setpoint(qa, qda, 'the control law produced a non-finite torque')
        mode = Mode.SATURATED if code == SATURATED else Mode.OK
        self._last_mode = mode
        return split.setpoint(), ControlStatus(mode, '', out.saturated.copy(), out.error.copy())

    def _split_output(self):
        """Give the preallocated set-point record (made at the first split step)."""
        split = getattr(self, '_split', None)
        if split is None:
            split = self._split = ImpedanceOutput(self.n)
        return split

    def _hold_setpoint(self, q, qd, reason):
        """Give the gravity hold ``g(q) - D qd`` as a set-point: ``q_ref = q``, ``kd = D``."""
        _, status = self._hold(q, qd, reason)
        limit = self.torque_limit
        gravity = np.minimum(np.maximum(self._gravity(q), -limit), limit)
        zero = np.zeros(self.n)
        return ImpedanceSetpoint(q.copy(), zero, zero.copy(), self.hold_damping.copy(),
                                 gravity), status

    def _compiled_split(self, state, ref, out, setpoint):
        """Fill ``setpoint`` and ``out`` for a checked sample; return the outcome code."""
        raise NotImplementedError(f'{type(self).__name__} has no split form')
