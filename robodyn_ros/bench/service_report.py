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

"""Markdown tables of the ``robodyn bench service`` results."""

#: The issue's goals: 1,000-point round trip p50 [s]; planner with the service / in-process.
GOALS = {'round_trip_1000': 0.005, 'planner_ratio': 2.0}


def _ms(seconds):
    return f'{seconds * 1e3:.2f}'


def _counter(res, key):
    return int(res.get('after', {}).get(key, 0)) - int(res.get('before', {}).get(key, 0))


def _round_trips(res, cross):
    rt = res['round_trips']
    configs = [k for k in rt if k != 'in_process']
    sizes = list(rt['in_process'])
    head = ['points', 'in-process, 1 thread', 'in-process, 2 threads'] + [
        f'{c}, p50 (p99)' for c in configs]
    if cross:
        head.append('service + 2 workers across the link, p50 (p99)')
    lines = ['#### Round trips [ms]', '', '| ' + ' | '.join(head) + ' |',
             '|' + '---:|' * len(head)]
    for n in sizes:
        row = [f'{int(n):,}'] + [_ms(rt['in_process'][n][f'{t} thread(s)']) for t in (1, 2)]
        for c in configs:
            r = rt[c].get(n)
            row.append(f"{_ms(r['p50'])} ({_ms(r['p99'])})" if r else '')
        if cross:
            r = cross.get('round_trips', {}).get(n)
            row.append(f"{_ms(r['p50'])} ({_ms(r['p99'])})" if r else '')
        lines.append('| ' + ' | '.join(row) + ' |')
    return lines + ['']


def goals(res):
    """
    Compare the issue's goals with the measured figures.

    Parameters
    ----------
    res : dict
        Results of :func:`robodyn_ros.bench.service.run`.

    Returns
    -------
    list of tuple
        ``(goal, target, measured, met)``.

    """
    out = []
    rt = res.get('round_trips', {})
    one = rt.get('service, 2 threads', {}).get('1000')
    if one:
        out.append(('1,000-point round trip, p50', '<= 5 ms', f"{_ms(one['p50'])} ms",
                    one['p50'] <= GOALS['round_trip_1000']))
    alone = rt.get('service, 1 thread', {}).get('100000')
    split = rt.get('service + 2 worker processes', {}).get('100000')
    if alone and split:
        out.append(('100,000 points: 2 workers vs the service alone on 1 thread, p50',
                    '< 1x', f"{split['p50'] / alone['p50']:.2f}x ({_ms(split['p50'])} vs "
                            f"{_ms(alone['p50'])} ms)", split['p50'] < alone['p50']))
    for name, plan in res.get('planner', {}).items():
        ratio = plan['service']['p50'] / plan['local']['p50']
        out.append((f'planner ({name} timing) with the service / in-process, p50', '<= 2x',
                    f'{ratio:.2f}x', ratio <= GOALS['planner_ratio']))
    return out


def _flood(res):
    lines = ['#### Flood: requests sent back to back', '',
             '| queue | requests x points | answered | results | busy | other errors | '
             'duplicates | all answered in [s] | points/s | service RSS before / peak '
             '[MB] |', '|---|---|---:|---:|---:|---:|---:|---:|---:|---|']
    for label, f in res['flood'].items():
        queue = ', '.join(f'{k}={v}' for k, v in f['params'].items()) or 'default'
        lines.append(f"| {queue} | {f['count']} x {f['points']} | {f['answered']} | "
                     f"{f['results']} | {f['busy']} | {f['other_errors']} | "
                     f"{f['duplicates']} | {f['elapsed']:.3f} | {f['points_per_second']:,.0f} "
                     f"| {f['rss_before']['now']:.0f} / {f['rss']['peak']:.0f} |")
    return lines + ['']


