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

"""``robodyn bench dynamics``: benchmarks (not tests), side by side with Pinocchio."""

import json


def add_parser(sub):
    """
    Register the ``bench`` sub-command and its benches.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        Sub-parsers of the ``robodyn`` command.

    """
    p = sub.add_parser('bench', help='run a benchmark (dynamics, ...)',
                       description='Benchmarks. They print medians over interleaved '
                                   'repeats; they are not tests.')
    benches = p.add_subparsers(dest='bench', metavar='BENCH')
    benches.required = True
    d = benches.add_parser('dynamics', help='customized C kernels vs Pinocchio and numpy',
                           description='One inverse-dynamics call (PUMA 560, UR5), a batch '
                                       'of states at 1 and 2 threads, one forward-dynamics '
                                       'call: our kernels vs Pinocchio rnea, '
                                       'rneaInParallel, aba, and the numpy reference.')
    d.add_argument('--json', action='store_true', help='print JSON instead of tables')
    d.add_argument('--quick', action='store_true',
                   help='smaller batch and fewer repeats (smoke run)')
    d.add_argument('--states', type=int, metavar='N',
                   help='batch size (default 100000, 20000 with --quick)')
    d.set_defaults(run=run)


def run(args):
    """
    Execute ``robodyn bench``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        Exit code.

    """
    from ..bench import dynamics
    from ..bench.report import format_dynamics
    res = dynamics.run(quick=args.quick, states=args.states)
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        print(format_dynamics(res))
    return 0
