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
    _add_service(benches)
    _add_loop(benches)


def _add_service(benches):
    from ..bench.service import SECTIONS
    svc = benches.add_parser('service', help='the parallel_dynamics service over DDS',
                             description='Round trips of 10 to 100,000 points (service alone, '
                                         'with 2 worker processes, in-process beside them), '
                                         'a flood of requests, oversize requests, a killed '
                                         'worker, chunks, the planner with the service, and '
                                         'the service and its workers in two network '
                                         'namespaces (needs root).')
    svc.add_argument('--json', action='store_true', help='print JSON instead of tables')
    svc.add_argument('--quick', action='store_true', help='fewer sizes and repeats')
    svc.add_argument('--only', metavar='SECTION', action='append', choices=SECTIONS,
                     help='run only this section (repeatable; default all)')
    svc.set_defaults(run=run_service)
    sc = benches.add_parser('planner-scaling', help='planning time and memory vs waypoints',
                            description='Planning time and traced memory of 10 to 10,000 '
                                        'waypoints (smooth path and random walk, uniform and '
                                        'time-optimal timing), the refusal of a goal beyond '
                                        'max_duration, and planner/stop timed while a '
                                        'trajectory_planner process plans 10,000 waypoints.')
    sc.add_argument('--json', action='store_true', help='print JSON instead of tables')
    sc.add_argument('--quick', action='store_true', help='fewer counts and stops')
    sc.set_defaults(run=run_planner_scaling)


def _add_loop(benches):
    from ..bench.loop import BOARD_MODES, MODES
    lp = benches.add_parser(
        'loop', help='the control loop on the simulated board: missed cycles, timing, CPU',
        description='Start the simulated board and the loop (one process, or the two-node '
                    'graph), track a plan for the given time and print the missed cycles, '
                    'the period and host cycle percentiles, the CPU share of every process '
                    'and the tracking error.')
    lp.add_argument('--rate', type=float, default=1000.0, metavar='HZ',
                    help='board cycle rate (default 1000)')
    lp.add_argument('--seconds', type=float, default=60.0, metavar='S',
                    help='recorded time (default 60)')
    lp.add_argument('--mode', choices=MODES, default='one-process')
    lp.add_argument('--law', default='mbvsst', help='control law (default mbvsst)')
    lp.add_argument('--robot', default='puma560')
    lp.add_argument('--board-mode', choices=BOARD_MODES, default='current')
    lp.add_argument('--stall-ms', type=float, default=0.0, metavar='MS',
                    help='stop the law process this long once per --stall-period (default 0)')
    lp.add_argument('--stall-period', type=float, default=1.0, metavar='S',
                    help='time between stalls (default 1 s)')
    lp.add_argument('--payload', type=float, default=2.0, metavar='KG',
                    help='payload on the simulated arm, unknown to the model (default 2)')
    lp.add_argument('--compare-graph', action='store_true',
                    help='then run the two-node graph with the same options (JSON: "graph")')
    lp.add_argument('--json', action='store_true', help='print JSON instead of tables')
    lp.set_defaults(run=run_loop)


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


def run_loop(args):
    """
    Execute ``robodyn bench loop``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        Exit code (1 when a part of the graph failed).

    """
    from dataclasses import replace
    from ..bench.loop import format_result, LoopBenchOptions, run
    from ..demo.processes import PartFailed
    opts = LoopBenchOptions(rate=args.rate, seconds=args.seconds, mode=args.mode, law=args.law,
                            robot=args.robot, board_mode=args.board_mode,
                            stall_ms=args.stall_ms, stall_period=args.stall_period,
                            payload=args.payload)
    opts.check()
    runs = [opts]
    if args.compare_graph and opts.mode != 'graph':
        runs.append(replace(opts, mode='graph'))

    def progress(line):
        if not args.json:
            print(f'  .. {line}', file=sys.stderr, flush=True)

    results = []
    try:
        for one in runs:
            results.append(run(one, progress))
    except PartFailed as exc:
        print(f'robodyn bench loop: FAILED: {exc}', file=sys.stderr)
        return 1
    if args.json:
        out = dict(results[0])
        if len(results) > 1:
            out['graph'] = results[1]
        print(json.dumps(out, indent=2))
    else:
        print('\n\n'.join(format_result(r) for r in results))
    return 0


def run_service(args):
    """
    Execute ``robodyn bench service``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        Exit code.

    """
    from ..bench import service
    from ..bench.service_report import format_service
    res = service.run(quick=args.quick, sections=args.only or service.SECTIONS)
    print(json.dumps(res, indent=2) if args.json else format_service(res))
    return 0


def run_planner_scaling(args):
    """
    Execute ``robodyn bench planner-scaling``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        Exit code.

    """
    from ..bench import planner_scaling
    res = planner_scaling.run(quick=args.quick)
    print(json.dumps(res, indent=2) if args.json else planner_scaling.format_scaling(res))
    return 0
