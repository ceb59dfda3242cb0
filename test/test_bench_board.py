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

"""The benchmark command's pieces (the full run is a benchmark, not a test)."""

from robodyn_ros.bench import board as bench_board
from robodyn_ros.cli.main import build_parser


def test_command_is_registered():
    """``robodyn bench-board`` parses its options."""
    args = build_parser().parse_args(['bench-board', '--seconds', '1', '--json'])
    assert args.run is bench_board.run and args.seconds == 1.0 and args.json


def test_percentiles_and_cycle_steps():
    """Percentiles scale and every step of a host cycle is timed."""
    p = bench_board._percentiles([0.001, 0.002, 0.003], 1e3)
    assert p['p50'] == 2.0 and p['n'] == 3 and p['max'] == 3.0
    assert bench_board._percentiles([])['n'] == 0
    steps = bench_board._components('ma3000', repeat=20)
    assert set(steps) >= {'parse', 'decode', 'velocity_filter', 'friction_velocity_term',
                          'limits_and_currents', 'encode_set_currents', 'total'}
    assert all(v > 0 for v in steps.values())
    assert steps['total'] == sum(v for k, v in steps.items() if k != 'total')
    assert bench_board._load_friction_cost('ma3000') is None  # no load friction there
    assert bench_board._load_friction_cost('puma560', repeat=2)['load_term_ms']['n'] == 2
