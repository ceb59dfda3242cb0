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
The outputs, cycle by cycle: the fault reaction acting on the hardware.

:class:`OutputStage` runs the active part of each I/O cycle of the hardware
interface. It offers the cycle's commands to the
:class:`~.command.CommandChannel`, watches the board's faults, and does what
the fault reaction's state says (:mod:`.fault_reaction`): armed, it waits
for a command stream and then switches the outputs on (brake release);
running, it sends the claim holder's command; when the stream stops it
holds the arm with :class:`~.hold.PositionHold`, then brakes and switches
off after the hold time; after a fault it stays off until reset (or, with
``auto_recover``, holds once the cause is gone). Every torque goes through
friction compensation and the joint-limit, effort and current limits
(:class:`~.current_command.CurrentCommand`).

Board mode ``impedance`` (:class:`~.settings.InterfaceSettings`): an
impedance set-point (a law's split form) is sent as an impedance frame, its
feed-forward with the friction compensation along the reference and the
joint-limit and effort limits (:class:`~.impedance_command.ImpedanceCommand`),
and the hold is sent as the set-point of :meth:`~.hold.PositionHold.setpoint`,
so the board keeps closing it between frames. A torque command goes as
currents in either mode; a set-point in current mode goes as the torque of
its PD at the sample (``ImpedanceSetpoint.torque``).
"""

import math
import time

import numpy as np

from .command import CommandChannel
from .current_command import CurrentCommand
from .errors import CommandRejected, HardwareError, TransportError
from .fault_reaction import DriveState
from .impedance_command import ImpedanceCommand
from ..control.split_form import ImpedanceSetpoint

S = DriveState

#: In a flood of refused commands, their problem is renewed at most this often [s]
#: (the counts go out with the periodic diagnostics).
REPORT_PERIOD = 0.5


class OutputStage:
    """
    The active part of the I/O cycle.

    Parameters
    ----------
    model : RobotModel
        Joint names and limits.
    driver : DriveBackend
        The hardware (board or drive set).
    link : Link
        Link supervision (heartbeats, guarded requests).
    problems : Problems
        Health reporting.
    reaction : FaultReaction
        The state machine.
    commands : CommandChannel
        Commands and the claim.
    stats : CycleStatistics
        Cycle times.
    settings : callable
        ``settings()`` gives the current InterfaceSettings.

    Attributes
    ----------
    hold, friction : PositionHold, FrictionCompensator
        Replaced when settings change.
    last_result : CurrentResult or ImpedanceResult or None
        The last cycle's conversion.

    """

    def __init__(self, model, driver, link, problems, reaction, commands, stats, settings,
                 hold, friction):
        self.model = model
        self.driver = driver
        self.link = link
        self.problems = problems
        self.reaction = reaction
        self.commands = commands
        self.stats = stats
        self.settings = settings
        self.hold = hold
        self.friction = friction
        self.pipeline = None
        self.impedance = None
        self.last_result = None
        self.enabled_at = 0.0
        self._next_recover = 0.0
        self._fault_seen = 0
        self._foreign_seen = 0
        self._contested_seen = 0
        self._rejected_seen = 0
        self._next_report = -math.inf

    def configured(self):
        """Build the torque-to-current and impedance pipelines once the board is known."""
        self.pipeline = CurrentCommand(self.model, self.driver.scaling,
                                       self.driver.current_limit)
        self.impedance = ImpedanceCommand(self.model, self.driver.scaling,
                                          self.driver.current_limit)

    def take_commands(self, source, sample=None):
        """Offer every command of ``command_source`` to the channel, oldest first."""
        if source is None:
            return
        timeout = self.settings().command_timeout
        for item in source(sample) or ():
            if isinstance(item, CommandRejected):
                self.commands.reject(item.reason, item.stamp)
                continue
            torque, stamp, source = item
            if torque is None:
                self.commands.release(source, stamp)
            else:
                self.commands.put(torque, stamp, source, timeout)

    def fault(self, cause, now):
        """Enter the fault state (outputs off, brakes on) unless not armed or on."""
        if self.reaction.state in (S.ARMED, S.RUNNING, S.HOLDING, S.STOPPED):
            self.reaction.go(S.FAULT, cause, now)
            self.commands.clear()
            self._next_recover = now + self.settings().recover_period

    def watch_faults(self, sample, now):
        if sample.faults:
            if sample.faults != self._fault_seen:
                text = self.driver.fault_text(sample.faults)
                self.problems.report('fault', 'error', text + '; outputs off')
                self.fault(text, now)
        elif self._fault_seen:
            self.problems.clear('fault')
        self._fault_seen = sample.faults
        grace = 2.0 * self.driver.settings.watchdog_period
        if (self.reaction.state.outputs_on and not sample.enabled
                and now - self.enabled_at > grace):
            self.fault(f'the {self.driver.kind} switched its outputs off', now)

    def cycle(self, sample, now):
        self._report_commands(now)
        state = self.reaction.state
        s = self.settings()
        if state == S.ARMED:
            if self._claim(now, 'a command stream arrived'):
                state = S.RUNNING
        elif state == S.HOLDING:
            if self._resume(now):
                state = S.RUNNING
            elif self.reaction.elapsed(now) > s.hold_time:
                self.reaction.go(S.STOPPED, f'held for {s.hold_time:g} s without a command '
                                 'stream: brakes on, outputs off; reset to re-arm', now)
                self.commands.clear()
                self.link.guard(self.driver.disable, now)
                state = S.STOPPED
        elif state == S.FAULT and s.auto_recover:
            if self._recover(sample, now):
                state = S.HOLDING
        if state == S.RUNNING:
            torque, status, reason = self.commands.get(now, s.command_timeout)
            if status == CommandChannel.FRESH:
                self.problems.clear('command')
                self._send(sample, torque, now)
                return
            self._start_hold(sample, reason, now)
            state = S.HOLDING
        if state == S.HOLDING:
            hold = self.hold
            self._send(sample, hold.setpoint(sample.position) if s.board_mode == 'impedance'
                       else hold.torque(sample.position, sample.velocity), now)
            return
        if state in (S.FAULT, S.STOPPED):
            how = ('auto_recover holds once the cause is gone' if s.auto_recover
                   else 'reset_fault (or deactivate and activate) to re-arm; auto_recover is off')
            self.problems.report('recover', 'error', f'outputs off, brakes on '
                                 f'({self.reaction.cause}); {how}')
        if now - self.link.last_heartbeat > 0.05:
            self.link.heartbeat(now)

    def _claim(self, now, why):
        """Give a ready stream the claim and switch the outputs on; True when done."""
        ready = self.commands.ready_source(now, self.settings().command_timeout)
        if ready is None:
            return False
        if not self.link.guard(self.driver.enable, now):
            return False
        self.enabled_at = time.monotonic()
        self.commands.claim(ready[0])
        self.problems.clear('recover')
        self.reaction.go(S.RUNNING, f'{why}; brakes released', now)
        return True

    def _resume(self, now):
        """Back to running when the claim holder's stream, or a new claim, is fresh."""
        if not self.commands.claimed:
            ready = self.commands.ready_source(now, self.settings().command_timeout)
            if ready is None:
                return False
            self.commands.claim(ready[0])
            self.reaction.go(S.RUNNING, 'a new command stream took the released claim', now)
            return True
        _, status, _ = self.commands.get(now, self.settings().command_timeout)
        if status != CommandChannel.FRESH:
            return False
        self.reaction.go(S.RUNNING, 'the command stream is back', now)
        return True

    def _start_hold(self, sample, reason, now):
        self.hold.start(sample.position)
        self.reaction.go(S.HOLDING, f'{reason}: holding position', now)
        self.problems.report('command', 'error', f'{reason}; holding position, brakes in '
                             f'{self.settings().hold_time:g} s')

    def _recover(self, sample, now):
        """auto_recover: once the cause is gone, enable and hold (never the last command)."""
        if now < self._next_recover or not self.link.fast(now):
            return False
        self._next_recover = now + self.settings().recover_period
        try:
            if sample.faults:
                self.driver.clear_fault()
            self.driver.enable()
        except TransportError:
            raise
        except HardwareError as exc:
            self.problems.report('recover', 'error', f'recovery failed: {exc}')
            return False
        self.enabled_at = time.monotonic()
        self.problems.clear('recover')
        self.hold.start(sample.position)
        self.reaction.go(S.HOLDING, 'auto_recover: cause gone, holding position', now)
        return True

    def _send(self, sample, torque, now):
        s = self.settings()
        if isinstance(torque, ImpedanceSetpoint):
            if s.board_mode == 'impedance':
                self._send_impedance(sample, torque, now, s)
                return
            torque = torque.torque(sample.position, sample.velocity)
        fric = None
        if s.friction_compensation:
            fric = self.friction.torque(sample.position, sample.velocity,
                                        sample.acceleration, now)
        result = self.pipeline(sample.position, torque, fric, s.limit_margin)
        self.driver.send_currents(sample, result.currents)
        self._sent(sample, result)

    def _send_impedance(self, sample, setpoint, now, s):
        """Send a set-point: friction along the reference and the limits in the feed-forward."""
        fric = None
        if s.friction_compensation:
            fric = self.friction.torque(setpoint.q_ref, setpoint.qd_ref, None, now)
        result = self.impedance(sample.position, sample.velocity, setpoint, fric,
                                s.limit_margin)
        sent = result.setpoint
        self.driver.send_impedance(sample, sent.q_ref, sent.qd_ref, sent.kp, sent.kd,
                                   sent.tau_ff)
        self._sent(sample, result)

    def _sent(self, sample, result):
        self.last_result = result
        self.stats.cycle(time.monotonic() - sample.host_time)
        if result.at_limit.any():
            names = [self.model.joint_names[i] for i in np.flatnonzero(result.at_limit)]
            self.problems.report('limit', 'warn', 'torque into the joint limit cut: '
                                 + ', '.join(names), hold=0.5)

    def _report_commands(self, now):
        """Report refused commands: at once, then at most every REPORT_PERIOD in a flood."""
        if now < self._next_report:   # each changed message is published by this thread
            return
        c = self.commands
        seen = (self._foreign_seen, self._contested_seen, self._rejected_seen)
        if c.foreign != self._foreign_seen:
            self._foreign_seen = c.foreign
            self.problems.report('source', 'error', 'joint_commands from a second source '
                                 f'refused ({c.foreign} so far; {len(c.barred)} barred from '
                                 'the claim until the next activation); one source at a time',
                                 hold=1.0)
        if c.contested != self._contested_seen:
            self._contested_seen = c.contested
            self.problems.report('contest', 'error', 'joint_commands from two publishers at '
                                 'once with the claim free: neither takes it while both go on '
                                 '(one source at a time)', hold=1.0)
        if c.rejected != self._rejected_seen:
            self._rejected_seen = c.rejected
            self.problems.report('rejected', 'error', f'{c.last_problem} (refused; '
                                 f'{c.rejected} so far)', hold=1.0)
        if seen != (self._foreign_seen, self._contested_seen, self._rejected_seen):
            self._next_report = now + REPORT_PERIOD
