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

"""``robodyn bench dynamics|planner|parallel|board|loop``: benchmarks (not tests)."""

import json
import sys

from .args import int_at_least, nonnegative_float, positive_float


def add_parser(sub):
    """
    Register the ``bench`` sub-command and its benches.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        Sub-parsers of the ``robodyn`` command.

    """
    p = sub.add_parser('bench', help='run a benchmark: dynamics, planner, parallel, board',
                       description='Benchmarks, side by side with Pinocchio and the other '
                                   'references. They print medians over interleaved '
                                   'repeats; they are not tests (numbers depend on the '
                                   'machine).')
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
    d.add_argument('--states', type=int_at_least(1), metavar='N',
                   help='batch size (default 100000, 20000 with --quick)')
    d.set_defaults(run=run)
    for name in ('planner', 'board'):
        _add_module_bench(benches, name, name)
    par = benches.add_parser('parallel', help='parallel-dynamics schemes, service round trips',
                             description='Batch partitioning vs rneaInParallel at 1 and 2 '
                                         'threads, round trips to the parallel_dynamics '
                                         'service over DDS (with 2 worker processes), and the '
                                         'per-sample parallel schemes of the source documents '
                                         '(seeds 000, 003 and 004 of docs/parallel.md: '
                                         'prediction, row and task-graph schemes) on real '
                                         'threads beside their modelled figures.')
    par.add_argument('--json', action='store_true', help='print JSON instead of tables')
    par.add_argument('--quick', action='store_true', help='smaller and fewer runs (smoke run)')
    par.add_argument('--states', type=int_at_least(1), metavar='N',
                     help='batch size (default 100000, 20000 with --quick)')
    sections = ('batch', 'service', 'task_graph', 'rows', 'prediction')
    par.add_argument('--only', metavar='SECTION', action='append', choices=sections,
                     help='run only this section, repeatable (choices: '
                          f'{", ".join(sections)}; default: all)')
    par.add_argument('--repeat', type=int_at_least(1), metavar='N',
                     help='rounds of the batch section (default 11, 3 with --quick)')
    par.set_defaults(run=run_parallel)
    _add_loop(benches)


def _add_loop(benches):
    from ..bench.loop import BOARD_MODES, MODES
    lp = benches.add_parser(
        'loop', help='the control loop on the simulated board: missed cycles, timing, CPU',
        description='Start the simulated board and the loop (one process, or the two-node '
                    'graph), track a plan for the given time and print the missed cycles, '
                    'the period and host cycle percentiles, the CPU share of every process '
                    'and the tracking error.')
    lp.add_argument('--rate', type=positive_float, default=1000.0, metavar='HZ',
                    help='board cycle rate (default 1000)')
    lp.add_argument('--seconds', type=positive_float, default=60.0, metavar='S',
                    help='recorded time (default 60)')
    lp.add_argument('--mode', choices=MODES, default='one-process',
                    help=f'loop under test (choices: {", ".join(MODES)}; default one-process)')
    lp.add_argument('--law', default='mbvsst', help='control law (default mbvsst)')
    lp.add_argument('--robot', default='puma560',
                    help='library robot, example robot or URDF/xacro (default puma560)')
    lp.add_argument('--board-mode', choices=BOARD_MODES, default='current',
                    help=f'board command mode (choices: {", ".join(BOARD_MODES)}; default '
                         'current)')
    lp.add_argument('--stall-ms', type=nonnegative_float, default=0.0, metavar='MS',
                    help='stop the law process this long once per --stall-period (default 0)')
    lp.add_argument('--stall-period', type=positive_float, default=1.0, metavar='S',
                    help='time between stalls (default 1 s)')
    lp.add_argument('--payload', type=nonnegative_float, default=2.0, metavar='KG',
                    help='payload on the simulated arm, unknown to the model (default 2)')
    lp.add_argument('--compare-graph', action='store_true',
                    help='then run the two-node graph with the same options (JSON: "graph")')
    lp.add_argument('--json', action='store_true', help='print JSON instead of tables')
    lp.set_defaults(run=run_loop)


def _add_module_bench(benches, name, module, alias=False):
    import importlib
    bench = importlib.import_module(f'..bench.{module}', __package__)
    help_text = (f"alias of 'robodyn bench {name}'" if alias else bench.HELP)
    bench.add_options(benches.add_parser(name, help=help_text, description=bench.DESCRIPTION))


def add_alias(sub, alias, target):
    """
    Register an old hyphenated name (``bench-planner``) of a bench.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        Sub-parsers of the ``robodyn`` command.
    alias : str
        The old name.
    target : str
        The bench it runs (``planner``, ``board``).

    """
    _add_module_bench(sub, alias, target, alias=True)


def run(args):
    """
    Execute ``robodyn bench dynamics``.

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
