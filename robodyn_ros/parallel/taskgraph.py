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
Seed 004's task streamlining: the RNE of a robot as a layered graph of 3-flop subtasks.

Each body gets the 43 subtasks of seed 004 Table 4.1 (the modified
Newton-Euler algorithm of its Table 2.4: T1-T25 forward, T26-T43 backward);
Table 4.2 removes the subtasks that need no computation on the first link,
on the last link and on prismatic joints, and, for a *customized* graph,
Table 4.5 removes those that multiply zero elements of the position vectors
(the joint origins ``p`` and centres of mass ``s``, read from the model).
A removed subtask is contracted: whoever needed it needs its predecessors.
Every subtask counts 3 flops (multiplications and additions alike), the
thesis's unit; layers are the longest-path levels, so the number of layers
is the critical path (``4n + 3`` for a generic serial arm).

Beyond the thesis (which treats serial chains only): a body with several
children gets the per-child subtasks (T30, T31, T33-T35, T39, T40) once per
child, labelled ``<code>.<child>``; a prismatic joint's T18/T19 also wait
for its T3 (the Coriolis term ``2 w x z qd`` enters the linear
acceleration; the thesis does not say where).

Task codes follow the thesis: ``100 * link + subtask`` with 1-based links
(``'201'`` is T1 of link 2).
"""

from dataclasses import dataclass

from .subtasks import (FIRST_LINK, FLOPS_PER_TASK, LAST_LINK, PRISMATIC, raw_graph,
                       sparsity_removals)
from ..errors import InputError


@dataclass(frozen=True)
class Task:
    """
    One 3-flop subtask.

    Attributes
    ----------
    label : str
        Thesis code ``<link><subtask:02d>`` (1-based link), ``.<child>`` for
        the extra children of a branching body.
    link : int
        Body index (0-based).
    step : int
        Subtask number 1..43 (seed 004 Table 4.1).
    child : int
        Child body of a per-child subtask, else -1.
    preds : tuple of int
        Indices (into :attr:`TaskGraph.tasks`) of the tasks it waits for.
    layer : int
        Longest-path level, 1-based.

    """

    label: str
    link: int
    step: int
    child: int
    preds: tuple
    layer: int


@dataclass(frozen=True, eq=False)
class TaskGraph:
    """
    The layered task graph of one robot's inverse dynamics.

    Attributes
    ----------
    name : str
        What it describes (robot and kind).
    kind : str
        ``'generic'`` (Table 4.2 only), ``'customized'`` (Tables 4.2 and 4.5)
        or ``'table'`` (a task set transcribed from the thesis).
    n : int
        Number of links.
    parents : tuple of int
        Parent body of each body (-1: the base).
    prismatic : tuple of bool
        Prismatic joints.
    tasks : tuple of Task
        The subtasks that are computed, in generation order (link, step).
    removed : dict
        Label of every removed subtask -> reason.
    raw_preds : dict
        Label -> labels of its predecessors before contraction (all 43
        subtasks per link, removed ones included).

    """

    name: str
    kind: str
    n: int
    parents: tuple
    prismatic: tuple
    tasks: tuple
    removed: dict
    raw_preds: dict

    @property
    def size(self):
        """Subtask count (int), the schedule length on one processor."""
        return len(self.tasks)

    @property
    def flops(self):
        """Sequential work (int) [flop]: 3 per subtask."""
        return FLOPS_PER_TASK * len(self.tasks)

    @property
    def depth(self):
        """Layer count (int): the critical path in subtasks."""
        return max((t.layer for t in self.tasks), default=0)

    def layers(self):
        """
        Group the tasks by layer.

        Returns
        -------
        list of list of int
            Task indices of layers 1, 2, ... in generation order.

        """
        out = [[] for _ in range(self.depth)]
        for k, t in enumerate(self.tasks):
            out[t.layer - 1].append(k)
        return out

    @property
    def width(self):
        """Largest layer of the thesis's layering (int): the graph's concurrency."""
        from .layers import thesis_layers
        layers = thesis_layers(self)
        return max((layers.count(x) for x in set(layers)), default=0)

    def index(self, label):
        """
        Find a task by its label.

        Parameters
        ----------
        label : str
            Task code, e.g. ``'201'``.

        Returns
        -------
        int
            Index into :attr:`tasks`.

        """
        for k, t in enumerate(self.tasks):
            if t.label == label:
                return k
        raise KeyError(label)

    def __repr__(self):
        return (f'TaskGraph({self.name!r}, kind={self.kind!r}, n={self.n}, '
                f'tasks={self.size}, layers={self.depth}, width={self.width})')


def build_graph(parents, prismatic, removed, name, kind, table_rules=True):
    """
    Contract the removed subtasks and layer the rest.

    Parameters
    ----------
    parents : sequence of int
        Parent body of each body (-1: base).
    prismatic : sequence of bool
        Prismatic joints.
    removed : dict
        Label -> reason for the subtasks that are not computed.
    name : str
        Name of the graph.
    kind : str
        ``'generic'``, ``'customized'`` or ``'table'``.
    table_rules : bool
        Also remove the Table 4.2 subtasks (first link, last link,
        prismatic joints).

    Returns
    -------
    TaskGraph
        The graph.

    """
    parents = tuple(int(p) for p in parents)
    prismatic = tuple(bool(x) for x in prismatic)
    n = len(parents)
    if n == 0 or len(prismatic) != n:
        raise InputError('parents', f'need one parent and one joint type per link, got '
                                    f'{len(parents)} and {len(prismatic)}')
    if any(not -1 <= p < i for i, p in enumerate(parents)):
        raise InputError('parents', f'each parent must come before its child, got {parents}')
    raw, children = raw_graph(parents, prismatic)
    rules = {}
    for lab, (i, step, _, _) in raw.items():
        if not table_rules:
            break
        if parents[i] < 0 and step in FIRST_LINK:
            rules[lab] = 'first link (Table 4.2)'
        elif not children[i] and step in LAST_LINK:
            rules[lab] = 'last link (Table 4.2)'
        elif prismatic[i] and step in PRISMATIC:
            rules[lab] = 'prismatic joint (Table 4.2)'
    for lab, reason in removed.items():
        if lab in raw:
            rules.setdefault(lab, reason)
    kept = [lab for lab in raw if lab not in rules]
    effective = {}

    def eff(lab):
        # Kept predecessors of a subtask, looking through removed ones.
        if lab not in effective:
            out = []
            for pred in raw[lab][3]:
                if pred in rules:
                    out.extend(x for x in eff(pred) if x not in out)
                elif pred not in out:
                    out.append(pred)
            effective[lab] = out
        return effective[lab]

    position = {lab: k for k, lab in enumerate(kept)}
    layer = {}

    def level(lab):
        # Longest-path level (the graph is acyclic: forward edges go down the
        # tree, backward edges up it).
        if lab not in layer:
            layer[lab] = 1 + max((level(x) for x in eff(lab)), default=0)
        return layer[lab]

    tasks = []
    for lab in kept:
        preds = tuple(sorted(position[x] for x in eff(lab)))
        i, step, child, _ = raw[lab]
        tasks.append(Task(lab, i, step, child, preds, level(lab)))
    return TaskGraph(name, kind, n, parents, prismatic, tuple(tasks), dict(rules),
                     {lab: v[3] for lab, v in raw.items()})


def generic_graph(n, prismatic=()):
    """
    Task graph of a generic serial arm (seed 004's generic case).

    Parameters
    ----------
    n : int
        Number of links (>= 1).
    prismatic : sequence of int
        0-based indices of prismatic joints (default none).

    Returns
    -------
    TaskGraph
        ``43 n - 27`` subtasks and ``4 n + 3`` layers for a revolute arm
        with ``n >= 2``.

    """
    n = int(n)
    if n < 1:
        raise InputError('n', f'need at least one link, got {n}')
    kinds = [i in set(prismatic) for i in range(n)]
    return build_graph(list(range(-1, n - 1)), kinds, {}, f'generic {n}-link arm', 'generic')


def task_graph(model, customized=False):
    """
    Task graph of a robot model's inverse dynamics.

    Parameters
    ----------
    model : RobotModel
        Any tree of revolute and prismatic joints.
    customized : bool
        Also remove the subtasks that multiply zero elements of the model's
        joint origins and centres of mass (Table 4.5).

    Returns
    -------
    TaskGraph
        The graph.

    """
    parents = [j.parent for j in model.joints]
    prismatic = [j.is_prismatic for j in model.joints]
    removed = {}
    if customized:
        _, children = raw_graph(parents, prismatic)
        removed = sparsity_removals(model, children)
    kind = 'customized' if customized else 'generic'
    return build_graph(parents, prismatic, removed, f'{model.name} ({kind})', kind)


def table_graph(parents, prismatic, labels, name):
    """
    Task graph restricted to a transcribed set of subtasks (e.g. seed 004 Table 4.7).

    Parameters
    ----------
    parents, prismatic : sequence
        Structure of the arm.
    labels : iterable of str
        Codes of the subtasks that are computed (Table 4.2 is not applied:
        the transcription decides).
    name : str
        Name of the graph.

    Returns
    -------
    TaskGraph
        The graph; every other subtask is contracted.

    """
    raw, _ = raw_graph(tuple(int(p) for p in parents), tuple(bool(x) for x in prismatic))
    keep = set(labels)
    unknown = keep - set(raw)
    if unknown:
        raise InputError('labels', f'not subtasks of this arm: {sorted(unknown)}')
    removed = {lab: 'not in the transcribed task set' for lab in raw if lab not in keep}
    return build_graph(parents, prismatic, removed, name, 'table', table_rules=False)
