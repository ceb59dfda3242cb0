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
The simulated board's firmware: the protocol state machine, limits and safety.

It behaves as the firmware of ``docs/driver_board_protocol.md`` specifies:

* configure only while disabled; the axis count and encoder resolutions must
  match the hardware, each current limit must not exceed the amplifier
  rating, the watchdog period must be at least two cycles;
* enable only when configured and free of faults; outputs off on disable;
* set-points are clamped to the configured limits and refused when they were
  computed from a state older than the watchdog period; the last accepted
  set-point frame sets the mode: set-currents (current mode) or
  set-impedance (impedance mode: the PD of :mod:`.impedance` closed at the
  inner rate, its currents clamped alike); outputs off forget the command
  and return to current mode with zero current;
* watchdog: enabled and no valid set-point frame for a watchdog period (the
  first cycle at which ``board time - last valid frame >= period``) ->
  outputs off, ``WATCHDOG`` latched, fault report;
* over-current: a measured current above ``over_current_factor`` times the
  limit -> outputs off, ``OVER_CURRENT`` latched;
* encoder plausibility: outputs on, the motor turning (back-EMF) faster than
  the check speed and the count unchanged for a watchdog period -> outputs
  off, ``ENCODER`` latched;
* a diverging plant (non-finite state) latches ``INTERNAL`` with the joints
  stopped;
* clear fault is refused while the cause persists.

