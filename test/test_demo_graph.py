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

"""The demo's command lines name real modules and declared parameters; options are checked."""

import importlib
import subprocess
import sys

import pytest
from robodyn_ros.demo.config import DemoConfig
from robodyn_ros.demo.graph import (board_command, controller_name, HOST_RT_PRIORITY,
                                    node_commands, SIM_RT_PRIORITY)
from robodyn_ros.errors import InputError
from robodyn_ros.nodes.model_source import model_parameters

SPECS = {
    'hardware_interface_node': 'robodyn_ros.nodes.hardware_interface_node',
    'parallel_dynamics_node': 'robodyn_ros.nodes.parallel_dynamics_node',
    'trajectory_planner_node': 'robodyn_ros.nodes.trajectory_planner_node',
    'controller_node': 'robodyn_ros.nodes.controller_params',
}


def _declared(module):
    if module == 'control_loop_node':
        from robodyn_ros.nodes.control_loop_node import node_parameter_specs
        return {s.name for s in node_parameter_specs()}
    if module == 'hardware_interface_node':     # with the real-time options
        from robodyn_ros.nodes.hardware_interface_node import node_parameter_specs
        return {s.name for s in node_parameter_specs()}
    specs = importlib.import_module(SPECS[module]).parameter_specs()
    names = {s.name for s in specs} | {s.name for s in model_parameters()}
    return names


@pytest.mark.parametrize('robot', ['puma560', 'ur5'])
@pytest.mark.parametrize('mode', ['one-process', 'graph'])
def test_node_commands_use_declared_parameters(robot, mode, tmp_path):
    """Every -p of every node is declared by that node; names are unique."""
    cfg = DemoConfig(robot=robot, controllers=['computed_torque', 'mbvsst', 'pid'], mode=mode)
    parts = node_commands(cfg, 47000, str(tmp_path))
    names = [n for n, _ in parts]
    assert len(set(names)) == len(names)
    if mode == 'graph':
        assert names[-3:] == [controller_name(law) for law in cfg.controllers]
    else:
        assert names == ['control_loop', 'parallel_dynamics', 'trajectory_planner']
    for name, argv in parts:
        assert argv[1] == '-m'
        module = argv[2].rsplit('.', 1)[1]
        importlib.import_module(argv[2])
        declared = _declared(module)
        params = [argv[i + 1].split(':=')[0] for i, a in enumerate(argv) if a == '-p']
        assert params and set(params) <= declared, (name, set(params) - declared)
        assert f'__node:={name}' in argv
    board = dict(parts)['control_loop' if mode == 'one-process' else 'hardware_interface']
    params = dict(board[i + 1].split(':=') for i, a in enumerate(board) if a == '-p')
    # The host's I/O thread, and in the graph the controller's loop too, at one priority.
    assert int(params['rt_priority']) == HOST_RT_PRIORITY
    for law in (cfg.controllers if mode == 'graph' else ()):
        argv = dict(parts)[controller_name(law)]
        params = dict(argv[i + 1].split(':=') for i, a in enumerate(argv) if a == '-p')
        assert int(params['rt_priority']) == HOST_RT_PRIORITY


@pytest.mark.parametrize('mode', ['one-process', 'graph'])
def test_cia402_node_commands_use_declared_parameters(mode, tmp_path):
    """On CiA 402 drives: the CAN parameters are declared; the loop calls the backend hardware."""
    cfg = DemoConfig(hardware='cia402', mode=mode)
    parts = dict(node_commands(cfg, 43113, str(tmp_path)))
    name = 'control_loop' if mode == 'one-process' else 'hardware_interface'
    argv = parts[name]
    params = dict(argv[i + 1].split(':=') for i, a in enumerate(argv) if a == '-p')
    assert set(params) <= _declared(argv[2].rsplit('.', 1)[1]), set(params)
    assert params['hardware' if mode == 'one-process' else 'backend'] == 'cia402'
    assert params['can_interface'] == 'udp_multicast' and params['can_port'] == '43113'
    assert float(params['sync_period']) == pytest.approx(0.001)
    assert int(params['rt_priority']) > 0       # the host's I/O thread in either mode


def test_drive_command_parses():
    """The drive set's command line is accepted by the sim-drive parser."""
    from robodyn_ros.cli.main import build_parser
    from robodyn_ros.demo.graph import drive_command
    cfg = DemoConfig(hardware='cia402', payload=1.5, rate=500.0, board_control=True)
    args = build_parser().parse_args(drive_command(cfg)[3:])
    assert (args.command, args.interface, args.rate, args.payload_mass) == (
        'sim-drive', 'udp_multicast', 500.0, 1.5)
    assert args.control_port == 0


def test_board_command_parses():
    """The board's command line is accepted by the sim-board parser."""
    from robodyn_ros.cli.main import build_parser
    cfg = DemoConfig(payload=1.5, payload_com=[0.0, 0.0, 0.1], rate=500.0)
    argv = board_command(cfg)
    assert argv[1:3] == ['-m', 'robodyn_ros.cli.main']
    args = build_parser().parse_args(argv[3:])
    assert args.payload_mass == 1.5 and args.payload_com == [0.0, 0.0, 0.1]
    assert args.rate == 500.0 and args.transport == 'udp' and args.load_friction is False
    assert args.rt_priority == SIM_RT_PRIORITY       # the board keeps its cycle as hardware
    graph = build_parser().parse_args(board_command(DemoConfig(mode='graph'))[3:])
    assert graph.rt_priority == SIM_RT_PRIORITY


@pytest.mark.parametrize('changes, option', [
    ({'controllers': []}, '--controller'),
    ({'controllers': ['warp_drive']}, '--controller'),
    ({'controllers': ['pid', 'pid']}, '--controller'),
    ({'rate': 0.0}, '--rate'),
    ({'rate': float('nan')}, '--rate'),
    ({'payload': -1.0}, '--payload'),
    ({'payload_com': [0.0, 1.0]}, '--payload-com'),
    ({'soak': -2.0}, '--soak'),
    ({'board_port': 70000}, '--board-port'),
    ({'velocity_scale': 0.0}, '--velocity-scale'),
    ({'domain_id': 300}, '--domain-id'),
])
def test_bad_options_are_named(changes, option):
    """Each bad option gives an InputError naming it."""
    cfg = DemoConfig(**changes)
    with pytest.raises(InputError, match=option):
        cfg.check()


@pytest.mark.parametrize('args, text', [
    (['--rate', '0'], '--rate'),
    (['--robot', 'no_such_robot'], 'unknown robot'),
    (['--controller', 'warp'], 'invalid choice'),
])
def test_cli_rejects_bad_options_before_starting_anything(args, text, tmp_path):
    """Bad options exit with code 2 and one line, and create no output folder."""
    out = tmp_path / 'out'
    res = subprocess.run([sys.executable, '-m', 'robodyn_ros.cli.main', 'demo', '--out',
                          str(out), *args], capture_output=True, text=True, timeout=120)
    assert res.returncode == 2, res.stderr
    assert text in res.stderr and 'Traceback' not in res.stderr
    assert not out.exists()
