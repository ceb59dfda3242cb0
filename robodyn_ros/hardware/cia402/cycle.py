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
One cycle on the bus: the drives' TPDOs, the host's RPDOs, then SYNC.

:class:`PdoCycle` is the host's side of cyclic synchronous operation, timed
as a CANopen master does it, so that the host never waits for the drives:

1. at the cycle's time (the host paces the cycle) :meth:`~PdoCycle.exchange`
   reads whatever is on the bus (no receive thread in the cycle: every
   frame goes through ``canopen``'s dispatch, heartbeats and EMCYs
   included): the TPDO1 and TPDO2 each drive sent in answer to the last
   SYNC, with its state sampled at that SYNC; for an answer not there yet
   it waits at most ``wait`` of the period;
2. the host computes from them and :meth:`~PdoCycle.send` writes each
   drive's RPDO1 (controlword and target torque), then sends SYNC: the
   drives apply the set-points at that SYNC and answer it with their next
   state, for the next cycle.

The cycle also sends the host's heartbeat, once per heartbeat period: no
other thread uses the bus while the cycle runs (python-can's sender thread,
of normal priority, shared the bus's lock with the real-time I/O thread and,
starved on a loaded machine while holding it, stopped the cycle for a
second), and the heartbeat stops when the cycle does.

