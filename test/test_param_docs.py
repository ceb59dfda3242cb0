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
The parameter tables of docs/reference.md are the ones the code generates.

``robodyn docs params`` renders each node's table from its ParamSpecs and
writes it between the marker comments; these tests fail when the document
and the code disagree (regenerate with ``robodyn docs params``), and check
the renderer and the rewriting on hand-made input.
"""

import os

import pytest
from rclpy.parameter import Parameter
from robodyn_ros.bringup import NODE_EXECUTABLES
from robodyn_ros.cli.main import main
from robodyn_ros.nodes.param_docs import (BASES, marked_nodes, node_specs, NODES,
                                          ParamDocsError, render_table, rewrite, stale_tables,
                                          table_specs)
from robodyn_ros.nodes.params import ParamSpec

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REFERENCE = os.path.join(ROOT, 'docs', 'reference.md')


def _reference():
    with open(REFERENCE, encoding='utf-8') as fh:
        return fh.read()


def test_reference_tables_match_the_code():
    """Every node has a table in docs/reference.md, and each is the generated one."""
    text = _reference()
    assert sorted(marked_nodes(text)) == sorted(NODES), 'a node has no params markers'
    stale = stale_tables(text)
    assert not stale, (f'docs/reference.md: the parameter tables of {", ".join(stale)} differ '
                       'from the code; regenerate them with: robodyn docs params')


def test_every_node_executable_has_a_table():
    """Each node the package installs is one of the documented nodes."""
    nodes = {name for name in NODE_EXECUTABLES if name != 'robodyn'}
    assert nodes <= set(NODES), nodes - set(NODES)


@pytest.mark.parametrize('node', [n for n in NODES if n != 'model_source'])
def test_tables_together_list_every_declared_parameter(node):
    """A parameter left out of a node's table is in the model source's or its base node's."""
    shared = {s.name for s in node_specs('model_source')}
    if node in BASES:
        shared |= {s.name for s in node_specs(BASES[node])}
    declared = [s.name for s in node_specs(node)]
    shown = {s.name for s in table_specs(node)}
    assert len(set(declared)) == len(declared)
    assert set(declared) <= shown | shared, set(declared) - shown - shared
    if node in BASES:
        assert {s.name for s in node_specs(BASES[node])} <= set(declared)


def test_control_loop_table_shows_what_differs_from_the_board():
    """The loop's own parameters are shown, the board's unchanged ones are not."""
    shown = {s.name: s for s in table_specs('control_loop')}
    assert {'law', 'joint_states_decimation', 'autostart', 'model_friction'} <= set(shown)
    assert not shown['law'].read_only
    assert shown['autostart'].default is False and shown['model_friction'].default is False
    assert not {'command_timeout', 'hold_time', 'rt_priority', 'rate'} & set(shown)


#: Hand-made specs: every kind of column the renderer writes.
SPECS = [
    ParamSpec('rate', 100.0, 'Control rate [Hz]', low=1.0, high=1000.0, read_only=True),
    ParamSpec('count', 3, 'Cycles', low=1, high=10),
    ParamSpec('tiny', 1e-6, 'Band [rad/s]', low=1e-6, high=10.0),
    ParamSpec('limit', 0.5, 'Limit [s]', high=2.0),
    ParamSpec('mode', 'fast', 'Mode', choices=('fast', 'slow'), read_only=True),
    ParamSpec('flag', False, 'Flag'),
    ParamSpec('label', '', 'Label; a | in the text'),
    ParamSpec('gains', None, 'Gains per joint [N m/rad]', kind=Parameter.Type.DOUBLE_ARRAY,
              low=0.0),
    ParamSpec('ids', None, 'Joint indices', kind=Parameter.Type.INTEGER_ARRAY, low=0, high=5,
              constraints='at most 3 values'),
    ParamSpec('names', None, 'Joint names', kind=Parameter.Type.STRING_ARRAY, read_only=True),
    ParamSpec('com', [0.0, 0.0, 0.1], 'Centre of mass [m]', check=lambda v: None,
              constraints='3 values'),
    ParamSpec('count_limit', 7, 'Most\n  items', low=1, high=20_000_000),
]

