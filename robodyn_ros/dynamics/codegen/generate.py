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
from .fd_solve import HELPERS as SOLVER_HELPERS, load_count, solver_graphs, solver_source
from .sym_crba import ltdl_solve, mass_matrix, with_armature
from .sym_payload import point_mass_torque, with_payload
from .sym_rne import joint_transforms, rne
from ..tables import tables
from ...friction.symbolic import (friction_torque, inverse_dynamics_torque,
                                  velocity_friction_torques)

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
    solve : str or None
        C solver behind the entry points, if the kernel is not straight-line
        code: ``int solve(inputs..., out)`` returning 0, or -1 when it found
        no solution (the entry points raise); ``cname`` is then its plain C
        function (NaN results when no solution).

    """

    py: str
    cname: str
    ext_cname: object
    inputs: tuple
    out_shape: tuple
    doc: str
    batch_doc: str
    solve: object = None


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


def _docs(what, inputs, result, ext=False):
    names = ', '.join(f'{name} ({length},)' for name, length in inputs)
    rows = ', '.join(f'{name} (N, {length})' for name, length in inputs)
    wrench = '; f_ext: end-effector wrench (6,)' if ext else ''
    single = (f'{what}. {names}: float64 arrays; out: optional float64 array of shape '
              f'{result}{wrench}. Returns out.')
    batch = (f'{what}, batch. {rows}: C-contiguous float64 arrays; out: optional (N, ...); '
             f'start, stop: row range (default all); the GIL is released around the loop. '
             f'Returns out.')
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
        With load-dependent friction, ``forward_dynamics`` is the set-up
        kernel of the solver of :mod:`.fd_solve` (``forward_dynamics_residual``
        its residual), else the straight-line solution.

    """
    n = params.n
    g = Graph()
    q, qd, qdd = g.var_array('q', n), g.var_array('qd', n), g.var_array('qdd', n)
    tau_in, fext = g.var_array('tau', n), g.var_array('fext', 6)
    payload, com = g.var_array('payload', 4), g.var_array('com', 3)
    zero = [g.zero] * n
    tr = joint_transforms(g, params, q)
    res = rne(g, params, q, qd, qdd, transforms=tr)
    res_ext = rne(g, params, q, qd, qdd, f_ext=fext, transforms=tr)
    grav = rne(g, params, q, zero, zero, transforms=tr)
    mass = with_armature(g, params, mass_matrix(g, params, tr))
    bias = rne(g, params, q, qd, zero, transforms=tr).tau
    full = inverse_dynamics_torque(g, tab, res, qd, qdd)
    tau_v = velocity_friction_torques(g, tab, qd)
    outputs = {
        'rne': res.tau,
        'rne_ext': res_ext.tau,
        'inverse_dynamics': full,
        'inverse_dynamics_ext': inverse_dynamics_torque(g, tab, res_ext, qd, qdd),
        'inverse_dynamics_rigid': inverse_dynamics_torque(g, tab, res, qd, qdd, False),
        'inverse_dynamics_rigid_ext': inverse_dynamics_torque(g, tab, res_ext, qd, qdd,
                                                              False),
        'gravity': grav.tau,
        'mass_matrix': [x for row in mass for x in row],
        'forward_dynamics': ltdl_solve(g, params, mass, [
            g.sub(g.sub(t, b), v) for t, b, v in zip(tau_in, bias, tau_v)]),
        'forward_dynamics_rigid': ltdl_solve(g, params, mass,
                                             [g.sub(t, b) for t, b in zip(tau_in, bias)]),
        'inverse_dynamics_payload': with_payload(
            g, full, payload[0], point_mass_torque(g, params, res, payload[1:])),
        'payload_torque': point_mass_torque(g, params, res, com),
        'gravity_payload': with_payload(
            g, grav.tau, payload[0], point_mass_torque(g, params, grav, payload[1:])),
        'friction': friction_torque(g, tab, res, qd),
    }
    if tab.has_load_friction:
        setup, residual = solver_graphs(g, params, tab, q, qd, tr)
        outputs.update(forward_dynamics=setup, forward_dynamics_residual=residual)
    return g, outputs


