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

"""Seed 004's task graph: subtask counts, removals, contraction, layers."""

import collections
import math

import numpy as np
import pytest
from robodyn_ros.errors import InputError
from robodyn_ros.model import load_robot, RobotModel
from robodyn_ros.parallel.layers import thesis_layers
from robodyn_ros.parallel.taskgraph import generic_graph, table_graph, task_graph
from robodyn_ros.reproductions import parallel_figures as ref


@pytest.mark.parametrize('n', range(2, 11))
def test_generic_counts_and_critical_path(n):
    """43n - 27 subtasks (Table 4.2 on 43 per link) and 4n + 3 layers (Sec. 4.3.1)."""
    g = generic_graph(n)
    assert g.size == 43 * n - 27
    assert g.flops == 3 * g.size
    assert g.depth == 4 * n + 3
    # Layers are the longest path: every task is one level after its latest predecessor.
    for t in g.tasks:
        assert t.layer == 1 + max((g.tasks[p].layer for p in t.preds), default=0)


def test_generic_six_links_matches_table_4_3():
    """231 subtasks, 27 layers, 13 concurrent subtasks in layers 5, 7 and 9 (Table 4.3)."""
    g = generic_graph(6)
    assert (g.size, g.depth, g.width) == (ref.DHANARAJ_GENERIC_SHAPE['tasks'],
                                          ref.DHANARAJ_GENERIC_SHAPE['layers'],
                                          ref.DHANARAJ_GENERIC_SHAPE['width'])
    layers = thesis_layers(g)
    counts = collections.Counter(layers)
    assert sorted(k for k, v in counts.items() if v == 13) == [5, 7, 9]
    assert max(layers) == 27
    by_layer = collections.defaultdict(set)
    for t, lay in zip(g.tasks, layers):
        by_layer[lay].add(t.label)
    # Rows of Table 4.3 that do not involve link 1 (whose set the thesis prints inconsistently).
    assert by_layer[5] == set('218 219 220 221 222 306 307 308 312 313 314 401 402'.split())
    assert by_layer[15] == set('626 627 628 629'.split())
    assert by_layer[27] == {'141', '142', '143'}


def test_table_4_2_removals():
    """Of the 43 subtasks, the first link keeps 24, the last 35, a prismatic link 34."""
    g = generic_graph(6)
    per_link = collections.Counter(t.link for t in g.tasks)
    assert per_link == {0: 43 - 19, 1: 43, 2: 43, 3: 43, 4: 43, 5: 43 - 8}
    assert sum(1 for r in g.removed.values() if r.startswith('first link')) == 19
    gp = generic_graph(6, prismatic=[2])
    assert collections.Counter(t.link for t in gp.tasks)[2] == 43 - 9
    assert sum(1 for r in gp.removed.values() if r.startswith('prismatic')) == 9


def _raw_reachable(graph, label, kept):
    """Kept tasks a task depends on, following the uncontracted precedences."""
    out, stack, seen = set(), list(graph.raw_preds[label]), set()
    while stack:
        x = stack.pop()
        if x in seen:
            continue
        seen.add(x)
        if x in kept:
            out.add(x)
        else:
            stack.extend(graph.raw_preds[x])
    return out


@pytest.mark.parametrize('robot', ['stanford', 'puma560', 'panda'])
def test_contraction_keeps_every_dependency(robot):
    """Each kept task waits for every kept task it reaches through removed ones."""
    g = task_graph(load_robot(robot), customized=True)
    kept = {t.label for t in g.tasks}
    for t in g.tasks:
        preds = {g.tasks[p].label for p in t.preds}
        reach = _raw_reachable(g, t.label, kept)
        assert reach <= _closure(g, preds), (t.label, reach - preds)


def _closure(g, labels):
    out, stack = set(), list(labels)
    while stack:
        lab = stack.pop()
        if lab in out:
            continue
        out.add(lab)
        stack.extend(g.tasks[p].label for p in g.tasks[g.index(lab)].preds)
    return out


