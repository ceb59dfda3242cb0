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
The package's structure rules, checked on its source (issue 13).

Each rule reads the modules with :mod:`ast`, so a violation names the file
and line. The rules: no module over 500 lines; no function over 12
parameters; no rclpy or ROS message import outside ``nodes/`` and ``demo/``
(the core runs without ROS); no import cycle among module-level imports,
and no import from a higher layer; no access to another object's private
attributes except an object of the class's own hierarchy; every package
folder has a docstring.
"""

import ast
import pathlib

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / 'robodyn_ros'
MAX_LINES = 500
MAX_PARAMETERS = 12
ROS_ONLY = ('nodes', 'demo')
ROS_MODULES = ('rclpy', 'rosidl_runtime_py', 'std_msgs', 'sensor_msgs', 'trajectory_msgs',
               'geometry_msgs', 'std_srvs', 'diagnostic_msgs', 'builtin_interfaces',
               'lifecycle_msgs', 'rcl_interfaces')
#: Layers from the bottom; a module may import its own layer and the ones below. An
#: entry names a folder or module; the longest entry that contains a module places it.
LAYERS = (
    ('errors', 'ros_env', 'realtime', 'hardware.errors', 'lazy_names'),
    ('model', 'friction.models', 'friction.symbolic'),
    ('dynamics', 'pinocchio_bridge'),
    ('friction',),
    ('control', 'planning'),
    ('parallel', 'sim', 'reproductions', 'hardware.board', 'hardware.scaling',
     'hardware.settings', 'hardware.backend', 'hardware.sample', 'hardware.cia402'),
    ('hardware',),
    ('nodes',),
    ('bench', 'demo', 'bringup'),
    ('cli',),
)


def _modules():
    return sorted(p for p in PACKAGE.rglob('*.py'))


def _name(path):
    rel = path.relative_to(PACKAGE.parent).with_suffix('')
    parts = rel.parts[:-1] if rel.name == '__init__' else rel.parts
    return '.'.join(parts)


def _tree(path):
    return ast.parse(path.read_text(), str(path))


def _where(path, node):
    return f'{path.relative_to(PACKAGE.parent)}:{node.lineno}'


def _absolute(module, path, node):
    """Full name of an ``ImportFrom`` target, relative imports resolved."""
    if not node.level:
        return node.module or ''
    package = module.split('.') if path.name == '__init__.py' else module.split('.')[:-1]
    base = package[:len(package) - node.level + 1]
    return '.'.join(base + ([node.module] if node.module else []))


def _imports(path, top_level_only):
    """Yield ``(node, imported module name)`` of a module."""
    module = _name(path)
    tree = _tree(path)
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    if top_level_only:   # module level, including under if/try (not in functions)
        stack, nodes = list(tree.body), []
        while stack:
            node = stack.pop()
            nodes.append(node)
            if isinstance(node, (ast.If, ast.Try)):
                stack += [c for c in ast.iter_child_nodes(node) if isinstance(c, ast.stmt)]
                for handler in getattr(node, 'handlers', []):
                    stack += handler.body
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, path, node)
            for alias in node.names:
                full = f'{base}.{alias.name}'
                yield node, full if _is_module(full) else base


def _is_module(name):
    parts = name.split('.')
    if parts[0] != 'robodyn_ros':
        return False
    path = PACKAGE.parent.joinpath(*parts)
    return path.with_suffix('.py').is_file() or (path / '__init__.py').is_file()


def _layer(name):
    inner = name.split('.', 1)[1] if '.' in name else ''
    best = None
    for rank, layer in enumerate(LAYERS):
        for entry in layer:
            if (inner == entry or inner.startswith(entry + '.')) \
                    and (best is None or len(entry) > len(best[1])):
                best = (rank, entry)
    return None if best is None else best[0]


def test_every_module_is_in_a_layer():
    """Each top-level module or folder has a place in LAYERS (a new one must be placed)."""
    missing = sorted({_name(p).split('.')[1] for p in _modules() if _name(p) != 'robodyn_ros'
                      and _layer(_name(p)) is None})
    assert not missing


def test_no_module_over_500_lines():
    """Modules stay small enough to read in one sitting."""
    long = [f'{p.relative_to(PACKAGE.parent)}: {n}' for p in _modules()
            if (n := len(p.read_text().splitlines())) > MAX_LINES]
    assert not long


def _parameter_count(fn):
    a = fn.args
    names = [x.arg for x in a.posonlyargs + a.args]
    count = len(names) + len(a.kwonlyargs) + bool(a.vararg) + bool(a.kwarg)
    return count - (1 if names and names[0] in ('self', 'cls') else 0)


def test_no_function_over_12_parameters():
    """Option groups travel as records, not as long argument lists."""
    wide = []
    for path in _modules():
        for node in ast.walk(_tree(path)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if (n := _parameter_count(node)) > MAX_PARAMETERS:
                    wide.append(f'{_where(path, node)} {node.name}: {n}')
    assert not wide


def test_ros_only_in_nodes_and_demo():
    """The core imports no rclpy and no ROS messages, not even inside functions."""
    found = []
    for path in _modules():
        name = _name(path)
        if name.split('.')[1:2] and name.split('.')[1] in ROS_ONLY:
            continue
        for node, target in _imports(path, top_level_only=False):
            if target.split('.')[0] in ROS_MODULES:
                found.append(f'{_where(path, node)} {target}')
    assert not found


def _graph():
    graph = {}
    for path in _modules():
        name = _name(path)
        graph[name] = {t for _, t in _imports(path, top_level_only=True)
                       if t.startswith('robodyn_ros.') and t != name}
    return graph


def test_no_import_cycle():
    """Module-level imports form no cycle (a package's __init__ excepted from its children)."""
    graph = _graph()
    for name, targets in graph.items():   # a child importing its own package is the parent's job
        graph[name] = {t for t in targets if not name.startswith(t + '.')}
    state, cycles = {}, []

    def visit(node, stack):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(' -> '.join(stack[stack.index(nxt):] + [nxt]))
            elif nxt in graph and not state.get(nxt):
                visit(nxt, stack)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if not state.get(node):
            visit(node, [])
    assert not cycles


def test_no_import_from_a_higher_layer():
    """Imports run down the layers, also inside functions."""
    found = []
    for path in _modules():
        own = _layer(_name(path))
        for node, target in _imports(path, top_level_only=False):
            other = _layer(target) if target.startswith('robodyn_ros.') else None
            if own is not None and other is not None and other > own:
                found.append(f'{_where(path, node)} imports {target}')
    assert not found


def _hierarchy_names(tree):
    """Per class defined in a module: its own name and its bases' names."""
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            names[node.name] = {node.name} | {ast.unparse(b).split('.')[-1] for b in node.bases}
    return names


def _own_private_names(tree):
    """Private names a module defines: ``self._x = ...``, class attributes and methods."""
    own = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) \
                and isinstance(node.value, ast.Name) and node.value.id in ('self', 'cls'):
            own.add(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            own.add(node.name)
        elif isinstance(node, ast.Assign):
            own.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            own.add(node.target.id)
    return own


def _receiver_is_own(value, classes):
    """``self``, ``cls``, ``super()``, ``type(self)`` or a class of the hierarchy."""
    if isinstance(value, ast.Name):
        return value.id in ('self', 'cls') or value.id in classes
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
        return value.func.id in ('super', 'type')
    return False


def test_no_private_access_across_modules():
    """``obj._x`` only for the module's own objects or its class hierarchy."""
    found = []
    for path in _modules():
        tree = _tree(path)
        own = _own_private_names(tree)
        classes = set().union(*_hierarchy_names(tree).values()) if _hierarchy_names(tree) \
            else set()
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Attribute) and node.attr.startswith('_')
                    and not node.attr.startswith('__')):
                continue
            if _receiver_is_own(node.value, classes) or node.attr in own:
                continue
            found.append(f'{_where(path, node)} {ast.unparse(node)}')
    assert not found


@pytest.mark.parametrize('folder', sorted(p.parent.relative_to(PACKAGE.parent).as_posix()
                                          for p in PACKAGE.rglob('__init__.py')))
def test_every_folder_says_what_it_holds(folder):
    """Each package folder opens with a docstring of at least one sentence."""
    doc = ast.get_docstring(_tree(PACKAGE.parent / folder / '__init__.py'))
    assert doc and len(doc.split()) >= 5 and doc.rstrip().endswith(('.', ')', ':'))


def test_the_checks_can_fail(tmp_path):
    """The parsers see what they look for (a private access, a cycle, a wide function)."""
    src = tmp_path / 'x.py'
    src.write_text('def f(a, b, c, d, e, f, g, h, i, j, k, l, m):\n    return other._hidden\n')
    tree = _tree(src)
    fn = tree.body[0]
    assert _parameter_count(fn) == 13
    access = [n for n in ast.walk(tree) if isinstance(n, ast.Attribute)][0]
    assert access.attr not in _own_private_names(tree)
    assert not _receiver_is_own(access.value, set())
