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
The simulated arm's true state, sampled from the board's control channel.

The fault campaign measures what the arm did, not what the nodes say: a
:class:`TruthSampler` asks the simulated board for its plant state (true
joint positions and velocities, outputs on or off) every few milliseconds
from a thread, independently of the hardware interface (which may be the
part that was killed).
"""

import threading
import time

import numpy as np

from ..sim.board.faults import control_request


class TruthSampler:
    """
    Poll the board's true state in the background.

    Parameters
    ----------
    control_port : int
        The simulated board's control port on 127.0.0.1.
    period : float
        Polling period [s].

    """

    def __init__(self, control_port, period=0.01):
        self.port = int(control_port)
        self.period = float(period)
        self._lock = threading.Lock()
        self._t, self._q, self._qd, self._on = [], [], [], []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name='truth_sampler', daemon=True)

    def start(self):
        """Start polling."""
        self._thread.start()

    def stop(self):
        """Stop polling."""
        self._stop.set()
        self._thread.join(timeout=5.0)

    def _run(self):
        while not self._stop.wait(self.period):
            try:
                st = control_request(self.port, {'cmd': 'state'}, timeout=1.0)
            except (OSError, TimeoutError, ValueError):
                continue
            if not st.get('ok', True) or 'q' not in st:
                continue
            with self._lock:
                self._t.append(time.time())
                self._q.append(st['q'])
                self._qd.append(st['qd'])
                self._on.append(bool(st['enabled']))

    def window(self, start, end=np.inf):
        """
        Return the samples between two times.

        Parameters
        ----------
        start, end : float
            Times [s, epoch].

        Returns
        -------
        dict
            ``t`` (N,), ``q`` and ``qd`` (N, n) [rad, rad/s], ``enabled`` (N,).

        """
        with self._lock:
            t = np.array(self._t)
            q, qd, on = np.array(self._q), np.array(self._qd), np.array(self._on)
        keep = (t >= start) & (t <= end)
        return {'t': t[keep], 'q': q[keep] if q.size else q, 'qd': qd[keep] if qd.size else qd,
                'enabled': on[keep]}

    def latest(self):
        """
        Return the newest sample.

        Returns
        -------
        dict or None
            ``t``, ``q``, ``qd``, ``enabled``.

        """
        with self._lock:
            if not self._t:
                return None
            return {'t': self._t[-1], 'q': np.array(self._q[-1]), 'qd': np.array(self._qd[-1]),
                    'enabled': self._on[-1]}
