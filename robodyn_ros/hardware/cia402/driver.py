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
A CiA 402 drive set in joint space: the hardware interface's second backend.

:class:`Cia402Driver` is a :class:`~robodyn_ros.hardware.backend.DriveBackend`
for one drive per joint (by node id) in cyclic synchronous torque:

* :meth:`~Cia402Driver.connect`: open the bus (:mod:`.bus`), start the
  host's heartbeat, configure and check every drive (:mod:`.configure`),
  NMT operational; the drives stay in their power state (a Fault stays);
  from then on only the cycle's thread uses the bus (it sends the host's
  heartbeat too);
* :meth:`~Cia402Driver.read`: one cycle (:mod:`.cycle`): SYNC, the TPDOs,
  converted to a :class:`~robodyn_ros.hardware.sample.JointSample`
  (position and velocity from the encoder increments and the gear ratio,
  effort from the torque actual, acceleration from a state-variable
  filter); a drive's lost heartbeat, a drive that left NMT operational or
  a bus error raises :class:`~robodyn_ros.hardware.errors.TransportError`
  (a lost link);
* :meth:`~Cia402Driver.send_currents`: each joint's current set-point as
  a target torque in per mille of the rated torque, in the RPDOs;
* :meth:`~Cia402Driver.enable` / :meth:`~Cia402Driver.disable`: walk the
  power state machine to Operation enabled (brakes released by the drive
  once it holds torque) or back to Ready to switch on (brakes on);
* :meth:`~Cia402Driver.clear_fault`: the explicit fault reset (rising edge
  of controlword bit 7), refused while a drive stays in Fault.

