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

"""Numeric evaluation of a :class:`~.expr.Graph` with numpy (for tests and checks)."""

import numpy as np


def npfunc(name):
    """Return the numpy function of a graph function name (callable)."""
    return {'tanh': np.tanh, 'exp': np.exp, 'fabs': np.abs, 'sqrt': np.sqrt,
            'hypot': np.hypot, 'max0': lambda x: np.maximum(x, 0.0),
            'min0': lambda x: np.minimum(x, 0.0), 'sign': np.sign}[name]


def evaluate(g, outputs, inputs):
    """
    Evaluate outputs of graph ``g`` numerically (numpy, vectorised over a batch).

    Parameters
    ----------
    g : Graph
        The graph.
    outputs : sequence of int
        Output nodes.
    inputs : dict
        Array name to array of shape (N, count) (or (count,)).

    Returns
    -------
    numpy.ndarray
        Shape (N, len(outputs)) (or (len(outputs),)).

    """
    values = {}
    shape = None
    for arr in inputs.values():
        shape = np.asarray(arr).shape[:-1]
    for a in g.program(outputs) + list(outputs):
        if a in values:
            continue
        values[a] = _eval_node(g, a, values, inputs)
    cols = []
    for o in outputs:
        v = values[o] if o in values else _leaf(g, o, inputs)
        cols.append(np.broadcast_to(np.asarray(v, dtype=float), shape))
    return np.stack(cols, axis=-1)


def _leaf(g, a, inputs):
    if g.op[a] == 'const':
        return g.val[a]
    name, idx = g.val[a]
    return np.asarray(inputs[name], dtype=float)[..., idx]


def _eval_node(g, a, values, inputs):
    op = g.op[a]
    if op in ('const', 'in'):
        return _leaf(g, a, inputs)
    x = [values[b] if b in values else _leaf(g, b, inputs) for b in g.args[a]]
    if op == 'add':
        return x[0] + x[1]
    if op == 'sub':
        return x[0] - x[1]
    if op == 'mul':
        return x[0] * x[1]
    if op == 'div':
        return x[0] / x[1]
    if op == 'neg':
        return -x[0]
    if op == 'sin':
        return np.sin(x[0])
    if op == 'cos':
        return np.cos(x[0])
    if op == 'sel':
        cond = x[0] > 0.0 if g.val[a] == 'gt' else x[0] < 0.0
        return np.where(cond, x[1], x[2])
    name = g.val[a]
    if name.startswith('interp'):
        xp, fp = g.tables[int(name[6:])]
        return np.interp(x[0], xp, fp)
    return npfunc(name)(*x)
