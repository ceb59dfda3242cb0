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

"""
The ``robodyn`` command and the node executables on bad input, run as real processes.

Every bad command of issue 19 (section 2): exit code 2 for a usage error
(1 for a node that cannot start), one line on stderr naming what is wrong,
never a traceback; output paths are checked before any work starts.
"""

import os
import re
import shutil
import subprocess
import sys

import pytest

from robodyn_ros.bench.drives import bus_load
from robodyn_ros.cli.args import CIA402_RATE, control_rate
from robodyn_ros.cli.main import build_parser

BIN = os.path.dirname(sys.executable)


def _exe(name):
    path = shutil.which(name, path=BIN)
    assert path, f'the {name} console script is not installed'
    return path


def _run(*args, exe='robodyn', timeout=120):
    return subprocess.run([_exe(exe), *args], capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)


@pytest.fixture(scope='module')
def bad_config(tmp_path_factory):
    path = tmp_path_factory.mktemp('cfg') / 'board.yaml'
    path.write_text('rate: fast\n')
    return str(path)


BAD = [
    (['check', 'puma560', '--states', '-5'], '--states'),
    (['check', 'puma560', '--states', '0'], '--states'),
    (['check', 'puma560', '--seed', '-1'], '--seed'),
    (['sim-board', '--transport', 'udp', '--port', '99999'], '--port'),
    (['sim-board', '--transport', 'udp', '--address', '8.8.8.8'], '--address'),
    (['sim-board', '--config', '{bad_config}'], 'rate'),
    (['model', 'puma560', '--urdf', '/nonexistent/dir/x.urdf'], '--urdf'),
    (['model', 'puma560', '--params-out', '/nonexistent/dir/x.yaml'], '--params-out'),
    (['codegen', 'puma560', '--source', '/nonexistent/k.c'], '--source'),
    (['sim', 'ct_perfect', '--out', '/etc/passwd'], '--out'),
    (['demo', '--out', '/etc/passwd'], '--out'),
    (['sim'], 'SCENARIO'),
    (['sim', 'no_such_scenario'], 'no_such_scenario'),
    (['identify', 'friction', 'puma560', '--velocities', '0.1', '-2'], '--velocities'),
    (['bench', 'board', '--pings', '0'], '--pings'),
    (['schedule', 'puma560', '-p', '0'], '-p'),
    (['model', 'no_such_robot'], 'no_such_robot'),
]


@pytest.mark.parametrize('args, word', BAD, ids=[' '.join(a) for a, _ in BAD])
def test_bad_command_is_one_line_and_exit_2(args, word, bad_config):
    """Usage errors: exit 2, one stderr line naming the option, no traceback, no output."""
    res = _run(*[a.format(bad_config=bad_config) for a in args])
    lines = res.stderr.strip().splitlines()
    assert res.returncode == 2, res.stderr
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith(f'robodyn {args[0]}') and ': error: ' in lines[0]
    assert word in lines[0]
    assert 'Traceback' not in res.stderr and res.stdout == ''


def test_unknown_option_prints_the_subcommands_usage():
    """An unknown option shows the usage of the command given, not the top-level one."""
    for args, prog in ((['check', 'puma560', '--bogus'], 'robodyn check'),
                       (['bench', 'dynamics', '--bogus'], 'robodyn bench dynamics')):
        res = _run(*args)
        assert res.returncode == 2
        assert res.stderr.startswith(f'usage: {prog} ')
        assert res.stderr.strip().splitlines()[-1].startswith(f'{prog}: error: unrecognized '
                                                              'arguments: --bogus')


def test_version():
    """--version prints the package version."""
    from robodyn_ros import __version__
    res = _run('--version')
    assert res.returncode == 0 and res.stdout.strip() == f'robodyn {__version__}'


