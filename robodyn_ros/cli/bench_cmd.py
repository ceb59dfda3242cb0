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

from .args import int_at_least, int_between, nonnegative_float, positive_float


def add_parser(sub):
    """
    Register the ``bench`` sub-command and its benches.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        Sub-parsers of the ``robodyn`` command.

    """
    p = sub.add_parser('bench', help='run a benchmark: dynamics, planner, parallel, board, '
                                     'laws, controller, loop, service, planner-scaling',
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
    for name in ('planner', 'board', 'publish_stall'):
        _add_module_bench(benches, name.replace('_', '-'), name)
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
    _add_laws(benches)
    _add_controller(benches)
    _add_loop(benches)
    _add_service(benches)
    _add_drives(benches)


def _add_laws(benches):
    from ..bench.laws import DEFAULT_LAWS
    from ..control.factory import LAWS
    lw = benches.add_parser(
        'laws', help='one Controller.step per law and dynamics backend',
        description='Every law steps along the same recorded states of a motion; laws and '
                    'backends interleaved round by round; median and p99 per step.')
    lw.add_argument('--robot', default='puma560', help='robot (default puma560)')
    lw.add_argument('--laws', nargs='+', choices=LAWS, default=list(DEFAULT_LAWS),
                    metavar='LAW', help=f'laws (default {" ".join(DEFAULT_LAWS)})')
    lw.add_argument('--backends', nargs='+', choices=('numpy', 'auto'),
                    default=['numpy', 'auto'], help='dynamics backends (default numpy auto)')
    lw.add_argument('--steps', type=int_at_least(10), default=2000,
                    help='steps per round (default 2000; numpy: 200)')
    lw.add_argument('--rounds', type=int_at_least(1), default=5,
                    help='interleaved rounds (default 5)')
    lw.add_argument('--gap', type=nonnegative_float, default=0.0, metavar='S',
                    help='sleep between steps, e.g. 0.0008: a 1 kHz loop leaves the CPU '
                         'between steps and each starts with cold caches (default 0)')
    lw.add_argument('--python', action='store_true',
                    help='also time the compiled laws run as Python (compiled=False)')
    lw.add_argument('--json', action='store_true', help='print JSON instead of tables')
    lw.set_defaults(run=run_laws)


def _add_controller(benches):
    from ..control.factory import LAWS
    ct = benches.add_parser(
        'controller', help='the controller node alone at its rate, fed joint_states',
        description='Start the controller node, feed it joint_states at the control rate '
                    'and a repeating motion, and print its loop period, missed deadlines, '
                    'callback and law step times.')
    ct.add_argument('--law', choices=LAWS, default='mbvsst', help='law (default mbvsst)')
    ct.add_argument('--robot', default='puma560', help='robot (default puma560)')
    ct.add_argument('--rate', type=positive_float, default=1000.0, metavar='HZ',
                    help='control rate (default 1000)')
    ct.add_argument('--seconds', type=positive_float, default=60.0, metavar='S',
                    help='measured time (default 60)')
    ct.add_argument('--backend', choices=('auto', 'numpy'), default='auto',
                    help='dynamics backend (default auto)')
    ct.add_argument('--state-rate', type=positive_float, default=None, metavar='HZ',
                    help='joint_states rate (default: the control rate)')
    ct.add_argument('--loop', choices=('thread', 'timer'), default='thread',
                    help='the node loop (default thread)')
    ct.add_argument('--json', action='store_true', help='print JSON instead of tables')
    ct.set_defaults(run=run_controller)


def _add_loop(benches):
    from ..bench.loop import BOARD_MODES, INNER_RATE, MODES
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
                         'current; impedance: one process, a computed-torque law)')
    lp.add_argument('--inner-rate', type=positive_float, default=INNER_RATE, metavar='HZ',
                    help='impedance-mode PD rate of the simulated board (default '
                         f'{INNER_RATE:g})')
    lp.add_argument('--stall-ms', type=nonnegative_float, default=0.0, metavar='MS',
                    help='stop the law process this long once per --stall-period (default 0)')
    lp.add_argument('--stall-period', type=positive_float, default=1.0, metavar='S',
                    help='time between stalls (default 1 s)')
    lp.add_argument('--payload', type=nonnegative_float, default=2.0, metavar='KG',
                    help='payload on the simulated arm, unknown to the model (default 2)')
    lp.add_argument('--joint-states-decimation', type=int_between(1, 1000), default=1,
                    metavar='N', help='one process: publish joint_states every N-th cycle '
                                      '(default 1: every cycle)')
    lp.add_argument('--rt-priority', type=int_between(0, 99), default=None, metavar='P',
                    help='SCHED_FIFO priority 1-99 of the thread that reads the board (0: '
                         "normal; default the demo's: 20, the board 30, in one process only; "
                         'needs rtprio, see docs/realtime.md)')
    lp.add_argument('--cpus', type=int_at_least(0), nargs='+', metavar='CPU',
                    help='CPUs that thread may run on (default: any)')
    lp.add_argument('--lock-memory', action='store_true',
                    help="lock the loop process's memory (mlockall)")
    lp.add_argument('--compare-graph', action='store_true',
                    help='then run the two-node graph with the same options (JSON: "graph")')
    lp.add_argument('--json', action='store_true', help='print JSON instead of tables')
    lp.set_defaults(run=run_loop)


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
                     help='run only this section, repeatable (choices: '
                          f'{", ".join(SECTIONS)}; default: all)')
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


