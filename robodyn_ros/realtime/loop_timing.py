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

import json
import math
import os

import numpy as np


#: Cycles kept one by one (windowed statistics; exact whole-run statistics up to this).
WINDOW = 1 << 16
#: Log-spaced histogram bins per decade for whole-run percentiles of longer runs.
BINS_PER_DECADE = 100
_LOG_LOW = -7.0          # 100 ns
_NBINS = int(10 * BINS_PER_DECADE)  # up to 1000 s


def _bins(x):
    """Histogram bin of each value (zero, negative and NaN go to bin 0)."""
    x = np.asarray(x, dtype=float)
    out = np.zeros(x.shape, dtype=np.int64)
    pos = x > 0.0
    out[pos] = np.clip(((np.log10(x[pos]) - _LOG_LOW) * BINS_PER_DECADE).astype(np.int64),
                       0, _NBINS - 1)
    return out


def _hist_percentile(hist, q):
    total = hist.sum()
    if total == 0:
        return math.nan
    k = int(np.searchsorted(np.cumsum(hist), q / 100.0 * total, side='left'))
    return 10.0 ** (_LOG_LOW + (k + 0.5) / BINS_PER_DECADE)


class _Summary:
    """Whole-run counts, maxima and histograms of cycles no longer kept one by one."""

    def __init__(self):
        self.hist = {k: np.zeros(_NBINS, dtype=np.int64)
                     for k in ('period', 'compute', 'law', 'jitter')}
        self.max = {'period': -math.inf, 'compute': -math.inf, 'law': -math.inf}
        self.periods = self.laws = self.missed = 0
        self.skipped = 0.0

    def add(self, per, comp, law, period):
        """Fold arrays of cycles in (vectorised)."""
        per = per[np.isfinite(per)]
        law = law[np.isfinite(law)]
        for key, values in (('period', per), ('compute', comp), ('law', law),
                            ('jitter', np.abs(per - period))):
            if values.size:
                self.hist[key] += np.bincount(_bins(values), minlength=_NBINS)
                if key in self.max:
                    self.max[key] = max(self.max[key], float(values.max()))
        self.periods += per.size
        self.laws += law.size
        self.missed += int((per > 1.5 * period).sum())
        self.skipped += float(np.maximum(np.round(per / period) - 1.0, 0.0).sum())


class LoopTiming:
    """
    Start time, compute time and law time of the cycles of a fixed-rate loop.

    Memory stays bounded however long the loop runs: the last ``WINDOW``
    cycles are kept one by one (windowed statistics, and exact whole-run
    statistics while the run is no longer than that); each time the ring
    has been filled anew it is folded, in one vectorised step, into
    whole-run counts and maxima (exact) and log-spaced histograms (bins 2.3 %
    wide) for the percentiles. ``record`` itself only stores three numbers.

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
        self._folded = _Summary()

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
        i = self.count % WINDOW
        self.periods[i] = start - self.last if self.last is not None else np.nan
        self.compute[i] = end - start
        self.law[i] = law
        self.last = start
        self.count += 1
        if self.count % WINDOW == 0:  # the whole ring is new since the last fold
            self._folded.add(self.periods, self.compute, self.law, self.period)

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
        tail = self.count % WINDOW  # cycles stored since the last fold
        run = _Summary()
        for key in run.hist:
            run.hist[key] += self._folded.hist[key]
        run.max.update(self._folded.max)
        for key in ('periods', 'laws', 'missed', 'skipped'):
            setattr(run, key, getattr(self._folded, key))
        if tail:
            run.add(self.periods[:tail], self.compute[:tail], self.law[:tail], self.period)
        h, mx = run.hist, run.max
        law = run.laws > 0
        return {
            'cycles': int(self.count),
            'period_p50_ms': _hist_percentile(h['period'], 50) * 1e3,
            'period_p99_ms': _hist_percentile(h['period'], 99) * 1e3,
            'period_max_ms': mx['period'] * 1e3,
            'jitter_p99_ms': _hist_percentile(h['jitter'], 99) * 1e3,
            'missed_deadlines': int(run.missed),
            'missed_percent': 100.0 * run.missed / max(run.periods, 1),
            'skipped_periods': int(run.skipped),
            'compute_p50_us': _hist_percentile(h['compute'], 50) * 1e6,
            'compute_p99_us': _hist_percentile(h['compute'], 99) * 1e6,
            'compute_max_us': mx['compute'] * 1e6,
            'law_p50_us': _hist_percentile(h['law'], 50) * 1e6 if law else math.nan,
            'law_p99_us': _hist_percentile(h['law'], 99) * 1e6 if law else math.nan,
            'law_max_us': mx['law'] * 1e6 if law else math.nan,
        }

    def write_log(self, path, **fields):
        """
        Write the run's summary as JSON, all at once.

        The summary is computed first and written to a temporary file that
        then replaces ``path``: a reader finds the whole log or none, never
        an empty or partial one (a process that dies while writing leaves
        no log).

        Parameters
        ----------
        path : str
            The log file.
        **fields
            Entries written before the summary (e.g. ``rate_hz``, ``law``).

        """
        text = json.dumps({**fields, **self.stats()}, indent=2)
        tmp = f'{path}.{os.getpid()}.tmp'
        with open(tmp, 'w', encoding='utf-8') as fh:
            fh.write(text)
        os.replace(tmp, path)
