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

"""``robodyn schedule``: tables, JSON, Gantt chart, errors."""

import json
import subprocess
import sys

import pytest

from robodyn_ros.cli.main import main
from robodyn_ros.reproductions import parallel_figures as ref


def test_json_rows_beside_the_seed(capsys):
    """JSON rows for p = 1..P with ours and the thesis's figures side by side."""
    assert main(['schedule', 'stanford', '-p', '9', '--json']) == 0
    res = json.loads(capsys.readouterr().out)
    assert [r['p'] for r in res['rows']] == list(range(1, 10))
    assert res['graphs']['thesis generic 6-link']['tasks'] == 231
    assert res['graphs']['thesis Stanford (Table 4.7)']['tasks'] == 156
    for r in res['rows']:
        assert r['thesis generic 6-link levels'] == ref.DHANARAJ_GENERIC_LENGTHS.get(r['p'])
        assert r['thesis Stanford levels'] == ref.DHANARAJ_STANFORD_LENGTHS.get(r['p'])
        c = r['customized']
        assert abs(c['speedup'] - res['graphs']['customized']['tasks'] / c['levels']) < 1e-4
        assert abs(c['efficiency'] - c['speedup'] / r['p']) < 1e-4
        assert c['levels'] >= res['graphs']['customized']['layers']
    assert res['rows'][1]['thesis generic 6-link']['levels'] == 116


def test_text_and_gantt(tmp_path):
    """Text output names the columns; --gantt writes the chart (a real process)."""
    out = tmp_path / 'g.png'
    proc = subprocess.run([sys.executable, '-m', 'robodyn_ros.cli.main', 'schedule', 'puma560',
                           '-p', '4', '--gantt', str(out)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert 'thesis' in proc.stdout and 'customized' in proc.stdout
    assert out.read_bytes()[:4] == b'\x89PNG'


def test_errors(capsys):
    """An unknown robot and a bad processor count exit with code 2 and a message."""
    assert main(['schedule', 'no_such_robot']) == 2
    assert 'error' in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:  # a bad argument: argparse exits with 2
        main(['schedule', 'puma560', '-p', '0'])
    assert info.value.code == 2
    assert '-p/--processors: must be an integer in [1, 1000]' in capsys.readouterr().err
