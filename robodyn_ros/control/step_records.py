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
The records of one control step: reference, measured sample, outputs and status.

:class:`JointReference` and :class:`MeasuredState` go in, :class:`StepOutput`
(preallocated, one record that compiled steps write) and
:class:`ControlStatus` with its :class:`Mode` come out of
:meth:`Controller.step <robodyn_ros.control.base.Controller.step>`.
"""

from dataclasses import dataclass
import enum
import functools

import numpy as np

from .jit import capacity, record


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


class MeasuredState:
    """
    The checked measured sample of one step (one object per controller, refilled).

    Attributes
    ----------
    t : float
        Time [s].
    q, qd : numpy.ndarray
        Finite, C-contiguous float positions and velocities, (n,).

    """

    __slots__ = ('t', 'q', 'qd')

    def __init__(self):
        self.t, self.q, self.qd = 0.0, None, None


@functools.lru_cache(maxsize=None)
def output_dtype(n, m):
    """
    Record type of the outputs of one step: ``tau``, ``saturated`` (n) and ``error`` (m).

    Parameters
    ----------
    n : int
        Joints.
    m : int
        Length of the error (n for joint-space laws).

    Returns
    -------
    numpy.dtype
        Padded (see :func:`~robodyn_ros.control.jit.capacity`).

    """
    return np.dtype([('tau', np.float64, (capacity(n),)),
                     ('saturated', np.uint8, (capacity(n),)),
                     ('error', np.float64, (capacity(m),))], align=True)


class StepOutput:
    """
    Preallocated outputs of a controller's steps (views of one record).

    Parameters
    ----------
    n : int
        Joints.
    m : int, optional
        Length of the error (default n).

    Attributes
    ----------
    record : numpy.ndarray
        The record (:func:`output_dtype`) that compiled steps write.
    tau : numpy.ndarray
        Torque of the last step (the one applied since), (n,) [N m or N].
    saturated : numpy.ndarray
        Joints whose torque was clipped, (n,) bool.
    error : numpy.ndarray
        Tracking error of the last normal step, (m,).

    """

    def __init__(self, n, m=None):
        m = n if m is None else int(m)
        self.record = record(output_dtype(n, m))
        r = self.record[0]
        self.tau = r['tau'][:n]
        self.saturated = r['saturated'][:n].view(np.bool_)
        self.error = r['error'][:m]