The firmware is driven by :meth:`SimFirmware.handle` for each received message
and :meth:`SimFirmware.tick` once per cycle; both return the messages to send.
Board time advances by exactly one period per tick.
"""

import math
import time

import numpy as np

from .cycle_kernel import clamp_in_place, COMPILED as CYCLE, SENSE
from .impedance import ImpedanceLoop
from ...hardware.board.messages import (Ack, BOARD_WIDE, ClearFault, Configure, Disable, Enable,
                                        Fault, FaultReport, Heartbeat, HeartbeatReply, Identify,
                                        IdentifyRequest, PROTOCOL_VERSION, Result, SetCurrents,
                                        SetImpedance, StateReport, Status)

#: The board streams state reports for this long after the last valid frame [s].
SESSION_TIMEOUT = 1.0
SESSION_US = int(SESSION_TIMEOUT * 1e6)
_ENABLED, _CONFIGURED, _FAULT, _CURRENT_LIMITED, _BRAKED, _OVERRUN, _IMPEDANCE = (
    int(s) for s in (Status.ENABLED, Status.CONFIGURED, Status.FAULT, Status.CURRENT_LIMITED,
                     Status.BRAKED, Status.OVERRUN, Status.IMPEDANCE))
#: Watchdog period before the host configures one [s].
DEFAULT_WATCHDOG = 0.05
#: The modes, named as the set-point message that selects them.
CURRENT, IMPEDANCE = 'current', 'impedance'


class SimFirmware:
    """
    Firmware state machine of the simulated board.

    Parameters
    ----------
    axes : SimAxes
        Power stage, plant and sensors.
    injector : FaultInjector
        Active faults (encoder and current-sensor faults are applied here).
    max_current : array_like
        Amplifier rating per axis [A].
    firmware : tuple of int
        Version ``(major, minor, patch)``.
    over_current_factor : float
        Trip level as a multiple of the configured limit.

    """

    def __init__(self, axes, injector, max_current, firmware=(1, 0, 0),
                 over_current_factor=1.25):
        self.axes = axes
        self.injector = injector
        self.n = axes.n
        self.period_us = int(round(axes.period * 1e6))
        self.max_current = np.broadcast_to(np.asarray(max_current, dtype=float),
                                           (self.n,)).copy()
        self.firmware = tuple(firmware)
        self.over_current_factor = float(over_current_factor)
        self.time_us = 0
        self.config = None
        self.limit = self.max_current.copy()
        self.watchdog_us = int(DEFAULT_WATCHDOG * 1e6)
        self.enabled = False
        self.enabled_since_us = -1
        self.faults = 0
        self.command = np.zeros(self.n)
        self.mode = CURRENT
        self.impedance = ImpedanceLoop(axes.encoder_counts)
        self.limited = False
        self.last_valid_us = 0
        #: The watchdog's own clock [s]: monotonic, as a hardware timer, so that it
        #: runs on time even when the simulated plant (board time) lags real time.
        self.clock = time.monotonic
        self.last_valid_wall = 0.0
        self.applied_state_time_us = 0
        self.session_until_us = -1
        self.overrun = False
        self.rx_errors = 0
        self.stale_commands = 0
        #: Cycles run with the outputs on; of them, the catch-up cycles (run right after the
        #: previous one, when the simulator had fallen behind: the host had no chance to
        #: answer), and the missed ones (any other cycle that began without a new set-point
        #: since the previous one: the host was late).
        self.enabled_cycles = 0
        self.catch_up_cycles = 0
        self.missed_cycles = 0
        self._fresh = False
        self.fault_events = []
        self.outputs_off_since_us = 0
        self._last_change_us = np.zeros(self.n, dtype=np.int64)
        self._none_stuck = np.zeros(self.n, dtype=bool)   # no sensor fault injected
        self._no_offset = np.zeros(self.n)
        self._last_counts = axes.true_counts()

    # ------------------------------------------------------------------ helpers
    @property
    def status(self):
        """Status bits of the next report (int)."""
        bits = _CONFIGURED if self.config is not None else 0     # (plain ints: IntFlag
        if self.enabled:                                        # operations cost a
            bits |= _ENABLED                                    # microsecond each)
            if self.mode == IMPEDANCE:
                bits |= _IMPEDANCE
        elif self.axes.brakes:
            bits |= _BRAKED
        if self.faults:
            bits |= _FAULT
        if self.limited:
            bits |= _CURRENT_LIMITED
        if self.overrun:
            bits |= _OVERRUN
        return bits

    @property
    def streaming(self):
        """Whether a host session is open, so state reports are sent (bool)."""
        return self.time_us <= self.session_until_us

    def _outputs_off(self):
        if self.enabled:
            self.outputs_off_since_us = self.time_us
        self.enabled = False
        self.mode = CURRENT
        self.command[:] = 0.0
        self.axes.current[:] = 0.0

    def latch(self, bits, axis=BOARD_WIDE, value=0):
        """
        Latch faults, switch the outputs off and return the fault report.

        Parameters
        ----------
        bits : int
            Fault bits.
        axis : int
            Axis concerned or ``BOARD_WIDE``.
        value : int
            Detail value.

        Returns
        -------
        FaultReport
            The report to send.

        """
        self.faults |= int(bits)
        self._outputs_off()
        self.fault_events.append({'faults': [f.name.lower() for f in Fault if bits & f],
                                  'axis': int(axis), 'board_time_us': self.time_us,
                                  'last_valid_us': self.last_valid_us,
                                  'since_valid_wall_s': self.clock() - self.last_valid_wall,
                                  'applied_state_time_us': self.applied_state_time_us})
        return FaultReport(self.time_us, int(bits), int(axis),
                           int(max(-2**31, min(2**31 - 1, value))))

    def check_watchdog(self):
        """
        Trip the watchdog on its own (monotonic) clock, between cycles too.

        Returns
        -------
        list
            The fault report, if it tripped.

        """
        if not self.enabled:
            return []
        since = self.clock() - self.last_valid_wall
        if since < self.watchdog_us * 1e-6:
            return []
        return [self.latch(Fault.WATCHDOG, BOARD_WIDE, int(round(since * 1e6)))]

    def active_causes(self):
        """Fault bits whose cause is still present (int)."""
        bits = 0
        if 'over_current' in self.injector.active:
            bits |= Fault.OVER_CURRENT
        if 'stuck_encoder' in self.injector.active:
            bits |= Fault.ENCODER
        return int(bits)

    def identity(self):
        """Build the identify message (Identify)."""
        return Identify(PROTOCOL_VERSION, self.firmware, self.axes.period,
                        tuple(int(c) for c in self.axes.encoder_counts),
                        tuple(float(c) for c in self.max_current))

    # ------------------------------------------------------------------ receive
    def handle(self, msg, seq):
        """
        Process one received message.

        Parameters
        ----------
        msg : message record
            The message.
        seq : int
            Its sequence number.

        Returns
        -------
        list
            Messages to send back.

        """
        self.session_until_us = self.time_us + SESSION_US
        if isinstance(msg, SetCurrents):
            return self.take_currents(msg.state_time_us, np.array(msg.currents, dtype=float))
        if isinstance(msg, SetImpedance):
            if self._accept(msg.state_time_us, msg.axis_count):
                self.impedance.take(msg)
                self.mode = IMPEDANCE
            return []
        if isinstance(msg, Heartbeat):
            return [HeartbeatReply(msg.token, self.time_us)]
        if isinstance(msg, IdentifyRequest):
            return [self.identity()]
        if isinstance(msg, Configure):
            return [self._configure(msg, seq)]
        if isinstance(msg, Enable):
            if self.config is None:
                return [Ack(msg.msg_id, seq, Result.BAD_STATE)]
            if self.faults:
                return [Ack(msg.msg_id, seq, Result.FAULT_ACTIVE, self.faults)]
            if not self.enabled:
                self.enabled = True
                self.enabled_since_us = self.time_us
                self.command[:] = 0.0
                self.last_valid_us = self.time_us
                self.last_valid_wall = self.clock()
                self._last_change_us[:] = self.time_us
            return [Ack(msg.msg_id, seq, Result.OK)]
        if isinstance(msg, Disable):
            self._outputs_off()
            return [Ack(msg.msg_id, seq, Result.OK)]
        if isinstance(msg, ClearFault):
            remaining = self.faults & self.active_causes()
            if remaining:
                return [Ack(msg.msg_id, seq, Result.FAULT_ACTIVE, remaining)]
            self.faults = 0
            return [Ack(msg.msg_id, seq, Result.OK)]
        self.rx_errors += 1  # a board-to-host message sent to the board
        return []

    def _configure(self, msg, seq):
        mid = msg.msg_id
        if self.enabled:
            return Ack(mid, seq, Result.BAD_STATE)
        if msg.axis_count != self.n:
            return Ack(mid, seq, Result.BAD_PARAMETER, BOARD_WIDE)
        for i in range(self.n):
            if (msg.encoder_counts[i] != self.axes.encoder_counts[i]
                    or msg.current_limit[i] > self.max_current[i] * (1 + 1e-9)):
                return Ack(mid, seq, Result.BAD_PARAMETER, i)
        watchdog_us = int(round(msg.watchdog_period * 1e6))
        if not 2 * self.period_us <= watchdog_us <= 10_000_000:
            return Ack(mid, seq, Result.BAD_PARAMETER, BOARD_WIDE)
        self.config = msg
        self.limit = np.array(msg.current_limit, dtype=float)
        self.watchdog_us = watchdog_us
        return Ack(mid, seq, Result.OK)

    def _accept(self, state_time_us, axes):
        """Check a set-point frame (axis count, enabled, age); on success it feeds the watchdog."""
        if axes != self.n:
            self.rx_errors += 1
            return False
        if not self.enabled:
            return False
        age = self.time_us - state_time_us
        if age < 0 or age > self.watchdog_us:
            self.stale_commands += 1
            return False
        self.last_valid_us = self.time_us
        self.last_valid_wall = self.clock()
        self.applied_state_time_us = state_time_us
        self._fresh = True
        return True

    def take_currents(self, state_time_us, currents):
        """
        Take the set-points of a set-currents frame; return the replies (none).

        Parameters
        ----------
        state_time_us : int
            Board time of the state they were computed from [us].
        currents : numpy.ndarray
            Currents [A], float (axes,); clamped to the configured limits (in place)
            and kept as the command.

        """
        self.session_until_us = self.time_us + SESSION_US
        if not self._accept(state_time_us, currents.shape[0]):
            return []
        self.limited = clamp_in_place(currents, self.limit)
        self.command = currents
        self.mode = CURRENT
        return []

    # ------------------------------------------------------------------ cycle
    def tick(self, on_time=True):
        """
        Run one board cycle: watchdog, power stage, plant, sensors, checks.

        Parameters
        ----------
        on_time : bool
            False for a catch-up cycle, run right after the previous one
            because the simulator fell behind (counted apart from the missed
            cycles).

        Returns
        -------
        list
            Fault reports (if any) followed by the state report (if a session is open).

        """
        out = []
        self.time_us += self.period_us
        if self.enabled:
            self.enabled_cycles += 1
            if not on_time:
                self.catch_up_cycles += 1
            elif not self._fresh:
                self.missed_cycles += 1
        self._fresh = False
        if self.enabled and self.time_us - self.last_valid_us >= self.watchdog_us:
            out.append(self.latch(Fault.WATCHDOG, BOARD_WIDE,
                                  self.time_us - self.last_valid_us))
        else:
            out.extend(self.check_watchdog())
        injector = self.injector
        sense = self._compiled_sensors()
        stuck = (np.array([injector.stuck(i) for i in range(self.n)])
                 if 'stuck_encoder' in injector.active else self._none_stuck)
        try:
            if self.enabled and self.mode == IMPEDANCE:
                self.limited = self.impedance.run(self.axes, stuck, self.limit,
                                                  self.time_us - self.period_us)
                self.command[:] = self.impedance.last
                self.axes.check()
            else:
                self.axes.step(self.command, self.enabled)
        except FloatingPointError:
            self.axes.plant.qd[:] = 0.0
            out.append(self.latch(Fault.INTERNAL))
        sensed = self._sense(sense, out) if sense is not None else None
        if sensed is not None:
            counts, measured = sensed
        else:
            counts = self.axes.encoder(stuck)
            offset = (np.array([injector.current_offset(i, 2.0 * self.limit[i])
                                for i in range(self.n)])
                      if 'over_current' in injector.active else self._no_offset)
            measured = self.axes.measured_current(offset)
            trip = np.abs(measured) > self.over_current_factor * self.limit
            if trip.any():
                self._over_current(int(np.argmax(trip)), measured, out)
            out.extend(self._encoder_check(counts))
        if self.streaming:
            out.append(StateReport(self.time_us, self.status, self.faults,
                                   self.applied_state_time_us, self.rx_errors & 0xFFFF,
                                   tuple(np.asarray(counts, dtype=np.int64).tolist()),
                                   tuple(np.asarray(measured, dtype=float).tolist())))
            self.overrun = False
        return out

    def _compiled_sensors(self):
        """Give the compiled sensor pass when it applies (no sensor noise or fault), else None."""
        axes, active = self.axes, self.injector.active
        if (axes.encoder_noise or axes.current_noise or 'stuck_encoder' in active
                or 'over_current' in active):
            return None
        return CYCLE.get()

    def _sense(self, sense, out):
        """Read and check the sensors in one compiled call (:mod:`.cycle_kernel`), or None."""
        axes = self.axes
        counts = np.empty(self.n, dtype=np.int64)
        measured = axes.current
        try:
            trip, silent = sense[SENSE](axes.q, axes.gap, axes.counts_per_unit, measured,
                                        self.over_current_factor * self.limit, axes.qd,
                                        self.enabled, self.time_us, self.watchdog_us,
                                        self._last_counts, self._last_change_us, counts)
        except TypeError:   # an array type it was not compiled for: the NumPy form
            return None
        axes.took_counts(counts)
        self._last_counts = counts
        if trip >= 0:       # (the trip switches the current off: report what was measured)
            measured = measured.copy()
            self._over_current(trip, measured, out)
        if not self.enabled:            # (a trip above switched the outputs off)
            self._last_change_us[:] = self.time_us
        elif silent >= 0 and not self.faults & Fault.ENCODER:
            out.append(self.latch(Fault.ENCODER, silent, int(round(abs(axes.qd[silent]) * 1e6))))
        return counts, measured

    def _over_current(self, axis, measured, out):
        if not self.faults & Fault.OVER_CURRENT:    # latched once, reported once
            out.append(self.latch(Fault.OVER_CURRENT, axis, int(round(measured[axis] * 1e6))))

    def _encoder_check(self, counts):
        changed = counts != self._last_counts
        self._last_counts = counts
        self._last_change_us[changed] = self.time_us
        if not self.enabled:
            self._last_change_us[:] = self.time_us
            return []
        speed = np.abs(self.axes.qd)
        check = np.maximum(0.05, 3.0 / (np.abs(self.axes.counts_per_unit)
                                        * self.watchdog_us * 1e-6))
        moving = speed > check
        self._last_change_us[~moving] = self.time_us
        silent = self.time_us - self._last_change_us >= self.watchdog_us
        if silent.any() and not self.faults & Fault.ENCODER:
            i = int(np.argmax(silent))
            return [self.latch(Fault.ENCODER, i, int(round(speed[i] * 1e6)))]
        return []

    def snapshot(self):
        """
        Firmware and plant state for the control channel.

        Returns
        -------
        dict
            JSON-ready values.

        """
        def floats(a):
            return [float(v) if math.isfinite(v) else None for v in a]

        return {
            'board_time_us': self.time_us, 'configured': self.config is not None,
            'enabled': self.enabled, 'faults': [f.name.lower() for f in Fault
                                                if self.faults & f],
            'fault_events': self.fault_events[-50:],
            'outputs_off_since_us': self.outputs_off_since_us,
            'watchdog_period': self.watchdog_us * 1e-6, 'limit': floats(self.limit),
            'q': floats(self.axes.q), 'qd': floats(self.axes.qd),
            'current': floats(self.axes.current), 'command': floats(self.command),
            'mode': self.mode, 'impedance': (self.impedance.snapshot()
                                             if self.mode == IMPEDANCE else None),
            'counts': [int(c) for c in self.axes.true_counts()],
            'applied_state_time_us': self.applied_state_time_us,
            'rx_errors': self.rx_errors, 'stale_commands': self.stale_commands,
            'enabled_cycles': self.enabled_cycles, 'missed_cycles': self.missed_cycles,
            'catch_up_cycles': self.catch_up_cycles,
            'streaming': self.streaming,
        }