def _add_drives(benches):
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


def _board_options(p):
    """Add the options of ``robodyn bench board``."""
    p.add_argument('--robot', default='puma560',
                   help='library robot, example robot or URDF/xacro of the simulated boards '
                        '(default puma560)')
    p.add_argument('--seconds', type=positive_float, default=5.0,
                   help='sustained-loop time per transport [s] (default 5)')
    p.add_argument('--pings', type=int_at_least(1), default=2000,
                   help='heartbeat round trips per transport (default 2000)')
    p.add_argument('--batches', type=int_at_least(1), default=5,
                   help='interleaved batches (default 5)')
    p.add_argument('--json', action='store_true', help='print JSON instead of tables')


def _planner_options(p):
    """Add the options of ``robodyn bench planner``."""
    p.add_argument('--repeat', type=int_at_least(1), default=15,
                   help='interleaved repeats (default 15)')
    p.add_argument('--moves', type=int_at_least(1), default=20,
                   help='random moves compared (default 20)')
    p.add_argument('--seed', type=int_at_least(0), default=0,
                   help='random seed, an integer >= 0 (default 0)')
    p.add_argument('--quick', action='store_true', help='3 repeats, 4 moves (smoke run)')
    p.add_argument('--json', action='store_true', help='print JSON instead of tables')
    p.add_argument('--topp-paths', type=int_at_least(0), default=20,
                   help='random paths of the comparison with TOPP-RA (toppra package; '
                        'default 20, 0 skips it)')
    p.add_argument('--no-toppra', action='store_true', help='skip the TOPP-RA comparison')


#: Benches whose run(args) lives in their module: name -> options.
_MODULE_BENCHES = {'board': _board_options, 'planner': _planner_options}


def _add_module_bench(benches, name, module, alias=False):
    import importlib
    bench = importlib.import_module(f'..bench.{module}', __package__)
    help_text = (f"alias of 'robodyn bench {name}'" if alias else bench.HELP)
    p = benches.add_parser(name, help=help_text, description=bench.DESCRIPTION)
    (_MODULE_BENCHES.get(module) or bench.add_options)(p)
    p.set_defaults(run=bench.run)


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


def _realtime_parameters(args):
    """Return the loop node's real-time parameters asked for (dict, defaults left out)."""
    values = {'cpus': [int(c) for c in args.cpus or ()], 'lock_memory': bool(args.lock_memory)}
    values = {k: v for k, v in values.items() if v}
    return values if args.rt_priority is None else {'rt_priority': args.rt_priority, **values}


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
                            inner_rate=args.inner_rate, stall_ms=args.stall_ms,
                            stall_period=args.stall_period, payload=args.payload,
                            joint_states_decimation=args.joint_states_decimation,
                            loop_parameters=_realtime_parameters(args))
    opts.check()
    runs = [opts]
    if args.compare_graph and opts.mode != 'graph':   # the graph sends currents
        runs.append(replace(opts, mode='graph', board_mode='current',
                            joint_states_decimation=1))

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


def run_laws(args):
    """
    Execute ``robodyn bench laws``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        0.

    """
    from ..bench.laws import format_result, run
    res = run(args.robot, args.laws, args.backends, args.steps, args.rounds, args.gap,
              args.python)
    print(json.dumps(res, indent=2) if args.json else format_result(res))
    return 0


def run_controller(args):
    """
    Execute ``robodyn bench controller``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        0, or 1 when the node failed.

    """
    from ..bench.controller_node import format_result, run
    try:
        res = run(args.law, args.robot, args.rate, args.seconds, args.backend,
                  args.state_rate, args.loop)
    except RuntimeError as exc:
        print(f'robodyn bench controller: FAILED: {exc}', file=sys.stderr)
        return 1
    print(json.dumps(res, indent=2) if args.json else format_result(res))
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
