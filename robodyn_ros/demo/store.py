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

"""What the demo keeps of a run in memory, as arrays for the report (thread-safe)."""

from dataclasses import dataclass
import threading

import numpy as np


@dataclass
class Plan:
    """
    One planned trajectory as received.

    Attributes
    ----------
    stamp : float
        Header stamp: the trajectory's start [s, epoch].
    received : float
        Arrival time [s, epoch].
    times : numpy.ndarray
        Time from start of each point, (N,) [s].
    positions, velocities : numpy.ndarray
        (N, n) [rad or m, rad/s or m/s]; velocities may be None.

    """

    stamp: float
    received: float
    times: np.ndarray
    positions: np.ndarray
    velocities: np.ndarray

    @property
    def end(self):
        """Return the end of the motion [s, epoch]."""
        return self.stamp + float(self.times[-1])


class RunLog:
    """Messages of a run, appended from the probe's thread, read by the session."""

    def __init__(self):
        self._lock = threading.Lock()
        self.state_stamps, self.state_received = [], []
        self.q, self.qd, self.effort = [], [], []
        #: ``(received, serialized)`` joint states not yet decoded.
        self._pending = []
        #: Turns a serialized joint state into ``(stamp, q, qd, effort)``.
        self.state_decoder = None
        self.command_received = []
        self.plans = []
        self.errors = {}
        self.payload = {}
        self.estimates = {}
        self.diagnostics = {}
        self.dynamics_info = None
        self.notes = []

    def add_state_serialized(self, received, data):
        """Keep a serialized joint state, decoded only when read (cheap while running)."""
        with self._lock:
            self._pending.append((received, data))

    def _decode_pending(self):
        """Decode the serialized joint states (caller holds the lock)."""
        pending, self._pending = self._pending, []
        for received, data in pending:
            try:
                stamp, q, qd, effort = self.state_decoder(data)
            except ValueError as exc:
                if len(self.notes) < 100:
                    self.notes.append(f'joint_states: {exc}')
                continue
            self.state_stamps.append(stamp)
            self.state_received.append(received)
            self.q.append(q)
            self.qd.append(qd if qd is not None else np.full_like(q, np.nan))
            self.effort.append(effort if effort is not None else np.full_like(q, np.nan))

    def state_count(self):
        """Return how many joint states arrived (decoded or not)."""
        with self._lock:
            return len(self.state_received) + len(self._pending)

    def state_arrivals(self, start=-np.inf, end=np.inf):
        """Return the arrival times of joint states in ``[start, end]`` [s] (no decoding)."""
        with self._lock:
            t = np.array(self.state_received + [r for r, _ in self._pending])
        return t[(t >= start) & (t <= end)]

    def add_command(self, received):
        """Count a joint command (arrival [s])."""
        with self._lock:
            self.command_received.append(received)

    def add_plan(self, stamp, received, arrays):
        """Keep a planned trajectory (arrays of ``trajectory_arrays``)."""
        with self._lock:
            self.plans.append(Plan(stamp, received, arrays['times'], arrays['positions'],
                                   arrays['velocities']))

    def add_error(self, law, stamp, received, error):
        """Append a controller's reported position error ``q_ref - q``."""
        with self._lock:
            self.errors.setdefault(law, []).append((stamp, received, error))

    def add_payload(self, law, received, mass):
        """Append a controller's payload estimate [kg]."""
        with self._lock:
            self.payload.setdefault(law, []).append((received, float(mass)))

    def add_estimates(self, law, received, values):
        """Append a controller's labelled estimates (label to list of floats)."""
        with self._lock:
            self.estimates.setdefault(law, []).append((received, values))

    def add_diagnostic(self, name, received, level, message, values):
        """Keep the latest diagnostic status per name (and its history of levels)."""
        with self._lock:
            entry = self.diagnostics.setdefault(name, {'history': []})
            entry.update(received=received, level=level, message=message, values=values)
            entry['history'].append((received, level, message))

    def add_dynamics_info(self, received, text):
        """Keep the parallel-dynamics service's description (JSON text)."""
        with self._lock:
            self.dynamics_info = text

    def note(self, text):
        """Keep a remark about a malformed message."""
        with self._lock:
            if len(self.notes) < 100:
                self.notes.append(text)

    def trim(self, before):
        """Forget joint states and commands that arrived before ``before`` [s]."""
        with self._lock:
            self._pending = [p for p in self._pending if p[0] >= before]
            k = int(np.searchsorted(np.array(self.state_received), before))
            del self.state_stamps[:k], self.state_received[:k], self.q[:k], self.qd[:k]
            del self.effort[:k]
            k = int(np.searchsorted(np.array(self.command_received), before))
            del self.command_received[:k]
            for law in self.errors:
                self.errors[law] = [r for r in self.errors[law] if r[1] >= before]
            for law in self.payload:
                self.payload[law] = [r for r in self.payload[law] if r[0] >= before]
            for entry in self.diagnostics.values():
                entry['history'] = entry['history'][-100:]
            self.plans = self.plans[-5:]

    # ------------------------------------------------------------------ reading
    def states(self, start=-np.inf, end=np.inf):
        """
        Return the joint states with stamps in ``[start, end]``.

        Returns
        -------
        dict
            ``stamp``, ``received`` (N,) [s]; ``q``, ``qd``, ``effort`` (N, n).

        """
        with self._lock:
            self._decode_pending()
            stamps = np.array(self.state_stamps)
            received = np.array(self.state_received)
            q, qd, effort = list(self.q), list(self.qd), list(self.effort)
        keep = (stamps >= start) & (stamps <= end)
        idx = np.flatnonzero(keep)

        def rows(values):
            return np.array([values[i] for i in idx]) if idx.size else np.zeros((0, 0))

        return {'stamp': stamps[keep], 'received': received[keep], 'q': rows(q),
                'qd': rows(qd), 'effort': rows(effort)}

    def commands(self, start=-np.inf, end=np.inf):
        """Return the arrival times of joint commands in ``[start, end]`` [s]."""
        with self._lock:
            t = np.array(self.command_received)
        return t[(t >= start) & (t <= end)]

    def plans_after(self, t):
        """Return the plans received after ``t`` [s]."""
        with self._lock:
            return [p for p in self.plans if p.received >= t]

    def reported_errors(self, law, start=-np.inf, end=np.inf):
        """Return ``(stamps, errors)`` a controller reported in ``[start, end]``."""
        with self._lock:
            rows = [r for r in self.errors.get(law, []) if start <= r[0] <= end]
        if not rows:
            return np.zeros(0), np.zeros((0, 0))
        return np.array([r[0] for r in rows]), np.array([r[2] for r in rows])

    def payload_estimates(self, law, start=-np.inf, end=np.inf):
        """Return ``(times, masses)`` of a controller's payload estimate [s, kg]."""
        with self._lock:
            rows = [r for r in self.payload.get(law, []) if start <= r[0] <= end]
        return np.array([r[0] for r in rows]), np.array([r[1] for r in rows])

    def estimate_series(self, law, key, start=-np.inf, end=np.inf):
        """Return ``(times, values)`` of the first element of one labelled estimate."""
        with self._lock:
            rows = [(r, v[key][0]) for r, v in self.estimates.get(law, [])
                    if start <= r <= end and v.get(key)]
        return np.array([r[0] for r in rows]), np.array([r[1] for r in rows], dtype=float)

    def diagnostic(self, name):
        """Return the latest status of ``name`` (dict) or None."""
        with self._lock:
            entry = self.diagnostics.get(name)
            return None if entry is None else {k: v for k, v in entry.items() if k != 'history'}

    def diagnostic_history(self, name):
        """Return every ``(received, level, message)`` of ``name``, oldest first (list)."""
        with self._lock:
            return list(self.diagnostics.get(name, {}).get('history', []))

    def counter(self, name, key):
        """Return an integer value of the latest status of ``name`` (0 when absent)."""
        entry = self.diagnostic(name)
        try:
            return int(entry['values'][key]) if entry else 0
        except (KeyError, ValueError):
            return 0
