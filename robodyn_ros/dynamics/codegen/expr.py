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
A hash-consed scalar expression DAG that propagates zeros and ones.

Every node is an int index into the :class:`Graph`. Building a node applies
the customization rules of seed 002 and seed 001 §1.7 on the fly: a product
with 0 is 0, a product with +-1 is the operand (or its negation), a sum with
0 is the other operand, constants are folded (also ``c1 * (c2 * x)``),
negations are pulled outwards so that ``a + (-b)`` becomes ``a - b`` and
``(-a) * b`` shares ``a * b``. Identical expressions are the same node
(hash-consing), so common subexpressions are shared by construction; dead
nodes are dropped when a program is extracted (:meth:`Graph.program`).
"""

import math

#: Node kinds that cost one multiplication, one addition, ... in the counts.
COUNT_KEYS = ('mul', 'add', 'neg', 'div', 'sincos', 'func', 'select')

_COMMUTATIVE = ('add', 'mul')


class Graph:
    """
    Scalar expression DAG with hash-consing and zero/one propagation.

    Node kinds: ``const`` (value), ``in`` (array name, index), ``sin``,
    ``cos``, ``add``, ``sub``, ``mul``, ``div``, ``neg``, ``fn`` (a named
    function such as ``tanh``, ``exp``, ``fabs``, ``hypot``, ``max0``,
    ``min0``, ``sign`` or a piecewise-linear table ``interp<k>``) and ``sel``
    (``c > 0 ? a : b`` or ``c < 0 ? a : b``).
    """

    def __init__(self):
        self.op = []
        self.args = []
        self.val = []
        self._index = {}
        self.tables = []
        self.zero = self.const(0.0)
        self.one = self.const(1.0)

    # ------------------------------------------------------------------ basics
    def _node(self, op, args=(), val=None):
        key = (op, args, val)
        idx = self._index.get(key)
        if idx is None:
            idx = len(self.op)
            self.op.append(op)
            self.args.append(args)
            self.val.append(val)
            self._index[key] = idx
        return idx

    def const(self, value):
        """
        Return the node of a constant.

        Parameters
        ----------
        value : float
            The number (``-0.0`` is stored as ``0.0``).

        Returns
        -------
        int
            Node index.

        """
        value = float(value)
        if value == 0.0:
            value = 0.0
        return self._node('const', (), value)

    def var(self, name, index):
        """
        Return the node of one input entry, e.g. ``q[2]``.

        Parameters
        ----------
        name : str
            Input array name (a C identifier).
        index : int
            Entry index.

        Returns
        -------
        int
            Node index.

        """
        return self._node('in', (), (name, int(index)))

    def find_var(self, name, index):
        """
        Return the node of an input entry if the graph holds it.

        Unlike :meth:`var` this never adds a node.

        Parameters
        ----------
        name : str
            Input array name.
        index : int
            Entry index.

        Returns
        -------
        int or None
            Node index, or None when no expression uses that entry.

        """
        return self._index.get(('in', (), (name, int(index))))

    def var_array(self, name, count):
        """
        Return the nodes of a whole input array.

        Parameters
        ----------
        name : str
            Input array name.
        count : int
            Number of entries.

        Returns
        -------
        list of int
            Node indices.

        """
        return [self.var(name, i) for i in range(count)]

    def value(self, a):
        """Return the value of constant node ``a`` (float), None otherwise."""
        return self.val[a] if self.op[a] == 'const' else None

    # ------------------------------------------------------------------ arithmetic
    def neg(self, a):
        """Return ``-a`` (node)."""
        op = self.op[a]
        if op == 'const':
            return self.const(-self.val[a])
        if op == 'neg':
            return self.args[a][0]
        return self._node('neg', (a,))

    def add(self, a, b):
        """Return ``a + b`` (node)."""
        if a == self.zero:
            return b
        if b == self.zero:
            return a
        oa, ob = self.op[a], self.op[b]
        if oa == 'const' and ob == 'const':
            return self.const(self.val[a] + self.val[b])
        if oa == 'neg' and ob == 'neg':
            return self.neg(self.add(self.args[a][0], self.args[b][0]))
        if ob == 'neg':
            return self.sub(a, self.args[b][0])
        if oa == 'neg':
            return self.sub(b, self.args[a][0])
        # (x - b) + b = x, a + (x - a) = x
        if oa == 'sub' and self.args[a][1] == b:
            return self.args[a][0]
        if ob == 'sub' and self.args[b][1] == a:
            return self.args[b][0]
        if a > b:
            a, b = b, a
        return self._node('add', (a, b))

    def sub(self, a, b):
        """Return ``a - b`` (node)."""
        if b == self.zero:
            return a
        if a == self.zero:
            return self.neg(b)
        if a == b:
            return self.zero
        oa, ob = self.op[a], self.op[b]
        if oa == 'const' and ob == 'const':
            return self.const(self.val[a] - self.val[b])
        if ob == 'neg':
            return self.add(a, self.args[b][0])
        if oa == 'neg':
            return self.neg(self.add(self.args[a][0], b))
        if ob == 'const' and self.val[b] < 0.0:
            return self.add(a, self.const(-self.val[b]))
        # cancellations: (b + c) - b = c, (x - y) - x = -y, a - (a - c) = c,
        # a - (a + c) = -c
        if oa == 'add' and b in self.args[a]:
            x, y = self.args[a]
            return y if x == b else x
        if oa == 'sub' and self.args[a][0] == b:
            return self.neg(self.args[a][1])
        if ob == 'sub' and self.args[b][0] == a:
            return self.args[b][1]
        if ob == 'add' and a in self.args[b]:
            x, y = self.args[b]
            return self.neg(y if x == a else x)
        return self._node('sub', (a, b))

    def mul(self, a, b):
        """Return ``a * b`` (node)."""
        if a == self.zero or b == self.zero:
            return self.zero
        oa, ob = self.op[a], self.op[b]
        if ob == 'const' and oa != 'const':
            a, b, oa, ob = b, a, ob, oa
        if oa == 'const':
            va = self.val[a]
            if ob == 'const':
                return self.const(va * self.val[b])
            if va == 1.0:
                return b
            if va == -1.0:
                return self.neg(b)
            if ob == 'neg':
                return self.mul(self.const(-va), self.args[b][0])
            if ob == 'mul' and self.op[self.args[b][0]] == 'const':
                c, x = self.args[b]
                return self.mul(self.const(va * self.val[c]), x)
            if va < 0.0:
                return self.neg(self.mul(self.const(-va), b))
            return self._node('mul', (a, b))
        if oa == 'neg' and ob == 'neg':
            return self.mul(self.args[a][0], self.args[b][0])
        if oa == 'neg':
            return self.neg(self.mul(self.args[a][0], b))
        if ob == 'neg':
            return self.neg(self.mul(a, self.args[b][0]))
        if a > b:
            a, b = b, a
        return self._node('mul', (a, b))

    def div(self, a, b):
        """Return ``a / b`` (node); a division by a constant becomes a product."""
        if a == self.zero:
            return self.zero
        if self.op[b] == 'const':
            return self.mul(a, self.const(1.0 / self.val[b]))
        if self.op[b] == 'neg':
            return self.neg(self.div(a, self.args[b][0]))
        if self.op[a] == 'neg':
            return self.neg(self.div(self.args[a][0], b))
        return self._node('div', (a, b))

    def sin(self, a):
        """Return the sine of node ``a``."""
        if self.op[a] == 'const':
            return self.const(math.sin(self.val[a]))
        return self._node('sin', (a,))

    def cos(self, a):
        """Return the cosine of node ``a``."""
        if self.op[a] == 'const':
            return self.const(math.cos(self.val[a]))
        return self._node('cos', (a,))

    def fn(self, name, *args):
        """
        Return a named function of nodes, folded when every argument is constant.

        Parameters
        ----------
        name : str
            ``tanh``, ``exp``, ``fabs``, ``sqrt``, ``hypot``, ``max0``, ``min0``,
            ``sign`` or ``interp<k>`` (see :meth:`interp_table`).
        *args : int
            Argument nodes.

        Returns
        -------
        int
            Node index.

        """
        if all(self.op[a] == 'const' for a in args):
            import numpy as np
            vals = [np.float64(self.val[a]) for a in args]
            if name.startswith('interp'):
                xp, fp = self.tables[int(name[6:])]
                return self.const(float(np.interp(vals[0], xp, fp)))
            from .evaluate import npfunc
            return self.const(float(npfunc(name)(*vals)))
        if name in ('fabs', 'sign', 'tanh') and self.op[args[0]] == 'neg':
            inner = self.fn(name, self.args[args[0]][0])
            return inner if name == 'fabs' else self.neg(inner)
        return self._node('fn', tuple(args), name)

    def interp_table(self, xp, fp):
        """
        Register a piecewise-linear table (``numpy.interp`` semantics).

        Parameters
        ----------
        xp, fp : sequence of float
            Increasing abscissae and values.

        Returns
        -------
        str
            Function name to use with :meth:`fn`, ``interp<k>``.

        """
        key = (tuple(float(x) for x in xp), tuple(float(f) for f in fp))
        if key not in self.tables:
            self.tables.append(key)
        return f'interp{self.tables.index(key)}'

    def select(self, kind, c, a, b):
        """
        Return ``a if c > 0 else b`` (``kind='gt'``) or ``a if c < 0 else b`` (``'lt'``).

        Parameters
        ----------
        kind : {'gt', 'lt'}
            Comparison of ``c`` with zero.
        c, a, b : int
            Condition and value nodes.

        Returns
        -------
        int
            Node index.

        """
        if a == b:
            return a
        if self.op[c] == 'const':
            v = self.val[c]
            return a if (v > 0.0 if kind == 'gt' else v < 0.0) else b
        return self._node('sel', (c, a, b), kind)

    # ------------------------------------------------------------------ helpers
    def total(self, terms):
        """Return the sum of a sequence of nodes (0 when empty)."""
        total = self.zero
        for t in terms:
            total = self.add(total, t)
        return total

    def dot(self, u, v):
        """Return the dot product of two node sequences."""
        return self.total(self.mul(a, b) for a, b in zip(u, v))

    # ------------------------------------------------------------------ programs
    def program(self, outputs):
        """
        List the nodes needed for some outputs, in evaluation order.

        Parameters
        ----------
        outputs : iterable of int
            Output nodes.

        Returns
        -------
        list of int
            Operation nodes (no constants or inputs) that the outputs need,
            in increasing index order, which is a valid evaluation order.

        """
        seen = set()
        stack = list(outputs)
        while stack:
            a = stack.pop()
            if a in seen:
                continue
            seen.add(a)
            stack.extend(self.args[a])
        return sorted(a for a in seen if self.op[a] not in ('const', 'in'))

    def count(self, outputs):
        """
        Count the operations of the straight-line program of some outputs.

        Parameters
        ----------
        outputs : iterable of int
            Output nodes.

        Returns
        -------
        dict
            ``mul``, ``add`` (additions and subtractions), ``neg``, ``div``,
            ``sincos`` (angles whose sine and/or cosine is needed), ``func``
            (tanh, exp, fabs, hypot, ...) and ``select`` (comparisons).

        """
        counts = dict.fromkeys(COUNT_KEYS, 0)
        angles = set()
        for a in self.program(outputs):
            op = self.op[a]
            if op in ('sin', 'cos'):
                angles.add(self.args[a][0])
            elif op in ('add', 'sub'):
                counts['add'] += 1
            elif op == 'fn':
                counts['func'] += 1
            elif op == 'sel':
                counts['select'] += 1
            else:
                counts[op] += 1
        counts['sincos'] = len(angles)
        return counts

    def evaluate(self, outputs, inputs):
        """
        Evaluate outputs numerically (numpy, vectorised over a batch).

        Parameters
        ----------
        outputs : sequence of int
            Output nodes.
        inputs : dict
            Array name to array of shape (N, count) (or (count,)).

        Returns
        -------
        numpy.ndarray
            Shape (N, len(outputs)) (or (len(outputs),)).

        """
        from .evaluate import evaluate
        return evaluate(self, outputs, inputs)
