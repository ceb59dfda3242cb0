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

"""The soak's verdict from its samples: memory growth, timing drift, board frames."""

import os

import numpy as np
import pytest
from robodyn_ros.demo.soak import evaluate, rss_kib, SoakResult, trend


def _minute(rate_states, rate_commands, complete=True):
    def stream(rate):
        return {'rate_hz': rate, 'period_p50_ms': 1000.0 / rate, 'count': 60 * rate,
                'period_p99_ms': 2.0, 'period_max_ms': 5.0}
    return {'complete': complete, 'joint_states': stream(rate_states),
            'joint_commands': stream(rate_commands)}


def _result(rss_end=102_000, states_end=990.0, lost_end=0):
    r = SoakResult(minutes=10, law='computed_torque')
    r.rss = {'board': [(t, 100_000 if t < 60 else (100_000 if t < 590 else rss_end))
                       for t in range(0, 600, 10)]}
    r.per_minute = [_minute(1000.0, 1000.0)] + [_minute(1000.0, 1000.0)] * 8 + [
        _minute(states_end, 1000.0)]
    r.counters = [(0.0, 3, 0, 0, 0), (600.0, 3 + lost_end, 0, 0, 0)]
    return r


def test_clean_run_passes():
    """Flat memory, steady rates and no lost frame pass every check."""
    r = _result()
    evaluate(r)
    assert r.passed, r.checks
    assert set(r.checks) == {'rss board', 'drift joint_states', 'drift joint_commands',
                             'board frames'}


@pytest.mark.parametrize('kwargs, failing', [
    ({'rss_end': 106_000}, 'rss board'),
    ({'states_end': 880.0}, 'drift joint_states'),
    ({'lost_end': 1}, 'board frames'),
])
def test_each_fault_fails_its_check(kwargs, failing):
    """Memory growth over 5 %, a falling rate or one lost frame each fail."""
    r = _result(**kwargs)
    evaluate(r)
    assert not r.passed
    assert [k for k, (ok, _) in r.checks.items() if not ok] == [failing]


def test_too_short_a_run_cannot_pass():
    """Without two complete minutes there is no verdict on drift."""
    r = _result()
    r.per_minute = r.per_minute[:1]
    evaluate(r)
    assert not r.checks['drift'][0] and not r.passed


def test_rss_of_this_process():
    """rss_kib reads /proc; unknown pids give None."""
    assert rss_kib(os.getpid()) > 1000
    assert rss_kib(2 ** 22 + 12345) is None


def test_verdict_is_plain_json(tmp_path):
    """The checks hold plain booleans (soak.json must serialise)."""
    import json
    r = _result()
    evaluate(r)
    json.dumps({k: list(v) for k, v in r.checks.items()})


def test_trend_ignores_noise_but_sees_a_slope():
    """A noisy flat series has no trend; a steady 10 % decline has a -10 % trend."""
    rng = np.random.default_rng(4)
    assert abs(trend(1000.0 + rng.normal(0.0, 30.0, 10))) < 0.05
    assert trend(np.linspace(1000.0, 900.0, 10)) == pytest.approx(-100.0 / 950.0)
