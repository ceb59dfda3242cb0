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

"""``robodyn sim SCENARIO``: run a closed-loop experiment, print its statistics, plot it."""

import json
import sys

import numpy as np

from .args import output_dir
from ..errors import InputError
from ..sim.scenarios import run_scenario, SCENARIOS


def add_parser(sub):
    """
    Register the ``sim`` sub-command.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        Sub-parsers of the ``robodyn`` command.

    """
    p = sub.add_parser('sim', help='run a closed-loop simulation scenario',
                       description='Run a controller against the Pinocchio plant and print '
                                   'per-joint max and RMS tracking error and torque '
                                   'statistics; write PNG plots. Progress goes to stderr every '
                                   '2 s. Scenarios (--list describes them): '
                                   + ', '.join(SCENARIOS) + '. "Seed 00N" in their '
                                   'descriptions is one of the five source documents (see '
                                   'docs/results.md).')
    p.add_argument('scenario', nargs='?', help='scenario name (one of: '
                   + ', '.join(SCENARIOS) + ')')
    p.add_argument('--list', action='store_true', help='list the scenarios and exit')
    p.add_argument('--out', metavar='DIR', default='sim_results',
                   help='folder for the PNG plots (default ./sim_results)')
    p.add_argument('--no-plots', action='store_true', help='do not write plots')
    p.add_argument('--quick', action='store_true', help='shorter runs (smoke test)')
    p.add_argument('--json', action='store_true', help='print JSON instead of tables')
    p.set_defaults(run=run)


def _fmt(values, digits=4):
    return '  '.join(f'{v:9.{digits}f}' for v in values)


def run(args):
    """
    Execute ``robodyn sim``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        0 on success, 1 if a run diverged, 2 on a usage error.

    """
    if args.list:
        for name, fn in SCENARIOS.items():
            doc = (fn.__doc__ or '').strip().splitlines()
            print(f'{name:22s} {doc[0] if doc else ""}')
        return 0
    if not args.scenario:
        raise InputError('SCENARIO', f'missing: give one of {", ".join(SCENARIOS)} '
                                     '(robodyn sim --list describes them)')
    if args.scenario not in SCENARIOS:
        raise InputError('SCENARIO', f'unknown {args.scenario!r}; one of {", ".join(SCENARIOS)}')
    if not args.no_plots:
        output_dir(args.out, '--out')
    from ..sim.runner import progress
    with progress(_report):
        result = run_scenario(args.scenario, quick=args.quick)
    paths = []
    if not args.no_plots:
        from ..sim.plots import plot_runs
        paths = plot_runs(result.runs, args.out, result.name, result.title)
    summaries = [r.summary(limit=result.limits.get(r.label)) for r in result.runs]
    if args.json:
        print(json.dumps({'scenario': result.name, 'title': result.title, 'runs': summaries,
                          'checks': _plain(result.checks), 'lines': result.lines,
                          'plots': paths}, indent=2))
    else:
        print(result.title)
        for s in summaries:
            print(f'\n[{s["label"]}]' + ('  DIVERGED' if s['diverged'] else ''))
            n = len(s['max_error'])
            print('  joint           ' + '  '.join(f'{j + 1:9d}' for j in range(n)))
            print('  max |e| [deg]   ' + _fmt(s['max_error']))
            print('  RMS e [deg]     ' + _fmt(s['rms_error']))
            print('  max |tau| [N m] ' + _fmt(s['torque_max'], 2))
            print('  RMS tau [N m]   ' + _fmt(s['torque_rms'], 2))
            if 'saturated' in s:
                print('  saturated [%]   ' + _fmt(100 * np.asarray(s['saturated']), 1))
            print('  reversals [1/s] ' + _fmt(s['reversals_per_s'], 1))
        print()
        for line in result.lines:
            print(line)
        for path in paths:
            print(f'plot: {path}')
    return 1 if any(s['diverged'] for s in summaries) else 0


def _report(label, simulated, duration, elapsed):
    """Print one progress line of a run to stderr."""
    state = 'done' if simulated >= duration else f'{simulated:.1f} of {duration:.1f} s simulated'
    if simulated == 0.0:
        state = f'started ({duration:.1f} s to simulate)'
    print(f'robodyn sim: {label}: {state}, {elapsed:.0f} s', file=sys.stderr, flush=True)


def _plain(value):
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (np.floating, np.integer, np.bool_)):
        return value.item()
    return value