def kernel_table(n, load_friction=False):
    """
    List the entry points of a model with ``n`` joints and the outputs they compute.

    Parameters
    ----------
    n : int
        Number of joints.
    load_friction : bool
        Whether the model has load-dependent (bearing, transmission) friction:
        its forward dynamics is then a Newton solver around the output
        ``forward_dynamics`` (the starting point), see :mod:`.fd_solve`.

    Returns
    -------
    list of tuple
        ``(KernelSpec, output key, output key with wrench or None)``.

    """
    vec, mat = (n,), (n, n)
    qs = (('q', n),)
    qqq = (('q', n), ('qd', n), ('qdd', n))
    qqt = (('q', n), ('qd', n), ('tau', n))
    fd_what = ('Joint accelerations that inverse_dynamics maps to tau (its inverse): '
               'M(q) qdd = tau - h(q, qd) - friction, armature and every friction model')
    if load_friction:
        fd_what += ('; the load-dependent friction by Newton iterations on the '
                    'inverse-dynamics kernel (ForwardDynamicsError when they find no '
                    'solution)')
    rows = (
        ('inverse_dynamics', 'k_id', True, qqq, vec,
         'Joint torques with armature and every friction model'),
        ('inverse_dynamics_rigid', 'k_idr', True, qqq, vec,
         'Joint torques with armature, no friction'),
        ('gravity', 'k_grav', False, qs, vec, 'Gravity torques'),
        ('mass_matrix', 'k_mass', False, qs, mat, 'Mass matrix with armature'),
        ('forward_dynamics', 'k_fd', False, qqt, vec, fd_what),
        ('forward_dynamics_rigid', 'k_fdr', False, qqt, vec,
         'Joint accelerations that inverse_dynamics_rigid maps to tau: rigid body with '
         'armature, no friction'),
        ('inverse_dynamics_payload', 'k_idp', False, qqq + (('payload', 4),), vec,
         'Joint torques with armature and every friction model plus a point-mass '
         'payload [m, cx, cy, cz] (kg, m in the payload frame); the friction sees the '
         'robot without the payload'),
        ('payload_torque', 'k_ym', False, qqq + (('com', 3),), vec,
         'Rigid-body joint torques of a 1 kg point mass at com (m, payload frame)'),
        ('gravity_payload', 'k_gravp', False, (('q', n), ('payload', 4)), vec,
         'Gravity torques with a point-mass payload [m, cx, cy, cz]'),
        ('friction', 'k_fric', False, qqq, vec,
         'Friction torques alone: velocity and load-dependent friction'),
        ('call_overhead', 'k_nop', False, qqq, vec,
         'Argument checks and output only, no kernel (for profiling)'))
    table = []
    for py, cname, ext, inputs, shape, what in rows:
        single, batch = _docs(what, inputs, shape, ext)
        solve = 'k_fd_solve' if load_friction and py == 'forward_dynamics' else None
        spec = KernelSpec(py, cname, cname + '_ext' if ext else None, inputs, shape, single,
                          batch, solve)
        table.append((spec, py, py + '_ext' if ext else None))
    return table


def generate(model, ext_frame=None, payload_frame=None):
    """
    Generate the kernels of a model.

    Parameters
    ----------
    model : RobotModel
        The model.
    ext_frame : str, optional
        Frame of the end-effector wrench; default ``model.end_effector``.
    payload_frame : str, optional
        Frame of the payload of the payload kernels; default ``model.end_effector``.

    Returns
    -------
    Generated
        C text, operation counts and entry points.

    """
    n = model.n
    params = dyn_params(model, ext_frame, payload_frame)
    tab = tables(model)
    g, out = build_graphs(params, tab)
    table = kernel_table(n, tab.has_load_friction)
    em = FunctionEmitter(g)
    parts = [PRELUDE]
    parts += [interp_function(k, xp, fp) for k, (xp, fp) in enumerate(g.tables)]
    solvers = []
    for spec, key, ext_key in table:
        if spec.cname == 'k_nop':
            continue
        if spec.solve:
            loads = load_count(tab)
            setup, resid = spec.cname + '_setup', spec.cname + '_residual'
            parts.append(em.function(setup, spec.inputs[:2], out[key]))
            parts.append(em.function(resid, (('ld', loads), ('sg', n), ('x', n)),
                                     out[key + '_residual'], fast_hypot=True))
            solvers.append(solver_source(tab, loads, spec.cname, spec.solve, setup, resid))
            continue
        parts.append(em.function(spec.cname, spec.inputs, out[key]))
        if ext_key:
            parts.append(em.function(spec.ext_cname, spec.inputs + (('fext', 6),),
                                     out[ext_key]))
    if solvers:
        parts += [SOLVER_HELPERS] + solvers
    parts.append('static void k_nop(const double *q, const double *qd, const double *qdd, '
                 'double *out)\n{\n    (void)q;\n    (void)qd;\n    (void)qdd;\n'
                 '    (void)out;\n}\n')
    specs = tuple(spec for spec, _, _ in table)
    parts += [wrapper_source(s) for s in specs]
    doc = f'Customized dynamics kernels of robot {model.name} ({n} joints), generated.'
    parts.append(module_source(MODULE_PLACEHOLDER, specs, doc.replace('"', "'")))
    counts = {key: g.count(nodes) for key, nodes in out.items()}
    return Generated(''.join(parts), counts, specs)
