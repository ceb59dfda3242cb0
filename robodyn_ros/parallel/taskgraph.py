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

import numpy as np

from ..errors import InputError

#: Subtasks per link (seed 004 Table 4.1).
STEPS = 43
#: Subtasks done once per child body (the backward terms of the child).
PER_CHILD = (30, 31, 33, 34, 35, 39, 40)
#: Flops per subtask (seed 004 Sec. 4.3: uniform 3-flop subtasks).
FLOPS_PER_TASK = 3

#: Table 4.2: subtasks that need no computation.
FIRST_LINK = frozenset((1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17, 18, 26, 27))
LAST_LINK = frozenset((30, 31, 32, 33, 34, 35, 39, 40))
PRISMATIC = frozenset((1, 2, 4, 5, 7, 8, 9, 10, 11))

#: Table 4.5: subtasks removed by 1, 2, 3 zero elements of a position vector.
SPARSE_P_IN = {0: (), 1: (12, 13), 2: (12, 13, 14, 15), 3: (12, 13, 14, 15, 16, 17)}
SPARSE_S_ACC = {0: (), 1: (20, 21), 2: (20, 21, 22, 23), 3: (20, 21, 22, 23, 24, 25)}
SPARSE_P_OUT = {0: (), 1: (33,), 2: (33, 34), 3: (33, 34, 35)}
SPARSE_S_MOM = {0: (), 1: (36,), 2: (36, 37), 3: (36, 37, 38)}

#: Zero threshold for the sparsity of position vectors [m].
ZERO = 1e-12

#: Layer offsets of the forward subtasks inside a link's block (Table 4.3).
FORWARD_OFFSET = {1: 0, 2: 0, 3: 1, 4: 1, 5: 1, 6: 2, 7: 2, 8: 2, 12: 2, 13: 2, 14: 2,
                  9: 3, 10: 3, 11: 3, 15: 3, 16: 3, 17: 3, 18: 4, 19: 4, 20: 4, 21: 4, 22: 4,
                  23: 5, 24: 5, 25: 5}
#: Layer offsets of the backward subtasks (B1 = T26-T31, B2 = T32-T40, B3 = T41-T43).
BACKWARD_OFFSET = dict([(s, 0) for s in range(26, 32)] + [(s, 1) for s in range(32, 41)]
                       + [(s, 2) for s in (41, 42, 43)])


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


def label(link, step, child=None, first_child=None):
    """
    Thesis code of a subtask.

    Parameters
    ----------
    link : int
        Body index (0-based).
    step : int
        Subtask number 1..43.
    child : int, optional
        Child body of a per-child subtask.
    first_child : int, optional
        The body's first child (which gets the plain code).

    Returns
    -------
    str
        E.g. ``'230'`` or ``'230.8'``.

    """
    code = f'{link + 1}{step:02d}'
    if child is not None and child != first_child:
        code += f'.{child + 1}'
    return code


def _raw_graph(parents, prismatic):
    """Return every body's subtasks with Table 4.1's precedences (label -> record)."""
    n = len(parents)
    children = [[c for c in range(n) if parents[c] == i] for i in range(n)]
    raw = {}
    for i in range(n):
        p = parents[i]
        first = children[i][0] if children[i] else None

        def own(*steps, i=i):
            return [label(i, s) for s in steps]

        def par(*steps, p=p):
            return [label(p, s) for s in steps] if p >= 0 else []

        def put(step, preds, child=None):
            raw[label(i, step, child, first)] = (i, step, -1 if child is None else child,
                                                 tuple(preds))

        for s in (1, 2):
            put(s, par(1, 2, 3))
        put(3, own(1, 2))
        for s in (4, 5):
            put(s, par(6))
        put(6, own(3, 4, 5))
        put(7, own(1, 2, 3))
        put(8, own(1, 2, 3))
        put(9, own(8))
        put(10, own(6, 7))
        put(11, own(6, 7))
        for s in (12, 13, 14):
            put(s, par(9, 10, 11))
        for s in (15, 16, 17):
            put(s, par(18, 19) + own(12, 13, 14))
        for s in (18, 19):
            put(s, own(15, 16, 17) + (own(3) if prismatic[i] else []))
        for s in (20, 21, 22):
            put(s, own(9, 10, 11))
        for s in (23, 24, 25):
            put(s, own(18, 19, 20, 21, 22))
        put(26, own(23, 24, 25))
        for s in (27, 28, 29):
            put(s, own(6, 7))
        child_f, child_n = [], []
        for c in children[i]:
            f_c = [label(i, 30, c, first), label(i, 31, c, first)]
            for s in (30, 31):
                put(s, [label(c, 32)], c)
            for s in (33, 34, 35):
                put(s, f_c, c)
            for s in (39, 40):
                put(s, [label(c, 41), label(c, 42), label(c, 43)], c)
            child_f += f_c
            child_n += [label(i, s, c, first) for s in (33, 34, 35, 39, 40)]
        put(32, own(26) + child_f)
        for s in (36, 37, 38):
            put(s, own(26))
        for s in (41, 42, 43):
            put(s, own(27, 28, 29) + child_n + own(36, 37, 38))
    return raw, children


