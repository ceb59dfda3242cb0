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
Generate every kernel of one model: graphs, operation counts and C text.

All kernels live in one graph, so the sines, cosines and rotations of ``q``
are built once; each C function contains only the nodes its outputs need.
"""

from dataclasses import dataclass

from .bodies import dyn_params
from .c_runtime import PRELUDE
from .cmodule import module_source, wrapper_source
from .emit_c import FunctionEmitter, interp_function
from .expr import Graph
from .sym_crba import ltdl_solve, mass_matrix, with_armature
from .sym_rne import joint_transforms, rne
from ..tables import tables
from ...friction.symbolic import inverse_dynamics_torque

#: Placeholder for the module name while the source is hashed.
MODULE_PLACEHOLDER = '__RD_MODULE__'


@dataclass(frozen=True)
class KernelSpec:
    """
    One kernel: Python name, C functions, inputs, output shape, docstrings.

    Attributes
    ----------
    py : str
        Python name of the single-state entry point (batch: ``py + '_batch'``).
    cname : str
        C kernel function.
    ext_cname : str or None
        C kernel with an end-effector wrench input, if any.
    inputs : tuple of (str, int)
        Input names and lengths.
    out_shape : tuple of int
        Output shape of one state.
    doc, batch_doc : str
        Docstrings (plain text, no quotes or backslashes).

    """

    py: str
    cname: str
    ext_cname: object
    inputs: tuple
    out_shape: tuple
    doc: str
    batch_doc: str


@dataclass(frozen=True, eq=False)
class Generated:
    """
    Result of :func:`generate`.

    Attributes
    ----------
    source : str
        C text with :data:`MODULE_PLACEHOLDER` as module name.
    op_counts : dict
        Kernel name to operation counts (see :meth:`Graph.count`).
    specs : tuple of KernelSpec
        The entry points.

    """

    source: str
    op_counts: dict
    specs: tuple


def _docs(n, what, args, result, ext=False):
    extra = ', f_ext=None' if ext else ''
    single = (f'{what}. {args}: float64 arrays of shape ({n},); out: optional float64 '
              f'array of shape {result}{extra and "; f_ext: end-effector wrench (6,)"}. '
              f'Returns out.')
    batch = (f'{what}, batch. {args}: C-contiguous float64 arrays of shape (N, {n}); '
             f'out: optional (N, ...); start, stop: row range (default all); '
             f'the GIL is released around the loop. Returns out.')
    return single, batch


def build_graphs(params, tab):
    """
    Build the graph and output nodes of every kernel.

    Parameters
    ----------
    params : DynParams
        Model data.
    tab : DynamicsTables
        Model arrays (friction, armature).

    Returns
    -------
    tuple
        ``(graph, outputs)`` with outputs a dict of kernel name to node list.

    """
    n = params.n
    g = Graph()
    q, qd, qdd = g.var_array('q', n), g.var_array('qd', n), g.var_array('qdd', n)
    tau_in, fext = g.var_array('tau', n), g.var_array('fext', 6)
    zero = [g.zero] * n
    tr = joint_transforms(g, params, q)
    res = rne(g, params, q, qd, qdd, transforms=tr)
    res_ext = rne(g, params, q, qd, qdd, f_ext=fext, transforms=tr)
    mass = with_armature(g, params, mass_matrix(g, params, tr))
    bias = rne(g, params, q, qd, zero, transforms=tr).tau
    out = {
        'rne': res.tau,
        'rne_ext': res_ext.tau,
        'inverse_dynamics': inverse_dynamics_torque(g, tab, res, qd, qdd),
        'inverse_dynamics_ext': inverse_dynamics_torque(g, tab, res_ext, qd, qdd),
        'inverse_dynamics_rigid': inverse_dynamics_torque(g, tab, res, qd, qdd, False),
        'inverse_dynamics_rigid_ext': inverse_dynamics_torque(g, tab, res_ext, qd, qdd,
                                                              False),
        'gravity': rne(g, params, q, zero, zero, transforms=tr).tau,
        'mass_matrix': [x for row in mass for x in row],
        'forward_dynamics': ltdl_solve(g, params, mass,
                                       [g.sub(t, b) for t, b in zip(tau_in, bias)]),
    }
    return g, out


def generate(model, ext_frame=None):
    """
    Generate the kernels of a model.

    Parameters
    ----------
    model : RobotModel
        The model.
    ext_frame : str, optional
        Frame of the end-effector wrench; default ``model.end_effector``.

    Returns
    -------
    Generated
        C text, operation counts and entry points.

    """
    n = model.n
    params = dyn_params(model, ext_frame)
    g, out = build_graphs(params, tables(model))
    vec, mat = (n,), (n, n)
    qs = (('q', n),)
    qqq = (('q', n), ('qd', n), ('qdd', n))
    specs = []
    for py, cname, ext, inputs, shape, what, args in (
            ('inverse_dynamics', 'k_id', 'k_id_ext', qqq, vec,
             'Joint torques with armature and every friction model', 'q, qd, qdd'),
            ('inverse_dynamics_rigid', 'k_idr', 'k_idr_ext', qqq, vec,
             'Joint torques with armature, no friction', 'q, qd, qdd'),
            ('gravity', 'k_grav', None, qs, vec, 'Gravity torques', 'q'),
            ('mass_matrix', 'k_mass', None, qs, mat, 'Mass matrix with armature', 'q'),
            ('forward_dynamics', 'k_fd', None, (('q', n), ('qd', n), ('tau', n)), vec,
             'Joint accelerations, rigid body with armature, no friction', 'q, qd, tau'),
            ('_call_overhead', 'k_nop', None, qqq, vec,
             'Argument checks and output only, no kernel (for profiling)', 'q, qd, qdd')):
        single, batch = _docs(n, what, args, shape, ext is not None)
        specs.append(KernelSpec(py, cname, ext, inputs, shape, single, batch))
    em = FunctionEmitter(g)
    parts = [PRELUDE]
    parts += [interp_function(k, xp, fp) for k, (xp, fp) in enumerate(g.tables)]
    kernel_outputs = {'k_id': 'inverse_dynamics', 'k_id_ext': 'inverse_dynamics_ext',
                      'k_idr': 'inverse_dynamics_rigid',
                      'k_idr_ext': 'inverse_dynamics_rigid_ext', 'k_grav': 'gravity',
                      'k_mass': 'mass_matrix', 'k_fd': 'forward_dynamics'}
    inputs_of = {'k_id': qqq, 'k_id_ext': qqq + (('fext', 6),), 'k_idr': qqq,
                 'k_idr_ext': qqq + (('fext', 6),), 'k_grav': qs, 'k_mass': qs,
                 'k_fd': (('q', n), ('qd', n), ('tau', n))}
    for cname, key in kernel_outputs.items():
        parts.append(em.function(cname, inputs_of[cname], out[key]))
    parts.append('static void k_nop(const double *q, const double *qd, const double *qdd, '
                 'double *out)\n{\n    (void)q;\n    (void)qd;\n    (void)qdd;\n'
                 '    (void)out;\n}\n')
    parts += [wrapper_source(s) for s in specs]
    doc = f'Customized dynamics kernels of robot {model.name} ({n} joints), generated.'
    parts.append(module_source(MODULE_PLACEHOLDER, specs, doc.replace('"', "'")))
    counts = {key: g.count(nodes) for key, nodes in out.items()}
    return Generated(''.join(parts), counts, tuple(specs))
