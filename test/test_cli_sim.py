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

"""``robodyn sim``: tables, JSON, PNG plots and errors."""

import json
import os
import subprocess
import sys

from robodyn_ros.cli.main import main
from robodyn_ros.sim.scenarios import SCENARIOS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_list_and_unknown_scenario(capsys):
    """--list names every scenario; an unknown name is an input error (exit 2)."""
    assert main(['sim', '--list']) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in SCENARIOS)
    assert main(['sim', 'no_such_scenario']) == 2
    assert 'unknown' in capsys.readouterr().err
    assert main(['sim']) == 2


def test_scenario_prints_statistics_and_writes_plots(tmp_path, capsys):
    """A quick scenario prints per-joint max/RMS error and torque statistics and two PNGs."""
    assert main(['sim', 'safe_outputs', '--quick', '--out', str(tmp_path)]) == 0
    out = capsys.readouterr().out
    for text in ('max |e| [deg]', 'RMS e [deg]', 'max |tau| [N m]', 'RMS tau [N m]',
                 'saturated [%]', 'time in mode'):
        assert text in out
    for suffix in ('error', 'torque'):
        path = tmp_path / f'safe_outputs_{suffix}.png'
        assert path.read_bytes()[:8] == b'\x89PNG\r\n\x1a\n'


def test_json_output_as_a_process(tmp_path):
    """The command runs as a process (python -m) and prints JSON with the checks."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get('PYTHONPATH', ''))
    res = subprocess.run([sys.executable, '-m', 'robodyn_ros.cli.main', 'sim', 'safe_outputs',
                          '--quick', '--json', '--no-plots'], capture_output=True, text=True,
                         env=env, timeout=300)
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert data['scenario'] == 'safe_outputs' and data['plots'] == []
    assert data['checks']['zero'] > 0 and data['checks']['hold'] > 0
    assert len(data['runs'][0]['max_error']) == 3
