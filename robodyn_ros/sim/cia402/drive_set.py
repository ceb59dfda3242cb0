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
The simulated drive set: one process, one bus, one drive per joint, one plant.

:class:`SimDriveSet` loads the true robot (as ``robodyn sim-board`` does:
:func:`~robodyn_ros.sim.board.axes_build.true_model`,
:func:`~robodyn_ros.sim.board.axes_build.build_axes`), puts one
:class:`~.drive.SimDrive` per joint on a CAN bus and runs, in one thread:

* the bus: every frame is handed to ``canopen`` (SDO servers, NMT) or to
  the drive whose RPDO it is; a SYNC makes every operational drive apply
  its RPDO and send its TPDOs; heartbeats go out at each drive's producer
  time; every frame out passes the fault injection (drop, delay,
  disconnect, a drive's heartbeat loss);
* the drives' cycle at ``rate``: target torque (per mille of the rated
  torque the host wrote) to current, the plant's step with each axis's
  power stage and brake, over-current trip, the drives' timers;
* the control channel of the simulated board (JSON over UDP on loopback:
  ``status``, ``state``, ``inject``, ``clear``, ``quit``).
"""

import heapq
import math
import select
import time

import can
import canopen
import numpy as np

from .drive import SimDrive
from .faults import DRIVE_FAULTS, DriveFaultInjector
from ..board.axes_build import build_axes, true_model
from ..board.faults import ControlChannel, parse_fault_spec
from ...errors import InputError
from ...hardware.cia402 import EDS_PATH
from ...hardware.cia402 import objects as o
from ...hardware.cia402.bus import open_bus
from ...realtime.hygiene import setup_process, setup_thread, thaw_garbage


class PeriodicFrame:
    """A periodic frame (a heartbeat) that the drive set's loop sends."""

    def __init__(self, can_id, data, period):
        self.can_id = can_id
        self.data = bytes(data or b'')
        self.period = float(period)
        self.next_time = time.monotonic()
        self.stopped = False

    def stop(self):
        """Stop sending."""
        self.stopped = True

    def update(self, data):
        """Send ``data`` from now on."""
        self.data = bytes(data)


class SimNetwork(canopen.Network):
    """
    A ``canopen`` network driven by the drive set's own loop (no receive thread).

    Periodic frames are sent by the loop; every frame out passes ``gate``.
    """

    def __init__(self, bus, gate):
        super().__init__(bus)
        self.periodic = []
        self.gate = gate

    def send_periodic(self, can_id, data, period, remote=False):
        """Register a periodic frame for the loop (returns it)."""
        task = PeriodicFrame(can_id, data, period)   # a restarted heartbeat stops the old one
        self.periodic = [t for t in self.periodic if not t.stopped] + [task]
        return task

    def send_message(self, can_id, data, remote=False):
        """Send one frame if the fault injection lets it through."""
        if self.gate(can_id, bytes(data)):
            self.raw_send(can_id, data)

    def raw_send(self, can_id, data):
        """Send one frame as it is."""
        super().send_message(can_id, data)


