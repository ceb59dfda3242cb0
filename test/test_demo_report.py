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

"""The demo's printed tables: units, alignment, missing values."""

import math

import numpy as np
import pytest
from robodyn_ros.demo.metrics import ErrorStats, RateStats
from robodyn_ros.demo.report import error_table, joint_units, payload_lines, timing_table
from robodyn_ros.demo.session import LawRun
from robodyn_ros.model import load_robot


def _run(law, n, payload=math.nan):
    err = ErrorStats([0.01 * (j + 1) for j in range(n)], [0.001 * (j + 1) for j in range(n)],
                     1000, 4.2)
    rate = RateStats(1000, 480.0, 2.0, 5.0, 12.0)
    return LawRun(law, 0.0, 5.0, 4.2, err, err, payload, math.nan, rate, rate,
                  {'report_rate_hz': '470.0'}, 0, {'cycles': 2500, 'period_p50_ms': 2.0},
                  {'sim_board': 40.0})


@pytest.mark.parametrize('robot', ['puma560', 'ur5', 'panda'])
def test_error_table_is_aligned_in_display_units(robot):
    """One row per joint, columns aligned for long joint names, degrees or millimetres."""
    model = load_robot(robot)
    text = error_table(model, [_run('computed_torque', model.n), _run('mbvsst', model.n)])
    lines = text.splitlines()
    assert len(lines) == model.n + 3
    body = lines[2:2 + model.n]
    assert len({len(line) for line in body}) == 1  # aligned
    for j, line in enumerate(body):
        name, unit, *values = line.split()
        assert name == model.joint_names[j]
        scale, expected_unit = joint_units(model)[j]
        assert unit == expected_unit
        assert float(values[0]) == pytest.approx(0.01 * (j + 1) * scale, abs=1e-3)
        assert float(values[1]) == pytest.approx(0.001 * (j + 1) * scale, abs=1e-3)
    if np.any(model.is_prismatic):
        assert 'mm' in text


def test_missing_values_print_as_na():
    """Missing timing keys and NaN print n/a, not a crash."""
    run = _run('pid', 6)
    run.timing = {}
    text = timing_table([run], 500.0)
    assert 'n/a' in text and 'configured rate 500 Hz' in text
    assert payload_lines([run], 2.0) == ['no law of this run estimates the payload']
    est = _run('mbvsst', 6, payload=1.9)
    assert '1.900 kg' in payload_lines([est], 2.0)[0] and '-5.0 %' in payload_lines([est], 2.0)[0]


def test_payload_line_says_whether_the_rest_value_is_held():
    """The rest value is shown with whether the law froze it (and its excitation)."""
    held = _run('mbvsst', 6, payload=1.98)
    held.payload_rest, held.payload_held, held.payload_excitation = 1.97, True, 0.004
    line = payload_lines([held], 2.0)[0]
    assert '1.970 kg at rest, held there (frozen' in line and '0.004 N m/kg' in line
    held.payload_held = False
    assert 'not held' in payload_lines([held], 2.0)[0]
