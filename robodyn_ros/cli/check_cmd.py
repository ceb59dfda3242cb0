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

"""``robodyn check ROBOT|URDF``: cross-check our dynamics against Pinocchio."""

import json

from .args import int_at_least
from ..dynamics.crosscheck import cross_check, QUANTITIES
from ..model import load_robot

#: Relative error the cross-check must stay within.
TOLERANCE = 1e-10


def add_parser(sub):
    """
    Register the ``check`` sub-command.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        Sub-parsers of the ``robodyn`` command.

    """
    p = sub.add_parser('check', help='cross-check the dynamics against Pinocchio',
                       description='Compare rnea, crba, aba, gravity, nonLinearEffects and '
                                   'the Coriolis matrix with Pinocchio on random states and '
                                   'print the largest relative error of each. Model warnings '
                                   '(physically inconsistent published parameters) are '
                                   'printed first; --strict refuses such models.')
    p.add_argument('robot', help='library name, example robot (ur5, panda) or URDF/xacro file')
    p.add_argument('--params', metavar='YAML', help='parameter file merged onto a URDF')
    p.add_argument('--states', type=int_at_least(1), default=1000,
                   help='random states, an integer >= 1 (default 1000)')
    p.add_argument('--seed', type=int_at_least(0), default=0,
                   help='seed of the random states, an integer >= 0 (default 0)')
    p.add_argument('--json', action='store_true', help='print JSON instead of tables')
    p.add_argument('--strict', action='store_true',
                   help='refuse models that break a rule of physical consistency')
    p.set_defaults(run=run)


def run(args):
    """
    Execute ``robodyn check``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        0 if every error is within tolerance, 1 otherwise.

    """
    model = load_robot(args.robot, params=args.params, strict=args.strict)
    worst = cross_check(model, count=args.states, seed=args.seed)
    ok = all(v <= TOLERANCE for v in worst.values())
    if args.json:
        print(json.dumps({'robot': model.name, 'states': args.states, 'tolerance': TOLERANCE,
                          'max_relative_error': worst, 'pass': ok,
                          'warnings': list(model.warnings)}, indent=2))
    else:
        print(f'Cross-check of {model.name!r} against Pinocchio on {args.states} random states '
              f'(relative error = max|ours - pinocchio| / max(1, max|pinocchio|))')
        for key, text in QUANTITIES.items():
            flag = 'ok' if worst[key] <= TOLERANCE else 'FAIL'
            print(f'  {key:<9} {worst[key]:10.3e}  {flag:<4}  {text}')
        print(f"Result: {'pass' if ok else 'FAIL'} (tolerance {TOLERANCE:g})")
    return 0 if ok else 1
