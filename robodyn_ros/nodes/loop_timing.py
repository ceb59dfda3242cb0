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

"""Loop period and compute-time statistics of a fixed-rate control loop."""

import math

import numpy as np


#: Cycles kept one by one (windowed statistics; exact whole-run statistics up to this).
WINDOW = 1 << 16
#: Log-spaced histogram bins per decade for whole-run percentiles of longer runs.
BINS_PER_DECADE = 100
_LOG_LOW = -7.0          # 100 ns
_NBINS = int(10 * BINS_PER_DECADE)  # up to 1000 s


def _bin(x):
    if not x > 0.0:   # zero, negative or NaN
        return 0
    return min(_NBINS - 1, max(0, int((math.log10(x) - _LOG_LOW) * BINS_PER_DECADE)))


def _hist_percentile(hist, q):
    total = hist.sum()
    if total == 0:
        return math.nan
    k = int(np.searchsorted(np.cumsum(hist), q / 100.0 * total, side='left'))
    return 10.0 ** (_LOG_LOW + (k + 0.5) / BINS_PER_DECADE)


class LoopTiming:
    """
    Start time, compute time and law time of the cycles of a fixed-rate loop.

    Memory stays bounded however long the loop runs: the last ``WINDOW``
    cycles are kept one by one (windowed statistics, and exact whole-run
    statistics while the run is no longer than that); beyond, whole-run
    counts and maxima stay exact and the percentiles come from log-spaced
    histograms (bins 2.3 % wide).

    Parameters
    ----------
    period : float
        Nominal period [s]; a period longer than 1.5 times it is a missed
        deadline.

    """

    def __init__(self, period):
        self.period = period
        self.periods = np.full(WINDOW, np.nan)
        self.compute = np.zeros(WINDOW)
        self.law = np.full(WINDOW, np.nan)
        self.count = 0
        self.last = None
        self._hist = {k: np.zeros(_NBINS, dtype=np.int64)
                      for k in ('period', 'compute', 'law', 'jitter')}
        self._max = {'period': -math.inf, 'compute': -math.inf, 'law': -math.inf}
        self._periods_seen = 0
        self._laws_seen = 0
        self._missed = 0
        self._skipped = 0.0

    def record(self, start, end, law):
        """
        Add one cycle.

        Parameters
        ----------
        start, end : float
            Start and end of the cycle [s, monotonic].
        law : float
            Time spent in the law [s] (NaN when it did not run).

        """
        per = start - self.last if self.last is not None else math.nan
        comp = end - start
        i = self.count % WINDOW
        self.periods[i] = per
        self.compute[i] = comp
        self.law[i] = law
        self.last = start
        self.count += 1
        h, mx = self._hist, self._max
        h['compute'][_bin(comp)] += 1
        mx['compute'] = max(mx['compute'], comp)
        if per == per:  # not NaN
            self._periods_seen += 1
            h['period'][_bin(per)] += 1
            h['jitter'][_bin(abs(per - self.period))] += 1
            mx['period'] = max(mx['period'], per)
            if per > 1.5 * self.period:
                self._missed += 1
            self._skipped += max(round(per / self.period) - 1.0, 0.0)
        if law == law:
            self._laws_seen += 1
            h['law'][_bin(law)] += 1
            mx['law'] = max(mx['law'], law)

    def _recent(self, window):
        n = min(self.count, WINDOW, window)
        idx = (np.arange(self.count - n, self.count) % WINDOW)
        return self.periods[idx], self.compute[idx], self.law[idx]

    def stats(self, window=None):
        """
        Summarise the whole run, or its last ``window`` cycles.

        Parameters
        ----------
        window : int, optional
            Number of recent cycles (at most ``WINDOW``).

        Returns
        -------
        dict
            Cycle count, period percentiles and maximum [ms], p99 jitter
            [ms], missed deadlines (count and percent), skipped periods,
            compute and law time percentiles and maxima [us]; empty before
            two cycles.

        """
        if window is None and self.count > WINDOW:
            return self._run_stats()
        per, comp, law = self._recent(self.count if window is None else window)
        per = per[np.isfinite(per)]
        law = law[np.isfinite(law)]
        if per.size == 0:
            return {}
        late = per > 1.5 * self.period
        skipped = np.maximum(np.round(per / self.period) - 1.0, 0.0)
        return {
            'cycles': int(comp.size),
            'period_p50_ms': float(np.percentile(per, 50) * 1e3),
            'period_p99_ms': float(np.percentile(per, 99) * 1e3),
            'period_max_ms': float(per.max() * 1e3),
            'jitter_p99_ms': float(np.percentile(np.abs(per - self.period), 99) * 1e3),
            'missed_deadlines': int(late.sum()),
            'missed_percent': float(100.0 * late.mean()),
            'skipped_periods': int(skipped.sum()),
            'compute_p50_us': float(np.percentile(comp, 50) * 1e6),
            'compute_p99_us': float(np.percentile(comp, 99) * 1e6),
            'compute_max_us': float(comp.max() * 1e6),
            'law_p50_us': float(np.percentile(law, 50) * 1e6) if law.size else math.nan,
            'law_p99_us': float(np.percentile(law, 99) * 1e6) if law.size else math.nan,
            'law_max_us': float(law.max() * 1e6) if law.size else math.nan,
        }

    def _run_stats(self):
        h, mx = self._hist, self._max
        seen = max(self._periods_seen, 1)
        law = self._laws_seen > 0
        return {
            'cycles': int(self.count),
            'period_p50_ms': _hist_percentile(h['period'], 50) * 1e3,
            'period_p99_ms': _hist_percentile(h['period'], 99) * 1e3,
            'period_max_ms': mx['period'] * 1e3,
            'jitter_p99_ms': _hist_percentile(h['jitter'], 99) * 1e3,
            'missed_deadlines': int(self._missed),
            'missed_percent': 100.0 * self._missed / seen,
            'skipped_periods': int(self._skipped),
            'compute_p50_us': _hist_percentile(h['compute'], 50) * 1e6,
            'compute_p99_us': _hist_percentile(h['compute'], 99) * 1e6,
            'compute_max_us': mx['compute'] * 1e6,
            'law_p50_us': _hist_percentile(h['law'], 50) * 1e6 if law else math.nan,
            'law_p99_us': _hist_percentile(h['law'], 99) * 1e6 if law else math.nan,
            'law_max_us': mx['law'] * 1e6 if law else math.nan,
        }
