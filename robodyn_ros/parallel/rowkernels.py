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
Customized kernels for pieces of ``M(q)`` and ``Q(q, qd)``: rows and single elements.

Seed 003 (Table 7.1) gives each transputer a row of the mass matrix and the
matching element of ``Q`` (Coriolis, centrifugal and gravity terms), or single
elements, each as its own closed-form expression. Here every piece is a
straight-line C function generated from the same expression graph as the
customized kernels (:mod:`robodyn_ros.dynamics.codegen`): the mass matrix
from the composite-rigid-body recursion (rotor inertia included) and ``Q``
from the RNE with zero acceleration, each function keeping only the nodes
its outputs need. So a piece repeats the intermediate results it shares
with others, as a separate processor would, and its operation count is the
modelled cost of that processor. Units:

* ``'all'``: the whole ``M`` (row-major) and ``Q`` (the serial reference);
* ``'row<i>'``: ``M[i, :]`` and ``Q[i]``;
* ``'m<i>_<j>'``: ``M[i, j]``; ``'q<i>'``: ``Q[i]``.

Without a C compiler the expression graph is evaluated with numpy (same
interface, much slower).
"""

import numpy as np

from ..dynamics.codegen.bodies import dyn_params
from ..dynamics.codegen.build import CompilerUnavailable, load
from ..dynamics.codegen.c_runtime import PRELUDE
from ..dynamics.codegen.cmodule import module_source, wrapper_source
from ..dynamics.codegen.emit_c import FunctionEmitter, interp_function
from ..dynamics.codegen.expr import Graph
from ..dynamics.codegen.generate import KernelSpec, MODULE_PLACEHOLDER
from ..dynamics.codegen.sym_crba import mass_matrix, with_armature
from ..dynamics.codegen.sym_rne import joint_transforms, rne

#: Inputs of every piece: positions and velocities.
INPUTS = ('q', 'qd')


def _graph(model):
    params = dyn_params(model)
    n = params.n
    g = Graph()
    q, qd = g.var_array('q', n), g.var_array('qd', n)
    tr = joint_transforms(g, params, q)
    mass = with_armature(g, params, mass_matrix(g, params, tr))
    bias = rne(g, params, q, qd, [g.zero] * n, transforms=tr).tau
    outputs = {'all': [x for row in mass for x in row] + list(bias)}
    for i in range(n):
        outputs[f'row{i}'] = list(mass[i]) + [bias[i]]
        outputs[f'q{i}'] = [bias[i]]
        for j in range(n):
            outputs[f'm{i}_{j}'] = [mass[i][j]]
    return g, outputs


class RowKernels:
    """
    The pieces of ``M`` and ``Q`` of one model as callables.

    Attributes
    ----------
    model : RobotModel
        The robot.
    backend : str
        ``'c'`` or ``'numpy'``.
    op_counts : dict
        Piece name -> operation counts (``mul``, ``add``, ...).
    sizes : dict
        Piece name -> number of outputs.

    Notes
    -----
    ``single(name)`` returns ``f(q, qd, out)`` for one state (out of shape
    ``(sizes[name],)``); ``batch(name)`` returns ``f(Q, QD, out, start,
    stop)`` over rows of (N, n) arrays (the C version releases the GIL).

    """

    def __init__(self, model, backend=None):
        self.model = model
        self._graph, self._outputs = _graph(model)
        self.op_counts = {k: self._graph.count(v) for k, v in self._outputs.items()}
        self.sizes = {k: len(v) for k, v in self._outputs.items()}
        self._module = None
        self.backend = 'numpy'
        if backend != 'numpy':
            try:
                self._module = self._compile()
                self.backend = 'c'
            except CompilerUnavailable:
                if backend == 'c':
                    raise

    def _compile(self):
        n = self.model.n
        em = FunctionEmitter(self._graph)
        inputs = tuple((name, n) for name in INPUTS)
        parts = [PRELUDE]
        parts += [interp_function(k, xp, fp) for k, (xp, fp) in enumerate(self._graph.tables)]
        specs = []
        for name, nodes in self._outputs.items():
            parts.append(em.function(f'k_{name}', inputs, nodes))
            doc = f'Piece {name} of M and Q: q, qd (n,); out ({len(nodes)},).'
            specs.append(KernelSpec(f'piece_{name}', f'k_{name}', None, inputs, (len(nodes),),
                                    doc, doc + ' Batch over rows start:stop.'))
        parts += [wrapper_source(s) for s in specs]
        parts.append(module_source(MODULE_PLACEHOLDER, specs,
                                   f'Pieces of M and Q of robot {self.model.name}'))
        module, _ = load(''.join(parts))
        return module

    def single(self, name):
        """
        Return the one-state function of a piece.

        Parameters
        ----------
        name : str
            Piece name.

        Returns
        -------
        callable
            ``f(q, qd, out)``.

        """
        if self._module is not None:
            return getattr(self._module, f'piece_{name}')
        nodes = self._outputs[name]

        def f(q, qd, out):
            out[:] = self._graph.evaluate(nodes, {'q': q, 'qd': qd})
            return out
        return f

    def batch(self, name):
        """
        Return the batch function of a piece.

        Parameters
        ----------
        name : str
            Piece name.

        Returns
        -------
        callable
            ``f(Q, QD, out, start, stop)``.

        """
        if self._module is not None:
            return getattr(self._module, f'piece_{name}_batch')
        nodes = self._outputs[name]

        def f(q, qd, out, start, stop):
            out[start:stop] = self._graph.evaluate(nodes, {'q': q[start:stop],
                                                           'qd': qd[start:stop]})
            return out
        return f


def kernels_for(model, backend=None):
    """
    Return the (cached) pieces of a model.

    Parameters
    ----------
    model : RobotModel
        The robot.
    backend : {None, 'c', 'numpy'}
        As :func:`robodyn_ros.dynamics.codegen.kernels`.

    Returns
    -------
    RowKernels
        The pieces.

    """
    return model.derived(('row_kernels', backend), lambda m: RowKernels(m, backend))


def assemble(n, pieces):
    """
    Build ``M`` and ``Q`` from computed pieces.

    Parameters
    ----------
    n : int
        Joints.
    pieces : dict
        Piece name -> values, (N, size) each; the upper triangle of ``M``
        is enough (it is mirrored).

    Returns
    -------
    tuple of numpy.ndarray
        ``M`` (N, n, n) and ``Q`` (N, n).

    """
    count = next(iter(pieces.values())).shape[0]
    mass = np.full((count, n, n), np.nan)
    bias = np.full((count, n), np.nan)
    for name, val in pieces.items():
        if name == 'all':
            mass[:] = val[:, :n * n].reshape(count, n, n)
            bias[:] = val[:, n * n:]
        elif name.startswith('row'):
            i = int(name[3:])
            mass[:, i, :] = val[:, :n]
            bias[:, i] = val[:, n]
        elif name.startswith('m'):
            i, j = (int(x) for x in name[1:].split('_'))
            mass[:, i, j] = val[:, 0]
        else:
            bias[:, int(name[1:])] = val[:, 0]
    lower = np.isnan(mass) & ~np.isnan(np.transpose(mass, (0, 2, 1)))
    mass[lower] = np.transpose(mass, (0, 2, 1))[lower]
    return mass, bias
