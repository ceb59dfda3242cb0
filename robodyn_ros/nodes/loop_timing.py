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


class LoopTiming:
    """
    Start time, compute time and law time of every cycle of a fixed-rate loop.

    Parameters
    ----------
    period : float
        Nominal period [s]; a period longer than 1.5 times it is a missed
        deadline.

    """

    def __init__(self, period):
        self.period = period
        self.periods = np.zeros(1 << 16)
        self.compute = np.zeros(1 << 16)
        self.law = np.zeros(1 << 16)
        self.count = 0
        self.last = None

    def record(self, start, end, law):
        if self.count == self.periods.size:
            grow = np.zeros(self.periods.size)
            self.periods = np.concatenate([self.periods, grow])
            self.compute = np.concatenate([self.compute, grow])
            self.law = np.concatenate([self.law, grow])
        self.periods[self.count] = start - self.last if self.last is not None else np.nan
        self.compute[self.count] = end - start
        self.law[self.count] = law
        self.last = start
        self.count += 1

    def stats(self, window=None):
        lo = 0 if window is None else max(0, self.count - window)
        per = self.periods[lo:self.count]
        per = per[np.isfinite(per)]
        comp = self.compute[lo:self.count]
        law = self.law[lo:self.count]
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
