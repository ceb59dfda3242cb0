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

"""``robodyn bench dynamics|parallel``: benchmarks (not tests), side by side with Pinocchio."""

import json
import sys


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
    from ..bench.planner import add_options, DESCRIPTION
    add_options(benches.add_parser('planner', help='trajectory planner, time-optimal vs TOPP-RA',
                                   description=DESCRIPTION))
    par = benches.add_parser('parallel', help='parallel-dynamics schemes, service round trips',
                             description='Batch partitioning vs rneaInParallel at 1 and 2 '
                                         'threads, round trips to the parallel_dynamics '
                                         'service over DDS (with 2 worker processes), and the '
                                         'per-sample schemes of seeds 000, 003 and 004 on '
                                         'real threads beside their modelled figures.')
    par.add_argument('--json', action='store_true', help='print JSON instead of tables')
    par.add_argument('--quick', action='store_true', help='smaller and fewer runs (smoke run)')
    par.add_argument('--states', type=int, metavar='N',
                     help='batch size (default 100000, 20000 with --quick)')
    par.add_argument('--only', metavar='SECTION', action='append',
                     choices=('batch', 'service', 'task_graph', 'rows', 'prediction'),
                     help='run only this section (repeatable; default all)')
    par.add_argument('--repeat', type=int, metavar='N',
                     help='rounds of the batch section (default 11, 3 with --quick)')
    par.set_defaults(run=run_parallel)
    dr = benches.add_parser('drives', help='CiA 402 backend cycle on simulated drives',
                            description="SYNC-to-RPDO latency p50/p99 and the backend's CPU "
                                        'per cycle with one simulated CiA 402 drive per joint '
                                        '(udp_multicast in a network namespace of its own; '
                                        'needs root), at each rate.')
    dr.add_argument('--robot', default='puma560', help='robot, one drive per joint '
                    '(default puma560: 6 drives)')
    dr.add_argument('--rates', type=float, nargs='+', default=[500.0, 1000.0],
                    help='SYNC rates [Hz] (default 500 1000)')
    dr.add_argument('--seconds', type=float, default=10.0, help='measured time per rate [s]')
    dr.add_argument('--json', action='store_true', help='print JSON instead of a table')
    dr.set_defaults(run=run_drives)


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


def run_parallel(args):
    """
    Execute ``robodyn bench parallel``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        Exit code.

    """
    from ..bench import parallel
    from ..bench.parallel_report import format_parallel
    if args.repeat is not None and args.repeat < 1:
        print('robodyn bench parallel: --repeat must be >= 1', file=sys.stderr)
        return 2
    res = parallel.run(quick=args.quick, states=args.states,
                       sections=args.only or parallel.SECTIONS, repeat=args.repeat)
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        print(format_parallel(res))
    return 0


def run_drives(args):
    """
    Execute ``robodyn bench drives`` (inside a CAN namespace of its own).

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        Exit code.

    """
    from ..demo.can_namespace import needs_namespace, rerun_in_namespace
    from ..errors import InputError
    if not all(50.0 <= r <= 5000.0 for r in args.rates) or not 0.5 <= args.seconds <= 600.0:
        raise InputError('--rates', 'rates must be in [50, 5000] Hz and --seconds in '
                         '[0.5, 600]')
    if needs_namespace('cia402'):
        return rerun_in_namespace(args.argv)
    from ..bench import drives
    res = drives.run(args.robot, args.rates, args.seconds)
    print(json.dumps(res, indent=2) if args.json else drives.format_drives(res))
    return 0
