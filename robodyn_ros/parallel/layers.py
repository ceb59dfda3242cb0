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
Seed 004's layering of a task graph (Table 4.3).

Each link's forward subtasks sit in a six-layer block and its backward ones
in a three-layer block, every block as early as the other links allow; the
list scheduler uses these layers as its priority.
"""

#: Layer offsets of the forward subtasks inside a link's block (Table 4.3).
FORWARD_OFFSET = {1: 0, 2: 0, 3: 1, 4: 1, 5: 1, 6: 2, 7: 2, 8: 2, 12: 2, 13: 2, 14: 2,
                  9: 3, 10: 3, 11: 3, 15: 3, 16: 3, 17: 3, 18: 4, 19: 4, 20: 4, 21: 4, 22: 4,
                  23: 5, 24: 5, 25: 5}
#: Layer offsets of the backward subtasks (B1 = T26-T31, B2 = T32-T40, B3 = T41-T43).
BACKWARD_OFFSET = dict([(s, 0) for s in range(26, 32)] + [(s, 1) for s in range(32, 41)]
                       + [(s, 2) for s in (41, 42, 43)])


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
