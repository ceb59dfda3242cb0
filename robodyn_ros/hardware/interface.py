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
The hardware interface without ROS: lifecycle, cycle loop, safety and recovery.

:class:`HardwareInterface` is the ros2_control-style hardware component in
plain Python; the ``hardware_interface`` node only adapts it to topics,
parameters and lifecycle transitions. Lifecycle:

* :meth:`~HardwareInterface.configure` opens the link, identifies the board,
  checks it against the model, configures it and starts the I/O thread
  (samples flow, outputs stay off);
* :meth:`~HardwareInterface.activate` clears a latched fault if it can and
  enables the outputs; a fresh command is required from then on;
* :meth:`~HardwareInterface.deactivate` sends zero currents and disables;
* :meth:`~HardwareInterface.cleanup` stops the thread and closes the link;
* :meth:`~HardwareInterface.outputs_off` is the best-effort safe state for
  errors and shutdown.

Every cycle (one per state report) the I/O thread converts the report to a
:class:`~.driver.JointSample`, hands it to ``on_sample`` and, when active,
sends one current frame: the command (zero if missing, stale or invalid)
plus friction compensation, through the joint-limit, effort and current
clamps. Board faults, a silent board and a lost link give an error health
and the safe state (zero or no set-points: the board's watchdog switches
off); with ``auto_recover`` the interface clears the fault and re-enables,
or reconnects, as soon as the cause is gone. It re-enables only after a
heartbeat has come back within half the watchdog period, so a link that is
too slow does not switch the outputs on again and again.
"""

from dataclasses import replace
import math
import threading
import time

import numpy as np

from .board.driver import BoardDriver
from .board.messages import fault_names
from .command import CommandBuffer, CurrentCommand
from .cycle_statistics import CycleStatistics
from .errors import BoardRefused, BoardTimeout, CommandRejected, HardwareError, TransportError
from .settings import InterfaceSettings
from .supervision import Health, Problems
from ..friction.compensation import FrictionCompensator


class HardwareInterface:
    """
    Hardware component driving one board for one robot model.

    Parameters
    ----------
    model : RobotModel
        The host's model (joint order = axis order, limits, actuators).
    transport : SerialTransport or UdpTransport
        The link (not yet open).
    driver_settings : DriverSettings, optional
        Connection settings.
    settings : InterfaceSettings, optional
        Run-time settings.
    friction_model : RobotModel, optional
        Model whose friction is compensated (default ``model``).
    on_sample : callable, optional
        ``on_sample(sample)`` from the I/O thread, every cycle.
    on_health : callable, optional
        ``on_health(health)`` from any thread, when the health changes.

    Attributes
    ----------
    command_source : callable or None
        ``command_source()`` is called from the I/O thread at the start of
        every active cycle and returns the newest command that arrived since
        the last call as ``(torque, stamp)`` (joint torques (n,) in model
        order [N m or N], arrival time [s, monotonic]) or None; it raises
        :class:`~.errors.CommandRejected` for a command that cannot be
        used. Commands can also be given with :meth:`set_command`.
    dynamics_backend : {'numpy', 'auto'}
        How the load-dependent friction is computed: our numpy RNE, or the
        compiled kernels when they are available (see
        :class:`~robodyn_ros.friction.compensation.FrictionCompensator`).

    """

    def __init__(self, model, transport, driver_settings=None, settings=None,
                 friction_model=None, on_sample=None, on_health=None, dynamics_backend='numpy'):
        self.model = model
        self.settings = settings or InterfaceSettings()
        self.settings.check()
        self.driver = BoardDriver(model, transport, driver_settings)
        self.commands = CommandBuffer(model.n)
        s = self.settings
        self.friction = FrictionCompensator(friction_model or model, s.friction_band,
                                            s.friction_scale, s.load_friction,
                                            s.load_friction_period, dynamics_backend)
        self.on_sample = on_sample
        self.command_source = None
        self.problems = Problems(on_health)
        self.state = 'unconfigured'
        self.pipeline = None
        self.last_result = None
        self.stats = CycleStatistics()
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread = None
        self._link_ok = False
        self._next_reconnect = 0.0
        self._next_recover = 0.0
        self._enabled_since = 0.0
        self._last_sample_time = 0.0
        self._last_heartbeat = 0.0
        self._fault_seen = 0

    def __repr__(self):
        return f'HardwareInterface({self.model.name!r}, state={self.state!r})'

    # ------------------------------------------------------------------ settings
    @property
    def state_timeout(self):
        """No-report time that counts as a silent board [s]."""
        return self.settings.state_timeout or self.driver.settings.watchdog_period

    def update_settings(self, **changes):
        """
        Change run-time settings (checked; the loop sees them at its next cycle).

        Parameters
        ----------
        **changes
            Fields of :class:`InterfaceSettings`.

        Raises
        ------
        InputError
            On an invalid value (nothing is changed).

        """
        new = replace(self.settings, **changes)
        new.check()
        # Built outside the lock: a new band may compile kernels; the loop keeps running.
        friction = self.friction.replaced(new.friction_band, new.friction_scale,
                                          new.load_friction, new.load_friction_period)
        with self._lock:
            self.friction = friction
            self.settings = new

    # ------------------------------------------------------------------ lifecycle
    def configure(self):
        """
        Connect, identify, check and configure the board; start the I/O thread.

        Returns
        -------
        Identify
            The board's identity.

        Raises
        ------
        HardwareError
            The board is absent, different from the model, or refuses.

        """
        with self._lock:
            identity = self.driver.connect()
            self.pipeline = CurrentCommand(self.model, self.driver.scaling,
                                           self.driver.current_limit)
            self._link_ok = True
            self._last_sample_time = time.monotonic()
            self.state = 'inactive'
            self.problems.clear()
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name='robodyn_board_io', daemon=True)
        self._thread.start()
        return identity

    def activate(self):
        """
        Enable the outputs (after clearing a latched fault whose cause is gone).

        Raises
        ------
        HardwareError
            Link lost, fault still active, or the board refuses.

        """
        with self._lock:
            if not self._link_ok:
                raise TransportError('board link is down; cannot enable')
            last = self.driver.last_sample
            if last is not None and last.faults:
                self.driver.clear_fault()
            self.commands.clear()
            self.driver.enable()
            now = time.monotonic()
            self._enabled_since = now
            self._next_recover = now + self.settings.recover_period
            self.state = 'active'
            self.problems.clear('fault')
            self.problems.clear('internal')

    def deactivate(self):
        """
        Send zero currents and disable the outputs.

        Raises
        ------
        HardwareError
            If the board does not confirm (its watchdog still switches off).

        """
        with self._lock:
            self.state = 'inactive'
            self.problems.clear('command')
            if not self._link_ok:
                return
            self._send_zero()
            self.driver.disable()

    def cleanup(self):
        """Stop the I/O thread and close the link."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5.0)
        self._thread = None
        with self._lock:
            self.driver.close()
            self._link_ok = False
            self.state = 'unconfigured'

    def outputs_off(self):
        """
        Best-effort safe state: zero currents and disable; never raises.

        Returns
        -------
        bool
            True if the board confirmed the disable.

        """
        with self._lock:
            self.state = 'inactive' if self.state == 'active' else self.state
            if not (self._link_ok and self.driver.client.is_open):
                return False
            try:
                self._send_zero()
                self.driver.disable()
                return True
            except (HardwareError, OSError):
                return False

    def set_command(self, torque, stamp=None):
        """
        Store the controller's joint torques (any thread).

        Parameters
        ----------
        torque : array_like
            Joint torques [N m or N], (n,), in model joint order.
        stamp : float, optional
            Arrival time (monotonic) [s].

        Returns
        -------
        bool
            Whether it was accepted (NaN or a wrong length is rejected).

        """
        return self.commands.put(torque, time.monotonic() if stamp is None else stamp)

    # ------------------------------------------------------------------ loop
    def _send_zero(self):
        last = self.driver.last_sample
        if last is not None:
            self.driver.send_currents(last, np.zeros(self.model.n))

    def _run(self):
        while not self._stop.is_set():
            try:
                with self._lock:
                    sample = self._step()
            except Exception as exc:  # keep the thread alive, outputs off, report
                self.problems.report('internal', 'error', f'I/O loop error: '
                                     f'{type(exc).__name__}: {exc}')
                self.outputs_off()
                self._stop.wait(0.1)
                continue
            if sample is None:
                if not self._link_ok:
                    self._stop.wait(0.01)
                continue
            if self.on_sample is not None:
                start = time.monotonic()
                try:
                    self.on_sample(sample)
                    self.stats.listener(time.monotonic() - start)
                except Exception as exc:  # a listener must not stop the I/O loop
                    self.problems.report('listener', 'warn', f'sample listener failed: '
                                         f'{type(exc).__name__}: {exc}', hold=1.0)

    def _lose(self, reason, now):
        self.driver.close()
        self._link_ok = False
        self._next_reconnect = now + self.settings.reconnect_period
        self.problems.report('link', 'error', f'board link lost ({reason}); reconnecting')

    def _reconnect(self, now):
        if now < self._next_reconnect:
            return
        try:
            self.driver.connect(timeout=min(self.driver.settings.connect_timeout,
                                            self.settings.reconnect_period))
        except (HardwareError, OSError) as exc:
            self._next_reconnect = time.monotonic() + self.settings.reconnect_period
            self.problems.report('link', 'error', f'board link lost; reconnect failed: {exc}')
            return
        self.driver.stats.reconnects += 1
        self._link_ok = True
        self._last_sample_time = time.monotonic()
        self._enabled_since = -math.inf
        self._next_recover = 0.0
        self.problems.clear('link')
        self.problems.clear('silent')

    def _step(self):
        now = time.monotonic()
        if not self._link_ok:
            if self.settings.auto_recover or self.state != 'active':
                self._reconnect(now)
            return None
        try:
            sample = self.driver.read(0.005)
        except TransportError as exc:
            self._lose(exc, now)
            return None
        now = time.monotonic()
        if sample is None:
            silence = now - self._last_sample_time
            if silence > self.state_timeout:
                self.problems.report('silent', 'error', f'no state report from the board for '
                                     f'{silence * 1e3:.0f} ms')
            if silence > max(0.25, 5.0 * self.state_timeout):
                self._lose('board silent', now)
                return None
            if now - self._last_heartbeat > 0.1:
                self._last_heartbeat = now
                self._guard(self.driver.heartbeat, now)
            return None
        self._last_sample_time = now
        self.problems.clear('silent')
        self._watch_faults(sample)
        try:
            if self.state == 'active':
                if self.command_source is not None:
                    self._take_command()
                self._active_cycle(sample, now)
            elif now - self._last_heartbeat > 0.1:
                self._last_heartbeat = now
                self.driver.heartbeat()
        except TransportError as exc:
            self._lose(exc, now)
        self._statistics(sample, now)
        return sample

    def _take_command(self):
        """Store the newest command of ``command_source``, or count its rejection."""
        try:
            command = self.command_source()
        except CommandRejected as exc:
            self.commands.reject(exc.reason, exc.stamp)
            return
        if command is not None:
            self.commands.put(*command)

    def _guard(self, action, now):
        try:
            action()
            return True
        except TransportError as exc:
            self._lose(exc, now)
        except (BoardRefused, BoardTimeout) as exc:
            self.problems.report('recover', 'error', f'recovery failed: {exc}')
        return False

    def _watch_faults(self, sample):
        if sample.faults:
            if sample.faults != self._fault_seen:
                axes = [r.axis for r in self.driver.fault_reports if r.faults & sample.faults]
                where = f' (axis {axes[-1]})' if axes and axes[-1] != 0xFF else ''
                self.problems.report('fault', 'error', 'board fault: '
                                     + ', '.join(fault_names(sample.faults)) + where
                                     + '; outputs off')
        elif self._fault_seen:
            self.problems.clear('fault')
        self._fault_seen = sample.faults

    def _link_fast(self, now):
        """Whether a recent heartbeat came back within half the watchdog period."""
        last = self.driver.last_round_trip
        half = 0.5 * self.driver.settings.watchdog_period
        return last is not None and now - last[0] < 0.5 and last[1] < half

    def _active_cycle(self, sample, now):
        s = self.settings
        grace = 2.0 * self.driver.settings.watchdog_period
        if sample.faults or (not sample.enabled and now - self._enabled_since > grace):
            if now - self._last_heartbeat > 0.05:
                self._last_heartbeat = now
                self._guard(self.driver.heartbeat, now)
            if s.auto_recover and now >= self._next_recover and not self._link_fast(now):
                self.problems.report('recover', 'error', 'link round trip unknown or above half '
                                     'the watchdog period; not re-enabling')
            elif s.auto_recover and now >= self._next_recover:
                self._next_recover = now + s.recover_period
                if sample.faults and not self._guard(self.driver.clear_fault, now):
                    return
                if self._guard(self.driver.enable, now):
                    self._enabled_since = time.monotonic()
                    self.problems.clear('recover')
            elif not s.auto_recover:
                self.problems.report('recover', 'error', 'outputs off; deactivate and activate '
                                     'to recover (auto_recover is off)')
            return
        torque, state, reason = self.commands.get(now, s.command_timeout)
        if state == CommandBuffer.FRESH:
            self.problems.clear('command')
        elif state == CommandBuffer.NONE:
            self.problems.report('command', 'warn', 'waiting for joint_commands; zero current')
        else:
            self.problems.report('command', 'error', f'{reason}; zero current')
        fric = None
        if torque is not None and s.friction_compensation:
            fric = self.friction.torque(sample.position, sample.velocity,
                                        sample.acceleration, now)
        result = self.pipeline(sample.position, torque, fric, s.limit_margin)
        self.driver.send_currents(sample, result.currents)
        self.last_result = result
        self.stats.cycle(time.monotonic() - sample.host_time)
        if np.any(result.at_limit):
            names = [self.model.joint_names[i] for i in np.flatnonzero(result.at_limit)]
            self.problems.report('limit', 'warn', 'torque into the joint limit cut: '
                                 + ', '.join(names), hold=0.5)

    def _statistics(self, sample, now):
        if self.stats.report(now):
            wd = self.driver.settings.watchdog_period
            if self.state == 'active' and sample.latency_us > 0.5 * wd * 1e6:
                late = sample.latency_us / 1e3
                self.problems.report('latency', 'warn', f'loop latency {late:.1f} ms exceeds '
                                     'half the watchdog period', hold=2.0)

    # ------------------------------------------------------------------ reporting
    def health(self):
        """
        Summarise the health, with the statistics as values.

        Returns
        -------
        Health
            Level, message and key values.

        """
        st = self.driver.stats
        ident = self.driver.identity
        values = {
            'state': self.state,
            'firmware': '.'.join(map(str, ident.firmware)) if ident else '',
            **self.stats.values(),
            'latency_us': self.driver.last_sample.latency_us if self.driver.last_sample else '',
            'lost_frames': st.lost_frames, 'reordered_frames': st.reordered_frames,
            'crc_errors': st.crc_errors,
            'message_errors': st.message_errors, 'reconnects': st.reconnects,
            'skipped_reports': self.driver.skipped,
            'commands_rejected': self.commands.rejected,
            'friction_compensation': self.settings.friction_compensation,
        }
        return self.problems.health(values)


__all__ = ['Health', 'HardwareInterface', 'InterfaceSettings']
