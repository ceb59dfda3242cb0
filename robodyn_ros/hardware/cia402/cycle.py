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
One cycle on the bus: SYNC, the drives' TPDOs, the host's RPDOs.

:class:`PdoCycle` is the host's side of cyclic synchronous operation. Each
:meth:`~PdoCycle.exchange` waits for the next SYNC time (the host is the
SYNC producer and paces the cycle), sends SYNC, and reads the bus itself
(no receive thread in the cycle: every frame goes through ``canopen``'s
dispatch, heartbeats and EMCYs included) until TPDO1 and TPDO2 of every
drive have arrived or the TPDO window has passed (a drive whose answer is
late keeps its previous one for up to ``max_stale`` cycles, counted; older,
the cycle has no sample); :meth:`~PdoCycle.send` writes each drive's RPDO1
(controlword and target torque), to take effect at the next SYNC. The
TPDOs are decoded with the layout of :mod:`.objects` (no PDO objects in the
cycle); a frame on a TPDO COB-ID with the wrong length is counted and
ignored. The time from SYNC to the last RPDO is the cycle's latency.
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
        Cycles with every TPDO in the window.
    missing_frames : int
        Drive answers missing in a cycle without a sample.
    late_frames : int
        TPDOs that arrived after their window (used in the next cycle).
    bad_frames : int
        Frames on a TPDO COB-ID with the wrong length.
    duplicates : int
        A TPDO received twice in one cycle (the second is dropped).
    overruns : int
        SYNCs sent later than a whole period after their time.
    stale : int
        Drive answers taken from an earlier cycle.

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
    The host's cyclic exchange with a set of drives.

    Parameters
    ----------
    network : canopen.Network
        The connected network, its receive thread stopped: the cycle reads
        ``network.bus`` and dispatches every frame.
    node_ids : sequence of int
        The drives, in joint order.
    period : float
        SYNC period [s].
    window : float
        Share of the period to wait for the TPDOs.
    max_stale : int
        Cycles a drive's previous answer stands in for a late one.

    Attributes
    ----------
    counters : CycleCounters
        Counts.
    latencies : collections.deque
        Recent SYNC-to-RPDO times [s].
    sync_time : float
        When the current cycle's SYNC went out [s, monotonic].
    complete_time : float
        When its last TPDO arrived [s, monotonic] (NaN if incomplete).

    """

    def __init__(self, network, node_ids, period, window=0.8, max_stale=2):
        self.network = network
        self.node_ids = tuple(node_ids)
        self.n = len(self.node_ids)
        self.period = float(period)
        self.window = float(window)
        self.max_stale = int(max_stale)
        self.counters = CycleCounters()
        self.latencies = deque(maxlen=20000)
        self.sync_time = 0.0
        self.complete_time = float('nan')
        self._t1 = [None] * self.n
        self._t2 = [None] * self.n
        self._c1 = [-(1 << 30)] * self.n        # cycle each frame answered
        self._c2 = [-(1 << 30)] * self.n
        self._got = 0
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
            return
        if self.complete_time == self.complete_time:    # after this cycle's window
            self.counters.late_frames += 1
            return
        self._got += 1
        if self._got == 2 * self.n:
            self.complete_time = time.monotonic()

    def wait_for_sync_time(self):
        """Sleep until the next SYNC is due (a cycle later than a period is re-timed)."""
        now = time.monotonic()
        if self._next is None or now - self._next > self.period:
            if self._next is not None:
                self.counters.overruns += 1
            self._next = now
        delay = self._next - now
        if delay > 0.0:
            time.sleep(delay)

    def exchange(self):
        """
        Run the receiving half of one cycle: SYNC, then the TPDOs.

        Returns
        -------
        tuple or None
            ``(statusword, position, velocity, torque)`` arrays (n,) of the
            raw TPDO values, or None when a drive's newest answer is older
            than ``max_stale`` cycles (its frames counted in ``missing_frames``).

        Raises
        ------
        can.CanError
            When the SYNC cannot be sent.

        """
        self.wait_for_sync_time()
        self.drain()                      # heartbeats and EMCYs since the last cycle
        self._got = 0
        self.complete_time = float('nan')
        self.counters.cycles += 1
        k = self.counters.cycles
        self.sync_time = time.monotonic()
        self._next += self.period
        self.network.send_message(o.SYNC_COB_ID, b'')
        deadline = self.sync_time + self.window * self.period
        bus, notify = self.network.bus, self.network.notify
        while self._got < 2 * self.n:
            left = deadline - time.monotonic()
            if left <= 0.0:
                break
            msg = bus.recv(left)
            if msg is not None:
                notify(msg.arbitration_id, msg.data, msg.timestamp)
        if self._got < 2 * self.n:
            self.complete_time = time.monotonic()    # later frames count as late
        t1, t2 = self._t1, self._t2
        ages = [k - min(a, b) for a, b in zip(self._c1, self._c2)]
        missing = sum(1 for a in ages if a > 0)
        if missing:
            if max(ages) > self.max_stale:
                self.counters.missing_frames += missing
                return None
            self.counters.stale += missing
        self.counters.complete += 1
        sw = np.empty(self.n, dtype=np.int64)
        pos = np.empty(self.n, dtype=np.int64)
        vel = np.empty(self.n, dtype=np.int64)
        tq = np.empty(self.n, dtype=np.int64)
        for i in range(self.n):
            sw[i], pos[i] = o.TPDO1_FORMAT.unpack(t1[i])
            vel[i], tq[i] = o.TPDO2_FORMAT.unpack(t2[i])
        return sw, pos, vel, tq

    def drain(self):
        """Dispatch every frame waiting on the bus (none is waited for)."""
        bus, notify = self.network.bus, self.network.notify
        for _ in range(1000):
            msg = bus.recv(0.0)
            if msg is None:
                return
            notify(msg.arbitration_id, msg.data, msg.timestamp)

    def send(self, controlwords, torques):
        """
        Send every drive's RPDO1 for the next SYNC.

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
        self.latencies.append(time.monotonic() - self.sync_time)

    def __repr__(self):
        return f'PdoCycle({len(self.node_ids)} drives, {self.period * 1e3:g} ms)'
