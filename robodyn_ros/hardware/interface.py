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
The hardware interface without ROS: lifecycle, I/O cycle and fault reaction.

:class:`HardwareInterface` is the ros2_control-style hardware component in
plain Python; the ``hardware_interface`` node only adapts it to topics,
parameters and lifecycle transitions. Lifecycle:

* :meth:`~HardwareInterface.configure` opens the link, identifies the board,
  checks it against the model, configures it and starts the I/O thread
  (samples flow, outputs off, brakes on);
* :meth:`~HardwareInterface.activate` arms the outputs: brakes stay on
  until a valid command stream from one source has arrived;
* :meth:`~HardwareInterface.deactivate` disables the outputs;
* :meth:`~HardwareInterface.cleanup` stops the thread and closes the link;
* :meth:`~HardwareInterface.reset_fault` is the explicit act that re-arms
  after a fault or a hold that ran out;
* :meth:`~HardwareInterface.outputs_off` is the best-effort safe state for
  errors and shutdown.

Every cycle (one per state report) the I/O thread converts the report to a
:class:`~.sample.JointSample`, hands it to ``on_sample`` and acts on
the fault reaction's state (:mod:`.fault_reaction`): running, it sends the
claim holder's command; holding, its own :class:`~.hold.PositionHold`; in
every other state no set-points (outputs off, brakes on). Both go through
friction compensation and the joint-limit, effort and current limits
(:class:`~.current_command.CurrentCommand`). With ``board_mode='impedance'`` a
command source may give impedance set-points (a law's split form) instead
of torques, and the hold is an impedance set-point too (see
:mod:`.output_stage`).
"""

from contextlib import contextmanager
from dataclasses import replace
import threading
import time

from .board.command_kernel import COMPILED as CURRENTS_ENCODE
from .board.driver import BoardDriver
from .board.report_kernel import COMPILED as REPORT_DECODE
from .command import CommandChannel
from .current_kernel import COMPILED as CURRENT_PIPELINE
from .cycle_statistics import CycleStatistics
from .errors import HardwareError, TransportError
from .fault_reaction import DriveState, FaultReaction
from .health import interface_health
from .hold import PositionHold
from .link import Link
from .output_stage import OutputStage
from .settings import InterfaceSettings
from .supervision import Health, Problems
from ..friction.compensation import FrictionCompensator
from ..friction.loop_form import COMPILED as FRICTION_LOOP

S = DriveState


def load_compiled():
    """
    Load the cycle's compiled loop forms in this thread (decode, friction, currents, encode).

    Returns
    -------
    bool
        Whether all are compiled (False without numba: the NumPy forms run).

    """
    loaded = [f.load() for f in (REPORT_DECODE, FRICTION_LOOP, CURRENT_PIPELINE,
                                 CURRENTS_ENCODE)]   # each
    return all(f is not None for f in loaded)


class HardwareInterface:
    """
    Hardware component driving one board (or drive set) for one robot model.

    Parameters
    ----------
    model : RobotModel
        The host's model (joint order = axis order, limits, actuators).
    transport : SerialTransport or UdpTransport or None
        The board's link (not yet open); None when ``driver`` is given.
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
    dynamics_backend : {'numpy', 'auto'}
        How the load-dependent friction is computed (see
        :class:`~robodyn_ros.friction.compensation.FrictionCompensator`).
    on_transition : callable, optional
        ``on_transition(transition)`` after every change of the fault
        reaction's state (:class:`~.fault_reaction.Transition`).
    thread_setup : callable, optional
        ``thread_setup()`` once in the I/O thread before its first cycle
        (scheduling priority, CPU affinity).
    driver : DriveBackend, optional
        The hardware, when it is not the driver board on ``transport``
        (e.g. a :class:`~.cia402.driver.Cia402Driver`); the safety logic
        is the same for every backend.

    Attributes
    ----------
    command_source : callable or None
        ``command_source(sample)`` is called from the I/O thread in every
        active cycle with the cycle's :class:`~.sample.JointSample`
        and returns the commands for it (a law in the same process computes
        its torque from the sample; a topic gives what arrived since the
        last call), oldest first, each as ``(torque, stamp, source)``: joint
        torques (n,) in model order [N m or N] or an
        :class:`~robodyn_ros.control.split_form.ImpedanceSetpoint` (None: the
        source releases its claim), arrival time [s, monotonic] and the
        sender's identity;
        or a :class:`~.errors.CommandRejected` for a message that cannot
        be used. Commands can also be given with :meth:`set_command`.
    reaction : FaultReaction
        The fault reaction's state and its recent transitions.

    """

    def __init__(self, model, transport, driver_settings=None, settings=None,
                 friction_model=None, on_sample=None, on_health=None, dynamics_backend='numpy',
                 on_transition=None, thread_setup=None, driver=None):
        self.model = model
        self.settings = settings or InterfaceSettings()
        self.settings.check()
        self.driver = driver if driver is not None else BoardDriver(model, transport,
                                                                    driver_settings)
        s = self.settings
        self.commands = CommandChannel(model.n, model.effort_limits, s.stream_length)
        self.on_sample = on_sample
        self.thread_setup = thread_setup
        self.command_source = None
        self.problems = Problems(on_health)
        self.reaction = FaultReaction(on_transition)
        self.link = Link(self.driver, self.problems, lambda: self.settings.reconnect_period,
                         lambda: self.state_timeout)
        self.stats = CycleStatistics()
        self.outputs = OutputStage(
            model, self.driver, self.link, self.problems, self.reaction, self.commands,
            self.stats, lambda: self.settings, PositionHold(model, s.hold_bandwidth),
            FrictionCompensator(friction_model or model, s.friction_band, s.friction_scale,
                                s.load_friction, s.load_friction_period, dynamics_backend))
        self.state = 'unconfigured'
        self._lock = threading.RLock()
        self._waiting = []          # other threads waiting for the lock (see _exclusive)
        self._let_in = threading.Event()
        self._stop = threading.Event()
        self._thread = None

    def __repr__(self):
        return (f'HardwareInterface({self.model.name!r}, state={self.state!r}, '
                f'drive={self.reaction.state.value!r})')

    # ------------------------------------------------------------------ settings
    @property
    def state_timeout(self):
        """No-report time that counts as a silent board [s]."""
        return self.settings.state_timeout or self.driver.settings.watchdog_period

    @property
    def hold(self):
        """Give the interface's own holding controller (PositionHold)."""
        return self.outputs.hold

    @property
    def last_result(self):
        """Give the last cycle's torque-to-current conversion (CurrentResult or None)."""
        return self.outputs.last_result

    @property
    def drive_state(self):
        """Give the fault reaction's state (DriveState)."""
        return self.reaction.state

    def update_settings(self, **changes):
        """
        Change run-time settings (checked; the loop sees them at its next cycle).

        While the outputs are armed or on, the command timeout and the hold
        time cannot be raised (only lowered): a longer wait for a dead
        controller is a decision for an inactive interface.

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
        new.check(self.settings if self.state == 'active' else None)
        # Built outside the lock: a new band may compile kernels; the loop keeps running.
        out = self.outputs
        friction = out.friction.replaced(new.friction_band, new.friction_scale,
                                         new.load_friction, new.load_friction_period)
        hold = (PositionHold(self.model, new.hold_bandwidth)
                if new.hold_bandwidth != self.settings.hold_bandwidth else out.hold)
        with self._exclusive():
            out.friction = friction
            if hold is not out.hold and out.hold.position is not None:
                hold.start(out.hold.position)
            out.hold = hold
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
        load_compiled()   # before the link opens: the board's reports would queue meanwhile
        with self._exclusive():
            identity = self.driver.connect()
            self.outputs.configured()
            self.link.opened()
            self.state = 'inactive'
            self.problems.clear()
            self.reaction.go(S.DISABLED, 'configured')
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name='robodyn_board_io', daemon=True)
        self._thread.start()
        return identity

    def activate(self):
        """
        Arm the outputs (after clearing a latched fault whose cause is gone).

        The brakes stay on until a valid command stream from one source has
        arrived; then the outputs are enabled and follow it.

        Raises
        ------
        HardwareError
            Link lost, fault still active, or the board refuses.

        """
        with self._exclusive():
            if not self.link.up:
                raise TransportError(f'{self.driver.kind} link is down; cannot enable')
            last = self.driver.last_sample
            if last is not None and last.faults:
                self.driver.clear_fault()
            self.commands.clear()
            self.commands.unbar()
            self.state = 'active'
            self.problems.clear('fault')
            self.problems.clear('internal')
            self.reaction.go(S.ARMED, 'activated: brakes on until a command stream arrives')

    def deactivate(self):
        """
        Disable the outputs (brakes on).

        Raises
        ------
        HardwareError
            If the board does not confirm (its watchdog still switches off).

        """
        with self._exclusive():
            self.state = 'inactive'
            self.problems.clear('command')
            self.reaction.go(S.DISABLED, 'deactivated')
            self.commands.clear()
            if self.link.up:
                self.driver.disable()

    def cleanup(self):
        """Stop the I/O thread and close the link."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5.0)
        self._thread = None
        with self._exclusive():
            self.driver.close()
            self.link.closed()
            self.state = 'unconfigured'
            self.reaction.go(S.UNCONFIGURED, 'cleaned up')

    def outputs_off(self):
        """
        Best-effort safe state: disable the outputs; never raises.

        Returns
        -------
        bool
            True if the board confirmed the disable.

        """
        with self._exclusive():
            if self.state == 'active':
                self.state = 'inactive'
                self.reaction.go(S.DISABLED, 'outputs switched off')
            if not (self.link.up and self.driver.is_open):
                return False
            try:
                self.driver.disable()
                return True
            except (HardwareError, OSError):
                return False

    def reset_fault(self):
        """
        Re-arm after a fault or a hold that ran out (the explicit act).

        A latched board fault is cleared if its cause is gone. The outputs
        stay off (brakes on) until a valid command stream arrives.

        Returns
        -------
        str
            What was done.

        Raises
        ------
        HardwareError
            Not active, link down, or the board refuses (cause still there).

        """
        with self._exclusive():
            if self.state != 'active':
                raise HardwareError(f'cannot reset: the interface is {self.state}, not active')
            state = self.reaction.state
            if state not in (S.FAULT, S.STOPPED):
                return f'nothing to reset ({state.value})'
            if not self.link.up:
                raise TransportError(f'{self.driver.kind} link is down; cannot reset')
            last = self.driver.last_sample
            if last is not None and last.faults:
                self.driver.clear_fault()
            self.commands.clear()
            self.problems.clear('fault')
            self.problems.clear('recover')
            self.problems.clear('command')
            self.reaction.go(S.ARMED, 'reset: brakes on until a command stream arrives')
            return f'reset from {state.value}; armed'

    def set_command(self, torque, stamp=None, source=None):
        """
        Offer joint torques (any thread).

        Parameters
        ----------
        torque : array_like
            Joint torques [N m or N], (n,), in model joint order.
        stamp : float, optional
            Arrival time (monotonic) [s].
        source : hashable, optional
            The sender (one claim at a time; default: one local source).

        Returns
        -------
        bool
            Whether it was accepted.

        """
        return self.commands.put(torque, time.monotonic() if stamp is None else stamp, source,
                                 self.settings.command_timeout)

    def release_command(self, source=None, stamp=None):
        """
        End a source's command stream: the interface holds at once.

        Parameters
        ----------
        source : hashable, optional
            The claim holder.
        stamp : float, optional
            Time (monotonic) [s].

        Returns
        -------
        bool
            Whether ``source`` held the claim.

        """
        return self.commands.release(source, time.monotonic() if stamp is None else stamp)

    # ------------------------------------------------------------------ loop
    @contextmanager
    def _exclusive(self):
        """
        Take the lock from another thread than the I/O loop's (a transition, a setting).

        The loop holds the lock for a whole cycle, waits included, and takes it
        again at once: at a real-time priority it kept a deactivate out for 40 s.
        Between cycles it now waits (at most 50 ms) for a waiting thread to get in.
        """
        self._waiting.append(1)
        try:
            with self._lock:
                self._let_in.set()
                yield
        finally:
            self._waiting.pop()

    def _run(self):
        if self.thread_setup is not None:
            self.thread_setup()
        while not self._stop.is_set():
            if self._waiting:           # a transition waits for the lock: let it in
                self._let_in.wait(0.05)
            if self._let_in.is_set():   # (a Python lock and notify: not in every cycle)
                self._let_in.clear()
            try:
                with self._lock:
                    sample = self._step()
            except Exception as exc:  # keep the thread alive, outputs off, report
                self.problems.report('internal', 'error', f'I/O loop error: '
                                     f'{type(exc).__name__}: {exc}')
                with self._lock:
                    self.outputs.fault(f'I/O loop error: {exc}', time.monotonic())
                self.outputs_off()
                self._stop.wait(0.1)
                continue
            if sample is None:
                if not self.link.up:
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

    def _step(self):
        now = time.monotonic()
        if not self.link.up:
            self.link.reconnect(now)
            return None
        sample = self.link.read(now)
        if sample is None:
            if not self.link.up:
                self.outputs.fault(f'{self.driver.kind} link lost ({self.link.lost_cause})', now)
            return None
        now = time.monotonic()
        self.outputs.watch_faults(sample, now)
        try:
            if self.state == 'active':
                self.outputs.take_commands(self.command_source, sample)
                self.outputs.cycle(sample, now)
            elif now - self.link.last_heartbeat > 0.1:
                self.link.heartbeat(now)
        except TransportError as exc:
            self.link.lose(str(exc), now)
            self.outputs.fault(f'{self.driver.kind} link lost ({exc})', now)
        if self.stats.report(now):
            self._check_latency(sample)
        return sample

    def _check_latency(self, sample):
        wd = self.driver.settings.watchdog_period
        if self.reaction.state.outputs_on and sample.latency_us > 0.5 * wd * 1e6:
            late = sample.latency_us / 1e3
            self.problems.report('latency', 'warn', f'loop latency {late:.1f} ms exceeds '
                                 'half the watchdog period', hold=2.0)

    # ------------------------------------------------------------------ reporting
    def health(self):
        """Summarise the health, with the statistics as values (Health; see :mod:`.health`)."""
        return interface_health(self)


__all__ = ['Health', 'HardwareInterface', 'InterfaceSettings']
