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

"""``robodyn codegen ROBOT``: operation counts of the customized kernels, beside the seeds'."""

import json

from .args import output_file
from ..dynamics.codegen import op_counts
from ..dynamics.codegen.expr import COUNT_KEYS
from ..model import load_robot

#: Kernels in the order they are printed, with a short description.
KERNELS = (
    ('rne', 'rigid body (no armature, no friction)'),
    ('rne_ext', 'rigid body + end-effector wrench'),
    ('inverse_dynamics_rigid', 'rigid body + armature'),
    ('inverse_dynamics', 'rigid body + armature + friction'),
    ('inverse_dynamics_ext', 'as above + end-effector wrench'),
    ('gravity', 'gravity torques'),
    ('mass_matrix', 'mass matrix (CRBA) + armature'),
    ('forward_dynamics', 'inverse of inverse_dynamics'),
    ('forward_dynamics_residual', '  its residual, per iteration'),
    ('forward_dynamics_rigid', 'inverse of inverse_dynamics_rigid'),
    ('inverse_dynamics_payload', 'inverse dynamics + point-mass payload'),
    ('payload_torque', 'torque of a 1 kg point mass'),
    ('gravity_payload', 'gravity torques + point-mass payload'),
    ('friction', 'friction torques alone'),
)


def add_parser(sub):
    """
    Register the ``codegen`` sub-command.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        Sub-parsers of the ``robodyn`` command.

    """
    p = sub.add_parser('codegen', help='operation counts of the customized dynamics kernels',
                       description='Generate the customized (zero/one-propagating) '
                                   'straight-line dynamics code of a robot and print the '
                                   'operation counts of each kernel beside the counts '
                                   'published in the source documents ("seeds": Khalil for '
                                   'the general-purpose 6R arm and the RX-90 with base '
                                   'parameters, Kanade, Khosla and Tanaka 1986 for the CMU '
                                   'DD Arm II, Dhanaraj 1990 for the PUMA 560).')
    p.add_argument('robot', help='library name (puma560, ...), ur5, panda or a URDF path')
    p.add_argument('--json', action='store_true', help='print JSON instead of tables')
    p.add_argument('--source', metavar='OUT',
                   help='also write the generated C module source to OUT (module name '
                        'robodyn_kernels)')
    p.add_argument('--no-seeds', action='store_true',
                   help='leave out the comparison with the published counts')
    p.set_defaults(run=run)


def run(args):
    """
    Execute ``robodyn codegen``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        Exit code.

    """
    if args.source:
        output_file(args.source, '--source')
    model = load_robot(args.robot)
    counts = op_counts(model)
    if args.source:
        from ..dynamics.codegen.generate import generate, MODULE_PLACEHOLDER
        source = model.derived('codegen_generated', generate).source
        with open(args.source, 'w', encoding='utf-8') as fh:
            fh.write(source.replace(MODULE_PLACEHOLDER, 'robodyn_kernels'))
    rows = []
    if not args.no_seeds:
        from ..reproductions.operation_counts import comparisons
        rows = comparisons()
    if args.json:
        out = {'robot': model.name, 'dof': model.n, 'kernels': counts,
               'friction_armature_extra': _extra(counts),
               'seeds': [_json_row(r) for r in rows]}
        print(json.dumps(out, indent=2))
    else:
        print(format_counts(model, counts))
        if rows:
            print()
            print(format_comparisons(rows))
    return 0


def _extra(counts):
    full, rigid = counts['inverse_dynamics'], counts['rne']
    return {k: full[k] - rigid[k] for k in COUNT_KEYS}


def _json_row(r):
    out = {k: r[k] for k in ('key', 'case', 'citation', 'note')}
    out['seed'] = {'mul': r['published'][0], 'add': r['published'][1]}
    out['ours'] = r['counts']
    out['extra'] = r['extra']
    return out


def format_counts(model, counts):
    """
    Format the counts of every kernel of a model.

    Parameters
    ----------
    model : RobotModel
        The model.
    counts : dict
        Output of :func:`robodyn_ros.dynamics.codegen.op_counts`.

    Returns
    -------
    str
        Text table.

    """
    kinds = ''.join('P' if j.is_prismatic else 'R' for j in model.joints)
    lines = [f'Customized kernels of {model.name!r} ({model.n} joints, {kinds}): operations '
             'of the straight-line code',
             f"{'kernel':<28}{'what':<40}" + ''.join(f'{k:>7}' for k in COUNT_KEYS)]
    for key, what in KERNELS:
        if key not in counts:   # the residual: only with load-dependent friction
            continue
        c = counts[key]
        lines.append(f'{key:<28}{what:<40}' + ''.join(f'{c[k]:>7}' for k in COUNT_KEYS))
    extra = _extra(counts)
    lines.append('friction + armature over the rigid body: '
                 + ', '.join(f'{k} {extra[k]:+d}' for k in COUNT_KEYS if extra[k]))
    lines.append('(sincos: joint angles whose sine/cosine is needed; func: tanh, exp, fabs, '
                 'hypot, ...; select: comparisons)')
    if 'forward_dynamics_residual' in counts:
        lines.append('(load-dependent friction: forward_dynamics is the set-up of a solver; '
                     'each of its iterations computes the loads l0 + A qdd and the residual)')
    return '\n'.join(lines)


def format_comparisons(rows):
    """
    Format our counts beside the seeds' counts.

    Parameters
    ----------
    rows : list of dict
        Output of :func:`robodyn_ros.reproductions.operation_counts.comparisons`.

    Returns
    -------
    str
        Text table.

    """
    lines = ['Rigid-body inverse dynamics, customized, ours vs the seeds (mult/add)',
             f"{'case':<42}{'seed':>10}{'ours':>10}  {'source':<54}note"]
    for r in rows:
        ours = '-' if r['ours'] is None else f"{r['ours'][0]}/{r['ours'][1]}"
        published = f"{r['published'][0]}/{r['published'][1]}"
        lines.append(f"{r['case']:<42}{published:>10}{ours:>10}  {r['citation']:<54}{r['note']}")
        for label, c in (r['extra'] or {}).items():
            lines.append(f"{'  ' + label:<42}{'':>10}{c['mul']:>6}/{c['add']:<3}")
    return '\n'.join(lines)
