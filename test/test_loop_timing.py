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

import math

import pytest
from robodyn_ros.nodes.loop_timing import LoopTiming


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


def test_buffers_grow():
    """More cycles than the initial buffer are kept."""
    timing = LoopTiming(0.001)
    for k in range((1 << 16) + 10):
        timing.record(k * 0.001, k * 0.001 + 1e-5, 1e-5)
    assert timing.stats()['cycles'] == (1 << 16) + 10
