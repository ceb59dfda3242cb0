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
A minimal stand-in for ROS 2's ``launch`` and ``launch_ros``, for static launch-file checks.

``launch`` cannot be installed here (the PyPI package of that name is an
unrelated project), so the launch files are executed against these fakes:
only the names robodyn's launch files may use exist, each accepts only the
arguments the real class takes on Humble, Jazzy and Kilted (the strictest
form: ``PathJoinSubstitution`` items must be strings or substitutions, as on
Humble), substitutions perform against a context, and :func:`run` walks a
launch description as ``ros2 launch`` would: arguments with defaults and
choices, conditions, includes, opaque functions and event handlers, with the
targets of every event assumed to fire. The result lists the processes that
would start, with their performed parameters, remappings and arguments.

Test code only; :func:`install` puts the modules into ``sys.modules``.
"""

from dataclasses import dataclass, field
import importlib.util
import os
import shlex
import types

import yaml

#: Keyword arguments ExecuteProcess (and so Node) accepts on every supported distro.
_PROCESS_KEYWORDS = {'name', 'cwd', 'env', 'additional_env', 'shell', 'sigterm_timeout',
                     'sigkill_timeout', 'emulate_tty', 'output', 'prefix', 'log_cmd', 'on_exit',
                     'respawn', 'respawn_delay', 'condition'}


class LaunchError(Exception):
    """What ``ros2 launch`` would report as an error."""


class _Entity:
    """Records constructor arguments; subclasses list the accepted names."""

    POSITIONAL = ()
    REQUIRED = ()
    KEYWORDS = frozenset({'condition'})

    def __init__(self, *args, **kwargs):
        name = type(self).__name__
        if len(args) > len(self.POSITIONAL):
            raise TypeError(f'{name}() takes {len(self.POSITIONAL)} positional arguments')
        for key, value in zip(self.POSITIONAL, args):
            if key in kwargs:
                raise TypeError(f'{name}() got {key!r} twice')
            kwargs[key] = value
        unknown = set(kwargs) - set(self.POSITIONAL) - set(self.KEYWORDS)
        if unknown:
            raise TypeError(f'{name}() got unexpected keyword arguments {sorted(unknown)}')
        missing = [k for k in self.REQUIRED if k not in kwargs]
        if missing:
            raise TypeError(f'{name}() missing required arguments {missing}')
        self.kw = kwargs

    def __repr__(self):
        return f'{type(self).__name__}({self.kw})'


# ----------------------------------------------------------------------------- substitutions
class Substitution(_Entity):
    """Base of the fake substitutions."""

    def perform(self, context):
        raise NotImplementedError


def perform(value, context):
    """Perform a str, a substitution or a list of them (concatenated)."""
    if isinstance(value, str):
        return value
    if isinstance(value, Substitution):
        return value.perform(context)
    if isinstance(value, (list, tuple)):
        return ''.join(perform(v, context) for v in value)
    raise LaunchError(f'not a substitution: {value!r}')


class LaunchConfiguration(Substitution):
    POSITIONAL = ('variable_name',)
    REQUIRED = ('variable_name',)
    KEYWORDS = frozenset({'default'})

    def perform(self, context):
        name = self.kw['variable_name']
        if name in context.launch_configurations:
            return context.launch_configurations[name]
        if self.kw.get('default') is not None:
            return perform(self.kw['default'], context)
        raise LaunchError(f"launch configuration '{name}' does not exist")


class PathJoinSubstitution(Substitution):
    POSITIONAL = ('substitutions',)
    REQUIRED = ('substitutions',)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for item in self.kw['substitutions']:
            if not isinstance(item, (str, Substitution)):
                raise TypeError(f'PathJoinSubstitution items must be str or Substitution on '
                                f'Humble, got {item!r}')

    def perform(self, context):
        return os.path.join(*(perform(s, context) for s in self.kw['substitutions']))


class Command(Substitution):
    POSITIONAL = ('command',)
    REQUIRED = ('command',)
    KEYWORDS = frozenset({'on_stderr'})

    def perform(self, context):
        return context.run_command(shlex.split(perform(self.kw['command'], context)))


class FindExecutable(Substitution):
    KEYWORDS = frozenset({'name'})
    REQUIRED = ('name',)

    def perform(self, context):
        return self.kw['name']


class FindPackageShare(Substitution):
    POSITIONAL = ('package',)
    REQUIRED = ('package',)

    def perform(self, context):
        return context.package_share(perform(self.kw['package'], context))


class FindPackagePrefix(Substitution):
    POSITIONAL = ('package',)
    REQUIRED = ('package',)

    def perform(self, context):
        return context.package_prefix(perform(self.kw['package'], context))


class ParameterValue(_Entity):
    POSITIONAL = ('value',)
    REQUIRED = ('value',)
    KEYWORDS = frozenset({'value_type'})


# ----------------------------------------------------------------------------- conditions
class _Condition(_Entity):
    POSITIONAL = ('predicate_expression',)
    REQUIRED = ('predicate_expression',)
    KEYWORDS = frozenset()

    def _value(self, context):
        text = perform(self.kw['predicate_expression'], context).strip().lower()
        if text in ('true', '1'):
            return True
        if text in ('false', '0'):
            return False
        raise LaunchError(f"condition expects 'true' or 'false', got {text!r}")


class IfCondition(_Condition):
    def evaluate(self, context):
        return self._value(context)


class UnlessCondition(_Condition):
    def evaluate(self, context):
        return not self._value(context)


# ----------------------------------------------------------------------------- actions
class LaunchDescription(_Entity):
    POSITIONAL = ('initial_entities',)
    KEYWORDS = frozenset()


class DeclareLaunchArgument(_Entity):
    POSITIONAL = ('name',)
    REQUIRED = ('name',)
    KEYWORDS = frozenset({'default_value', 'description', 'choices', 'condition'})


class IncludeLaunchDescription(_Entity):
    POSITIONAL = ('launch_description_source',)
    REQUIRED = ('launch_description_source',)
    KEYWORDS = frozenset({'launch_arguments', 'condition'})


class PythonLaunchDescriptionSource(_Entity):
    POSITIONAL = ('launch_file_path',)
    REQUIRED = ('launch_file_path',)
    KEYWORDS = frozenset()


class OpaqueFunction(_Entity):
    KEYWORDS = frozenset({'function', 'args', 'kwargs', 'condition'})
    REQUIRED = ('function',)


class RegisterEventHandler(_Entity):
    POSITIONAL = ('event_handler',)
    REQUIRED = ('event_handler',)


class EmitEvent(_Entity):
    KEYWORDS = frozenset({'event', 'condition'})
    REQUIRED = ('event',)


class Shutdown(_Entity):
    KEYWORDS = frozenset({'reason', 'condition'})


class ExecuteProcess(_Entity):
    KEYWORDS = frozenset(_PROCESS_KEYWORDS | {'cmd'})
    REQUIRED = ('cmd',)


class Node(_Entity):
    KEYWORDS = frozenset(_PROCESS_KEYWORDS | {'executable', 'package', 'exec_name',
                                              'namespace', 'parameters', 'remappings',
                                              'ros_arguments', 'arguments'})
    REQUIRED = ('executable',)


class LifecycleNode(Node):
    REQUIRED = ('executable', 'name', 'namespace')  # namespace is required on Humble


class OnProcessStart(_Entity):
    KEYWORDS = frozenset({'target_action', 'on_start'})
    REQUIRED = ('on_start',)


class OnProcessExit(_Entity):
    KEYWORDS = frozenset({'target_action', 'on_exit'})
    REQUIRED = ('on_exit',)


class OnStateTransition(_Entity):
    KEYWORDS = frozenset({'entities', 'target_lifecycle_node', 'transition', 'start_state',
                          'goal_state', 'matcher'})
    REQUIRED = ('entities',)


class ChangeState(_Entity):
    KEYWORDS = frozenset({'lifecycle_node_matcher', 'transition_id'})
    REQUIRED = ('lifecycle_node_matcher', 'transition_id')


def matches_action(target_action):
    """Return a matcher of events from ``target_action`` (it keeps the target)."""
    def matcher(action):
        return action is target_action
    matcher.target = target_action
    return matcher


MODULES = {
    'launch': {'LaunchDescription': LaunchDescription},
    'launch.actions': {c.__name__: c for c in (
        DeclareLaunchArgument, EmitEvent, ExecuteProcess, IncludeLaunchDescription,
        OpaqueFunction, RegisterEventHandler, Shutdown)},
    'launch.conditions': {'IfCondition': IfCondition, 'UnlessCondition': UnlessCondition},
    'launch.event_handlers': {'OnProcessExit': OnProcessExit, 'OnProcessStart': OnProcessStart},
    'launch.events': {'matches_action': matches_action},
    'launch.launch_description_sources': {
        'PythonLaunchDescriptionSource': PythonLaunchDescriptionSource},
    'launch.substitutions': {c.__name__: c for c in (
        Command, FindExecutable, LaunchConfiguration, PathJoinSubstitution)},
    'launch_ros': {},
    'launch_ros.actions': {'LifecycleNode': LifecycleNode, 'Node': Node},
    'launch_ros.event_handlers': {'OnStateTransition': OnStateTransition},
    'launch_ros.events': {},
    'launch_ros.events.lifecycle': {'ChangeState': ChangeState},
    'launch_ros.parameter_descriptions': {'ParameterValue': ParameterValue},
    'launch_ros.substitutions': {'FindPackagePrefix': FindPackagePrefix,
                                 'FindPackageShare': FindPackageShare},
}


def install(monkeypatch):
    """Put the fake modules into ``sys.modules`` for the duration of a test."""
    import sys
    modules = {}
    for name, members in MODULES.items():
        module = types.ModuleType(name)
        module.__dict__.update(members)
        modules[name] = module
        monkeypatch.setitem(sys.modules, name, module)
    for name, module in modules.items():
        parent, _, child = name.rpartition('.')
        if parent:
            setattr(modules[parent], child, module)


# ----------------------------------------------------------------------------- running
@dataclass
class Process:
    """A process the launch would start, with its arguments performed."""

    kind: str
    source: str
    action: object
    package: str = None
    executable: str = None
    name: str = None
    namespace: str = None
    parameters: list = field(default_factory=list)
    remappings: list = field(default_factory=list)
    arguments: list = field(default_factory=list)
    cmd: list = field(default_factory=list)
    on_exit: list = field(default_factory=list)
    trigger: tuple = None


@dataclass
class Result:
    """What :func:`run` found."""

    processes: list = field(default_factory=list)
    declared: dict = field(default_factory=dict)
    lifecycle_events: list = field(default_factory=list)
    includes: list = field(default_factory=list)
    configurations: dict = field(default_factory=dict)


class Context:
    """Launch configurations plus the knowledge of the fake install tree."""

    def __init__(self, configurations, install_prefix, xacro_runner, distro='jazzy'):
        self.launch_configurations = dict(configurations)
        self.install_prefix = install_prefix
        self.xacro_runner = xacro_runner
        self.distro = distro

    def child(self, configurations=None):
        ctx = Context(self.launch_configurations, self.install_prefix, self.xacro_runner,
                      self.distro)
        ctx.launch_configurations.update(configurations or {})
        return ctx

    def package_share(self, package):
        if package == 'robodyn_ros':
            return os.path.join(self.install_prefix, 'share', package)
        return f'/opt/ros/{self.distro}/share/{package}'

    def package_prefix(self, package):
        if package == 'robodyn_ros':
            return self.install_prefix
        return f'/opt/ros/{self.distro}'

    def run_command(self, argv):
        if not argv or os.path.basename(argv[0]) != 'xacro':
            raise LaunchError(f'the fake Command only runs xacro, got {argv}')
        mappings = {}
        for token in argv[2:]:
            if ':=' not in token:
                raise LaunchError(f'xacro argument without := in {argv}')
            key, value = token.split(':=', 1)
            mappings[key] = value
        return self.xacro_runner(argv[1], mappings)


def _parameter(value, context):
    if isinstance(value, ParameterValue):
        text = perform(value.kw['value'], context)
        kind = value.kw.get('value_type')
        if kind is None:
            return yaml.safe_load(text)
        if kind is bool:
            loaded = yaml.safe_load(text)
            if not isinstance(loaded, bool):
                raise LaunchError(f'{text!r} is not a bool')
            return loaded
        try:
            return kind(text)
        except ValueError as exc:
            raise LaunchError(f'parameter value {text!r} is not a {kind.__name__}') from exc
    if isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, (list, tuple)) and value and all(
            isinstance(v, (bool, int, float)) for v in value):
        return list(value)        # launch_ros: a list of numbers is an array parameter
    return yaml.safe_load(perform(value, context))


def _process(entity, context, source):
    kw = entity.kw
    if isinstance(entity, ExecuteProcess):
        return Process('process', source, entity, name=kw.get('name'),
                       cmd=[perform(c, context) for c in kw['cmd']],
                       on_exit=list(kw.get('on_exit') or []))
    parameters = []
    for entry in kw.get('parameters') or []:
        if isinstance(entry, dict):
            parameters.append({k: _parameter(v, context) for k, v in entry.items()})
        else:
            parameters.append(perform(entry, context))
    return Process(
        'lifecycle' if isinstance(entity, LifecycleNode) else 'node', source, entity,
        package=perform(kw.get('package', ''), context),
        executable=perform(kw['executable'], context),
        name=None if kw.get('name') is None else perform(kw['name'], context),
        namespace=None if kw.get('namespace') is None else perform(kw['namespace'], context),
        parameters=parameters,
        remappings=[(perform(a, context), perform(b, context))
                    for a, b in kw.get('remappings') or []],
        arguments=[perform(a, context) for a in kw.get('arguments') or []],
        on_exit=list(kw.get('on_exit') or []))


def load(path):
    """Execute a launch file and return its ``generate_launch_description()``."""
    spec = importlib.util.spec_from_file_location(
        'launchfile_' + os.path.basename(path).replace('.', '_'), path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.generate_launch_description()


def run(path, context, scoped_includes=False):
    """
    Walk a launch file as ``ros2 launch`` would.

    Parameters
    ----------
    path : str
        Launch file.
    context : Context
        Launch configurations (the command-line arguments) and the install tree.
    scoped_includes : bool
        False (what launch does on every distribution, Humble to Kilted):
        ``IncludeLaunchDescription`` sets the included file's arguments and
        configurations in the includer's context, and they stay set. True: the
        included file sees a copy (scoping is an open proposal for launch, not
        its behaviour); used to show that the files work either way.

    Returns
    -------
    Result
        The processes and the rest.

    Raises
    ------
    LaunchError
        Where ``ros2 launch`` would fail (bad choice, missing argument, ...).

    """
    result = Result()
    _walk(load(path), context, result, path, scoped_includes, trigger=None)
    result.configurations = dict(context.launch_configurations)
    return result


def _walk(entity, context, result, source, scoped, trigger):
    if entity is None:
        return
    if isinstance(entity, (list, tuple)):
        for e in entity:
            _walk(e, context, result, source, scoped, trigger)
        return
    condition = entity.kw.get('condition') if isinstance(entity, _Entity) else None
    if condition is not None and not condition.evaluate(context):
        return
    if isinstance(entity, LaunchDescription):
        _walk(list(entity.kw.get('initial_entities') or []), context, result, source, scoped,
              trigger)
    elif isinstance(entity, DeclareLaunchArgument):
        name = entity.kw['name']
        result.declared.setdefault(source, {})[name] = entity.kw
        if name not in context.launch_configurations:
            if entity.kw.get('default_value') is None:
                raise LaunchError(f"{os.path.basename(source)}: argument '{name}' is required")
            context.launch_configurations[name] = perform(entity.kw['default_value'], context)
        choices = entity.kw.get('choices')
        if choices is not None and context.launch_configurations[name] not in choices:
            raise LaunchError(f"argument '{name}': "
                              f"'{context.launch_configurations[name]}' not in {choices}")
    elif isinstance(entity, IncludeLaunchDescription):
        location = perform(entity.kw['launch_description_source'].kw['launch_file_path'],
                           context)
        values = {perform(k, context): perform(v, context)
                  for k, v in entity.kw.get('launch_arguments') or []}
        result.includes.append((source, location, values, trigger))
        if not location.startswith(context.package_share('robodyn_ros')):
            return  # another package's launch file: recorded, not run
        if not os.path.isfile(location):
            raise LaunchError(f'included launch file not installed: {location}')
        inner = context.child(values) if scoped else context
        if not scoped:
            context.launch_configurations.update(values)
        _walk(load(location), inner, result, location, scoped, trigger)
    elif isinstance(entity, OpaqueFunction):
        produced = entity.kw['function'](context, *(entity.kw.get('args') or ()),
                                         **(entity.kw.get('kwargs') or {}))
        _walk(list(produced or []), context, result, source, scoped, trigger)
    elif isinstance(entity, RegisterEventHandler):
        handler = entity.kw['event_handler']
        if isinstance(handler, OnProcessStart):
            _walk(handler.kw['on_start'], context, result, source, scoped, ('start', handler))
        elif isinstance(handler, OnProcessExit):
            _walk(handler.kw['on_exit'], context, result, source, scoped, ('exit', handler))
        elif isinstance(handler, OnStateTransition):
            _walk(handler.kw['entities'], context, result, source, scoped, ('state', handler))
        else:
            raise LaunchError(f'unknown event handler {handler!r}')
    elif isinstance(entity, EmitEvent):
        event = entity.kw['event']
        if not isinstance(event, ChangeState):
            raise LaunchError(f'unexpected event {event!r}')
        target = getattr(event.kw['lifecycle_node_matcher'], 'target', None)
        result.lifecycle_events.append((target, event.kw['transition_id'], trigger))
    elif isinstance(entity, (Node, ExecuteProcess)):
        process = _process(entity, context, source)
        process.trigger = trigger
        result.processes.append(process)
    elif isinstance(entity, Shutdown):
        raise LaunchError(f'unconditional Shutdown in {source}')
    else:
        raise LaunchError(f'unexpected entity {entity!r}')


# ----------------------------------------------------------------------------- install tree
def setup_keywords(root):
    """Return the keyword arguments ``setup.py`` passes to ``setuptools.setup``."""
    import runpy
    import setuptools
    captured = {}
    original, cwd = setuptools.setup, os.getcwd()
    setuptools.setup = lambda **kw: captured.update(kw)
    try:
        os.chdir(root)
        runpy.run_path(os.path.join(root, 'setup.py'), run_name='setup')
    finally:
        setuptools.setup = original
        os.chdir(cwd)
    return captured


def console_scripts(keywords):
    """Names of the console scripts in setup keywords."""
    return [e.split('=')[0].strip() for e in keywords['entry_points']['console_scripts']]


def build_install_tree(root, prefix):
    """
    Lay out what colcon would install from ``setup.py``: data files and console scripts.

    Parameters
    ----------
    root : str
        Package source folder.
    prefix : str
        Install prefix to create (``<prefix>/share/robodyn_ros/...``,
        ``<prefix>/lib/robodyn_ros/<script>``); data files are symlinks.

    Returns
    -------
    dict
        The setup keywords.

    """
    keywords = setup_keywords(root)
    for destination, files in keywords['data_files']:
        for rel in files:
            target = os.path.join(prefix, destination, os.path.basename(rel))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            os.symlink(os.path.join(root, rel), target)
    bin_dir = os.path.join(prefix, 'lib', 'robodyn_ros')
    os.makedirs(bin_dir, exist_ok=True)
    for script in console_scripts(keywords):
        with open(os.path.join(bin_dir, script), 'w') as fh:
            fh.write('#!/bin/sh\n')
    return keywords