def _oversize(res):
    o = res['oversize']
    lines = ['#### Requests above max_points', '',
             '| points | request [MB] | answer | time to the answer [s] | service RSS peak / '
             f"after [MB] (before: {o['rss_before']['now']:.0f}) |", '|---:|---:|---|---:|---|']
    for n, r in o.items():
        if n == 'rss_before':
            continue
        lines.append(f"| {int(n):,} | {r['request_bytes'] / 1e6:.0f} | {r['code']} | "
                     f"{r['answer_time']:.2f} | {r['rss']['peak']:.0f} / {r['rss']['now']:.0f} |")
    return lines + ['']


def _killed(res):
    k = res['killed_worker']
    r = k['killed']
    return ['#### A worker frozen and killed while its chunk is out (2 workers, worker_timeout '
            f"{k['worker_timeout']} s)", '',
            f"Answer {'identical to' if r.get('identical') else 'DIFFERENT from'} the "
            f"in-process one after {r['round_trip']:.3f} s; chunks answered by workers "
            f"{_counter(r, 'chunks_answered')}, computed by the service "
            f"{_counter(r, 'chunks_local')}, timeouts {_counter(r, 'worker_timeouts')}, "
            f"workers lost {_counter(r, 'workers_lost')} (the killed one, after its "
            'heartbeats stopped); the next 20 requests with the remaining worker: p50 '
            f"{_ms(k['after']['p50'])} ms.", '']


def _chunks(res):
    lines = ['#### Chunks straight to one worker process', '', '| points | p50 [ms] | p99 [ms] |',
             '|---:|---:|---:|']
    for n, r in res['chunks'].items():
        lines.append(f"| {int(n):,} | {_ms(r['p50'])} | {_ms(r['p99'])} |")
    return lines + ['']


def _planner(res):
    lines = ['#### Planner: 5-waypoint spline, effort limits at 55 %', '',
             '| timing | requests per plan (points) | with the service p50 [ms] | in-process '
             'p50 [ms] | ratio |', '|---|---|---:|---:|---:|']
    for name, p in res['planner'].items():
        lines.append(f"| {name} | {len(p['points_per_call'])} "
                     f"({', '.join(map(str, p['points_per_call']))}) | "
                     f"{_ms(p['service']['p50'])} | {_ms(p['local']['p50'])} | "
                     f"{p['service']['p50'] / p['local']['p50']:.2f} |")
    return lines + ['']


def _cross(res):
    c = res['cross_link']
    if 'skipped' in c:
        return [f"Cross-link run skipped: {c['skipped']}.", '']
    cut = c['cut']
    same = c['identical']
    return ['#### Across the link (service in one namespace, 2 workers in the other)', '',
            'A 10,000-point answer through the workers is '
            f"{'identical to' if same.get('identical') else 'DIFFERENT from'} the in-process "
            f"one. Link cut after {cut['crossed_bytes'] / 1e6:.1f} MB of a 100,000-point "
            f"request's chunks had crossed: answered after {cut['round_trip']:.2f} s, "
            f"{'identical' if cut.get('identical') else 'DIFFERENT'}, with "
            f"{cut['chunks_local']} chunk(s) computed by the service.", '']


def format_service(res):
    """
    Format the results of :func:`robodyn_ros.bench.service.run`.

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
    lines = [f"Run {s['date']}, robot {s['robot']}, {s['cpus']} CPUs, load average before "
             f"{s['load_before']}, after {s.get('load_after')}.", '']
    if 'round_trips' in res:
        lines += _round_trips(res, res.get('cross_link'))
    marks = goals(res)
    if marks:
        lines += ['| goal | target | measured | |', '|---|---|---|---|']
        lines += [f"| {g} | {t} | {m} | {'met' if ok else 'NOT met'} |" for g, t, m, ok in marks]
        lines.append('')
    for key, part in (('flood', _flood), ('oversize', _oversize),
                      ('killed_worker', _killed), ('chunks', _chunks), ('planner', _planner),
                      ('cross_link', _cross)):
        if key in res:
            lines += part(res)
    return '\n'.join(lines)
