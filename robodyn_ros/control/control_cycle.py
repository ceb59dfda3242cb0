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
One control cycle, the same wherever it runs: state in, torque (or silence) out.

:class:`ControlCycle` holds what a control loop decides around its law,
independently of where the state comes from and where the torque goes (the
``controller`` node over DDS, or the one-process loop driven by the board):

* the measured state: its age (``state_timeout``), its plausibility
  (:class:`~.state_check.StatePlausibility`), the velocity from the message
  or from filtered differences;
* the reference: the planned trajectory sampled at the cycle's time, else
  the position measured first (``idle_reference='hold_position'``) or none
  (the law's gravity hold);
* re-anchoring: after a stretch without a usable state longer than the
  state timeout, the trajectory in progress is dropped and the measured
  position held, so a controller never chases a stale reference;
* what to send: the law's torque (or, with ``split``, its impedance
  set-point for a board in impedance mode, :mod:`.split_form`); or, when
  there is no state to trust, nothing, with one *release* at the moment the
  commands stop (the hardware interface then holds the arm itself).
"""

import math
import time

import numpy as np

from .base import JointReference, Mode
from .filtered_difference import FilteredDifference
from .state_check import StatePlausibility


class CycleOutput:
    """
    What one cycle decided.

    Attributes
    ----------
    torque : numpy.ndarray or None
        Torque to send (n,) [N m or N], None to send nothing; with a split
        set-point, the torque of its PD at the sample.
    release : bool
        Send a release now (the commands stop).
    status : ControlStatus
        The law's status (mode ZERO: no usable state).
    law_time : float
        Time spent in the law [s] (NaN when it did not run).
    setpoint : ImpedanceSetpoint or None
        What to send instead of the torque in split mode.

    """

    __slots__ = ('torque', 'release', 'status', 'law_time', 'setpoint')

    def __init__(self, torque, release, status, law_time, setpoint=None):
        self.torque = torque
        self.release = release
        self.status = status
        self.law_time = law_time
        self.setpoint = setpoint

    @property
    def command(self):
        """Give what to send: the set-point in split mode, else the torque (or None)."""
        return self.setpoint if self.setpoint is not None else self.torque


class ControlCycle:
    """
    The decisions of one control cycle around a law.

    Parameters
    ----------
    controller : Controller
        The law.
    model : RobotModel
        Joint limits for the plausibility checks.
    state_timeout : float
        Age after which the state is stale [s].
    idle_reference : {'hold_position', 'none'}
        Reference before any trajectory.
    velocity_cutoff : float, optional
        With a cut-off [Hz], the velocity is a filtered difference of the
        positions instead of the measured one.
    plausibility : StatePlausibility, optional
        The checks (default margin 0.1, speed factor 1.5).
    split : bool
        Run the law's split form (impedance set-points for a board in
        impedance mode); the law must have one (checked and compiled here).

    Raises
    ------
    InputError
        With ``split``, for a law without a split form (naming it).

    """

    def __init__(self, controller, model, state_timeout, idle_reference='hold_position',
                 velocity_cutoff=None, plausibility=None, split=False):
        if split:
            controller.prepare_split()
        self.split = bool(split)
        self.controller = controller
        self.state_timeout = float(state_timeout)
        self.idle_reference = idle_reference
        self.plausibility = plausibility or StatePlausibility(model)
        self._diff = (FilteredDifference(controller.period, velocity_cutoff, controller.n)
                      if velocity_cutoff else None)
        self.q = self.qd = None
        self.stamp = None
        self.problem = 'no joint_states received'
        self.trajectory = None
        self.trajectory_start = None
        self.idle = None
        self.commanding = False
        self.gap_since = None
        self.reanchored = ''

    # ------------------------------------------------------------------ inputs
    def take_state(self, q, qd, stamp):
        """
        Take a measured state (checked for plausibility).

        Parameters
        ----------
        q, qd : numpy.ndarray
            Positions and velocities (n,) [rad, rad/s or m, m/s]; ``qd`` may
            be None (the last one is kept, or the filtered difference used).
        stamp : float
            Its arrival time [s, monotonic].

        Returns
        -------
        str
            Empty when taken, else what is wrong with it.

        """
        if np.isfinite(q).all() and (qd is None or np.isfinite(qd).all()):
            problem = self.plausibility.check(q, qd, stamp)
            if problem:
                self.bad_state(f'implausible joint_states: {problem}')
                return self.problem
        self.q = q
        if qd is not None:
            self.qd = qd
        self.problem = ''
        self.stamp = stamp
        return ''

    def bad_state(self, problem):
        """
        Mark the state unusable until the next good one.

        Parameters
        ----------
        problem : str
            Why (reported as the safe output's reason).

        """
        self.problem = problem
        self.q = None

    def set_trajectory(self, sampler, start):
        """
        Follow a planned trajectory.

        Parameters
        ----------
        sampler : ReferenceSampler
            The trajectory.
        start : float
            Its start on the cycle's reference clock [s].

        """
        self.trajectory, self.trajectory_start = sampler, start

    def reset(self):
        """Forget the state, the trajectory and the idle reference (e.g. at activation)."""
        self.q = self.qd = None
        self.problem = 'no joint_states received'
        self.trajectory = None
        self.idle = None
        self.commanding = False
        self.gap_since = None
        self.plausibility.reset()

    # ------------------------------------------------------------------ cycle
    def run(self, now, clock, law_time=None):
        """
        Run one cycle.

        Parameters
        ----------
        now : float
            Time [s, monotonic] (the state's age).
        clock : float
            Time on the trajectories' clock [s] (ROS time of the stamps).
        law_time : float, optional
            The state's own time [s] for the law (default ``now``): laws
            with filters count the periods between their samples on it, so
            the board's clock keeps them right when the loop misses reports.

        Returns
        -------
        CycleOutput
            What to send.

        """
        ctl = self.controller
        q = self.q
        spent = math.nan      # time in the law (law_time is the state's time, an input)
        if q is None:
            tau, status = ctl.fault(self.problem or 'no joint_states')
        elif now - self.stamp > self.state_timeout:
            tau, status = ctl.fault(f'stale joint_states (nothing new for more than '
                                    f'{1e3 * self.state_timeout:g} ms)')
        else:
            qd = self._diff.update(q)[1] if self._diff is not None else self.qd
            self._resume(q, now)
            ref = self._reference(q, clock) if np.isfinite(q).all() else None
            before = time.monotonic()
            t = now if law_time is None else law_time
            if self.split:
                setpoint, status = ctl.impedance_step(t, q, qd, ref)
                tau = ctl.last_torque if setpoint is not None else None
            else:
                setpoint = None
                tau, status = ctl.step(t, q, qd, ref)
            spent = time.monotonic() - before
        if status.mode == Mode.ZERO:
            release = self.commanding
            self.commanding = False
            if self.gap_since is None:
                self.gap_since = now
            return CycleOutput(None, release, status, spent)
        self.commanding = True
        return CycleOutput(tau, False, status, spent, setpoint)

    def _reference(self, q, clock):
        if self.trajectory is not None:
            return self.trajectory.reference(clock - self.trajectory_start)
        if self.idle_reference == 'none':
            return None
        if self.idle is None:
            self.idle = JointReference.hold(q)
        return self.idle

    def _resume(self, q, now):
        """After a stretch without a usable state, re-anchor on the measured position."""
        since, self.gap_since = self.gap_since, None
        if since is None or now - since < self.state_timeout:
            return
        dropped = self.trajectory is not None
        self.trajectory = None
        self.idle = JointReference.hold(q)
        self.reanchored = (f're-anchored on the measured position after {now - since:.3g} s '
                           'without a usable state'
                           + ('; the trajectory in progress was dropped (send a new goal)'
                              if dropped else ''))

    def __repr__(self):
        return f'ControlCycle({self.controller!r}, state_timeout={self.state_timeout:g})'
