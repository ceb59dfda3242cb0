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

"""Seed 004's list scheduler: validity, lengths against the thesis, bounds."""

import math

import numpy as np
import pytest
from robodyn_ros.errors import InputError
from robodyn_ros.model import load_robot
from robodyn_ros.parallel.schedule import alap_levels, list_schedule, Schedule
from robodyn_ros.parallel.taskgraph import build_graph, generic_graph, table_graph, task_graph
from robodyn_ros.reproductions import parallel_figures as ref


def test_generic_six_links_lengths_match_the_thesis():
    """116/58/47/39/34/31/30/27 levels for p = 2, 4..9, 13; 77 at p = 3 (thesis: 78)."""
    g = generic_graph(6)
    lengths = {p: list_schedule(g, p).length for p in range(1, 14)}
    for p, thesis in ref.DHANARAJ_GENERIC_LENGTHS.items():
        if p == 3:
            # The thesis's C.2 has 78 levels and a duplicated task; 77 = ceil(231/3) is optimal.
            assert lengths[p] == 77 == math.ceil(231 / 3)
        else:
            assert lengths[p] == thesis, p
    s13 = list_schedule(g, 13)
    assert math.isclose(s13.speedup, 231 / 27) and math.isclose(s13.efficiency, 231 / 27 / 13)
    assert round(100 * s13.efficiency, 2) == 65.81


def test_stanford_table_4_7_never_longer_than_the_thesis():
    """On the Table 4.7 set: equal to Appendix C for p = 3, 4, 5, 7, shorter elsewhere."""
    g = table_graph(ref.TABLE_4_7_PARENTS, ref.TABLE_4_7_PRISMATIC, ref.TABLE_4_7, 'T4.7')
    for p, thesis in ref.DHANARAJ_STANFORD_LENGTHS.items():
        s = list_schedule(g, p)
        s.check()
        assert s.length <= thesis, p
        if p in (1, 3, 4, 5, 7):
            assert s.length == thesis, p


def _random_tree(rng, n):
    parents = [-1] + [int(rng.integers(0, i)) for i in range(1, n)]
    return parents, [bool(rng.random() < 0.25) for _ in range(n)]


@pytest.mark.parametrize('seed', range(6))
def test_every_schedule_is_valid_and_within_bounds(seed):
    """Random trees, random p: each task once, predecessors first, T_p >= max(T_1/p, depth)."""
    rng = np.random.default_rng(seed)
    parents, prismatic = _random_tree(rng, int(rng.integers(2, 9)))
    g = build_graph(parents, prismatic, {}, 'random', 'generic')
    for p in (1, 2, 3, 5, 8, 16):
        s = list_schedule(g, p)
        s.check()
        assert s.length >= max(math.ceil(g.size / p), g.depth)
        assert all(len(level) <= p for level in s.levels)
    assert list_schedule(g, 1).length == g.size
    assert list_schedule(g, g.size).length == g.depth


@pytest.mark.parametrize('robot', ['puma560', 'ur5', 'panda', 'stanford', 'ma3000'])
def test_robot_schedules_are_valid(robot):
    """Generic and customized graphs of every test robot schedule validly on 1..13."""
    for customized in (False, True):
        g = task_graph(load_robot(robot), customized)
        for p in range(1, 14):
            s = list_schedule(g, p)
            s.check()
            assert s.length >= g.depth


def test_check_detects_broken_schedules():
    """A missing task, a duplicate, a precedence violation and an overfull level all raise."""
    g = generic_graph(3)
    good = list_schedule(g, 2)
    levels = [list(x) for x in good.levels]
    cases = []
    cases.append(list(levels[:-1]))                                # last level dropped
    dup = [list(x) for x in levels]
    dup[-1] = dup[-1] + [dup[0][0]]
    cases.append(dup)                                              # task twice, 3 on p=2
    swap = [list(x) for x in levels]
    swap[0], swap[-1] = swap[-1], swap[0]
    cases.append(swap)                                             # order violated
    for bad in cases:
        with pytest.raises(AssertionError):
            Schedule(g, 2, tuple(tuple(x) for x in bad)).check()


def test_alap_levels_are_feasible():
    """As-late-as-possible levels respect precedence and end at the critical path."""
    g = generic_graph(6)
    late = alap_levels(g)
    assert max(late) == g.depth
    for k, t in enumerate(g.tasks):
        assert all(late[p] < late[k] for p in t.preds)
        assert late[k] >= t.layer


def test_rows_and_modelled_time():
    """The Gantt rows hold every task once; modelled time is levels x level time."""
    s = list_schedule(generic_graph(4), 3)
    rows = s.rows()
    labels = [x for row in rows for x in row if x != '-']
    assert sorted(labels) == sorted(t.label for t in s.graph.tasks)
    assert math.isclose(s.modelled_time(ref.DHANARAJ_LEVEL_TIME), s.length * 0.135e-3,
                        rel_tol=1e-3)
    assert s.flops == 3 * s.length


def test_bad_processor_count():
    """A processor count below 1 is refused."""
    with pytest.raises(InputError):
        list_schedule(generic_graph(2), 0)