class SimDriveSet:
    """
    The drive set of one simulated robot (see the module docstring).

    Parameters
    ----------
    config : SimDriveConfig
        The options (checked).
    model : RobotModel
        The true model.

    """

    def __init__(self, config, model):
        config.check()
        self.config = config
        rng = np.random.default_rng(config.seed)
        self.axes, self.rating = build_axes(config, model, rng)
        self.model = self.axes.model
        n = self.model.n
        ids = list(config.node_ids) or list(range(1, n + 1))
        if len(ids) != n:
            raise InputError('node_ids', f'need one node id per joint ({n}), got {len(ids)}')
        self.injector = DriveFaultInjector(rng)
        for spec in config.faults:
            name, params = parse_fault_spec(spec, DRIVE_FAULTS)
            self.injector.inject(name, params)
        counts = np.broadcast_to(self.axes.encoder_counts, (n,))
        self.drives = [SimDrive(i, ids[i], EDS_PATH, self.injector, int(counts[i]),
                                config.firmware, config.quick_stop_time, config.brake_delay)
                       for i in range(n)]
        self.by_id = {d.node_id: d for d in self.drives}
        self.network = None
        self.bus = None
        self.control = None
        self.counters = dict.fromkeys(('ticks', 'overruns', 'rx_frames', 'rx_dropped',
                                       'tx_frames', 'tx_dropped', 'tx_failed', 'syncs'), 0)
        self.sync_times = []
        #: Time from a SYNC's dispatch to its last TPDO sent [s].
        self.sync_handling = []
        self._route = {}
        self._delayed = []
        self._stop = False
        self._started = None
        self._hb_owner = {o.heartbeat_cob_id(k): d for k, d in self.by_id.items()}
        self._scale_version = -1
        self._scale = None

    # ------------------------------------------------------------------ bus
    def _gate(self, can_id, data):
        """Apply the tx faults to one outgoing frame; True to send it now."""
        inj = self.injector
        drive = self._hb_owner.get(can_id)
        if inj.disconnected or inj.drop('tx') or (
                drive is not None and inj.on('heartbeat_loss', drive.axis)):
            self.counters['tx_dropped'] += 1
            return False
        if inj.delay > 0.0 and 0x180 <= can_id < 0x580:
            heapq.heappush(self._delayed, (time.monotonic() + inj.delay,
                                           self.counters['tx_frames'], can_id, data))
            self.counters['tx_frames'] += 1
            return False
        self.counters['tx_frames'] += 1
        return True

    def start(self):
        """Open the bus, put the drives on it, boot them (NMT pre-operational)."""
        cfg = self.config
        self.bus = open_bus(cfg.interface, cfg.channel, cfg.bitrate, cfg.can_port)
        self.network = SimNetwork(self.bus, self._gate)
        for d in self.drives:
            self.network.add_node(d.node)
        self.network.subscribe(o.SYNC_COB_ID, self._on_sync)
        for k in range(1, 128):
            if k not in self.by_id:
                self.network.subscribe(o.heartbeat_cob_id(k), self._on_heartbeat)
        for d in self.drives:
            self.network.send_message(o.heartbeat_cob_id(d.node_id), bytes([0]))   # boot-up
            d.node.nmt.state = 'PRE-OPERATIONAL'

    def close(self):
        """Close the bus."""
        if self.bus is not None:
            self.bus.shutdown()
            self.bus = None

    def _on_heartbeat(self, can_id, data, timestamp):
        now = time.monotonic()
        for d in self.drives:
            d.on_heartbeat(can_id - 0x700, now)

    def _dispatch(self, msg):
        inj = self.injector
        if inj.disconnected or inj.drop('rx'):
            self.counters['rx_dropped'] += 1
            return
        self.counters['rx_frames'] += 1
        cob = msg.arbitration_id
        drive = self._route.get(cob)
        if drive is not None:
            if drive.node.nmt.state == 'OPERATIONAL':
                drive.on_rpdo(cob, bytes(msg.data), time.monotonic())
            return
        self.network.notify(cob, msg.data, msg.timestamp)
        if 0x600 < cob < 0x680 or cob == 0:    # SDO or NMT: a mapping may have changed
            self._route = {c: d for d in self.drives for c in d.rpdo_cob_ids()}

    def _on_sync(self, can_id, data, timestamp):
        now = time.monotonic()
        self.counters['syncs'] += 1
        if len(self.sync_times) < 100000:
            self.sync_times.append(now)
        self._sample()
        for d in self.drives:
            if d.node.nmt.state != 'OPERATIONAL':
                continue
            d.on_sync(now)
            for cob, frame in d.tpdo_frames():
                try:
                    self.network.send_message(cob, frame)
                except can.CanError:
                    self.counters['tx_failed'] += 1
        if len(self.sync_handling) < 100000:
            self.sync_handling.append(time.monotonic() - now)

    def _sample(self):
        """Update every drive's actual values from the plant."""
        ax = self.axes
        stuck = np.array([self.injector.stuck(i) for i in range(ax.n)])
        counts = ax.encoder(stuck)
        velocity = np.rint(ax.qd * ax.counts_per_unit)
        current = ax.measured_current(self._offsets())
        rated = self._scales()[0]
        kt = ax.axes.torque_constant
        for i, d in enumerate(self.drives):
            d.position = int((int(counts[i]) + 2 ** 31) % 2 ** 32 - 2 ** 31)
            d.velocity = int(min(max(velocity[i], -2 ** 31), 2 ** 31 - 1))
            d.torque = int(min(max(round(1e3 * kt[i] * current[i] / rated[i]), -32768), 32767))

    def _scales(self):
        """
        Give each drive's torque scaling, re-read after any SDO write.

        Returns
        -------
        tuple
            ``(rated, max_permille, limit)``: rated torque [N m], max torque
            [per mille] and the current limit they give [A], (n,) each.

        """
        version = sum(d.version for d in self.drives)
        if self._scale_version != version:
            kt = self.axes.axes.torque_constant
            rated = np.array([max(d.stored(o.RATED_TORQUE), 1) * 1e-3 for d in self.drives])
            maxt = np.array([float(d.stored(o.MAX_TORQUE)) for d in self.drives])
            self._scale = (rated, maxt, maxt * 1e-3 * rated / kt)
            self._scale_version = version
        return self._scale

    def _limits(self):
        """Give each drive's current limit from its max torque and rated torque [A]."""
        return self._scales()[2]

    def _offsets(self):
        if 'over_current' not in self.injector.active:
            return np.zeros(self.axes.n)
        limits = self._limits()
        return np.array([self.injector.current_offset(i, 2.0 * limits[i])
                         for i in range(self.axes.n)])

    # ------------------------------------------------------------------ drives' cycle
    def tick(self, now):
        """
        Run one drive cycle: set-points to currents, plant step, trips, timers.

        Parameters
        ----------
        now : float
            Time [s, monotonic].

        """
        ax = self.axes
        rated, maxt, _ = self._scales()
        target = np.array([d.target for d in self.drives], dtype=float)
        refs = np.minimum(np.maximum(target, -maxt), maxt) * 1e-3 * rated / ax.axes.torque_constant
        on = np.array([d.brake_released(now) for d in self.drives])
        ax.step(refs, on)
        if not (np.all(np.isfinite(ax.q)) and np.all(np.isfinite(ax.qd))):
            ax.plant.q = np.nan_to_num(ax.plant.q)
            ax.plant.qd[:] = 0.0
            for d in self.drives:
                d.fault(0x6320, 'plant diverged', now)
        limits = self._limits()
        measured = ax.measured_current(self._offsets())
        for i, d in enumerate(self.drives):
            if abs(measured[i]) > self.config.over_current_factor * limits[i]:
                d.fault(0x2310, 'over-current', now)
            d.supervise(now)
        self.counters['ticks'] += 1

    # ------------------------------------------------------------------ control channel
    def ready_info(self):
        """
        Describe the set once it serves (printed as one JSON line).

        Returns
        -------
        dict
            Robot, axes, node ids, bus, control port, rate.

        """
        cfg = self.config
        return {'ready': True, 'robot': self.model.name, 'axes': self.model.n,
                'node_ids': [d.node_id for d in self.drives], 'interface': cfg.interface,
                'channel': cfg.channel, 'can_port': cfg.can_port, 'bitrate': cfg.bitrate,
                'rate': cfg.rate, 'control_port': self.control.port if self.control else None}

    def state(self):
        """
        Give the plant's true positions, speeds and outputs (cheap enough to poll at 100 Hz).

        Returns
        -------
        dict
            ``q``, ``qd`` [rad, rad/s], ``enabled`` (any brake released),
            ``faults`` (one bit per drive in Fault), each drive's ``states``.

        """
        now = time.monotonic()
        from ...hardware.cia402.power_state import P
        faults = sum(1 << i for i, d in enumerate(self.drives)
                     if d.state in (P.FAULT, P.FAULT_REACTION_ACTIVE))
        return {'ok': True, 'board_time_us': int(now * 1e6),
                'enabled': any(d.brake_released(now) for d in self.drives), 'faults': faults,
                'q': [float(v) for v in self.axes.q], 'qd': [float(v) for v in self.axes.qd],
                'states': [d.state.value for d in self.drives]}

    def status(self):
        """
        Give the full state: drives, counters, faults, bus traffic, achieved rate.

        Returns
        -------
        dict
            The status.

        """
        out = self.state()
        out.update(self.counters)
        elapsed = time.monotonic() - self._started if self._started else 0.0
        out['achieved_rate'] = self.counters['ticks'] / elapsed if elapsed > 0 else 0.0
        out['drives'] = [d.snapshot() for d in self.drives]
        out['injected'] = {k: dict(v) for k, v in self.injector.active.items()}
        if self.bus is not None:
            out['bus'] = dict(vars(self.bus.counters))
        t = np.diff(self.sync_times[-2000:]) if len(self.sync_times) > 2 else np.zeros(0)
        out['sync_period_p50_ms'] = float(np.median(t) * 1e3) if t.size else None
        h = np.array(self.sync_handling[-5000:]) * 1e6
        out['sync_to_tpdo_us'] = ([float(np.percentile(h, p)) for p in (50, 99)] if h.size
                                  else None)
        return out

    def control_request(self, req):
        """
        Execute one control-channel request.

        Parameters
        ----------
        req : dict
            ``{'cmd': 'status'|'state'|'inject'|'clear'|'quit', ...}``.

        Returns
        -------
        dict
            The reply.

        """
        cmd = req.get('cmd')
        if cmd == 'status':
            return dict(self.status(), ok=True)
        if cmd == 'state':
            return self.state()
        if cmd == 'inject':
            params = {k: v for k, v in req.items() if k not in ('cmd', 'fault')}
            params = self.injector.inject(str(req.get('fault')), params)
            return {'ok': True, 'fault': req.get('fault'), 'params': params}
        if cmd == 'clear':
            self.injector.clear(str(req.get('fault', 'all')))
            return {'ok': True}
        if cmd == 'quit':
            self._stop = True
            return {'ok': True}
        raise ValueError(f'unknown command {cmd!r} (inject, clear, status, state, quit)')

    def stop(self):
        """Ask :meth:`serve` to return."""
        self._stop = True

    def serve(self, on_ready=None):
        """
        Open the bus and run the set in real time until stopped (or ``max_runtime``).

        Parameters
        ----------
        on_ready : callable, optional
            Called with :meth:`ready_info` once the drives are on the bus.

        """
        cfg = self.config
        if cfg.control_port >= 0:
            self.control = ControlChannel(cfg.control_port, self.control_request)
        self.hygiene = setup_process() + setup_thread(cfg.rt_priority)
        try:
            self.start()
            if on_ready is not None:
                on_ready(self.ready_info())
            self._loop()
        finally:
            self.close()
            if self.control is not None:
                self.control.close()
            thaw_garbage()

    def _loop(self):
        period = 1.0 / self.config.rate
        start = self._started = time.monotonic()
        deadline = start + self.config.max_runtime if self.config.max_runtime > 0 else math.inf
        next_tick = start + period
        try:
            fd = self.bus.fileno()
        except NotImplementedError:
            fd = -1
        waits = ([fd] if fd >= 0 else []) + ([self.control] if self.control else [])
        while not self._stop:
            now = time.monotonic()
            if now >= deadline:
                break
            if now >= next_tick:
                if now - next_tick > period:
                    self.counters['overruns'] += 1
                next_tick = now + period if now - next_tick > 20 * period else next_tick + period
                self.tick(now)
            wake = self._periodic(now, next_tick)
            if fd < 0:
                msg = self.bus.recv(max(0.0, min(wake, 0.001)))
                if msg is not None:
                    self._dispatch(msg)
                if self.control is not None:
                    self.control.poll()
                continue
            ready, _, _ = select.select(waits, [], [], max(0.0, wake))
            if self.control is not None and self.control in ready:
                self.control.poll()
            if fd in ready:
                # Drain what is there, but never past the next tick or heartbeat: a busy
                # bus must not starve the drives' own cycle.
                until = time.monotonic() + max(wake, 0.0)
                for _ in range(64):
                    msg = self.bus.recv(0.0)
                    if msg is None:
                        break
                    self._dispatch(msg)
                    if time.monotonic() > until:
                        break

    def _periodic(self, now, next_tick):
        """Send due heartbeats and delayed frames; return the time to the next event [s]."""
        wake = next_tick
        for task in self.network.periodic:
            if task.stopped:
                continue
            if now >= task.next_time:
                self.network.send_message(task.can_id, task.data)
                task.next_time = max(task.next_time + task.period, now)
            wake = min(wake, task.next_time)
        while self._delayed and self._delayed[0][0] <= now:
            _, _, can_id, data = heapq.heappop(self._delayed)
            self.network.raw_send(can_id, data)
        if self._delayed:
            wake = min(wake, self._delayed[0][0])
        return wake - now


def build_drive_set(config):
    """
    Load the true model and build a simulated drive set.

    Parameters
    ----------
    config : SimDriveConfig
        The options.

    Returns
    -------
    SimDriveSet
        The drive set (not yet serving).

    """
    return SimDriveSet(config, true_model(config))
