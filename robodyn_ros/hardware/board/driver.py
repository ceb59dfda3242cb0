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
The board seen in joint space: connect, check, configure, read samples, send set-points.

:class:`BoardDriver` turns the protocol into joint-space samples for one
robot model: it opens the link, identifies the board and checks it against
the model (axis count, encoder resolution, current ratings), configures the
current limits, torque constants, gear ratios and the watchdog, and then
converts every state report into a :class:`JointSample` (positions from the
encoder counts, velocity and acceleration from a state-variable filter,
effort from the measured currents), and sends joint-side set-points as the
board's: currents (current mode) or an impedance command (impedance mode,
:meth:`BoardDriver.send_impedance`). It is used by one thread at a time; the
hardware interface (:mod:`.interface`) and friction identification
(:mod:`robodyn_ros.friction.sweep`) build on it.
"""

from collections import deque
import time

import numpy as np

from .client import BoardClient
from .messages import Configure, fault_names, FaultReport, HeartbeatReply, StateReport
from ..backend import DriveBackend
from ..errors import MessageError
from ..sample import JointSample
from ..scaling import axis_parameters, joint_scaling
from ..settings import DriverSettings
from ...control.filters import CACHE_SIZE, StateVariableFilter


class BoardDriver(DriveBackend):
    """
    Joint-space access to one board for one robot model.

    Parameters
    ----------
    model : RobotModel
        The host's model (joint order = board axis order).
    transport : SerialTransport or UdpTransport
        The link (not yet open).
    settings : DriverSettings
        Connection settings.

    Attributes
    ----------
    identity : Identify or None
        The board's identity after :meth:`connect`.
    scaling : JointScaling or None
        Conversions after :meth:`connect`.
    fault_reports : collections.deque
        Recent fault reports (newest last).
    round_trips : collections.deque
        Recent heartbeat round-trip times [s].
    last_round_trip : tuple or None
        ``(host time, round trip)`` of the newest heartbeat answer [s].

    """

    def __init__(self, model, transport, settings=None):
        self.model = model
        self.settings = settings or DriverSettings()
        self.settings.check()
        self.axes = axis_parameters(model, self.settings.efficiency)
        # joint side to the board's motor side (impedance mode)
        self._amps_per_torque = 1.0 / self.axes.torque_per_amp
        self._gain_scale = 1.0 / (self.axes.torque_per_amp * self.axes.gear_ratio)
        self.client = BoardClient(transport)
        self.identity = None
        self.scaling = None
        self.filter = StateVariableFilter.velocity_estimator(
            model.n, self.settings.velocity_bandwidth, self.settings.velocity_damping)
        self.fault_reports = deque(maxlen=32)
        self.round_trips = deque(maxlen=1000)
        self.last_sample = None
        self.last_round_trip = None
        self.reports = 0
        self.skipped = 0

    kind = 'board'

    def __repr__(self):
        return f'BoardDriver({self.model.name!r}, {self.client.transport!r})'

    @property
    def is_open(self):
        """Whether the link is open (bool)."""
        return self.client.is_open

    def fault_text(self, faults):
        """
        Describe latched board faults, with the axis of the newest fault report.

        Parameters
        ----------
        faults : int
            Fault bits of a sample.

        Returns
        -------
        str
            E.g. ``'board fault: over_current (axis 1)'``.

        """
        axes = [r.axis for r in self.fault_reports if r.faults & faults]
        where = f' (axis {axes[-1]})' if axes and axes[-1] != 0xFF else ''
        return 'board fault: ' + ', '.join(fault_names(faults)) + where

    def describe(self):
        """Describe the board in one line (str)."""
        ident = self.identity
        if ident is None:
            return 'board not connected'
        fw = '.'.join(map(str, ident.firmware))
        return (f'board firmware {fw}, {ident.axis_count} axes at '
                f'{1.0 / ident.cycle_period:g} Hz')

    @property
    def stats(self):
        """Link counters (LinkStats)."""
        return self.client.stats

    def connect(self, timeout=None):
        """
        Open the link, identify and check the board, and configure it.

        Parameters
        ----------
        timeout : float, optional
            Identify timeout [s] (default from the settings).

        Returns
        -------
        Identify
            The board's identity.

        Raises
        ------
        TransportError, BoardTimeout, BoardMismatch, BoardRefused
            The link cannot be opened, the board is silent, differs from the
            model, or refuses the configuration. The link is closed again.

        """
        s = self.settings
        try:
            self.client.connect()
            identity = self.client.identify(s.connect_timeout if timeout is None else timeout)
            # Ready the filter for every gap a late cycle can leave (k periods up to max_gap;
            # no matrix exponential in a cycle) now: the board streams from identify on, and
            # the configure request's reads drain what arrives meanwhile.
            self.filter.reset()
            self.filter.prepare(identity.cycle_period, multiples=CACHE_SIZE)
            scaling = joint_scaling(self.axes, identity, s.encoder_counts or None)
            limit = np.where(np.isfinite(scaling.current_limit), scaling.current_limit,
                             identity.max_current)
            config = Configure(s.watchdog_period, tuple(float(v) for v in limit),
                               tuple(float(v) for v in np.abs(self.axes.torque_constant)),
                               tuple(float(v) for v in self.axes.gear_ratio),
                               tuple(int(v) for v in identity.encoder_counts))
            self.client.configure(config, s.request_timeout)
        except Exception:
            self.client.close()
            raise
        self.identity = identity
        self.scaling = scaling
        self.current_limit = np.array(limit, dtype=float)
        self.last_sample = None
        return identity

    def close(self):
        """Close the link."""
        self.client.close()

    def enable(self):
        """Switch the board's outputs on (raises BoardTimeout or BoardRefused)."""
        self.client.enable(self.settings.request_timeout)

    def disable(self):
        """Switch the board's outputs off (raises BoardTimeout or BoardRefused)."""
        self.client.disable(self.settings.request_timeout)

    def clear_fault(self):
        """Clear the board's latched faults (raises BoardTimeout or BoardRefused)."""
        self.client.clear_fault(self.settings.request_timeout)

    def heartbeat(self):
        """Send a heartbeat; its answer gives a round-trip time."""
        self.client.heartbeat()

    def read(self, timeout):
        """
        Wait for the next state report and convert it.

        Parameters
        ----------
        timeout : float
            Longest wait [s].

        Returns
        -------
        JointSample or None
            The newest report (older ones are counted in ``skipped``), or
            None on timeout.

        Raises
        ------
        TransportError
            If the link is lost.

        """
        newest = None
        skipped = 0
        msgs = self.client.receive(timeout)
        received = time.monotonic()
        for msg in msgs:
            if isinstance(msg, StateReport):
                if newest is not None:
                    skipped += 1
                newest = msg
            elif isinstance(msg, FaultReport):
                self.fault_reports.append(msg)
            elif isinstance(msg, HeartbeatReply):
                now = time.monotonic()
                rtt = now - msg.token * 1e-6
                if 0.0 <= rtt < 10.0:
                    self.round_trips.append(rtt)
                    self.last_round_trip = (now, rtt)
        if newest is None:
            return None
        if len(newest.counts) != self.model.n:
            return None
        self.reports += 1
        self.skipped += skipped
        return self._sample(newest, skipped, received)

    def _sample(self, msg, skipped, received):
        sc = self.scaling
        q = sc.position(msg.counts)
        prev = self.last_sample
        dt = (msg.board_time_us - prev.board_time_us) * 1e-6 if prev is not None else 0.0
        _, qd, qdd = self.filter.update(q, dt)
        currents = np.array(msg.currents, dtype=float)
        applied = msg.applied_state_time_us
        sample = JointSample(msg.board_time_us, received, q, qd, qdd,
                             sc.torque(currents), currents, msg.status, msg.faults,
                             msg.board_time_us - applied if applied else -1, skipped)
        self.last_sample = sample
        return sample

    def send_currents(self, sample, currents):
        """
        Send current set-points computed from a sample.

        The currents are sent as given: the caller has limited them (the
        hardware interface's :class:`~robodyn_ros.hardware.current_command.CurrentCommand`
        clamps to :attr:`current_limit`); the codec refuses non-finite or
        out-of-range values (:class:`~robodyn_ros.hardware.errors.MessageError`).

        Parameters
        ----------
        sample : JointSample
            The sample they were computed from.
        currents : numpy.ndarray
            Motor currents [A], (n,).

        Returns
        -------
        numpy.ndarray
            The currents sent [A].

        """
        self.client.set_currents(sample.board_time_us, currents)
        return currents

    def send_torque(self, sample, torque):
        """
        Send joint torques as currents (no friction compensation, no joint-limit rule).

        Parameters
        ----------
        sample : JointSample
            The sample they were computed from.
        torque : numpy.ndarray
            Joint torques [N m or N], (n,); non-finite values are sent as 0,
            and the currents are clamped to :attr:`current_limit`.

        Returns
        -------
        numpy.ndarray
            The currents sent [A].

        """
        amps = self.scaling.current(np.where(np.isfinite(torque), torque, 0.0))
        return self.send_currents(sample, np.clip(amps, -self.current_limit,
                                                  self.current_limit))

    def send_impedance(self, sample, q_ref, qd_ref, kp, kd, tau_ff):
        """
        Send a joint-side impedance command computed from a sample (impedance mode).

        From the next board cycle until the next accepted set-point frame
        (or the watchdog, one watchdog period after this frame arrived)
        the board closes, at its inner rate, per joint::

            tau = kp (q_ref + qd_ref (t - t_s) - q) + kd (qd_ref - qd) + tau_ff

        with ``t_s = sample.board_time_us`` (the position reference holds at
        the sample's time and moves along ``qd_ref``), ``q`` its own encoder
        position and ``qd`` its own velocity measurement at the inner rate,
        and clamps the resulting current to :attr:`current_limit` (status
        ``CURRENT_LIMITED``); the reports carry ``Status.IMPEDANCE`` while the
        command is in force. The torque converts to current as for
        :meth:`send_currents` (``i = tau / (eta N Kt)``, the host's
        efficiency), so the same torque gives the same current in both
        modes. Nothing else is added: no friction compensation, no
        joint-limit rule (put compensation into ``tau_ff``). On the wire
        the command is the board's motor side
        (:class:`~robodyn_ros.hardware.board.requests.SetImpedance`).

        Parameters
        ----------
        sample : JointSample
            The sample it was computed from (its board time is the state
            time; the board refuses it if older than the watchdog period).
        q_ref, qd_ref : array_like
            Position [rad or m] and velocity [rad/s or m/s] references at
            the sample's time, (n,) or one value for all joints.
        kp, kd : array_like
            Stiffness [N m/rad or N/m] and damping [N m s/rad or N s/m],
            >= 0, (n,) or one value.
        tau_ff : array_like
            Feed-forward torque [N m or N], (n,) or one value.

        Raises
        ------
        MessageError
            Wrong sizes, a non-finite value, a negative gain or a value
            beyond the wire's binary32 range; nothing is sent.

        """
        n = self.model.n
        args = []
        for name, value in (('q_ref', q_ref), ('qd_ref', qd_ref), ('kp', kp), ('kd', kd),
                            ('tau_ff', tau_ff)):
            try:
                arr = np.asarray(value, dtype=float)
            except (TypeError, ValueError):
                raise MessageError(f'{name}: {value!r} is not numeric') from None
            if arr.shape not in ((), (n,)):
                raise MessageError(f'{name}: expected one value or {n}, got shape {arr.shape}')
            args.append(arr)
        q, qd, p, d, ff = args
        gear = self.axes.gear_ratio
        self.client.set_impedance(sample.board_time_us, np.broadcast_to(gear * q, (n,)),
                                  np.broadcast_to(gear * qd, (n,)),
                                  np.broadcast_to(p * self._gain_scale, (n,)),
                                  np.broadcast_to(d * self._gain_scale, (n,)),
                                  np.broadcast_to(ff * self._amps_per_torque, (n,)))
