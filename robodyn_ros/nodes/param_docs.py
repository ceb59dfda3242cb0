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
The parameter tables of ``docs/reference.md``, generated from the nodes' ParamSpecs.

Every node declares its parameters from a list of
:class:`~robodyn_ros.nodes.params.ParamSpec`; :data:`NODES` names the
function that gives each node's list without starting ROS (the modules are
imported, rclpy is not initialised). :func:`render_table` turns a list into
a Markdown table (name, type, default, range or choices, run-time changeable
or read-only, description with units); :func:`rewrite` replaces the text
between the marker comments ::

    <!-- params:NODE:begin -->
    ...
    <!-- params:NODE:end -->

(each on a line of its own) with the node's table and leaves everything
around them alone. The model
source (``robot``, ``robot_params``, ``robot_description``) has a table of
its own (``model_source``); the node tables leave it out where a node
declares it unchanged, and ``control_loop``'s leaves out what it shares
with ``hardware_interface`` (:data:`BASES`). ``robodyn docs params`` runs this on the file.
"""

from dataclasses import replace
import importlib
import re

from ..errors import RobodynError

#: Node (marker name) -> (module, function returning every ParamSpec the node declares).
NODES = {
    'model_source': ('robodyn_ros.nodes.model_source', 'model_parameters'),
    'controller': ('robodyn_ros.nodes.controller_params', 'parameter_specs'),
    'trajectory_planner': ('robodyn_ros.nodes.trajectory_planner_node', 'parameter_specs'),
    'hardware_interface': ('robodyn_ros.nodes.hardware_interface_node',
                           'node_parameter_specs'),
    'control_loop': ('robodyn_ros.nodes.control_loop_node', 'node_parameter_specs'),
    'parallel_dynamics': ('robodyn_ros.nodes.parallel_dynamics_node', 'parameter_specs'),
    'parallel_dynamics_worker': ('robodyn_ros.nodes.parallel_dynamics_worker_node',
                                 'parameter_specs'),
}

#: Node -> the node whose parameters it shares: its table lists only those it adds or
#: declares differently (the prose links the base node's table).
BASES = {'control_loop': 'hardware_interface'}

#: Nodes whose tables say which control laws take each law option.
LAW_NODES = ('controller', 'control_loop')

HEADER = ('| parameter | type | default | range / choices | run time | meaning |\n'
          '|---|---|---|---|---|---|')

#: rclpy ``Parameter.Type`` names -> the type column.
_TYPE_NAMES = {'BOOL': 'bool', 'INTEGER': 'integer', 'DOUBLE': 'double', 'STRING': 'string',
               'BYTE_ARRAY': 'byte[]', 'BOOL_ARRAY': 'bool[]', 'INTEGER_ARRAY': 'integer[]',
               'DOUBLE_ARRAY': 'double[]', 'STRING_ARRAY': 'string[]'}

#: A marker: a line of its own (a marker quoted in the text is not one).
_MARKER = re.compile(r'^<!-- params:([\w-]+):(begin|end) -->[ \t]*$', re.MULTILINE)


class ParamDocsError(RobodynError, ValueError):
    """The marker comments of a document are wrong (unknown node, unbalanced)."""


def node_specs(node):
    """
    Return every parameter a node declares, from its spec function (no ROS started).

    Parameters
    ----------
    node : str
        A key of :data:`NODES`.

    Returns
    -------
    list of ParamSpec
        In declaration order.

    """
    module, function = NODES[node]
    return list(getattr(importlib.import_module(module), function)())


def table_specs(node):
    """
    Return the parameters of a node's table: without the shared ones.

    Parameters
    ----------
    node : str
        A key of :data:`NODES`.

    Returns
    -------
    list of ParamSpec
        The node's specs, less those equal to a spec of the model source
        and of its base node (:data:`BASES`); a node that declares a shared
        parameter differently (another default, range or flag) keeps it.

    """
    specs = node_specs(node)
    if node == 'model_source':
        return specs
    shared = node_specs('model_source')
    if node in BASES:
        shared += node_specs(BASES[node])
    shared = [_identity(s) for s in shared]
    return [s for s in specs if _identity(s) not in shared]


def _identity(spec):
    """Compare specs by value; checks by their code (each call makes new closures)."""
    return replace(spec, check=None), getattr(spec.check, '__code__', spec.check)


def law_notes():
    """
    Say which control laws take each law option.

    Returns
    -------
    dict
        Option name -> ``laws: `pid`, ...`` or ``all laws``.

    """
    from ..control.factory import LAW_CLASSES, OPTION_NAMES
    notes = {}
    for name in OPTION_NAMES:
        laws = [cls.law for cls in LAW_CLASSES if name in cls.option_names()]
        notes[name] = ('all laws' if len(laws) == len(LAW_CLASSES)
                       else 'laws: ' + ', '.join(f'`{law}`' for law in laws))
    return notes


def _number(x):
    if isinstance(x, float) and x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    return repr(x) if isinstance(x, float) else str(x)


def _value(x):
    if isinstance(x, bool):
        return 'true' if x else 'false'
    if isinstance(x, str):
        return x if x else "''"
    if isinstance(x, (list, tuple)):
        return '[' + ', '.join(_value(v) for v in x) + ']'
    return repr(x) if isinstance(x, float) else str(x)


def type_name(spec):
    """
    Return the type column of a spec: its ``kind``, else the type of its default.

    Parameters
    ----------
    spec : ParamSpec
        The parameter.

    Returns
    -------
    str
        ``bool``, ``integer``, ``double``, ``string`` or one of them with
        ``[]`` for arrays (``array`` for an empty untyped one, ``any``
        without kind or default).

    """
    if spec.kind is not None:
        name = getattr(spec.kind, 'name', str(spec.kind))
        return _TYPE_NAMES.get(name, name.lower())
    value = spec.default
    if isinstance(value, (list, tuple)):
        if not value:
            return 'array'
        return _scalar_type(value[0]) + '[]'
    return _scalar_type(value) if value is not None else 'any'


def _scalar_type(value):
    for cls, name in ((bool, 'bool'), (int, 'integer'), (float, 'double'), (str, 'string')):
        if isinstance(value, cls):
            return name
    return type(value).__name__


def default_text(spec):
    """
    Return the default column: the value in backticks, or ``unset``.

    Parameters
    ----------
    spec : ParamSpec
        The parameter.

    Returns
    -------
    str
        Markdown.

    """
    return 'unset' if spec.default is None else f'`{_value(spec.default)}`'


def range_text(spec):
    """
    Return the range / choices column: choices, numeric bounds, constraint text.

    Parameters
    ----------
    spec : ParamSpec
        The parameter.

    Returns
    -------
    str
        Markdown (empty when the parameter has none); bounds of arrays hold
        for each element.

    """
    parts = []
    if spec.choices:
        parts.append(', '.join(f'`{_value(c)}`' for c in spec.choices))
    each = 'each ' if type_name(spec).endswith(']') or type_name(spec) == 'array' else ''
    if spec.low is not None and spec.high is not None:
        parts.append(f'{each}in [{_number(spec.low)}, {_number(spec.high)}]' if each
                     else f'[{_number(spec.low)}, {_number(spec.high)}]')
    elif spec.low is not None:
        parts.append(f'{each}>= {_number(spec.low)}')
    elif spec.high is not None:
        parts.append(f'{each}<= {_number(spec.high)}')
    if spec.constraints:
        parts.append(spec.constraints)
    return '; '.join(parts)


def _cell(text):
    return ' '.join(str(text).split()).replace('|', '\\|')


def render_table(specs, notes=None):
    """
    Render parameters as a Markdown table.

    Parameters
    ----------
    specs : sequence of ParamSpec
        The parameters, in table order.
    notes : dict, optional
        Parameter name -> Markdown appended to its meaning (after ``; ``).

    Returns
    -------
    str
        :data:`HEADER` and one row per parameter, without a final newline.

    """
    notes = notes or {}
    rows = [HEADER]
    for s in specs:
        meaning = _cell(s.description)
        if notes.get(s.name):
            meaning += '; ' + notes[s.name]
        cells = [f'`{s.name}`', type_name(s), _cell(default_text(s)), _cell(range_text(s)),
                 'no' if s.read_only else 'yes', meaning]
        rows.append('| ' + ' | '.join(cells) + ' |')
    return '\n'.join(rows)


def node_table(node):
    """
    Generate the table of one node.

    Parameters
    ----------
    node : str
        A key of :data:`NODES`.

    Returns
    -------
    str
        Markdown table (see :func:`render_table`).

    """
    return render_table(table_specs(node), law_notes() if node in LAW_NODES else None)


def marked_nodes(text):
    """
    List the nodes with a marked table in a document, in order.

    Parameters
    ----------
    text : str
        The document.

    Returns
    -------
    list of str
        Node names of the ``begin`` markers.

    """
    return [m.group(1) for m in _MARKER.finditer(text) if m.group(2) == 'begin']


def rewrite(text, tables=None):
    """
    Replace every marked table of a document with the generated one.

    Parameters
    ----------
    text : str
        The document.
    tables : callable, optional
        ``tables(node) -> str`` (default :func:`node_table`).

    Returns
    -------
    str
        The document with each ``begin``/``end`` pair enclosing its node's
        table on lines of their own; everything else unchanged.

    Raises
    ------
    ParamDocsError
        For an unknown node, a marker without its partner, nested or
        repeated markers.

    """
    tables = tables or node_table
    out, pos, open_node, seen = [], 0, None, set()
    for m in _MARKER.finditer(text):
        node, kind = m.group(1), m.group(2)
        line = text.count('\n', 0, m.start()) + 1
        if node not in NODES:
            raise ParamDocsError(f'line {line}: unknown node {node!r} in a params marker '
                                 f'(known: {", ".join(NODES)})')
        if kind == 'begin':
            if open_node is not None:
                raise ParamDocsError(f'line {line}: params:{node}:begin inside the table of '
                                     f'{open_node!r}')
            if node in seen:
                raise ParamDocsError(f'line {line}: a second table of {node!r}')
            seen.add(node)
            out.append(text[pos:m.end()])
            open_node = node
        else:
            if open_node != node:
                raise ParamDocsError(f'line {line}: params:{node}:end without its begin')
            out.append('\n' + tables(node) + '\n')
            open_node = None
        pos = m.start() if kind == 'end' else m.end()
    if open_node is not None:
        raise ParamDocsError(f'params:{open_node}:begin without its end')
    out.append(text[pos:])
    return ''.join(out)


def stale_tables(text, tables=None):
    """
    List the marked tables of a document that differ from the generated ones.

    Parameters
    ----------
    text : str
        The document.
    tables : callable, optional
        ``tables(node) -> str`` (default :func:`node_table`).

    Returns
    -------
    list of str
        Node names, in document order.

    Raises
    ------
    ParamDocsError
        As :func:`rewrite`.

    """
    cache = {}

    def table(node):
        if node not in cache:
            cache[node] = (tables or node_table)(node)
        return cache[node]

    rewrite(text, table)  # checks the markers
    stale, start = [], {}
    for m in _MARKER.finditer(text):
        node = m.group(1)
        if m.group(2) == 'begin':
            start[node] = m.end()
        elif text[start[node]:m.start()] != '\n' + table(node) + '\n':
            stale.append(node)
    return stale
