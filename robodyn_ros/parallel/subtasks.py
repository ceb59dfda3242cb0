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
Seed 004's 43 subtasks per link: their precedences (Table 4.1) and removal rules (Tables 4.2, 4.5).

Task codes follow the thesis: ``100 * link + subtask`` with 1-based links
(``'201'`` is T1 of link 2); the extra children of a branching body get
their per-child subtasks as ``<code>.<child>``.
"""

import numpy as np

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


def raw_graph(parents, prismatic):
    """
    Return every body's subtasks with Table 4.1's precedences.

    Parameters
    ----------
    parents : sequence of int
        Parent of each body (-1: base).
    prismatic : sequence of bool
        Prismatic joints.

    Returns
    -------
    tuple
        ``(raw, children)``: label -> ``(link, step, child, preds)`` and the
        children of each body.

    """
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


def sparsity_removals(model, children):
    """
    Apply Table 4.5 to a model's joint origins and centres of mass.

    Parameters
    ----------
    model : RobotModel
        The robot.
    children : sequence of sequence of int
        Children of each body.

    Returns
    -------
    dict
        Label of each removed subtask -> reason.

    """
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
