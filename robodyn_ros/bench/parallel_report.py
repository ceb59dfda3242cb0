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

"""Markdown tables of the ``robodyn bench parallel`` results."""

from ..reproductions.parallel_figures import MIRAB_TABLE_7_1

#: Goals of the issue: batch throughput >= 2x rneaInParallel, 1 -> 2 threads >= 1.8x.
GOALS = {'throughput': 2.0, 'speedup': 1.8}


def _ms(seconds):
    return f'{seconds * 1e3:.2f}'


def _us(seconds):
    return f'{seconds * 1e6:.2f}'


def _met(value, goal):
    return 'met' if value >= goal else 'NOT met'


def _batch(res):
    lines = []
    for b in res['batch']:
        r = b['ratios']
        lines += [f"#### Batch of {b['states']:,} states, {b['robot']} (inverse dynamics, "
                  'friction off)', '', '| implementation | median [ms] | min [ms] | states/s |',
                  '|---|---:|---:|---:|']
        for name, t in b['times'].items():
            rate = '' if name.startswith('machine') else f"{b['states'] / t['median']:,.0f}"
            lines.append(f"| {name} | {_ms(t['median'])} | {_ms(t['min'])} | {rate} |")
        lines += ['', '| goal | target | measured | |', '|---|---:|---:|---|',
                  '| throughput, 1 thread: ours / rneaInParallel | >= 2x | '
                  f"{r['throughput_vs_pinocchio_1']:.2f}x | "
                  f"{_met(r['throughput_vs_pinocchio_1'], GOALS['throughput'])} |",
                  '| throughput, 2 threads: ours / rneaInParallel | >= 2x | '
                  f"{r['throughput_vs_pinocchio_2']:.2f}x | "
                  f"{_met(r['throughput_vs_pinocchio_2'], GOALS['throughput'])} |",
                  f"| ours, speed-up 1 -> 2 threads | >= 1.8x | {r['speedup_ours']:.2f}x | "
                  f"{_met(r['speedup_ours'], GOALS['speedup'])} |",
                  f"| Pinocchio, speed-up 1 -> 2 threads | | {r['speedup_pinocchio']:.2f}x | |",
                  '| machine reference (sha256), speed-up 1 -> 2 threads | | '
                  f"{r['speedup_machine']:.2f}x | |",
                  '| machine reference (the same kernel, 1 -> 2 processes) | | '
                  f"{r['speedup_processes']:.2f}x | |", '']
    return lines


def _service(res):
    from .service_report import format_service
    return ['#### The service over DDS (see `robodyn bench service`)', '',
            format_service(res['service']), '']


def _task_graph(res):
    t = res['task_graph']
    lines = [f"#### Seed 004 scheduled subtasks on p threads ({t['robot']}, customized graph)",
             '', '| p | levels (modelled) | speed-up (modelled) | one state [us] (measured) | '
             f"speed-up (measured) | per state in a batch of {t['batch']:,} [us] | speed-up "
             '(measured) |', '|---:|---:|---:|---:|---:|---:|---:|']
    base = t['rows'][0]
    for r in t['rows']:
        lines.append(f"| {r['p']} | {r['levels']} | {r['modelled_speedup']:.2f} | "
                     f"{_us(r['one_state'])} | {base['one_state'] / r['one_state']:.2f} | "
                     f"{_us(r['batch_per_state'])} | "
                     f"{base['batch_per_state'] / r['batch_per_state']:.2f} |")
    lines.append('')
    for name, v in t['serial'].items():
        lines.append(f'Serial reference, {name}: {_us(v)} us.')
    return lines + ['']


def _rows(res):
    lines = ['#### Seed 003 row partition (M and Q), measured beside operation counts', '',
             '| robot | configuration | mode | workers | per state [us] | serial [us] | '
             'speed-up | efficiency | busy fraction per worker (measured) | speed-up '
             '(modelled) | busy fraction (modelled) |',
             '|---|---|---|---:|---:|---:|---:|---:|---|---:|---|']
    for r in res['rows']:
        busy = ', '.join(f'{x:.2f}' for x in r['busy_fraction'][:7])
        mbusy = ', '.join(f'{x:.2f}' for x in r['modelled_busy_fraction'][:7])
        more = ' ...' if len(r['busy_fraction']) > 7 else ''
        lines.append(f"| {r['robot']} | {r['configuration']} | {r['mode']} | {r['workers']} | "
                     f"{_us(r['per_state'])} | {_us(r['serial_per_state'])} | "
                     f"{r['speedup']:.3f} | {r['efficiency']:.3f} | {busy}{more} | "
                     f"{r['modelled_speedup']:.2f} | {mbusy}{more} |")
    t71 = MIRAB_TABLE_7_1
    lines += ['', 'Seed 003 Table 7.1 (MA3000 on T800 transputers, measured there): serial '
              f"{t71['serial']['time_ms']} ms; rows {t71['rows']['time_ms']} ms, speed-up "
              f"{t71['rows']['speedup']}, efficiency {t71['rows']['efficiency']}, activity "
              f"{', '.join(str(x) for x in t71['rows']['activity'])} %; elements speed-up "
              f"{t71['elements']['speedup']}, efficiency {t71['elements']['efficiency']}; "
              f"row 1 split speed-up {t71['row 1 split']['speedup']}.", '']
    return lines


def _prediction(res):
    p = res['prediction']
    lines = [f"#### Seed 000 per-link workers (Stanford, Trajectory 1 in {p['duration']:g} s, "
             f"{p['samples']} samples)", '', '| method | threads | per sample [us] (measured) | '
             'speed-up vs serial (measured) | speed-up (modelled, seed 000) |',
             '|---|---:|---:|---:|---:|']
    for r in p['rows']:
        lines.append(f"| {r['method']} | {r['threads']} | {_us(r['per_sample'])} | "
                     f"{r['measured_speedup']:.2f} | {r['modelled_speedup']:.2f} |")
    lines += ['', f"The C kernel computes one sample in {_us(p['c_kernel_per_sample'])} us.", '']
    return lines


def format_parallel(res):
    """
    Format the results of :func:`robodyn_ros.bench.parallel.run`.

    Parameters
    ----------
    res : dict
        Bench results.

    Returns
    -------
    str
        Markdown.

    """
    s = res['settings']
    lines = [f"Settings: batch of {s['batch_states']:,} states, {s['repeat']} rounds; "
             f"CPUs {s['cpus']}; load average before {s['load_before']}, after "
             f"{s['load_after']}.", '']
    for key, part in (('batch', _batch), ('service', _service), ('task_graph', _task_graph),
                      ('rows', _rows), ('prediction', _prediction)):
        if key in res:
            lines += part(res)
    return '\n'.join(lines)
