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

"""Loop timing statistics of the controller node."""

import json
import math

import numpy as np
import pytest
from robodyn_ros.realtime.loop_timing import LoopTiming, WINDOW


def test_statistics_of_a_known_schedule():
    """Periods, missed deadlines, skipped periods and compute times of a scripted loop."""
    timing = LoopTiming(0.001)
    assert timing.stats() == {}
    start = 0.0
    periods = [0.001] * 96 + [0.0016, 0.0031, 0.001, 0.001]
    for k, p in enumerate([0.001] + periods):
        start += p
        timing.record(start, start + 1e-4 * (1 + k % 3), 5e-5 if k % 2 else math.nan)
    stats = timing.stats()
    assert stats['cycles'] == 101
    assert stats['missed_deadlines'] == 2 and stats['missed_percent'] == pytest.approx(2.0)
    assert stats['skipped_periods'] == 3          # 1.6 ms rounds to 2, 3.1 ms to 3 periods
    assert stats['period_p50_ms'] == pytest.approx(1.0)
    assert stats['period_max_ms'] == pytest.approx(3.1)
    assert stats['compute_max_us'] == pytest.approx(300.0)
    assert stats['law_p50_us'] == pytest.approx(50.0)
    window = timing.stats(window=10)
    assert window['cycles'] == 10 and window['missed_deadlines'] == 2


def test_memory_stays_bounded_and_long_runs_keep_their_statistics():
    """Past the window, memory does not grow; counts stay exact, percentiles within a bin."""
    rng = np.random.default_rng(2)
    n = WINDOW * 3 + 17
    periods = np.where(rng.random(n) < 0.02, 0.0031, 0.001 + rng.normal(0.0, 2e-5, n))
    compute = rng.uniform(50e-6, 150e-6, n)
    timing = LoopTiming(0.001)
    sizes = timing.periods.nbytes + timing.compute.nbytes + timing.law.nbytes
    start = 0.0
    for k in range(n):
        start += periods[k]
        timing.record(start, start + compute[k], compute[k] / 2)
    assert timing.periods.nbytes + timing.compute.nbytes + timing.law.nbytes == sizes
    st = timing.stats()
    per = periods[1:]
    assert st['cycles'] == n
    assert st['missed_deadlines'] == int((per > 0.0015).sum())
    assert st['period_max_ms'] == pytest.approx(per.max() * 1e3)
    assert st['compute_max_us'] == pytest.approx(compute.max() * 1e6)
    for key, values, scale, q in (('period_p50_ms', per, 1e3, 50),
                                  ('period_p99_ms', per, 1e3, 99),
                                  ('compute_p99_us', compute, 1e6, 99),
                                  ('law_p50_us', compute / 2, 1e6, 50)):
        assert st[key] == pytest.approx(np.percentile(values, q) * scale, rel=0.025), key
    recent = timing.stats(window=1000)
    assert recent['cycles'] == 1000
    assert recent['period_max_ms'] == pytest.approx(per[-999:].max() * 1e3)


def test_the_log_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    """write_log: the fields and the summary in one JSON file; a failure leaves no file."""
    t = LoopTiming(0.002)
    for k in range(50):
        t.record(0.002 * k, 0.002 * k + 1e-4, 5e-5)
    path = tmp_path / 'timing.json'
    t.write_log(str(path), rate_hz=500.0, law='pid')
    data = json.loads(path.read_text())
    assert data['rate_hz'] == 500.0 and data['law'] == 'pid' and data['cycles'] == 50
    assert data['period_p50_ms'] == pytest.approx(2.0)
    assert [p.name for p in tmp_path.iterdir()] == ['timing.json']

    def broken(window=None):
        raise RuntimeError('no summary')
    monkeypatch.setattr(t, 'stats', broken)
    other = tmp_path / 'other.json'
    with pytest.raises(RuntimeError):
        t.write_log(str(other), rate_hz=500.0)
    assert sorted(p.name for p in tmp_path.iterdir()) == ['timing.json']
