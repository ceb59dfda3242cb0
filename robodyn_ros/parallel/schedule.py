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
Seed 004's layer-priority list scheduler on p processors (Sec. 4.3.3, Fig. 4.10).

Static, non-preemptive, unit-time tasks, a global barrier after every cycle
("level"): each cycle scans the unscheduled tasks in priority order and
starts up to p of those whose predecessors all finished in earlier cycles.
The priority is the thesis's layering
(:func:`~robodyn_ros.parallel.taskgraph.thesis_layers`); within a layer the
task with the least slack (earliest as-late-as-possible level) goes first.
"""

from dataclasses import dataclass

from .layers import thesis_layers
from .subtasks import FLOPS_PER_TASK
from ..errors import InputError


@dataclass(frozen=True, eq=False)
class Schedule:
    """
    A list schedule of a task graph.

    Attributes
    ----------
    graph : TaskGraph
        The scheduled graph.
    processors : int
        Number of processors p.
    levels : tuple of tuple of int
        Per level (cycle), the task indices run on processors 0, 1, ...

    """

    graph: object
    processors: int
    levels: tuple

    @property
    def length(self):
        """Schedule length in levels (int); each level is one 3-flop subtask time."""
        return len(self.levels)

    @property
    def speedup(self):
        """Speed-up ``S_p = T_1 / T_p`` (float), T_1 = number of subtasks."""
        return self.graph.size / self.length if self.length else 1.0

    @property
    def efficiency(self):
        """Efficiency ``E_p = S_p / p`` (float)."""
        return self.speedup / self.processors

    @property
    def flops(self):
        """Parallel time (int) [flop]: 3 per level."""
        return FLOPS_PER_TASK * self.length

    def modelled_time(self, level_time):
        """
        Modelled run time.

        Parameters
        ----------
        level_time : float
            Time of one level [s] (seed 004 Table 4.8: 0.135 ms on an 8086).

        Returns
        -------
        float
            ``length * level_time`` [s].

        """
        return self.length * float(level_time)

    def check(self):
        """
        Verify the schedule: every task once, predecessors in earlier levels, <= p per level.

        Raises
        ------
        AssertionError
            Naming the first violation.

        """
        where = {}
        for lev, tasks in enumerate(self.levels):
            if len(tasks) > self.processors:
                raise AssertionError(f'level {lev + 1} runs {len(tasks)} tasks on '
                                     f'{self.processors} processors')
            for k in tasks:
                if k in where:
                    raise AssertionError(f'task {self.graph.tasks[k].label} runs twice')
                where[k] = lev
        missing = set(range(self.graph.size)) - set(where)
        if missing:
            raise AssertionError(f'tasks never run: '
                                 f'{sorted(self.graph.tasks[k].label for k in missing)}')
        for k, lev in where.items():
            for pred in self.graph.tasks[k].preds:
                if where[pred] >= lev:
                    raise AssertionError(
                        f'task {self.graph.tasks[k].label} at level {lev + 1} before its '
                        f'predecessor {self.graph.tasks[pred].label} (level {where[pred] + 1})')

    def rows(self):
        """
        Gantt chart as text rows.

        Returns
        -------
        list of list of str
            Per level, the task code on each processor (``'-'`` when idle).

        """
        out = []
        for tasks in self.levels:
            row = [self.graph.tasks[k].label for k in tasks]
            out.append(row + ['-'] * (self.processors - len(row)))
        return out

    def __repr__(self):
        return (f'Schedule(p={self.processors}, length={self.length}, '
                f'speedup={self.speedup:.3f}, efficiency={self.efficiency:.3f})')


def _successors(graph):
    succ = [[] for _ in graph.tasks]
    for k, t in enumerate(graph.tasks):
        for pred in t.preds:
            succ[pred].append(k)
    return succ


def alap_levels(graph):
    """
    As-late-as-possible level of every task (same critical path as the layers).

    Parameters
    ----------
    graph : TaskGraph
        The graph.

    Returns
    -------
    list of int
        1-based levels.

    """
    depth = graph.depth
    succ = _successors(graph)
    level = {}
    order = sorted(range(graph.size), key=lambda k: -graph.tasks[k].layer)
    for k in order:
        level[k] = min((level[s] for s in succ[k]), default=depth + 1) - 1
    return [level[k] for k in range(graph.size)]


def priorities(graph):
    """
    Priority key of every task: (thesis layer, ALAP level, generation order).

    Parameters
    ----------
    graph : TaskGraph
        The graph.

    Returns
    -------
    list of tuple
        Smaller is scheduled first.

    """
    layers = thesis_layers(graph)
    late = alap_levels(graph)
    return [(layers[k], late[k], k) for k in range(graph.size)]


def list_schedule(graph, processors):
    """
    Schedule a task graph on p processors with seed 004's heuristic.

    Parameters
    ----------
    graph : TaskGraph
        The graph.
    processors : int
        Number of processors p (>= 1).

    Returns
    -------
    Schedule
        The schedule.

    """
    p = int(processors)
    if p < 1:
        raise InputError('processors', f'need at least one processor, got {processors}')
    key = priorities(graph)
    pending = sorted(range(graph.size), key=lambda k: key[k])
    finished = [None] * graph.size
    levels = []
    while pending:
        cycle = len(levels)
        chosen = []
        for k in pending:
            if all(finished[x] is not None and finished[x] < cycle
                   for x in graph.tasks[k].preds):
                chosen.append(k)
                if len(chosen) == p:
                    break
        if not chosen:
            raise InputError('graph', 'has a cycle: no task is ready')
        for k in chosen:
            finished[k] = cycle
        taken = set(chosen)
        pending = [k for k in pending if k not in taken]
        levels.append(tuple(chosen))
    return Schedule(graph, p, tuple(levels))
