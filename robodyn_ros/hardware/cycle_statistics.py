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

"""Cycle statistics of the hardware interface: cycle and listener times, report rate."""

import numpy as np

#: Cycles kept for the percentiles.
RING = 4096


class CycleStatistics:
    """
    Recent cycle times, listener times and the board's report rate.

    Attributes
    ----------
    cycles : int
        Active cycles (a current frame sent).
    samples : int
        Samples handed to the listener.
    report_rate : float
        Reports per second over the last full second [Hz].

    """

    def __init__(self):
        self.cycle_times = np.full(RING, np.nan)
        self.listener_times = np.full(RING, np.nan)
        self.cycles = 0
        self.samples = 0
        self.report_rate = 0.0
        self._window_start = None
        self._window_count = 0

    def cycle(self, seconds):
        """
        Record one active cycle's time from report to current frame.

        Parameters
        ----------
        seconds : float
            Time [s].

        """
        self.cycle_times[self.cycles % RING] = seconds
        self.cycles += 1

    def listener(self, seconds):
        """
        Record the time the sample listener took.

        Parameters
        ----------
        seconds : float
            Time [s].

        """
        self.listener_times[self.samples % RING] = seconds
        self.samples += 1

    def report(self, now):
        """
        Count one state report; tell when a new one-second rate is ready.

        Parameters
        ----------
        now : float
            Monotonic time [s].

        Returns
        -------
        bool
            True when :attr:`report_rate` was just updated.

        """
        if self._window_start is None:
            self._window_start = now
        self._window_count += 1
        elapsed = now - self._window_start
        if elapsed < 1.0:
            return False
        self.report_rate = self._window_count / elapsed
        self._window_start, self._window_count = now, 0
        return True

    def values(self):
        """
        Percentiles for diagnostics.

        Returns
        -------
        dict
            ``report_rate_hz``, ``cycle_time_p50_us``, ``cycle_time_p99_us``,
            ``publish_time_p50_us``, ``publish_time_p99_us`` as strings
            (empty before the first value).

        """
        def pct(arr, q):
            arr = arr[np.isfinite(arr)]
            return f'{np.percentile(arr, q) * 1e6:.0f}' if arr.size else ''

        return {'report_rate_hz': f'{self.report_rate:.1f}',
                'cycle_time_p50_us': pct(self.cycle_times, 50),
                'cycle_time_p99_us': pct(self.cycle_times, 99),
                'publish_time_p50_us': pct(self.listener_times, 50),
                'publish_time_p99_us': pct(self.listener_times, 99)}