def _zeros(vec):
    return int(np.sum(np.abs(np.asarray(vec, dtype=float)) < ZERO))


def _sparsity_removals(model, children):
    """Table 4.5 applied to the model's joint origins and centres of mass: label -> reason."""
    out = {}
    for i, joint in enumerate(model.joints):
        first = children[i][0] if children[i] else None
        p_in = np.abs(joint.translation) >= ZERO
        if joint.is_prismatic:
            p_in = p_in | (np.abs(joint.rotation @ joint.axis) >= ZERO)
        z_in = 3 - int(np.sum(p_in))
        z_s = _zeros(model.inertials[i].com)
        for step in SPARSE_P_IN[z_in]:
            out[label(i, step)] = f'{z_in} zero element(s) in p of link {i + 1}'
        for step in SPARSE_S_ACC[z_s] + SPARSE_S_MOM[z_s]:
            out[label(i, step)] = f'{z_s} zero element(s) in s of link {i + 1}'
        for c in children[i]:
            cj = model.joints[c]
            p_out = np.abs(cj.translation) >= ZERO
            if cj.is_prismatic:
                p_out = p_out | (np.abs(cj.rotation @ cj.axis) >= ZERO)
            z_out = 3 - int(np.sum(p_out))
            for step in SPARSE_P_OUT[z_out]:
                out[label(i, step, c, first)] = (f'{z_out} zero element(s) in p of link '
                                                 f'{c + 1} (in link {i + 1})')
    return out


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
    raw, children = _raw_graph(parents, prismatic)
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
        _, children = _raw_graph(parents, prismatic)
        removed = _sparsity_removals(model, children)
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
    raw, _ = _raw_graph(tuple(int(p) for p in parents), tuple(bool(x) for x in prismatic))
    keep = set(labels)
    unknown = keep - set(raw)
    if unknown:
        raise InputError('labels', f'not subtasks of this arm: {sorted(unknown)}')
    removed = {lab: 'not in the transcribed task set' for lab in raw if lab not in keep}
    return build_graph(parents, prismatic, removed, name, 'table', table_rules=False)


def thesis_layers(graph):
    """
    Seed 004's layering: fixed per-link blocks, each as early as the other links allow.

    Forward subtasks sit at their Table 4.3 offsets inside a six-layer block
    per link; backward ones in a three-layer block (T26-T31, T32-T40,
    T41-T43). Blocks are placed from the base outwards (forward) and from
    the tips inwards (backward). A final pass moves any task that would not
    follow its predecessors (possible after contractions) behind them.

    Parameters
    ----------
    graph : TaskGraph
        The graph.

    Returns
    -------
    list of int
        1-based layer of every task.

    """
    tasks = graph.tasks
    layer = [0] * graph.size
    blocks = {}
    for k, t in enumerate(tasks):
        blocks.setdefault((t.link, t.step >= 26), []).append(k)

    def place(members, offsets, outside):
        # A block may start before layer 1 as long as each of its tasks lands
        # on layer 1 or later (the first link's few tasks, Table 4.3).
        start = None
        for k in members:
            ext = [layer[x] for x in tasks[k].preds if outside(tasks[x])]
            need = 1 + max(ext, default=0) - offsets[tasks[k].step]
            start = need if start is None else max(start, need)
        for k in members:
            layer[k] = start + offsets[tasks[k].step]

    for link in range(graph.n):
        members = blocks.get((link, False), [])
        place(members, FORWARD_OFFSET, lambda t, i=link: t.link != i)
    for link in range(graph.n - 1, -1, -1):
        members = blocks.get((link, True), [])
        place(members, BACKWARD_OFFSET, lambda t, i=link: t.link != i or t.step < 26)
    for k in sorted(range(graph.size), key=lambda k: tasks[k].layer):
        layer[k] = max(layer[k], 1 + max((layer[x] for x in tasks[k].preds), default=0))
    return layer