def _dh_model(com_zero, offsets):
    links = []
    for i in range(4):
        links.append({'a': offsets[i][0], 'alpha': offsets[i][1], 'd': offsets[i][2],
                      'theta': 0.0, 'joint': 'R', 'mass': 1.0 + i,
                      'com': [0.0, 0.0, 0.0] if i in com_zero else [0.1, 0.05, -0.02],
                      'inertia': [0.1, 0.2, 0.3]})
    return RobotModel.from_dh(links, convention='modified')


def test_customized_removes_zero_position_terms():
    """Table 4.5: a zero centre of mass removes T20-T25 and T36-T38 of that link."""
    offsets = [(0.0, 0.0, 0.0), (0.3, 0.0, 0.1), (0.2, 0.5, 0.1), (0.1, -0.4, 0.2)]
    full = task_graph(_dh_model((), offsets), customized=True)
    sparse = task_graph(_dh_model((2,), offsets), customized=True)
    gone = {t.label for t in full.tasks} - {t.label for t in sparse.tasks}
    assert gone == {f'3{s:02d}' for s in (20, 21, 22, 23, 24, 25, 36, 37, 38)}
    generic = task_graph(_dh_model((2,), offsets), customized=False)
    assert generic.size == 43 * 4 - 27


def test_customized_position_vector_zeros_follow_table_4_5():
    """A joint origin with 2 zero components keeps only T16, T17 of its link and T35 above."""
    offsets = [(0.0, 0.0, 0.0), (0.0, 0.0, 0.25), (0.2, 0.5, 0.1), (0.1, -0.4, 0.2)]
    g = task_graph(_dh_model((), offsets), customized=True)
    labels = {t.label for t in g.tasks}
    # Link 2's origin in link 1 is (0, 0, 0.25): two zeros.
    assert {'212', '213', '214', '215'}.isdisjoint(labels) and {'216', '217'} <= labels
    assert {'133', '134'}.isdisjoint(labels) and '135' in labels


def test_stanford_table_4_7_graph():
    """The transcribed Table 4.7 set: 156 subtasks, concurrency 9 as the thesis says."""
    g = table_graph(ref.TABLE_4_7_PARENTS, ref.TABLE_4_7_PRISMATIC, ref.TABLE_4_7, 'Table 4.7')
    assert g.size == ref.DHANARAJ_STANFORD_SHAPE['tasks'] == 156
    assert g.width == ref.DHANARAJ_STANFORD_SHAPE['width']
    # Our contraction gives a critical path of 25 layers; the thesis kept its 27-layer grid.
    assert g.depth <= ref.DHANARAJ_STANFORD_SHAPE['layers']
    with pytest.raises(InputError):
        table_graph(ref.TABLE_4_7_PARENTS, ref.TABLE_4_7_PRISMATIC, ['999'], 'bad')


def test_tree_gets_per_child_subtasks():
    """Panda: the hand body has two finger children, each with its own T30-T40 subtasks."""
    model = load_robot('panda')
    g = task_graph(model, customized=False)
    hand = [i for i in range(model.n) if sum(j.parent == i for j in model.joints) == 2][0]
    labels = {t.label for t in g.tasks}
    second = [c for c in range(model.n) if model.joints[c].parent == hand][1]
    assert f'{hand + 1}30.{second + 1}' in labels and f'{hand + 1}30' in labels
    assert g.depth >= 4 * 7 + 3  # the 7-joint arm's chain plus a finger


def test_bad_structure_is_refused():
    """Parents after their children or mismatched lengths give InputError."""
    from robodyn_ros.parallel.taskgraph import build_graph
    with pytest.raises(InputError):
        build_graph([1, -1], [False, False], {}, 'x', 'generic')
    with pytest.raises(InputError):
        build_graph([-1, 0], [False], {}, 'x', 'generic')
    with pytest.raises(InputError):
        generic_graph(0)


def test_flops_per_level_cost_model_of_table_4_8():
    """Table 4.8's 'present work' times are levels x 0.135 ms (a model, not a measurement)."""
    for p, ms in ref.DHANARAJ_STANFORD_MS.items():
        assert math.isclose(ref.DHANARAJ_STANFORD_LENGTHS[p] * ref.DHANARAJ_LEVEL_TIME * 1e3, ms,
                            abs_tol=0.011)
    assert np.isclose(ref.DHANARAJ_LEVEL_TIME, 0.135e-3, rtol=1e-3)
