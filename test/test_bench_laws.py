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

"""``robodyn bench laws``: every law and backend timed on the same recorded states."""

import json
import os
import subprocess
import sys

import numpy as np
from robodyn_ros.bench.laws import format_result, recorded_states, run
from robodyn_ros.model import load_robot

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_recorded_states_follow_the_move():
    """References along a quintic move; measurements near them."""
    model = load_robot('ur5')
    refs, q, qd = recorded_states(model, 100, 1e-3)
    assert len(refs) == len(q) == len(qd)
    assert np.allclose(refs[-1].q - refs[0].q, 0.5, atol=1e-6)
    assert np.max(np.abs(q - np.array([r.q for r in refs]))) < 0.01


def test_every_law_and_backend_is_timed():
    """Interleaved rounds give a row per law and backend, with the numpy cap."""
    res = run('ma3000', laws=('pid', 'computed_torque'), backends=('numpy', 'auto'),
              steps=50, rounds=2)
    rows = {(c['law'], c['backend']): c for c in res['cases']}
    assert len(rows) == 4 and res['joints'] == 3
    for c in rows.values():
        assert c['steps'] == 2 * 50 and 0.0 < c['median_us'] <= c['p99_us']
    assert 'computed_torque' in format_result(res)


def test_command_line_json():
    """The command prints JSON with the same rows."""
    proc = subprocess.run([sys.executable, '-m', 'robodyn_ros.cli.main', 'bench', 'laws',
                           '--robot', 'ma3000', '--laws', 'computed_torque', '--backends',
                           'auto', '--steps', '20', '--rounds', '1', '--json'],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    res = json.loads(proc.stdout)
    assert [c['law'] for c in res['cases']] == ['computed_torque']
    bad = subprocess.run([sys.executable, '-m', 'robodyn_ros.cli.main', 'bench', 'laws',
                          '--laws', 'fuzzy'], capture_output=True, text=True, cwd=ROOT,
                         timeout=120)
    assert bad.returncode == 2 and 'Traceback' not in bad.stderr
