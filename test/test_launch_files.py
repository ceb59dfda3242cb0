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
Static checks of launch/*.launch.py against the install tree setup.py produces.

The launch files are executed against the fakes of ``test/fake_launch.py``
for every library robot and the main argument combinations; the processes
they would start are checked against the console scripts, the shipped files,
the controllers YAML, the expanded URDF and the parameter contract of
``robodyn_ros.bringup``.
"""

import ast
import functools
import glob
import importlib
import os
import re
import sys
import xml.etree.ElementTree as ElementTree

import fake_launch
from fake_launch import Context, LaunchError
from model_compare import model_differences
import pytest
from robodyn_ros import bringup
from robodyn_ros.control.factory import LAWS
from robodyn_ros.model import library, RobotModel
import xacro
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LAUNCH_FILES = sorted(os.path.basename(p)
                      for p in glob.glob(os.path.join(ROOT, 'launch', '*.launch.py')))
ROBOTS = library.names()

#: Executables other branches add to setup.py; the lead empties this at merge time.
PENDING = set()

#: robodyn sub-commands the launch files run that other branches add (emptied at merge time).
PENDING_COMMANDS = set()

#: Launch files and the arguments each must declare (robot, namespace and rate
#: everywhere; the sim/hardware choice where a file offers one: bringup_sim and
#: bringup_hardware are that choice, Gazebo is a simulation, view_robot drives
#: no hardware).
REQUIRED_ARGUMENTS = {
    'bringup_sim.launch.py': {'robot', 'namespace', 'rate', 'board_address', 'backend'},
    'bringup_hardware.launch.py': {'robot', 'namespace', 'rate', 'port', 'baud', 'address',
                                   'backend', 'can_interface', 'can_channel', 'node_ids',
                                   'bitrate'},
    'ros2_control.launch.py': {'robot', 'namespace', 'rate', 'hardware', 'port', 'baud',
                               'address', 'board_address'},
    'gazebo.launch.py': {'robot', 'namespace', 'rate', 'gz_args'},
    'view_robot.launch.py': {'robot', 'namespace', 'rate', 'gui'},
    'hardware_interface.launch.py': {'robot', 'namespace', 'rate', 'port', 'baud', 'address',
                                     'backend', 'can_interface', 'can_channel', 'node_ids',
                                     'bitrate'},
    'robodyn_nodes.launch.py': {'robot', 'namespace', 'rate', 'effort_controller',
                                'use_sim_time'},
}

#: Packages the launch files may use without an exec_depend: heavy optional
#: parts, documented with their install commands in docs/bringup.md.
OPTIONAL_PACKAGES = {'ros_gz_sim', 'ros_gz_bridge'}

with open(os.path.join(ROOT, 'test', 'data', 'ros2_control_distros.yaml')) as _fh:
    DISTRO_TABLE = yaml.safe_load(_fh)


@pytest.fixture(scope='module')
def install(tmp_path_factory):
    """Fake colcon install prefix with the package's data files and console scripts."""
    prefix = str(tmp_path_factory.mktemp('install'))
    keywords = fake_launch.build_install_tree(ROOT, prefix)
    return prefix, keywords


@pytest.fixture
def launch(monkeypatch, install):
    """Run a launch file (name, arguments) against the fakes; returns fake_launch.Result."""
    fake_launch.install(monkeypatch)
    prefix, _ = install

    def run(name, arguments=None, scoped=False, distro='jazzy'):
        context = Context(arguments or {}, prefix, _xacro, distro)
        return fake_launch.run(os.path.join(prefix, 'share', 'robodyn_ros', 'launch', name),
                               context, scoped_includes=scoped)
    return run


@functools.lru_cache(maxsize=None)
def _xacro_cached(path, mappings):
    return xacro.process_file(path, mappings=dict(mappings)).toprettyxml(indent='  ')


def _xacro(path, mappings):
    return _xacro_cached(path, tuple(sorted(mappings.items())))


def _package_xml_depends():
    root = ElementTree.parse(os.path.join(ROOT, 'package.xml')).getroot()
    return {e.text for e in root.findall('exec_depend')}


def _fqn(namespace, name):
    return '/' + '/'.join(p for p in (namespace or '').split('/') + [name] if p)


def _key_matches(key, fqn):
    """ROS parameter-file key matching (rclcpp's wildcard rules)."""
    key = key if key.startswith('/') else '/' + key
    pattern = re.escape(key).replace(r'/\*\*', '(/[^/]+)*').replace(r'\*', '[^/]+')
    return re.fullmatch(pattern, fqn) is not None


def effective_parameters(process):
    """Parameters a node ends up with: parameter files matched by name, then dicts."""
    values = {}
    fqn = _fqn(process.namespace, process.name or process.executable)
    for entry in process.parameters:
        if isinstance(entry, dict):
            values.update(entry)
            continue
        with open(entry) as fh:
            data = yaml.safe_load(fh)
        for key, block in data.items():
            if _key_matches(key, fqn):
                values.update(block['ros__parameters'])
    return values


def _robodyn_nodes(result):
    return [p for p in result.processes if p.kind != 'process' and p.package == 'robodyn_ros']


def _one(result, executable, package=None):
    found = [p for p in result.processes
             if p.executable == executable and (package is None or p.package == package)]
    assert len(found) == 1, f'{executable}: {len(found)} processes'
    return found[0]


def _signature(result):
    return sorted((p.kind, p.package or '', p.executable or '', p.name or '', p.namespace or '',
                   repr(p.parameters), repr(p.remappings), repr(p.arguments), repr(p.cmd))
                  for p in result.processes)


def _scenarios():
    for robot in ROBOTS:
        yield 'bringup_sim.launch.py', {'robot': robot}
        yield 'bringup_hardware.launch.py', {'robot': robot, 'port': '/dev/ttyUSB0'}
        yield 'ros2_control.launch.py', {'robot': robot, 'hardware': 'sim'}
        yield 'ros2_control.launch.py', {'robot': robot, 'hardware': 'mock'}
        yield 'gazebo.launch.py', {'robot': robot}
        yield 'view_robot.launch.py', {'robot': robot}
    yield 'bringup_sim.launch.py', {'robot': 'rx90', 'namespace': 'arm1', 'rviz': 'true',
                                    'dynamics_workers': '2', 'rate': '500'}
    yield 'bringup_sim.launch.py', {'robot': 'ma3000', 'loop': 'graph'}
    yield 'bringup_hardware.launch.py', {'port': '/dev/ttyUSB1', 'loop': 'graph',
                                         'namespace': 'right'}
    yield 'bringup_hardware.launch.py', {'address': '192.168.1.20:5000', 'namespace': 'left',
                                         'robot_state_publisher': 'false'}
    yield 'ros2_control.launch.py', {'hardware': 'board', 'address': '10.0.0.2:5000',
                                     'namespace': 'cell/arm2', 'rate': '500', 'rviz': 'true'}
    yield 'gazebo.launch.py', {'robot': 'stanford', 'namespace': 'arm3', 'rviz': 'true'}
    yield 'view_robot.launch.py', {'gui': 'false', 'namespace': 'viewer', 'rate': '30'}
    yield 'bringup_hardware.launch.py', {'backend': 'cia402', 'node_ids': '11,12,13,14,15,16',
                                         'rate': '500'}
    yield 'bringup_sim.launch.py', {'robot': 'ma3000', 'backend': 'cia402', 'rate': '500'}


SCENARIOS = list(_scenarios())
SCENARIO_IDS = [f'{name.split(".")[0]}-' + '-'.join(f'{k}={v}' for k, v in args.items())
                for name, args in SCENARIOS]


# ----------------------------------------------------------------------------- source checks
@pytest.mark.parametrize('name', LAUNCH_FILES)
def test_launch_file_parses_and_defines_generate_launch_description(name):
    with open(os.path.join(ROOT, 'launch', name)) as fh:
        tree = ast.parse(fh.read(), name)
    functions = [n.name for n in tree.body if isinstance(n, ast.FunctionDef)]
    assert 'generate_launch_description' in functions
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            imported.add(node.module.split('.')[0])
        elif isinstance(node, ast.Import):
            imported.update(a.name.split('.')[0] for a in node.names)
    # Only launch APIs, message constants and the standard library: launch files must not
    # need this package (or rclpy) to be importable.
    imported -= set(sys.stdlib_module_names)
    assert imported <= {'launch', 'launch_ros', 'lifecycle_msgs'}, imported


@pytest.mark.parametrize('name', LAUNCH_FILES)
def test_every_executable_in_the_source_is_in_the_contract(name):
    with open(os.path.join(ROOT, 'launch', name)) as fh:
        tree = ast.parse(fh.read(), name)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    executables = []
    for call in calls:
        kw = {k.arg: k.value for k in call.keywords}
        if 'executable' in kw and isinstance(kw.get('package'), ast.Constant) \
                and kw['package'].value == 'robodyn_ros':
            assert isinstance(kw['executable'], ast.Constant), 'spell executables out'
            executables.append(kw['executable'].value)
    for name_ in executables:
        assert name_ in bringup.NODE_EXECUTABLES, name_


def test_node_executables_are_console_scripts_or_pending(install):
    _, keywords = install
    scripts = set(fake_launch.console_scripts(keywords))
    contract = set(bringup.NODE_EXECUTABLES)
    assert contract <= scripts | PENDING, sorted(contract - scripts - PENDING)
    assert PENDING <= contract, 'PENDING lists an executable the contract does not have'
    for entry in keywords['entry_points']['console_scripts']:
        script, target = (s.strip() for s in entry.split('='))
        module, _, function = target.partition(':')
        assert callable(getattr(importlib.import_module(module), function)), script


def test_sim_board_command_is_a_robodyn_sub_command():
    from robodyn_ros.cli.main import COMMANDS
    for program, command in (bringup.SIM_BOARD_COMMAND, bringup.SIM_DRIVE_COMMAND):
        assert program == 'robodyn' and program in bringup.NODE_EXECUTABLES
        assert command in set(COMMANDS) | PENDING_COMMANDS


# ----------------------------------------------------------------------------- graph checks
@pytest.mark.parametrize('name,arguments', SCENARIOS, ids=SCENARIO_IDS)
def test_graph_uses_installed_executables_files_and_packages(launch, install, name, arguments):
    prefix, keywords = install
    share = os.path.join(prefix, 'share', 'robodyn_ros')
    result = launch(name, arguments)
    assert result.processes
    depends = _package_xml_depends()
    for process in result.processes:
        if process.kind == 'process':
            program = process.cmd[0]
            assert program.startswith(os.path.join(prefix, 'lib', 'robodyn_ros') + os.sep)
            assert os.path.isfile(program), f'{program} is not installed'
            assert os.path.basename(program) in bringup.NODE_EXECUTABLES
            assert tuple(process.cmd[:2]) in {(program, bringup.SIM_BOARD_COMMAND[1]),
                                              (program, bringup.SIM_DRIVE_COMMAND[1])}
            continue
        if process.package == 'robodyn_ros':
            assert process.executable in bringup.NODE_EXECUTABLES
        else:
            known = DISTRO_TABLE['executables']
            assert process.executable in known.get(process.package, ()), \
                f'{process.package}/{process.executable}'
            assert process.package in depends | OPTIONAL_PACKAGES, process.package
        paths = [p for p in process.parameters if isinstance(p, str)]
        paths += [a for a in process.arguments if a.startswith(share)]
        for path in paths:
            assert path.startswith(share), path
            assert os.path.isfile(path), f'{path} is not installed'
    for source, location, _, _ in result.includes:
        if location.startswith(share):
            assert os.path.isfile(location)
        else:
            package = location.split('/share/')[1].split('/')[0]
            assert os.path.basename(location) in DISTRO_TABLE['launch_files'][package]
            assert package in depends | OPTIONAL_PACKAGES


@pytest.mark.parametrize('name,arguments', SCENARIOS, ids=SCENARIO_IDS)
def test_graph_is_the_same_with_scoped_and_leaking_includes(launch, name, arguments):
    assert _signature(launch(name, arguments, scoped=True)) == \
        _signature(launch(name, arguments, scoped=False))


@pytest.mark.parametrize('name,arguments', SCENARIOS, ids=SCENARIO_IDS)
def test_every_node_gets_the_robot_namespace_and_only_contract_parameters(launch, name,
                                                                          arguments):
    result = launch(name, arguments)
    robot = arguments.get('robot', 'puma560')
    namespace = arguments.get('namespace', '')
    for process in result.processes:
        if process.kind != 'process' and process.package != 'ros_gz_bridge':
            assert process.namespace == namespace, (process.executable, process.namespace)
    nodes = _robodyn_nodes(result)
    for process in nodes:
        base = re.sub(r'_\d+$', '', process.name)
        assert base == process.executable, process.name
        values = effective_parameters(process)
        assert values['robot'] == robot
        allowed = set(bringup.NODE_PARAMETERS[process.executable]) | {'use_sim_time'}
        assert set(values) <= allowed, sorted(set(values) - allowed)
        assert values.get('use_sim_time', False) == (name == 'gazebo.launch.py')
        if 'rate' in values:
            assert values['rate'] == float(arguments.get('rate', bringup.DEFAULT_RATE))
            assert isinstance(values['rate'], float)


@pytest.mark.parametrize('name,arguments', SCENARIOS, ids=SCENARIO_IDS)
def test_lifecycle_nodes_are_configured_then_activated(launch, name, arguments):
    from lifecycle_msgs.msg import Transition
    result = launch(name, arguments)
    for process in result.processes:
        if process.kind != 'lifecycle':
            continue
        events = [(t, trigger) for target, t, trigger in result.lifecycle_events
                  if target is process.action]
        configure = [trigger for t, trigger in events if t == Transition.TRANSITION_CONFIGURE]
        activate = [trigger for t, trigger in events if t == Transition.TRANSITION_ACTIVATE]
        assert configure and activate
        kind, handler = activate[0]
        assert kind == 'state'
        assert handler.kw['target_lifecycle_node'] is process.action
        assert handler.kw['start_state'] == 'configuring'
        assert handler.kw['goal_state'] == 'inactive'
        assert any(isinstance(a, fake_launch.Shutdown) for a in process.on_exit)


@pytest.mark.parametrize('name,arguments', SCENARIOS, ids=SCENARIO_IDS)
def test_robot_description_expands_to_the_library_robot(launch, name, arguments):
    result = launch(name, arguments)
    robot = arguments.get('robot', 'puma560')
    model = library.load(robot)
    descriptions = [effective_parameters(p)['robot_description'] for p in result.processes
                    if p.executable == 'robot_state_publisher']
    assert len(descriptions) == (0 if arguments.get('robot_state_publisher') == 'false' else 1)
    if name == 'gazebo.launch.py':  # physical bodies where the published ones are not
        from test_xacro_assets import with_simulator_inertials
        model = with_simulator_inertials(robot, model)
    for text in descriptions:
        expanded = RobotModel.from_urdf(text)
        diffs = model_differences(model, expanded, compare_params=False)
        if name == 'gazebo.launch.py':
            assert sorted(diffs) == sorted([
                f"root link differs: '{model.root_link}' vs 'world'", "frames differ: ['world']"])
        else:
            assert diffs == []
        tags = ElementTree.fromstring(text).findall('ros2_control')
        expected = {'ros2_control.launch.py': 1, 'gazebo.launch.py': 1}.get(name, 0)
        assert len(tags) == expected
        for tag in tags:
            assert [j.get('name') for j in tag.findall('joint')] == model.joint_names


def _sim_board_args(cmd):
    """Parse a launch file's sim-board command line with the real robodyn parser."""
    from robodyn_ros.cli.main import build_parser
    assert cmd[0].endswith('robodyn') and cmd[1] == 'sim-board'
    return build_parser().parse_args([str(c) for c in cmd[1:]])


# ----------------------------------------------------------------------------- per file
@pytest.mark.parametrize('robot', ROBOTS)
@pytest.mark.parametrize('loop', bringup.LOOP_MODES)
def test_bringup_sim_runs_the_board_and_points_the_interface_at_it(launch, robot, loop):
    result = launch('bringup_sim.launch.py', {'robot': robot, 'loop': loop})
    board = [p for p in result.processes if p.kind == 'process']
    assert len(board) == 1
    board_args = _sim_board_args(board[0].cmd)
    assert (board_args.robot, board_args.transport, board_args.address, board_args.port,
            board_args.rate) == (robot, 'udp', '127.0.0.1', 47000, 1000.0)
    driver = 'control_loop' if loop == 'one-process' else 'hardware_interface'
    other = 'hardware_interface' if loop == 'one-process' else 'control_loop'
    interface = _one(result, driver, 'robodyn_ros')
    assert not [p for p in result.processes if p.executable == other]
    assert interface.kind == 'lifecycle'
    values = effective_parameters(interface)
    assert (values['transport'], values['address'], values['port']) == ('udp', '127.0.0.1',
                                                                        47000)
    assert dict(interface.remappings) == {'joint_states': 'joint_states',
                                          'joint_commands': 'joint_commands'}
    for executable in ('trajectory_planner', 'parallel_dynamics'):
        _one(result, executable, 'robodyn_ros')
    controllers = [p for p in result.processes if p.executable == 'controller']
    if loop == 'graph':
        assert len(controllers) == 1
        assert effective_parameters(controllers[0])['effort_controller'] == ''
    else:   # the loop runs the law: no controller, and the law comes from its config
        assert not controllers
        assert values['law'] in LAWS and values['model_friction'] is False
    assert not [p for p in result.processes if p.package == 'controller_manager']
    # The graph starts once the board process has started.
    graph = [t for _, loc, _, t in result.includes if loc.endswith('bringup_hardware.launch.py')]
    assert len(graph) == 1 and graph[0][0] == 'start'
    assert graph[0][1].kw['target_action'] is board[0].action


def test_bringup_sim_options(launch):
    result = launch('bringup_sim.launch.py', {'robot': 'rx90', 'namespace': 'arm1',
                                              'rviz': 'true', 'dynamics_workers': '2',
                                              'rate': '500', 'board_address': 'sim:6000'})
    workers = [p for p in result.processes if p.executable == 'parallel_dynamics_worker']
    assert sorted(p.name for p in workers) == ['parallel_dynamics_worker_0',
                                               'parallel_dynamics_worker_1']
    rviz = _one(result, 'rviz2')
    assert rviz.arguments[0] == '-d' and rviz.arguments[1].endswith('rviz/robodyn.rviz')
    interface = _one(result, 'control_loop')
    values = effective_parameters(interface)
    assert (values['transport'], values['address'], values['port']) == ('udp', 'sim', 6000)
    board = _sim_board_args([p for p in result.processes if p.kind == 'process'][0].cmd)
    assert (board.robot, board.address, board.port, board.rate) == ('rx90', 'sim', 6000, 500.0)


@pytest.mark.parametrize('connection', [{'port': '/dev/ttyACM0', 'baud': '3000000'},
                                        {'address': 'board.local:5000'}])
@pytest.mark.parametrize('loop', bringup.LOOP_MODES)
def test_bringup_hardware_passes_the_connection(launch, connection, loop):
    arguments = dict(connection, robot='cmu_dd_arm2', loop=loop)
    result = launch('bringup_hardware.launch.py', arguments)
    assert not [p for p in result.processes if p.kind == 'process']
    driver = 'control_loop' if loop == 'one-process' else 'hardware_interface'
    values = effective_parameters(_one(result, driver))
    if 'port' in connection:
        assert values['transport'] == 'serial' and values['device'] == connection['port']
        assert values['baud_rate'] == int(connection.get('baud', '1000000'))
        assert isinstance(values['baud_rate'], int)
    else:
        host, _, number = connection['address'].rpartition(':')
        assert (values['transport'], values['address'], values['port']) == ('udp', host,
                                                                            int(number))


@pytest.mark.parametrize('arguments,message', [
    ({}, 'exactly one of'),
    ({'port': '/dev/ttyUSB0', 'address': 'host:5000'}, 'exactly one of'),
    ({'address': 'host'}, 'HOST:PORT'),
    ({'address': 'host:70000'}, 'HOST:PORT'),
    ({'address': ':5000'}, 'HOST:PORT'),
    ({'port': '/dev/ttyUSB0', 'baud': 'fast'}, 'baud'),
    ({'port': '/dev/ttyUSB0', 'robot': 'not_a_robot'}, 'not in'),
    ({'port': '/dev/ttyUSB0', 'dynamics_workers': '-1'}, 'dynamics_workers'),
    ({'port': '/dev/ttyUSB0', 'dynamics_workers': 'two'}, 'dynamics_workers'),
    ({'port': '/dev/ttyUSB0', 'rviz': 'yes'}, 'not in'),
    ({'port': '/dev/ttyUSB0', 'rate': '-5'}, 'rate'),
    ({'port': '/dev/ttyUSB0', 'rate': 'nan'}, 'rate'),
    ({'port': '/dev/ttyUSB0', 'rate': 'fast'}, 'rate'),
    ({'port': '/dev/ttyUSB0', 'loop': 'two-process'}, 'not in'),
])
def test_bringup_hardware_refuses_bad_arguments(launch, arguments, message):
    with pytest.raises((LaunchError, RuntimeError), match=message):
        launch('bringup_hardware.launch.py', arguments)


@pytest.mark.parametrize('arguments,message', [
    ({'hardware': 'real'}, 'not in'),
    ({'hardware': 'board'}, 'exactly one of'),
    ({'rate': 'fast'}, 'rate'),
    ({'rate': '0'}, 'rate'),
    ({'rate': '999.5'}, 'rate'),
    ({'rate': 'inf'}, 'rate'),
])
def test_ros2_control_refuses_bad_arguments(launch, arguments, message):
    with pytest.raises((LaunchError, RuntimeError), match=message):
        launch('ros2_control.launch.py', arguments)


@pytest.mark.parametrize('name', ['bringup_sim.launch.py', 'gazebo.launch.py'])
@pytest.mark.parametrize('rate', ['0', 'inf', '1e3x'])
def test_robodyn_nodes_refuse_a_bad_rate(launch, name, rate):
    with pytest.raises((LaunchError, RuntimeError), match='rate'):
        launch(name, {'rate': rate})


def _controllers(path):
    with open(path) as fh:
        data = yaml.safe_load(fh)
    manager = next(v['ros__parameters'] for k, v in data.items()
                   if _key_matches(k, '/controller_manager'))
    controllers = {name: spec['type'] for name, spec in manager.items()
                   if isinstance(spec, dict) and 'type' in spec}
    return data, manager, controllers


@pytest.mark.parametrize('robot', ROBOTS)
@pytest.mark.parametrize('hardware', ['sim', 'board', 'mock'])
def test_ros2_control_graph(launch, robot, hardware):
    namespace = 'cell/arm'
    arguments = {'robot': robot, 'hardware': hardware, 'namespace': namespace, 'rate': '250'}
    if hardware == 'board':
        arguments['port'] = '/dev/ttyUSB1'
    result = launch('ros2_control.launch.py', arguments)
    model = library.load(robot)
    manager = _one(result, 'ros2_control_node', 'controller_manager')
    assert manager.name is None  # a __node remap would rename the controllers too
    assert ('~/robot_description', 'robot_description') in manager.remappings
    yaml_files = [p for p in manager.parameters if isinstance(p, str)]
    assert [os.path.basename(p) for p in yaml_files] == [f'{robot}_controllers.yaml']
    assert effective_parameters(manager)['update_rate'] == 250
    _, _, controllers = _controllers(yaml_files[0])
    spawned = sorted(p.arguments[0] for p in result.processes if p.executable == 'spawner')
    assert spawned == sorted(controllers) == sorted(bringup.CONTROLLER_TYPES)
    for process in result.processes:
        if process.executable == 'spawner':
            assert process.arguments[1:] == ['--controller-manager', 'controller_manager']
    controller = effective_parameters(_one(result, 'controller', 'robodyn_ros'))
    assert controller['effort_controller'] == bringup.EFFORT_CONTROLLER
    description = effective_parameters(_one(result, 'robot_state_publisher'))[
        'robot_description']
    hardware_tag = ElementTree.fromstring(description).find('ros2_control/hardware')
    interfaces = [p for p in result.processes if p.executable == 'hardware_interface']
    boards = [p for p in result.processes if p.kind == 'process']
    if hardware == 'mock':
        assert hardware_tag.findtext('plugin') == 'mock_components/GenericSystem'
        assert not interfaces and not boards
        return
    assert len(interfaces) == 1 and len(boards) == (hardware == 'sim')
    if hardware == 'sim':
        trigger = [t for _, loc, _, t in result.includes
                   if loc.endswith('hardware_interface.launch.py')][0]
        assert trigger[0] == 'start' and trigger[1].kw['target_action'] is boards[0].action
    params = {p.get('name'): p.text for p in hardware_tag.findall('param')}
    remaps = dict(interfaces[0].remappings)
    # The plugin's topics are the hardware interface's, resolved in the namespace.
    assert params['joint_states_topic'] == _fqn(namespace, remaps['joint_states'])
    assert params['joint_commands_topic'] == _fqn(namespace, remaps['joint_commands'])
    assert remaps['joint_states'] == bringup.HARDWARE_JOINT_STATES
    assert remaps['joint_commands'] == bringup.HARDWARE_JOINT_COMMANDS
    assert params['trigger_joint_command_threshold'] == '-1'
    values = effective_parameters(interfaces[0])
    if hardware == 'sim':
        board = _sim_board_args(boards[0].cmd)
        assert (values['transport'], values['address'], values['port']) == (
            'udp', board.address, board.port)
        assert board.rate == 250.0
    else:
        assert values['transport'] == 'serial' and values['device'] == '/dev/ttyUSB1'
    assert model.joint_names == [j.get('name') for j in
                                 ElementTree.fromstring(description).findall('ros2_control/joint')]


@pytest.mark.parametrize('distro', sorted(DISTRO_TABLE['distros']))
def test_ros2_control_topic_plugin_per_distro(launch, monkeypatch, distro):
    monkeypatch.setenv('ROS_DISTRO', distro)
    _xacro_cached.cache_clear()
    try:
        result = launch('ros2_control.launch.py', {'robot': 'ma3000'}, distro=distro)
        description = effective_parameters(_one(result, 'robot_state_publisher'))[
            'robot_description']
    finally:
        _xacro_cached.cache_clear()
    plugin = ElementTree.fromstring(description).findtext('ros2_control/hardware/plugin')
    assert plugin == DISTRO_TABLE['distros'][distro]['hardware']['topic']['plugin']


@pytest.mark.parametrize('robot', ROBOTS)
def test_gazebo_graph(launch, install, robot):
    prefix, _ = install
    namespace = 'sim1'
    result = launch('gazebo.launch.py', {'robot': robot, 'namespace': namespace})
    gz = [(loc, args) for _, loc, args, _ in result.includes if loc.endswith('gz_sim.launch.py')]
    assert len(gz) == 1 and gz[0][1] == {'gz_args': '-r -v 1 empty.sdf'}
    create = _one(result, 'create', 'ros_gz_sim')
    assert create.arguments[:4] == ['-topic', 'robot_description', '-name', robot]
    bridge = _one(result, 'parameter_bridge', 'ros_gz_bridge')
    assert bridge.arguments == ['/clock@rosgraph_msgs/msg/Clock[gz.msgs.Clock']
    rsp = effective_parameters(_one(result, 'robot_state_publisher'))
    assert rsp['use_sim_time'] is True
    root = ElementTree.fromstring(rsp['robot_description'])
    plugin = root.find('gazebo/plugin')
    table = DISTRO_TABLE['distros']['jazzy']
    assert plugin.get('filename') == table['gazebo_system']['filename']
    assert plugin.get('name') == table['gazebo_system']['name']
    assert plugin.findtext('parameters') == os.path.join(
        prefix, 'share', 'robodyn_ros', 'config', f'{robot}_controllers.yaml')
    assert plugin.findtext('ros/namespace') == namespace
    assert root.findtext('ros2_control/hardware/plugin') == table['hardware']['gazebo']['plugin']
    spawned = [p.arguments[0] for p in result.processes if p.executable == 'spawner']
    assert sorted(spawned) == sorted(bringup.CONTROLLER_TYPES)
    # The spawners wait for the model to be in Gazebo: create exits, then the broadcaster's.
    spawners = {p.arguments[0]: p for p in result.processes if p.executable == 'spawner'}
    first = spawners[bringup.JOINT_STATE_BROADCASTER]
    second = spawners[bringup.EFFORT_CONTROLLER]
    assert first.trigger[0] == 'exit' and first.trigger[1].kw['target_action'] is create.action
    assert second.trigger[0] == 'exit' and second.trigger[1].kw['target_action'] is first.action
    controller = effective_parameters(_one(result, 'controller', 'robodyn_ros'))
    assert controller['effort_controller'] == bringup.EFFORT_CONTROLLER


@pytest.mark.parametrize('gui', ['true', 'false'])
def test_view_robot(launch, gui):
    result = launch('view_robot.launch.py', {'robot': 'stanford', 'gui': gui, 'rate': '25'})
    publisher = 'joint_state_publisher_gui' if gui == 'true' else 'joint_state_publisher'
    assert effective_parameters(_one(result, publisher))['rate'] == 25
    assert not [p for p in result.processes
                if p.executable.startswith('joint_state_publisher') and p.executable != publisher]
    _one(result, 'rviz2')
    assert not _robodyn_nodes(result)


@pytest.mark.parametrize('name', sorted(REQUIRED_ARGUMENTS))
def test_launch_file_declares_its_arguments(launch, name):
    arguments = {'port': '/dev/ttyUSB0'} if name in ('bringup_hardware.launch.py',
                                                     'hardware_interface.launch.py') else {}
    result = launch(name, arguments)
    declared = next(v for k, v in result.declared.items() if k.endswith(os.sep + name))
    assert REQUIRED_ARGUMENTS[name] <= set(declared), REQUIRED_ARGUMENTS[name] - set(declared)
    assert declared['robot']['choices'] == ROBOTS
    assert declared['rate']['default_value'] == ('10' if name == 'view_robot.launch.py'
                                                 else str(bringup.DEFAULT_RATE))
    for spec in declared.values():
        assert spec.get('description'), spec['name']


def test_optional_packages_are_documented():
    with open(os.path.join(ROOT, 'docs', 'bringup.md')) as fh:
        docs = fh.read()
    for package in OPTIONAL_PACKAGES:
        assert package.replace('_', '-') in docs, package
    for name in LAUNCH_FILES:
        assert f'`{name}`' in docs, name


def test_every_launch_file_is_checked():
    assert set(LAUNCH_FILES) == set(REQUIRED_ARGUMENTS)


# ----------------------------------------------------------------------------- cia402
def _sim_drive_args(cmd):
    """Parse a launch file's sim-drive command line with the real robodyn parser."""
    from robodyn_ros.cli.main import build_parser
    assert cmd[0].endswith('robodyn') and cmd[1] == 'sim-drive'
    return build_parser().parse_args([str(c) for c in cmd[1:]])


@pytest.mark.parametrize('loop', ['graph', 'one-process'])
def test_bringup_hardware_on_cia402_drives(launch, loop):
    """backend:=cia402 gives the node the CAN bus, the node ids and the SYNC period."""
    result = launch('bringup_hardware.launch.py', {'robot': 'puma560', 'backend': 'cia402',
                                                   'node_ids': '11,12,13,14,15,16',
                                                   'rate': '500', 'bitrate': '500000',
                                                   'loop': loop})
    # control_loop's own 'backend' is its law's dynamics: the hardware is 'hardware' there
    node, choice = (('hardware_interface', 'backend') if loop == 'graph' else
                    ('control_loop', 'hardware'))
    values = effective_parameters(_one(result, node))
    assert values[choice] == 'cia402' and values['can_interface'] == 'socketcan'
    assert values['can_channel'] == 'can0' and values['node_ids'] == [11, 12, 13, 14, 15, 16]
    assert values['bitrate'] == 500000 and values['sync_period'] == pytest.approx(0.002)
    if loop == 'one-process':
        assert 'backend' not in values


@pytest.mark.parametrize('loop', ['graph', 'one-process'])
def test_bringup_sim_on_simulated_drives(launch, loop):
    """backend:=cia402 runs robodyn sim-drive on udp_multicast and the graph on that bus."""
    result = launch('bringup_sim.launch.py', {'robot': 'rx90', 'backend': 'cia402',
                                              'rate': '500', 'loop': loop})
    drives = [p for p in result.processes if p.kind == 'process']
    assert len(drives) == 1
    args = _sim_drive_args(drives[0].cmd)
    assert (args.robot, args.interface, args.rate) == ('rx90', 'udp_multicast', 500.0)
    node, choice = (('hardware_interface', 'backend') if loop == 'graph' else
                    ('control_loop', 'hardware'))
    values = effective_parameters(_one(result, node))
    assert (values[choice], values['can_interface']) == ('cia402', 'udp_multicast')
    assert 'node_ids' not in values and values['can_channel'] == '239.74.163.2'
    graph = [t for _, loc, _, t in result.includes if loc.endswith('bringup_hardware.launch.py')]
    assert len(graph) == 1 and graph[0][1].kw['target_action'] is drives[0].action


@pytest.mark.parametrize('arguments,message', [
    ({'backend': 'cia402', 'port': '/dev/ttyUSB0'}, "port and address are the board's"),
    ({'backend': 'cia402', 'node_ids': '0,1,2'}, 'node_ids'),
    ({'backend': 'cia402', 'node_ids': '1,1'}, 'node_ids'),
    ({'backend': 'cia402', 'node_ids': 'a,b'}, 'node_ids'),
    ({'backend': 'cia402', 'bitrate': 'fast'}, 'bitrate'),
    ({'backend': 'cia402', 'bitrate': '5000000'}, 'bitrate'),
    ({'backend': 'canopen'}, 'not in'),
    ({'backend': 'cia402', 'can_interface': 'pcan'}, 'not in'),
])
def test_cia402_arguments_are_checked(launch, arguments, message):
    with pytest.raises((LaunchError, RuntimeError), match=message):
        launch('bringup_hardware.launch.py', arguments)
