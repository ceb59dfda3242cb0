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


"""robodyn bench publish-stall: registered, and a short run really has its subscribers."""

import json

import pytest

from robodyn_ros.bench import publish_stall
from robodyn_ros.cli.main import build_parser, main


def test_command_is_registered():
    """``robodyn bench publish-stall`` parses its options."""
    args = build_parser().parse_args(['bench', 'publish-stall', '--seconds', '2', '--rounds',
                                      '1', '--json'])
    assert args.run is publish_stall.run and args.seconds == 2.0 and args.rounds == 1


def test_a_short_run_measures_both_publishers_with_live_subscribers(capsys):
    """Both modes run in processes of their own; the subscriber processes match and die."""
    assert main(['bench', 'publish-stall', '--seconds', '6', '--rounds', '1',
                 '--spawn-period', '1.0', '--json']) == 0
    res = json.loads(capsys.readouterr().out)
    assert [r['mode'] for r in res['runs']] == list(publish_stall.MODES)
    for run in res['runs']:
        assert run['subscribers_started'] >= 3 and run['most_matched'] >= 1, run
        assert run['cycles'] > 1000 and run['gap_max_ms'] >= run['gap_p99_ms'] > 0.0, run


def test_bad_options_are_one_line_errors(capsys):
    """A negative or NaN time, no rounds or a word for a number: one line, exit 2."""
    for bad in (['--seconds', '-1'], ['--rounds', '0'], ['--spawn-period', 'nan']):
        assert main(['bench', 'publish-stall', *bad]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and bad[0] in err[0], err
    with pytest.raises(SystemExit) as exc:
        main(['bench', 'publish-stall', '--seconds', 'abc'])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and '--seconds' in err[0], err
