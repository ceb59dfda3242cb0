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

"""CycleStatistics: report rate per second and cycle-time percentiles."""

import numpy as np
import pytest
from robodyn_ros.hardware.cycle_statistics import CycleStatistics, RING


def test_report_rate_is_counted_per_second():
    """500 reports in one second give 500 Hz, announced once per second."""
    stats = CycleStatistics()
    ready = [stats.report(10.0 + k * 0.002) for k in range(501)]
    assert ready.count(True) == 1 and ready[-1]
    assert stats.report_rate == pytest.approx(501 / 1.0)


def test_percentiles_of_the_recent_cycles():
    """Percentiles cover the last RING cycles only; empty before the first."""
    stats = CycleStatistics()
    assert stats.values()['cycle_time_p50_us'] == ''
    for k in range(RING + 100):
        stats.cycle(1e-3 if k < 100 else 2e-4)
        stats.listener(5e-5)
    values = stats.values()
    assert values['cycle_time_p50_us'] == '200' and values['cycle_time_p99_us'] == '200'
    assert values['publish_time_p50_us'] == '50' and stats.cycles == RING + 100
    assert np.isfinite(stats.cycle_times).all()