def test_closed_pipe_ends_quietly():
    """A reader that went away (robodyn model stanford | ...): no traceback, no error."""
    proc = subprocess.Popen([_exe('robodyn'), 'model', 'stanford'], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    proc.stdout.close()
    err = proc.stderr.read()
    proc.wait(timeout=120)
    assert err == '' and proc.returncode == 141


def test_model_warnings_come_first_and_strict_refuses():
    """The published PUMA 560 inertias: warnings first, then the tables; strict refuses."""
    res = _run('model', 'puma560')
    assert res.returncode == 0, res.stderr
    warnings = res.stderr.strip().splitlines()
    assert len(warnings) == 2 and all(w.startswith('robodyn model: warning: ') for w in warnings)
    assert "link 'link1'" in warnings[0] and 'triangle' in warnings[1]
    assert 'Validation: ok with 2 warnings' in res.stdout
    strict = _run('check', 'puma560', '--strict')
    assert strict.returncode == 2 and len(strict.stderr.strip().splitlines()) == 1
    assert "link 'link1'" in strict.stderr


@pytest.mark.parametrize('exe', ['controller', 'hardware_interface', 'trajectory_planner',
                                 'control_loop', 'parallel_dynamics', 'parallel_dynamics_worker'])
def test_node_executables_answer_help(exe):
    """Every node prints its usage and parameters for --help and exits (no ROS started)."""
    res = _run('--help', exe=exe, timeout=60)
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith(f'usage: {exe} ')
    assert 'robot (default' in res.stdout


def test_missing_params_file_is_one_line():
    """A --params-file that does not exist: one line, exit 2, no RCLError traceback."""
    res = _run('--ros-args', '--params-file', 'missing.yaml', exe='controller', timeout=60)
    assert res.returncode == 2
    assert res.stderr.strip() == 'controller: error: --params-file missing.yaml: no such file'


def test_controller_exits_when_configure_cannot_succeed():
    """An unknown robot (read-only) fails the autostart configure: the process exits 1."""
    res = _run('--ros-args', '-p', 'robot:=no_such_robot', exe='controller', timeout=120)
    assert res.returncode == 1
    assert 'Traceback' not in res.stderr
    assert res.stderr.strip().splitlines()[-1].startswith('controller: error: node failed to '
                                                          'start: configure failed: unknown '
                                                          "robot 'no_such_robot'")


def _helps(parser, prog='robodyn'):
    yield prog, parser.format_help()
    for action in parser._subparsers._group_actions if parser._subparsers else ():
        for name, child in action.choices.items():
            yield from _helps(child, f'{prog} {name}')


def test_help_texts_explain_their_terms():
    """No help says "digest"; "seed" and "the thesis" come with the document they mean."""
    for prog, text in _helps(build_parser()):
        flat = ' '.join(text.split())
        assert 'digest' not in flat, prog
        if re.search(r'seed[ -]?00\d', flat) or 'the thesis' in flat:
            assert re.search(r'source document|Dhanaraj|Mirab|Kanade|Khalil', flat), prog


@pytest.mark.parametrize('prog, option', [
    ('robodyn check', '--seed'), ('robodyn bench board', '--pings'),
    ('robodyn identify friction', '--velocities'), ('robodyn bench parallel', '--only'),
    ('robodyn sim-board', '--port'), ('robodyn check', '--states')])
def test_options_state_defaults_and_choices(prog, option):
    """The options the issue names state their default or their choices."""
    text = ' '.join(dict(_helps(build_parser()))[prog].split()).split('options:', 1)[1]
    part = re.split(rf'(?<![\w-]){option}\b', text, maxsplit=1)[1][:300]
    assert 'default' in part or 'choices' in part, part


def test_command_tree_and_aliases():
    """Benches dynamics|planner|parallel|board, the old names as aliases, identify words."""
    parser = build_parser()
    for args in (['bench', 'board'], ['bench-board'], ['bench', 'planner'], ['bench-planner']):
        assert callable(parser.parse_args(args).run)
    assert parser.parse_args(['bench', 'board']).run is parser.parse_args(['bench-board']).run
    for word in ('pty', 'udp', 'serial'):
        args = parser.parse_args(['identify', 'friction', 'ma3000', '--transport', word])
        assert args.transport == word
    from robodyn_ros.cli.identify_cmd import TRANSPORTS
    assert TRANSPORTS['pty'] == TRANSPORTS['serial'] == 'serial'
    assert parser.parse_args(['identify', 'friction', 'ma3000']).transport == 'pty'


@pytest.mark.parametrize('command, board_rate', [('demo', 1000.0), ('faults', 500.0)])
def test_the_default_rate_follows_the_hardware(command, board_rate):
    """No --rate: the board's default, 250 Hz on CiA 402 drives; a given rate is kept."""
    parser = build_parser()
    for argv, expected in (([], board_rate), (['--hardware', 'cia402'], CIA402_RATE),
                           (['--hardware', 'cia402', '--rate', '400'], 400.0),
                           (['--rate', '300'], 300.0)):
        args = parser.parse_args([command, *argv])
        assert control_rate(args, board_rate) == expected, argv
    assert bus_load(6, CIA402_RATE) < 50.0 < bus_load(6, 2 * CIA402_RATE)


def test_a_sub_command_imports_its_own_module_only():
    """``robodyn sim-board`` (started in every graph) loads neither the laws nor numba."""
    code = ('import sys\n'
            'from robodyn_ros.cli.main import build_parser\n'
            'p = build_parser("sim-board")\n'
            'p.parse_args(["sim-board", "puma560", "--transport", "udp"])\n'
            'from robodyn_ros.sim.board.simulator import build_board\n'
            'heavy = [m for m in ("numba", "scipy", "robodyn_ros.control.base",\n'
            '                     "robodyn_ros.cli.bench_cmd") if m in sys.modules]\n'
            'print(heavy)\n')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         timeout=120, check=True)
    assert out.stdout.strip() == '[]'
    # the one-command parser refuses and helps as the full one does
    for args in (['sim-board', '--bogus'], ['bench-board', '--pings', 'x'], ['nosuch']):
        res = _run(*args)
        assert res.returncode == 2 and 'Traceback' not in res.stderr
        assert res.stderr.strip().splitlines()[-1].startswith('robodyn')
    assert 'sim-board' in _run('--help').stdout
