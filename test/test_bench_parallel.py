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

"""``robodyn bench parallel`` sections on tiny inputs: they run and report (no timing asserted)."""

import os

import pytest
from robodyn_ros.bench import parallel
from robodyn_ros.bench.parallel_report import format_parallel


def _reference_processes():
    """Children of this process running the kernel-process reference."""
    found = []
    for pid in filter(str.isdigit, os.listdir('/proc')):
        try:
            with open(f'/proc/{pid}/stat') as fh:
                ppid = int(fh.read().rsplit(')', 1)[1].split()[1])
            with open(f'/proc/{pid}/cmdline', 'rb') as fh:
                cmd = fh.read()
        except OSError:
            continue
        if ppid == os.getpid() and b'kernel_processes' in cmd:
            found.append(pid)
    return found


def test_sections_run_and_format():
    """Every section produces its figures; the report names the goals and the models."""
    res = {'settings': {'batch_states': 2000, 'repeat': 1, 'cpus': 2, 'load_before': None,
                        'load_after': None}}
    res['batch'] = [parallel.batch_section('puma560', 2000, 1)]
    assert res['batch'][0]['ratios']['speedup_processes'] > 0.0
    assert not _reference_processes()   # the reference processes are gone
    res['task_graph'] = parallel.task_graph_section('ma3000', 1, 20)
    res['rows'] = parallel.rows_section('ma3000', 3, 50, 1)
    res['prediction'] = parallel.prediction_section(0.05, 1)
    assert {r['p'] for r in res['task_graph']['rows']} == {1, 2, 4}
    assert [r['method'] for r in res['prediction']['rows']] == ['exact', 'zero', 'first',
                                                                'hybrid']
    assert res['prediction']['rows'][1]['modelled_speedup'] == 6.0
    text = format_parallel(res)
    for needle in ('>= 2x', '>= 1.8x', 'levels (modelled)', 'Table 7.1', 'seed 000'):
        assert needle in text, needle


def test_cli_runs_only_the_chosen_section(capsys):
    """``--only batch --repeat 1`` runs the batch section alone; a bad repeat count exits 2."""
    import json
    from robodyn_ros.cli.main import main
    assert main(['bench', 'parallel', '--only', 'batch', '--states', '2000', '--repeat', '1',
                 '--json']) == 0
    captured = capsys.readouterr()
    res = json.loads(captured.out)
    assert 'robodyn bench: [' in captured.err  # each section announces itself on stderr
    assert set(res) == {'settings', 'batch'} and res['settings']['repeat'] == 1
    assert [b['robot'] for b in res['batch']] == ['puma560', 'ur5']
    with pytest.raises(SystemExit) as info:  # a bad argument: one line, exit 2
        main(['bench', 'parallel', '--only', 'batch', '--repeat', '0'])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert 'argument --repeat: must be an integer >= 1, got 0' in err
