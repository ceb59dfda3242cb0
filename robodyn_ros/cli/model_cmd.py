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

"""``robodyn model NAME|PATH``: print a robot model and its validation result."""

import json
import math

import numpy as np

from .args import output_file
from ..model import load_robot
from ..model.summary import model_summary


def add_parser(sub):
    """
    Register the ``model`` sub-command.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        Sub-parsers of the ``robodyn`` command.

    """
    p = sub.add_parser('model', help='print a robot model (library name or URDF/xacro file)',
                       description='Load a library robot or a URDF/xacro file, validate it '
                                   'and print joints, DH rows or placements, inertials, '
                                   'actuator and friction data. Descriptions that break a '
                                   'rule of physical consistency (as published parameters '
                                   'often do) load with a warning per rule, printed first; '
                                   '--strict refuses them.')
    p.add_argument('robot', help='library name (puma560, cmu_dd_arm2, ma3000, rx90, '
                                 'stanford), example robot (ur5, panda) or URDF/xacro file')
    p.add_argument('--params', dest='params_in', metavar='YAML',
                   help='parameter file (actuators, friction, limits) merged by joint name')
    p.add_argument('--urdf', metavar='OUT', help='write the model as URDF to OUT')
    p.add_argument('--params-out', metavar='OUT',
                   help='write the actuator, friction and limit data as YAML to OUT')
    p.add_argument('--json', action='store_true', help='print JSON instead of tables')
    p.add_argument('--strict', action='store_true',
                   help='refuse what otherwise loads with a warning (inconsistent inertias, '
                        'massless links, ignored malformed elements)')
    p.set_defaults(run=run)


def run(args):
    """
    Execute ``robodyn model``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        Exit code.

    """
    for path, option in ((args.urdf, '--urdf'), (args.params_out, '--params-out')):
        if path:
            output_file(path, option)
    model = load_robot(args.robot, params=args.params_in, strict=args.strict)
    if args.urdf:
        model.to_urdf(args.urdf)
    if args.params_out:
        import yaml
        with open(args.params_out, 'w', encoding='utf-8') as fh:
            yaml.safe_dump(model.to_params(), fh, sort_keys=False)
    summary = model_summary(model)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(format_summary(summary))
    return 0


def _f(value, width=9, digits=4):
    if value == 'nan':
        value = None
    if isinstance(value, str):
        return f'{value:>{width}}'
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return f'{"-":>{width}}'
    return f'{value:>{width}.{digits}g}'


