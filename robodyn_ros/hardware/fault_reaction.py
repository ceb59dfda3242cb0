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
The hardware interface's drive-style fault reaction: states, transitions, causes.

Modelled on the CiA 402 power state machine of servo drives (quick stop,
then brake; a fault never clears itself; re-enabling is an explicit act):

============  =======================================  ====================
state         outputs and brakes                        leaves on
============  =======================================  ====================
unconfigured  link closed                               configure
disabled      off, brakes on                            activate
armed         off, brakes on                            a valid command
                                                        stream from one
                                                        source; deactivate
running       on, the source's commands                 command loss, fault
holding       on, the interface's own hold (gravity,    the stream again,
              friction, stiff PD on the held position)  hold time, fault
stopped       off, brakes on (the hold ran out)         reset, deactivate
fault         off, brakes on (board fault, lost link)   reset (or, with
                                                        auto_recover, the
                                                        cause gone: holding)
============  =======================================  ====================

:class:`FaultReaction` keeps the state, the time it was entered and the
last transitions with their causes; the interface acts on each transition
(enable, disable, start the hold) and reports it in diagnostics.
"""

from collections import deque
import enum
import time


class DriveState(enum.Enum):
    """States of the fault reaction (see the module docstring)."""

    UNCONFIGURED = 'unconfigured'
    DISABLED = 'disabled'
    ARMED = 'armed'
    RUNNING = 'running'
    HOLDING = 'holding'
    STOPPED = 'stopped'
    FAULT = 'fault'

    @property
    def outputs_on(self):
        """Whether the power stage is on (brakes released) in this state (bool)."""
        return self in (DriveState.RUNNING, DriveState.HOLDING)


S = DriveState

#: Allowed transitions: (from, to) pairs; anything else is a programming error.
TRANSITIONS = {
    (S.UNCONFIGURED, S.DISABLED),
    (S.DISABLED, S.ARMED),
    (S.ARMED, S.RUNNING),
    (S.RUNNING, S.HOLDING),
    (S.HOLDING, S.RUNNING),
    (S.HOLDING, S.STOPPED),
    (S.STOPPED, S.ARMED),
    (S.FAULT, S.ARMED),
    (S.FAULT, S.HOLDING),
} | {(s, S.FAULT) for s in (S.ARMED, S.RUNNING, S.HOLDING, S.STOPPED)} | {
    (s, S.DISABLED) for s in (S.ARMED, S.RUNNING, S.HOLDING, S.STOPPED, S.FAULT)} | {
    (s, S.UNCONFIGURED) for s in S}


class Transition:
    """
    One change of state.

    Attributes
    ----------
    time : float
        When [s, monotonic].
    source, target : DriveState
        From and to.
    cause : str
        Why.

    """

    __slots__ = ('time', 'source', 'target', 'cause')

    def __init__(self, when, source, target, cause):
        self.time = when
        self.source = source
        self.target = target
        self.cause = cause

    def __str__(self):
        return f'{self.source.value} -> {self.target.value}: {self.cause}'

    def __repr__(self):
        return f'Transition({self})'


class FaultReaction:
    """
    The current :class:`DriveState`, its entry time and the recent transitions.

    Parameters
    ----------
    listener : callable, optional
        ``listener(transition)`` after every transition (any thread).
    history : int
        Transitions kept.

    """

    def __init__(self, listener=None, history=32):
        self.state = DriveState.UNCONFIGURED
        self.since = time.monotonic()
        self.cause = 'not configured'
        self.listener = listener
        self.history = deque(maxlen=history)

    def go(self, target, cause, now=None):
        """
        Enter ``target`` (no-op when already there).

        Parameters
        ----------
        target : DriveState
            New state.
        cause : str
            Why (kept and reported).
        now : float, optional
            Time [s, monotonic].

        Returns
        -------
        Transition or None
            The transition made.

        Raises
        ------
        ValueError
            For a transition the machine does not have.

        """
        if target == self.state:
            return None
        if (self.state, target) not in TRANSITIONS:
            raise ValueError(f'no transition {self.state.value} -> {target.value} ({cause})')
        now = time.monotonic() if now is None else now
        step = Transition(now, self.state, target, cause)
        self.state, self.since, self.cause = target, now, cause
        self.history.append(step)
        if self.listener is not None:
            self.listener(step)
        return step

    def elapsed(self, now):
        """
        Time spent in the current state [s].

        Parameters
        ----------
        now : float
            Time [s, monotonic].

        Returns
        -------
        float
            ``now - since``.

        """
        return now - self.since

    def __repr__(self):
        return f'FaultReaction({self.state.value}: {self.cause})'
