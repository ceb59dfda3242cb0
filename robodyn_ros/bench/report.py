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

"""Text (Markdown) tables of the ``robodyn bench dynamics`` results."""


def _us(seconds):
    return f'{seconds * 1e6:.3f}'


def _ok(value, goal, lower_is_better):
    met = value <= goal if lower_is_better else value >= goal
    return 'met' if met else 'NOT met'


def format_dynamics(res):
    """
    Format the results of :func:`robodyn_ros.bench.dynamics.run`.

    Parameters
    ----------
    res : dict
        Bench results.

    Returns
    -------
    str
        Markdown tables: single calls (median and min, microseconds), batch
        throughput, goals and the call profile.

    """
    goals = res['goals']
    s = res['settings']
    lines = [f"Settings: batch of {s['batch_states']} states; {s['repeat_single']} rounds for "
             f"single calls, {s['repeat_batch']} for batches; medians over rounds, "
             'compared calls interleaved in the same run.',
             f"CPUs: {s.get('cpus')}; load average (1, 5, 15 min) before {s.get('load_before')}, "
             f"after {s.get('load_after')} (other processes share the machine).", '']
    for label, r in res['robots'].items():
        rat = r['ratios']
        lines += [f"### {label} ({r['dof']} joints)", '',
                  '| single call from Python | median [us] | min [us] |',
                  '|---|---:|---:|']
        for name, t in r['single'].items():
            lines.append(f"| {name} | {_us(t['median'])} | {_us(t['min'])} |")
        count = s['batch_states']
        lines += ['', f'| batch of {count} states (inverse dynamics, friction off) | '
                  'median [ms] | states/s |', '|---|---:|---:|']
        for name, t in r['batch'].items():
            if name == 'profile':
                continue
            lines.append(f"| {name} | {t['median'] * 1e3:.2f} | "
                         f"{count / t['median']:,.0f} |")
        lines += ['', '| goal | measured | target | |', '|---|---:|---:|---|',
                  f"| one call, friction off: ours / rnea | {rat['single_off']:.2f}x | "
                  f"<= {goals['single']}x | {_ok(rat['single_off'], goals['single'], True)} |",
                  f'| one call, friction on: ours / rnea (information) | '
                  f"{rat['single_on']:.2f}x | | |"]
        for t in (1, 2):
            if f'batch_{t}' in rat:
                lines.append(f'| batch throughput, {t} thread(s): ours / rneaInParallel | '
                             f"{rat[f'batch_{t}']:.2f}x | >= {goals['batch']}x | "
                             f"{_ok(rat[f'batch_{t}'], goals['batch'], False)} |")
        lines.append(f"| ours, speed-up 1 -> 2 threads | {rat['speedup']:.2f}x | >= "
                     f"{goals['speedup']}x | {_ok(rat['speedup'], goals['speedup'], False)} |")
        if 'machine_speedup' in rat:
            lines.append('| machine reference (sha256), speed-up 1 -> 2 threads | '
                         f"{rat['machine_speedup']:.2f}x | | |")
        if 'pin_speedup' in rat:
            lines.append(f'| Pinocchio, speed-up 1 -> 2 threads (information) | '
                         f"{rat['pin_speedup']:.2f}x | | |")
        lines.append(f"| forward dynamics, friction off: ours / aba | {rat['forward']:.2f}x | "
                     f"<= {goals['forward']}x | {_ok(rat['forward'], goals['forward'], True)} |")
        if 'forward_on' in rat:
            lines.append('| forward dynamics, friction on: ours / aba (information) | '
                         f"{rat['forward_on']:.2f}x | | |")
        lines += [f"| mass matrix: ours / crba (information) | {rat['mass']:.2f}x | | |",
                  '', 'Profile of one call (friction off): total '
                  f"{_us(r['single']['ours, friction off']['median'])} us = argument checks "
                  f"+ output allocation + call {rat['overhead_us']:.3f} us (entry point "
                  f"without kernel) + kernel about {rat['kernel_us']:.3f} us (batch time per "
                  'state, 1 thread).']
        prof = r['batch'].get('profile')
        if prof:
            chunks = ', '.join(f'{c * 1e3:.2f}' for c in prof['chunks'])
            lines.append(f"Profile of the 2-thread batch: wall {prof['wall'] * 1e3:.2f} ms; "
                         f'inside the kernel call per thread {chunks} ms; outside (dispatch, '
                         f"argument checks, waiting) {prof['outside'] * 1e3:.2f} ms.")
        if 'kernels' in r:
            lines += ['', '| payload and friction, one call from Python | median [us] | '
                      'min [us] |', '|---|---:|---:|']
            for name, t in r['kernels'].items():
                lines.append(f"| {name} | {_us(t['median'])} | {_us(t['min'])} |")
            kr = r['kernel_ratios']
            diff = ', '.join(f'{k} {v:.1e}' for k, v in r['max_difference'].items())
            lines += ['', f"New / old time: payload {kr['payload']:.2f}x, regressor "
                      f"{kr['regressor']:.2f}x, friction {kr['friction']:.2f}x (largest "
                      f'difference between the forms [N m]: {diff}).']
        lines.append('')
    return '\n'.join(lines)