State-to-actuation delay is one period plus the host's computation. A
drive whose answer has not arrived by the cycle's time keeps its previous
one for up to ``max_stale`` cycles (counted); older, the cycle has no
sample. A cycle without :meth:`~PdoCycle.send` still sends its SYNC at the
start of the next one. The TPDOs are decoded with the layout of
:mod:`.objects`; a frame on a TPDO COB-ID with the wrong length is counted
and ignored. The latency measured is from the SYNC the data answered to the
RPDOs computed from it.
"""

from collections import deque
from dataclasses import dataclass
import time

import numpy as np

from . import objects as o


@dataclass
class CycleCounters:
    """
    Counters of the cyclic exchange.

    Attributes
    ----------
    cycles : int
        SYNCs sent.
    complete : int
        Cycles with every drive's answer to the last SYNC.
    missing_frames : int
        Drive answers missing in cycles without a sample.
    late_frames : int
        TPDOs that arrived after a newer SYNC (kept as the drive's newest).
    bad_frames : int
        Frames on a TPDO COB-ID with the wrong length.
    duplicates : int
        A TPDO received twice for one SYNC (the second is kept).
    overruns : int
        Cycles that started later than a whole period after their time.
    stale : int
        Drive answers taken from an earlier SYNC.

    """

    cycles: int = 0
    complete: int = 0
    missing_frames: int = 0
    late_frames: int = 0
    bad_frames: int = 0
    duplicates: int = 0
    overruns: int = 0
    stale: int = 0


class PdoCycle:
    """
    The host's cyclic exchange with a set of drives (see the module docstring).

    Parameters
    ----------
    network : canopen.Network
        The connected network, its receive thread stopped: the cycle reads
        ``network.bus`` and dispatches every frame.
    node_ids : sequence of int
        The drives, in joint order.
    period : float
        SYNC period [s].
    max_stale : int
        Cycles a drive's previous answer stands in for a late one.
    wait : float
        Share of the period the cycle waits for answers still missing.
    heartbeat : tuple, optional
        ``(cob_id, period)`` of the host's heartbeat (NMT operational) the
        cycle sends; None: none (also settable later, :attr:`heartbeat`).

    Attributes
    ----------
    counters : CycleCounters
        Counts.
    latencies : collections.deque
        Recent times from a SYNC to the RPDOs computed from its answers [s]
        (a period plus the host's part).
    compute : collections.deque
        Recent times from reading the answers to sending the RPDOs: the
        host's part of the cycle [s].
    sync_time : float
        When the SYNC the current data answered went out [s, monotonic].
    complete_time : float
        When the current data was read [s, monotonic].
    round_trip : float
        From the last SYNC to the newest TPDO answering it, by the bus's
        timestamps [s] (NaN before the first answer).

    """

    def __init__(self, network, node_ids, period, max_stale=4, wait=0.4, heartbeat=None):
        self.network = network
        self.heartbeat = heartbeat
        self._heartbeat_due = time.monotonic()
        self.node_ids = tuple(node_ids)
        self.n = len(self.node_ids)
        self.period = float(period)
        self.max_stale = int(max_stale)
        self.wait = float(wait)
        self.counters = CycleCounters()
        self.latencies = deque(maxlen=20000)
        self.compute = deque(maxlen=20000)
        self.sync_time = 0.0
        self.complete_time = float('nan')
        self.round_trip = float('nan')
        self._sync_epoch = 0.0
        self._sync_due = True
        self._sent_sync = 0.0
        self._t1 = [None] * self.n
        self._t2 = [None] * self.n
        self._c1 = [-(1 << 30)] * self.n        # the SYNC each frame answered
        self._c2 = [-(1 << 30)] * self.n
        self._next = None
        self._route = {}
        self._rpdo = [o.rpdo1_cob_id(k) for k in self.node_ids]
        for i, k in enumerate(self.node_ids):
            self._route[o.tpdo1_cob_id(k)] = (i, 1)
            self._route[o.tpdo2_cob_id(k)] = (i, 2)
        for cob_id in self._route:
            network.subscribe(cob_id, self._on_tpdo)

    def close(self):
        """Stop listening to the TPDOs."""
        for cob_id in self._route:
            try:
                self.network.unsubscribe(cob_id, self._on_tpdo)
            except (KeyError, ValueError):
                pass

    def _on_tpdo(self, can_id, data, timestamp):
        i, which = self._route[can_id]
        if len(data) != 6:
            self.counters.bad_frames += 1
            return
        k = self.counters.cycles
        if which == 1:
            self._t1[i], old = bytes(data), self._c1[i]
            self._c1[i] = k
        else:
            self._t2[i], old = bytes(data), self._c2[i]
            self._c2[i] = k
        if old == k:
            self.counters.duplicates += 1
        elif old < k - 1 and old >= 0:
            self.counters.late_frames += 1
        if timestamp and self._sync_epoch:
            trip = timestamp - self._sync_epoch
            if 0.0 <= trip < 1.0 and not trip <= self.round_trip:    # the newest answer
                self.round_trip = trip

    def wait_for_sync_time(self):
        """Sleep until the next cycle is due (a cycle later than a period is re-timed)."""
        now = time.monotonic()
        if self._next is None or now - self._next > self.period:
            if self._next is not None:
                self.counters.overruns += 1
            self._next = now
        delay = self._next - now
        if delay > 0.0:
            time.sleep(delay)
        self._next += self.period

    def send_sync(self):
        """Send SYNC: the drives apply the RPDOs sent before it and answer with their state."""
        self.counters.cycles += 1
        self.round_trip = float('nan')
        self._sync_due = False
        self._sent_sync = time.monotonic()
        self._sync_epoch = time.time()
        self.network.send_message(o.SYNC_COB_ID, b'')

    def _send_heartbeat(self):
        """Send the host's heartbeat when it is due."""
        now = time.monotonic()
        if self.heartbeat is None or now < self._heartbeat_due:
            return
        cob_id, period = self.heartbeat
        self.network.send_message(cob_id, bytes([o.NMT_OPERATIONAL]))
        due = self._heartbeat_due + period
        self._heartbeat_due = due if due > now else now + period

    def drain(self):
        """Dispatch every frame waiting on the bus (none is waited for)."""
        bus, notify = self.network.bus, self.network.notify
        for _ in range(1000):
            msg = bus.recv(0.0)
            if msg is None:
                return
            notify(msg.arbitration_id, msg.data, msg.timestamp)

    def exchange(self):
        """
        Run the receiving half of one cycle: wait for its time, read the drives' answers.

        Returns
        -------
        tuple or None
            ``(statusword, position, velocity, torque)`` arrays (n,) of the
            raw TPDO values, or None when a drive's newest answer is older
            than ``max_stale`` SYNCs (its frames counted in ``missing_frames``).

        Raises
        ------
        can.CanError
            When a SYNC cannot be sent.

        """
        if self._sync_due:                # the last cycle sent no RPDOs, hence no SYNC
            self.send_sync()
        self._send_heartbeat()
        self.wait_for_sync_time()
        self.drain()
        k = self.counters.cycles
        deadline = time.monotonic() + self.wait * self.period
        bus, notify = self.network.bus, self.network.notify
        while min(min(self._c1), min(self._c2)) < k:
            left = deadline - time.monotonic()
            if left <= 0.0:
                break
            msg = bus.recv(left)
            if msg is not None:
                notify(msg.arbitration_id, msg.data, msg.timestamp)
        self._sync_due = True
        self.complete_time = time.monotonic()
        self.sync_time = self._sent_sync
        ages = [k - min(a, b) for a, b in zip(self._c1, self._c2)]
        missing = sum(1 for a in ages if a > 0)
        if missing:
            if max(ages) > self.max_stale:
                self.counters.missing_frames += missing
                return None
            self.counters.stale += missing
        self.counters.complete += not missing
        t1, t2 = self._t1, self._t2
        sw = np.empty(self.n, dtype=np.int64)
        pos = np.empty(self.n, dtype=np.int64)
        vel = np.empty(self.n, dtype=np.int64)
        tq = np.empty(self.n, dtype=np.int64)
        for i in range(self.n):
            sw[i], pos[i] = o.TPDO1_FORMAT.unpack(t1[i])
            vel[i], tq[i] = o.TPDO2_FORMAT.unpack(t2[i])
        return sw, pos, vel, tq

    def send(self, controlwords, torques):
        """
        Send every drive's RPDO1, then SYNC (the set-points take effect at it).

        Parameters
        ----------
        controlwords : sequence of int
            Controlword per drive.
        torques : sequence of int
            Target torque per drive [per mille of the rated torque].

        Raises
        ------
        can.CanError
            When a frame cannot be sent.

        """
        pack = o.RPDO1_FORMAT.pack
        send = self.network.send_message
        for cob_id, cw, tq in zip(self._rpdo, controlwords, torques):
            send(cob_id, pack(int(cw), int(tq)))
        now = time.monotonic()
        self.latencies.append(now - self._sent_sync)
        self.compute.append(now - self.complete_time)
        self.send_sync()

    def __repr__(self):
        return f'PdoCycle({len(self.node_ids)} drives, {self.period * 1e3:g} ms)'