def format_summary(s):
    """
    Format a model summary as text tables.

    Parameters
    ----------
    s : dict
        Output of :func:`robodyn_ros.model.summary.model_summary`.

    Returns
    -------
    str
        Multi-line text.

    """
    kinds = ''.join('P' if j['type'] == 'prismatic' else 'R' for j in s['joints'])
    g = ', '.join(f'{v:g}' for v in s['gravity'])
    lines = [f"Robot {s['name']!r}: {s['dof']} joints ({kinds}), root link "
             f"{s['root_link']!r}, gravity [{g}] m/s^2",
             f"Source: {s['source']}", '']
    if s['dh']:
        lines.append(f"DH table ({s['dh']['convention']}; a, d in m; alpha, theta in rad; "
                     'theta is the offset for R joints, d for P joints)')
        lines.append(f"{'i':>3} {'joint':<14}{'type':>5}{'a':>10}{'alpha':>10}{'d':>10}"
                     f"{'theta':>10}")
        for i, (row, j) in enumerate(zip(s['dh']['rows'], s['joints']), 1):
            lines.append(f"{i:>3} {j['name']:<14}{row['joint']:>5}{_f(row['a'], 10)}"
                         f"{_f(row['alpha'], 10)}{_f(row['d'], 10)}{_f(row['theta'], 10)}")
    else:
        lines.append('Joint placements (parent link frame; xyz in m, rpy in rad)')
        lines.append(f"{'i':>3} {'joint':<22}{'type':<11}{'parent':<18}{'xyz':<30}"
                     f"{'rpy':<30}axis")
        for i, j in enumerate(s['joints'], 1):
            xyz = ' '.join(f'{v:.4g}' for v in j['xyz'])
            rpy = ' '.join(f'{v:.4g}' for v in j['rpy'])
            axis = ' '.join(f'{v:g}' for v in j['axis'])
            lines.append(f"{i:>3} {j['name']:<22}{j['type']:<11}{j['parent_link']:<18}"
                         f'{xyz:<30}{rpy:<30}{axis}')
    lines += ['', 'Limits (rad or m; per s; per s^2; N m or N)',
              f"{'joint':<22}{'lower':>9}{'upper':>9}{'velocity':>9}{'accel':>9}"
              f"{'effort':>9}"]
    for j in s['joints']:
        lim = j['limits']
        keys = ('lower', 'upper', 'velocity', 'acceleration', 'effort')
        lines.append(f"{j['name']:<22}" + ''.join(_f(lim[k]) for k in keys))
    lines += ['', 'Inertials (body frame; mass kg, com m, inertia about com kg m^2)',
              f"{'link':<22}{'mass':>9}  {'com':<26}{'Ixx':>9}{'Iyy':>9}{'Izz':>9}"
              f"{'Ixy':>9}{'Ixz':>9}{'Iyz':>9}"]
    for b in s['inertials']:
        com = ' '.join(f'{v:.4g}' for v in b['com'])
        i = np.array(b['inertia'])
        lines.append(f"{b['link']:<22}{_f(b['mass'])}  {com:<26}"
                     + ''.join(_f(float(v)) for v in (i[0, 0], i[1, 1], i[2, 2], i[0, 1],
                                                      i[0, 2], i[1, 2])))
    lines += ['', 'Actuators (gear = motor/joint speed; Jm motor side kg m^2; armature link '
              'side; Kt N m/A; Imax A)',
              f"{'joint':<22}{'gear':>9}{'Jm':>11}{'armature':>10}{'Kt':>9}{'Imax':>9}"]
    for j in s['joints']:
        a = j['actuator']
        lines.append(f"{j['name']:<22}{_f(a['gear_ratio'])}{_f(a['motor_inertia'], 11)}"
                     f"{_f(a['armature'], 10)}{_f(a['torque_constant'])}"
                     f"{_f(a['current_limit'])}")
    lines += ['', 'Friction (joint side; Coulomb/static N m, viscous N m s/rad, Stribeck '
              'velocity rad/s)',
              f"{'joint':<22}{'Fc+':>8}{'Fc-':>8}{'Fv+':>8}{'Fv-':>8}{'Fs+':>8}{'Fs-':>8}"
              f"{'vs':>8}  load-dependent"]
    for j in s['joints']:
        f = j['friction']
        extra = []
        if f['bearing']:
            b = f['bearing']
            extra.append(f"bearing {b['kind']} mu={b['mu']:g} r={b['radius']:g} "
                         f"d={b['span']:g}")
        if f['transmission']:
            t = f['transmission']
            extra.append(f"transmission tauB={t['breakaway']:g} rated={t['rated_torque']:g}")
        lines.append(f"{j['name']:<22}" + ''.join(
            _f(f[k], 8, 3) for k in ('coulomb_pos', 'coulomb_neg', 'viscous_pos',
                                     'viscous_neg', 'static_pos', 'static_neg',
                                     'stribeck_velocity')) + '  ' + ('; '.join(extra) or '-'))
    others = [f['name'] for f in s['frames'][1 + s['dof']:]]
    if others:
        lines += ['', 'Other frames: ' + ', '.join(others)]
    mimic = [f"{j['name']} mimics {j['mimic']['joint']}" for j in s['joints'] if j['mimic']]
    if s['notes']:
        lines += ['', 'Notes:'] + [f'  - {n}' for n in s['notes']]
    lines += ['', f"Validation: {s['validation']}"
              + (' (printed first, on stderr)' if s['warnings'] else '')
              + (f" ({'; '.join(mimic)}; treated as independent)" if mimic else '')]
    return '\n'.join(lines)
