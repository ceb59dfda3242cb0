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

"""The ``robodyn bench-planner`` command: a quick run with sane, self-consistent numbers."""

import contextlib
import io
import json

import pytest
from robodyn_ros.bench import planner as bench_planner
from robodyn_ros.bench.planner import format_report
from robodyn_ros.cli.main import main


@pytest.fixture(scope='module')
def quick():
    """One quick run's JSON (with TOPP-RA), shared by the tests of its content."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(['bench-planner', '--quick', '--json']) == 0
    return json.loads(out.getvalue())


def test_quick_run(quick):
    """The quick run prints JSON whose plans are within their torque limits."""
    res = quick
    rows = res['pipeline']
    assert {(r['robot'], r['effort_share']) for r in rows} == {
        ('puma560', 1.0), ('puma560', 0.55), ('ur5', 1.0), ('ur5', 0.55)}
    for r in rows:
        assert r['waypoints'] == 5 and r['plan_ms'] > 0.0 and r['ratio_after'] <= 1.0
        assert (r['time_factor'] > 1.0) == (r['ratio_before'] > 1.0)
    methods = res['profiles']['methods']
    assert methods['ruckig']['duration_ratio_to_ruckig'] == 1.0
    # Seed 001 orders: the trapezoid is the fastest law with continuous velocity;
    # bang-bang (triangle) and the quintic (C2 polynomial) are slower.
    assert methods['trapezoid']['median_duration_s'] < methods['bang_bang']['median_duration_s']
    assert methods['trapezoid']['median_duration_s'] < methods['quintic']['median_duration_s']
    assert methods['ruckig_steep_jerk']['duration_ratio_to_ruckig'] <= 1.0
    topp = res['toppra']
    assert topp['paths'] == 3 == len(topp['rows']) and topp['grid'] == 400
    for r in topp['rows']:
        # Same path, grid and limits: the durations agree within 3 %; ours holds the limits.
        assert abs(r['ours_s'] / r['toppra_s'] - 1.0) < 0.03
        assert r['ours_worst_ratio'] <= 1.0 + 1e-6
        assert r['friction_payload_worst_ratio'] <= 1.0 + 1e-6
        assert r['ours_s'] < r['uniform_s'] and r['toppra_ms'] > 0.0 and r['ours_solve_ms'] > 0.0


def test_bench_planner_subcommand_prints_the_text_report(quick, capsys, monkeypatch):
    """
    ``robodyn bench planner --quick --no-toppra``: no TOPP-RA paths asked, text printed.

    The benchmark itself is the module's quick run (a second one took 20 s of
    the suite); here the command's options reach it and its text comes out.
    """
    asked = []

    def benchmark(repeat, moves, seed, topp_paths):
        asked.append((repeat, moves, seed, topp_paths))
        return {k: v for k, v in quick.items() if k != 'toppra'}
    monkeypatch.setattr(bench_planner, 'run_benchmark', benchmark)
    assert main(['bench', 'planner', '--quick', '--no-toppra']) == 0
    assert asked == [(3, 4, 0, 0)]
    out = capsys.readouterr().out
    assert '6-joint, 5-waypoint plan' in out and 'Point-to-point on 4 random' in out
    assert 'TOPP-RA' not in out


def test_text_report(quick):
    """The text report has every table, TOPP-RA's too, with the run's figures."""
    out = format_report(quick)
    assert '6-joint, 5-waypoint plan' in out and 'Point-to-point on 4 random' in out
    assert 'Time-optimal vs TOPP-RA on 3 random PUMA 560 paths' in out
    assert f'{quick["pipeline"][0]["plan_ms"]:>9.1f}' in out
