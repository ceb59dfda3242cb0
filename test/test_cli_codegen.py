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

"""The ``robodyn codegen`` and ``robodyn bench`` commands."""

import json

import pytest

from robodyn_ros.bench.report import format_dynamics
from robodyn_ros.cli.main import main
from robodyn_ros.dynamics.codegen import op_counts
from robodyn_ros.model import load_robot


def _run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr().out
    return code, out


def test_codegen_json(capsys, tmp_path):
    src = tmp_path / 'ur5.c'
    code, out = _run(capsys, 'codegen', 'ur5', '--json', '--source', str(src))
    assert code == 0
    data = json.loads(out)
    assert data['robot'] == 'ur5' and data['dof'] == 6
    assert data['kernels'] == op_counts(load_robot('ur5'))
    seeds = {row['key']: row for row in data['seeds']}
    assert seeds['general_6r']['seed'] == {'mul': 678, 'add': 521}
    assert seeds['rx90_symmetric_base']['seed'] == {'mul': 160, 'add': 113}
    assert seeds['puma560']['seed'] == {'mul': 208, 'add': 152}
    assert seeds['cmu_dd_arm2']['seed'] == {'mul': 303, 'add': 226}
    assert seeds['general_6r']['ours']['mul'] > 0
    text = src.read_text()
    assert 'PyInit_robodyn_kernels' in text and 'static void k_id(' in text


def test_codegen_text(capsys):
    code, out = _run(capsys, 'codegen', 'panda')
    assert code == 0
    for piece in ('678/521', '303/226', '160/113', '208/152', 'forward_dynamics',
                  'friction + armature over the rigid body'):
        assert piece in out
    counts = op_counts(load_robot('panda'))
    line = next(x for x in out.splitlines() if x.startswith('rne '))
    assert line.split()[-7:-5] == [str(counts['rne']['mul']), str(counts['rne']['add'])]


def test_codegen_unknown_robot(capsys):
    assert main(['codegen', 'no_such_robot']) == 2


def test_bench_needs_a_bench_name(capsys):
    with pytest.raises(SystemExit):
        main(['bench'])


def _fake_results():
    single = {name: {'median': t * 1e-6, 'min': t * 1e-6} for name, t in (
        ('pinocchio rnea', 1.5), ('ours, friction off', 0.9), ('ours, friction off, out=', 0.6),
        ('ours, friction on', 1.0), ('ours: argument checks + output only', 0.5),
        ('pinocchio aba', 3.0), ('ours forward dynamics, friction off', 1.2),
        ('ours forward dynamics, friction on', 2.4), ('pinocchio crba', 1.8),
        ('ours mass matrix', 0.8))}
    batch = {'ours, 1 thread': {'median': 0.02, 'min': 0.02},
             'ours, 2 threads': {'median': 0.0105, 'min': 0.01}}
    ratios = {'single_off': 0.6, 'single_on': 0.67, 'forward': 0.4, 'forward_on': 0.8,
              'mass': 0.44, 'speedup': 1.9, 'overhead_us': 0.5, 'kernel_us': 0.2, 'batch_1': 3.1,
              'batch_2': 1.5, 'pin_speedup': 1.9}
    return {'settings': {'batch_states': 100000, 'repeat_single': 21, 'repeat_batch': 11,
                         'timing_target_s': 0.02},
            'goals': {'single': 1.0, 'batch': 2.0, 'speedup': 1.8, 'forward': 1.5},
            'robots': {'ur5': {'dof': 6, 'single': single, 'batch': batch, 'ratios': ratios}}}


def test_bench_report_marks_goals():
    text = format_dynamics(_fake_results())
    assert '| one call, friction off: ours / rnea | 0.60x | <= 1.0x | met |' in text
    assert 'rneaInParallel | 1.50x | >= 2.0x | NOT met |' in text
    assert '| ours, speed-up 1 -> 2 threads | 1.90x | >= 1.8x | met |' in text
    assert '5,000,000' in text           # 100000 states / 0.02 s
    assert '| forward dynamics, friction off: ours / aba | 0.40x | <= 1.5x | met |' in text
    assert '| forward dynamics, friction on: ours / aba (information) | 0.80x |' in text


@pytest.mark.slow
def test_bench_dynamics_quick_runs(capsys):
    code, out = _run(capsys, 'bench', 'dynamics', '--quick', '--json')
    assert code == 0
    data = json.loads(out)
    assert 'ur5' in data['robots']
    ur5 = data['robots']['ur5']
    for key in ('single_off', 'single_on', 'forward', 'forward_on', 'speedup', 'overhead_us',
                'kernel_us'):
        assert ur5['ratios'][key] > 0.0
    assert 'pinocchio rnea' in ur5['single'] and 'ours, 2 threads' in ur5['batch']