EXPECTED = """\
| parameter | type | default | range / choices | run time | meaning |
|---|---|---|---|---|---|
| `rate` | double | `100.0` | [1, 1000] | no | Control rate [Hz] |
| `count` | integer | `3` | [1, 10] | yes | Cycles |
| `tiny` | double | `1e-06` | [1e-06, 10] | yes | Band [rad/s] |
| `limit` | double | `0.5` | <= 2 | yes | Limit [s] |
| `mode` | string | `fast` | `fast`, `slow` | no | Mode |
| `flag` | bool | `false` |  | yes | Flag |
| `label` | string | `''` |  | yes | Label; a \\| in the text |
| `gains` | double[] | unset | each >= 0 | yes | Gains per joint [N m/rad]; laws: `pid` |
| `ids` | integer[] | unset | each in [0, 5]; at most 3 values | yes | Joint indices |
| `names` | string[] | unset |  | no | Joint names |
| `com` | double[] | `[0.0, 0.0, 0.1]` | 3 values | yes | Centre of mass [m] |
| `count_limit` | integer | `7` | [1, 20000000] | yes | Most items |"""


def test_renderer_on_hand_made_specs():
    """Types, unset defaults, ranges, choices, read-only flags, notes and escaping."""
    assert render_table(SPECS, {'gains': 'laws: `pid`'}) == EXPECTED


def test_renderer_infers_types_without_kind():
    """Without ``kind`` the type is the default's; bool before integer."""
    rows = render_table([ParamSpec('on', True, 'On'), ParamSpec('q0', [1, 2], 'Start'),
                         ParamSpec('paths', ['a'], 'Paths')]).splitlines()[2:]
    assert [r.split(' | ')[1] for r in rows] == ['bool', 'integer[]', 'string[]']
    assert rows[1].split(' | ')[2] == '`[1, 2]`' and rows[0].split(' | ')[2] == '`true`'


DOC = """\
# Title

Prose before; a quoted marker `<!-- params:controller:begin -->` is text.

<!-- params:controller:begin -->
| stale | table |
<!-- params:controller:end -->

Prose between.
<!-- params:hardware_interface:begin -->
<!-- params:hardware_interface:end -->
Prose after.
"""


def _fake(node):
    return f'| table of {node} |'


def test_rewrite_replaces_only_between_the_markers():
    """The tables are replaced, every other line is kept, and a second run changes nothing."""
    assert stale_tables(DOC, _fake) == ['controller', 'hardware_interface']
    out = rewrite(DOC, _fake)
    assert out == DOC.replace('| stale | table |', '| table of controller |').replace(
        '<!-- params:hardware_interface:begin -->\n',
        '<!-- params:hardware_interface:begin -->\n| table of hardware_interface |\n')
    assert rewrite(out, _fake) == out
    assert stale_tables(out, _fake) == []
    assert marked_nodes(out) == ['controller', 'hardware_interface']


@pytest.mark.parametrize('text, word', [
    ('<!-- params:no_such_node:begin -->\n<!-- params:no_such_node:end -->\n', 'unknown'),
    ('<!-- params:controller:begin -->\ntext\n', 'without its end'),
    ('text\n<!-- params:controller:end -->\n', 'without its begin'),
    ('<!-- params:controller:begin -->\n<!-- params:control_loop:begin -->\n', 'inside'),
    ('<!-- params:controller:begin -->\n<!-- params:controller:end -->\n' * 2, 'second'),
])
def test_rewrite_refuses_bad_markers(text, word):
    """Unknown nodes and unbalanced, nested or repeated markers are errors naming the line."""
    with pytest.raises(ParamDocsError, match=word):
        rewrite(text, _fake)


def test_cli_checks_and_rewrites_a_copy(tmp_path, capsys):
    """``robodyn docs params --check`` finds a stale table; without it the table is rewritten."""
    path = tmp_path / 'reference.md'
    text = _reference()
    begin = '<!-- params:parallel_dynamics_worker:begin -->\n'
    start = text.index(begin) + len(begin)
    path.write_text(text[:start] + '| old |\n' + text[text.index(
        '<!-- params:parallel_dynamics_worker:end -->'):], encoding='utf-8')
    assert main(['docs', 'params', '--check', '--file', str(path)]) == 1
    assert 'parallel_dynamics_worker differs' in capsys.readouterr().err
    assert main(['docs', 'params', '--file', str(path)]) == 0
    assert path.read_text(encoding='utf-8') == text
    assert main(['docs', 'params', '--check', '--file', str(path)]) == 0
    assert main(['docs', 'params', '--print', 'parallel_dynamics_worker']) == 0
    assert '| `threads` | integer | `1` | [1, 64] | no |' in capsys.readouterr().out