Faults: a drive in Fault (or Fault reaction active) or one whose EMCY came
sets its joint's bit in ``sample.faults``; EMCYs stay latched until a fault
reset. When one drive faults, the driver quick-stops the others at once
(the drive set reacts as one board would).
"""

from collections import deque
import time

import can
import canopen
import numpy as np

from . import EDS_PATH
from . import objects as o
from . import power
from .bus import open_bus
from .configure import configure_drive, start_drive
from .cycle import PdoCycle
from .errors import DriveConfigError, DriveRefused, DriveTimeout, where
from .power_state import DISABLE_VOLTAGE, P, QUICK_STOP_COMMAND, state_of
from .records import DriveLinkStats, DriveSetIdentity, EmcyReport
from .torque_scaling import TorqueScaling
from ..backend import DriveBackend
from ..errors import TransportError
from ..sample import JointSample, STATUS_CONFIGURED, STATUS_ENABLED
from ..scaling import axis_parameters, JointScaling
from ...control.filters import StateVariableFilter
from ...realtime.hygiene import shorten_gil_switch


class Cia402Driver(DriveBackend):
    """
    One CiA 402 drive per joint of a robot model (see the module docstring).

    Parameters
    ----------
    model : RobotModel
        The host's model (joint order = ``settings.node_ids`` order).
    settings : Cia402Settings
        Bus, node ids, timing, scaling.

    """

    kind = 'drives'

    def __init__(self, model, settings):
        settings.check(model.n)
        self.model = model
        self.settings = settings
        n = model.n
        self.axes = axis_parameters(model, settings.efficiency)
        self.torque = TorqueScaling(self.axes, settings.rated_torque)
        self.rated_mnm = self.torque.rated_mnm
        self.current_limit = self.torque.current_limit
        self.filter = StateVariableFilter.velocity_estimator(
            n, settings.velocity_bandwidth, settings.velocity_damping)
        self.stats = DriveLinkStats()
        self.fault_reports = deque(maxlen=32)
        self.identity = None
        self.scaling = None
        self.last_sample = None
        self.last_round_trip = None
        self.skipped = 0
        self.states = [None] * n
        self.controlword = np.zeros(n, dtype=int)
        self.network = None
        self.bus = None
        self.nodes = []
        self.cycle = None
        self._heartbeat_task = None
        self._emcy = np.zeros(n, dtype=bool)
        self._rx_errors = 0
        self._last_sync = None

    def __repr__(self):
        s = self.settings
        return (f'Cia402Driver({self.model.name!r}, {s.interface}:{s.channel or "default"}, '
                f'nodes {list(s.node_ids)})')

    # ------------------------------------------------------------------ link
    @property
    def is_open(self):
        """Whether the bus is open (bool)."""
        return self.network is not None

    def connect(self, timeout=None):
        """
        Open the bus, configure and check every drive, start the cycle.

        Parameters
        ----------
        timeout : float, optional
            Longest wait for each drive's first answer [s] (default from
            the settings).

        Returns
        -------
        DriveSetIdentity
            The drives found.

        Raises
        ------
        TransportError, DriveTimeout, DriveRefused, DriveConfigError
            The bus cannot be opened, a drive is silent, refuses a value or
            keeps another one. Everything is closed again.

        """
        s = self.settings
        if timeout is not None:
            from dataclasses import replace
            s = replace(s, connect_timeout=float(timeout))
        names = self.model.joint_names
        self.filter.prepare(s.cycle_period)      # compiled code loaded before the bus opens
        try:
            self.bus = open_bus(s.interface, s.channel, s.bitrate, s.port)
            network = canopen.Network(self.bus)
            network.NOTIFIER_CYCLE = 0.1
            eds = s.eds or EDS_PATH
            self.nodes = []
            for i, k in enumerate(s.node_ids):
                node = canopen.RemoteNode(k, eds)
                network.add_node(node)
                node.emcy.add_callback(lambda e, i=i, k=k: self._on_emcy(i, k, e))
                self.nodes.append(node)
            network.connect()
            self.network = network
            self._heartbeat_task = network.send_periodic(
                o.heartbeat_cob_id(s.master_id), bytes([o.NMT_OPERATIONAL]), s.heartbeat_period)
            drives = tuple(configure_drive(node, names[i], s, self.rated_mnm[i],
                                           self.torque.max_permille[i],
                                           self._expected_counts(i))
                           for i, node in enumerate(self.nodes))
            for i, node in enumerate(self.nodes):
                start_drive(node, names[i], max(0.5, 4.0 * s.heartbeat_period))
            # From here on only the cycle uses the bus: it dispatches heartbeats and EMCYs
            # (no receive thread) and sends the host's heartbeat (see .cycle).
            network.notifier.stop(network.NOTIFIER_SHUTDOWN_TIMEOUT)
            network.notifier = None
            self._heartbeat_task.stop()
            self._heartbeat_task = None
            # About 40 system calls a cycle, each a chance for another thread to keep the GIL
            # a switch interval (5 ms by default): shorter (the node did it already).
            shorten_gil_switch()
            self.cycle = PdoCycle(network, s.node_ids, s.cycle_period, s.max_stale,
                                  s.answer_wait, (o.heartbeat_cob_id(s.master_id),
                                                  s.heartbeat_period))
        except (can.CanError, OSError) as exc:
            self.close()
            if isinstance(exc, TransportError):
                raise
            raise TransportError(f'CAN bus error at configure: {exc}') from None
        except Exception:
            self.close()
            raise
        counts = np.array([d.encoder_counts for d in drives], dtype=float)
        self.scaling = JointScaling(self.axes, counts, self.current_limit.copy())
        version = drives[0].software.split('.') if drives else []
        firmware = tuple(int(v) if v.isdigit() else 0 for v in version[:3])
        self.identity = DriveSetIdentity(firmware, len(drives), s.cycle_period, drives)
        self._emcy[:] = False
        self.controlword[:] = DISABLE_VOLTAGE
        self.states = [None] * self.model.n
        self.filter.reset()
        self.last_sample = None
        self._last_sync = None
        return self.identity

    def _expected_counts(self, i):
        counts = self.settings.encoder_counts
        if not counts:
            return None
        return int(counts[0] if len(counts) == 1 else counts[i])

    def close(self):
        """Quick-stop any drive still enabled (best effort), stop the heartbeat, close the bus."""
        network = self.network
        if network is not None and self.cycle is not None:
            on = [i for i, st in enumerate(self.states)
                  if st in (P.OPERATION_ENABLED, P.QUICK_STOP_ACTIVE)]
            if on:
                words = self.controlword.copy()
                words[on] = QUICK_STOP_COMMAND
                try:      # synchronous RPDOs: the SYNC after them makes them take effect
                    self.cycle.send(words, np.zeros(len(words), dtype=int))
                    network.send_message(o.SYNC_COB_ID, b'')
                except (can.CanError, OSError):
                    pass
        if self._heartbeat_task is not None:
            try:
                self._heartbeat_task.stop()
            except (can.CanError, OSError):
                pass
            self._heartbeat_task = None
        if self.cycle is not None:
            self.cycle.close()
            self.cycle = None
        if network is not None:
            try:
                network.disconnect()
            except (can.CanError, OSError, RuntimeError):
                pass
        elif self.bus is not None:
            self.bus.shutdown()
        self.network = None
        self.bus = None

    def _on_emcy(self, axis, node_id, entry):
        """Latch an EMCY (from canopen's receive thread)."""
        self.stats.emcy += 1
        if entry.code == 0:      # error reset: the drive's own note that the cause is gone
            return
        self.fault_reports.append(EmcyReport(axis, node_id, entry.code, entry.register,
                                             time.monotonic()))
        self._emcy[axis] = True

    def _check_link(self):
        """Raise TransportError for a dead receive thread, a lost heartbeat or a stopped drive."""
        network = self.network
        if network is None:
            raise TransportError('CAN bus closed')
        notifier = network.notifier
        if notifier is not None and notifier.exception is not None:
            raise TransportError(f'CAN receive failed: {notifier.exception}')
        if self.bus.counters.rx_errors > self._rx_errors:
            self._rx_errors = self.bus.counters.rx_errors
            raise TransportError(f'CAN receive failed: {self.bus.counters.last_error}')
        now, limit = time.time(), self.settings.heartbeat_timeout
        for i, node in enumerate(self.nodes):
            stamp = node.nmt.timestamp
            if stamp is None or now - stamp > limit:
                ages = ' / '.join(f'{(now - n.nmt.timestamp) * 1e3:.0f}' if n.nmt.timestamp
                                  else 'never' for n in self.nodes)   # one drive or the bus?
                raise TransportError(f'heartbeat of {where(node.id, self.model.joint_names[i])} '
                                     f'lost (consumer time {limit * 1e3:.0f} ms; newest '
                                     f'heartbeat of each drive [ms ago]: {ages})')
            if node.nmt.state != 'OPERATIONAL':
                raise TransportError(f'{where(node.id, self.model.joint_names[i])} left NMT '
                                     f'operational ({node.nmt.state.lower()})')

    def exchange(self):
        """Run one SYNC and its TPDOs (raw values or None); bus errors become TransportError."""
        if self.cycle is None:
            raise TransportError('CAN bus closed')
        try:
            raw = self.cycle.exchange()
        except (can.CanError, OSError) as exc:
            raise TransportError(f'CAN bus error: {exc}') from None
        self._check_link()   # after the frames waiting in the socket: a host stall is no loss
        c, b = self.cycle.counters, self.bus.counters
        st = self.stats
        st.lost_frames, st.reordered_frames = c.missing_frames, c.late_frames
        st.message_errors = c.bad_frames + b.bad_frames
        st.crc_errors = b.error_frames
        if raw is not None:
            self.states = [state_of(int(w)) for w in raw[0]]
            trip = self.cycle.round_trip
            if trip == trip:
                self.last_round_trip = (time.monotonic(), trip)
        return raw

    def send_raw(self, torques):
        """Send the RPDOs: the controlwords and target torques [per mille]."""
        try:
            self.cycle.send(self.controlword, torques)
        except (can.CanError, OSError) as exc:
            raise TransportError(f'CAN bus error: {exc}') from None

    # ------------------------------------------------------------------ cycle
    def read(self, timeout):
        """
        Run one cycle's SYNC and TPDOs and convert them.

        Parameters
        ----------
        timeout : float
            Unused: the host paces the cycle (the wait is at most one period
            plus the TPDO window) [s].

        Returns
        -------
        JointSample or None
            The drives' state, or None when a TPDO did not arrive in time.

        Raises
        ------
        TransportError
            A lost heartbeat, a drive out of NMT operational, a bus error.

        """
        raw = self.exchange()
        if raw is None:
            return None
        sw, pos, vel, tq = raw
        sc = self.scaling
        q = sc.position(pos)
        qd = vel * sc.rad_per_count
        sync = self.cycle.sync_time
        # The drives sample at each SYNC on their own clock: the nominal period, not the
        # host's jitter (and the filter keeps its discretisation).
        dt = self.settings.cycle_period if self._last_sync is not None else 0.0
        self._last_sync = sync
        _, _, qdd = self.filter.update(q, dt)
        faults = self._faults()
        if faults:
            self._stop_others(faults)
        status = STATUS_CONFIGURED
        if all(st == P.OPERATION_ENABLED for st in self.states):
            status |= STATUS_ENABLED
        lat = self.cycle.latencies
        latency = int(lat[-1] * 1e6) if lat else -1
        sample = JointSample(int(sync * 1e6), self.cycle.complete_time, q, qd, qdd,
                             self.torque.joint_torque(tq), self.torque.amps(tq), status,
                             faults, latency, 0)
        self.last_sample = sample
        return sample

    def _faults(self):
        bits = 0
        for i, st in enumerate(self.states):
            if st in (P.FAULT, P.FAULT_REACTION_ACTIVE) or self._emcy[i]:
                bits |= 1 << i
        return bits

    def _stop_others(self, faults):
        """Quick-stop every enabled drive once another has faulted."""
        on = [i for i, st in enumerate(self.states)
              if st == P.OPERATION_ENABLED and not faults & (1 << i)
              and self.controlword[i] != QUICK_STOP_COMMAND]
        if on:
            self.controlword[on] = QUICK_STOP_COMMAND
            self.send_raw(np.zeros(self.model.n, dtype=int))

    def send_currents(self, sample, currents):
        """
        Send each joint's current set-point as a target torque.

        Parameters
        ----------
        sample : JointSample
            The sample they were computed from.
        currents : numpy.ndarray
            Motor currents [A], (n,) (limited by the caller).

        Returns
        -------
        numpy.ndarray
            The currents the sent per-mille values stand for [A].

        """
        permille = self.torque.permille(currents)
        self.send_raw(permille)
        return self.torque.amps(permille)

    def heartbeat(self):
        """Check the link (the cycle sends the host's heartbeat; no set-point is sent)."""
        self._check_link()

    # ------------------------------------------------------------------ power
    def enable(self):
        """
        Walk every drive to Operation enabled (see :func:`.power.enable`).

        Raises
        ------
        DriveRefused
            A drive is in Fault.
        DriveTimeout
            A drive does not follow.

        """
        power.enable(self)

    def disable(self):
        """Take every drive out of Operation enabled (see :func:`.power.disable`)."""
        power.disable(self)

    def clear_fault(self):
        """Reset the faulted drives (see :func:`.power.clear_fault`)."""
        power.clear_fault(self)

    def faulted(self):
        """Give the joints whose drive is in Fault or sent an EMCY (list of int)."""
        return [i for i, st in enumerate(self.states)
                if st in (P.FAULT, P.FAULT_REACTION_ACTIVE) or self._emcy[i]]

    def forget_emcy(self, axes):
        """Drop the latched EMCYs of ``axes`` (after their fault reset)."""
        self._emcy[list(axes)] = False

    # ------------------------------------------------------------------ reporting
    def fault_text(self, faults):
        """
        Describe the faulted drives, each with its newest EMCY.

        Parameters
        ----------
        faults : int
            One bit per joint.

        Returns
        -------
        str
            E.g. ``"CiA 402 fault: node 2 (joint 'j2'): EMCY 0x2310 continuous over-current"``.

        """
        parts = []
        for i, k in enumerate(self.settings.node_ids):
            if not faults & (1 << i):
                continue
            emcy = [r for r in self.fault_reports if r.axis == i]
            st = self.states[i]
            what = str(emcy[-1]) if emcy else (st.value if st else 'fault')
            parts.append(f'node {k} (joint {self.model.joint_names[i]!r}): {what}')
        return 'CiA 402 fault: ' + '; '.join(parts)

    def describe(self):
        """Describe the drive set in one line (str)."""
        ident = self.identity
        s = self.settings
        if ident is None:
            return 'CiA 402 drives not connected'
        first = ident.drives[0]
        return (f'{ident.axis_count} CiA 402 drives (nodes {", ".join(map(str, s.node_ids))}, '
                f'{first.name!r} {first.software}) on {s.interface} at '
                f'{s.bitrate / 1e3:g} kbit/s, SYNC {1.0 / s.cycle_period:g} Hz, cyclic '
                'synchronous torque')

    def health_values(self):
        """
        Return the drive set's own diagnostics values.

        Returns
        -------
        dict
            Power state per drive, EMCY count, cycle counters, bus counters,
            percentiles of the SYNC-to-RPDO latency and of the host's part [us].

        """
        out = {'drive_states': ','.join(st.value if st else '?' for st in self.states),
               'emcy_received': self.stats.emcy}
        cycle, bus = self.cycle, self.bus
        if cycle is not None:
            c = cycle.counters
            out.update(sync_cycles=c.cycles, tpdo_missing=c.missing_frames,
                       tpdo_late=c.late_frames, tpdo_stale=c.stale, sync_overruns=c.overruns)
            for name, values in (('latency', cycle.latencies), ('compute', cycle.compute)):
                arr = np.array(values) * 1e6 if values else None
                for p in (50, 99):
                    out[f'{name}_p{p}_us'] = f'{np.percentile(arr, p):.0f}' if arr is not None \
                        else ''
        if bus is not None:
            b = bus.counters
            out.update(bus_bad_frames=b.bad_frames, bus_error_frames=b.error_frames,
                       bus_paced=b.paced)
        return out


__all__ = ['Cia402Driver', 'DriveConfigError', 'DriveRefused', 'DriveSetIdentity',
           'DriveTimeout']
