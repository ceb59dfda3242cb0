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

"""
``robodyn demo --soak MINUTES``: the demo's graph at full rate for a long time.

One law (the first of ``--controller``) tracks the demo's goal over and
over. Every ``SAMPLE_PERIOD`` the resident memory of each part, the
hardware interface's frame counters and the arrival times of
``joint_states`` and ``joint_commands`` are sampled; per minute the loop
timing is summarised. The verdict: each part's RSS at the end within
``RSS_TOLERANCE`` of its value after the first minute, the last minute's
``joint_states`` and ``joint_commands`` rates and median periods without a
trend larger than ``DRIFT_TOLERANCE`` over the run (straight-line fit over
the complete minutes, so that minute-to-minute noise on a busy machine is
not taken for drift), and no lost or reordered board frame. Nothing is
recorded to MCAP (the run log keeps the last minute only).
"""

from dataclasses import asdict, dataclass, field
import json
import os
import time

import numpy as np

from .graph import controller_name, HARDWARE
from .metrics import rate_stats

#: Sampling period of memory and counters [s].
SAMPLE_PERIOD = 5.0
#: Largest RSS change from its value after the first minute (fraction).
RSS_TOLERANCE = 0.05
#: Largest change of a stream's rate or median period from the first minute (fraction).
DRIFT_TOLERANCE = 0.05


def rss_kib(pid):
    """
    Return the resident set size of a process [KiB], or None if unknown.

    Parameters
    ----------
    pid : int
        Process id (Linux ``/proc``).

    """
    try:
        with open(f'/proc/{pid}/status', encoding='ascii') as fh:
            for line in fh:
                if line.startswith('VmRSS:'):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


@dataclass
class SoakResult:
    """
    Samples and verdict of a soak run.

    Attributes
    ----------
    minutes : float
        Requested duration [min].
    law : str
        Control law used.
    goals : int
        Goals sent.
    rss : dict
        ``{part: [(t [s], KiB), ...]}``.
    counters : list
        ``(t [s], lost, reordered, crc, message errors)`` samples.
    per_minute : list of dict
        Per-minute ``joint_states`` / ``joint_commands`` statistics.
    checks : dict
        ``{check: (passed, detail)}``.
    controller : list
        ``(t [s], {statistic: value})`` samples of the controller's own
        loop statistics (its diagnostics, 2 s windows).

    """

    minutes: float
    law: str
    goals: int = 0
    rss: dict = field(default_factory=dict)
    counters: list = field(default_factory=list)
    per_minute: list = field(default_factory=list)
    checks: dict = field(default_factory=dict)
    controller: list = field(default_factory=list)

    @property
    def passed(self):
        """Tell whether every check passed."""
        return all(ok for ok, _ in self.checks.values())


def trend(values):
    """
    Return the change over a run that a straight-line fit gives, relative to the mean.

    Parameters
    ----------
    values : sequence of float
        One value per minute (at least two).

    Returns
    -------
    float
        ``slope * (len - 1) / mean``: the drift from the first to the last
        minute, without the minute-to-minute noise.

    """
    y = np.asarray(values, dtype=float)
    x = np.arange(y.size, dtype=float)
    slope = np.polyfit(x, y, 1)[0]
    return float(slope * (y.size - 1) / np.mean(y))


def evaluate(result):
    """
    Fill ``result.checks`` from the samples.

    Parameters
    ----------
    result : SoakResult
        Samples of a finished run (at least two minutes for the drift and
        memory checks).

    """
    checks = {}
    for part, samples in sorted(result.rss.items()):
        t = np.array([s[0] for s in samples])
        kib = np.array([s[1] for s in samples], dtype=float)
        after = kib[t >= 60.0]
        if after.size < 2:
            checks[f'rss {part}'] = (False, 'fewer than two samples after the first minute')
            continue
        base, last = after[0], after[-1]
        growth = (last - base) / base
        peak = (after.max() - base) / base
        checks[f'rss {part}'] = (abs(growth) <= RSS_TOLERANCE and peak <= RSS_TOLERANCE,
                                 f'{base / 1024:.1f} MiB after 1 min, {last / 1024:.1f} MiB '
                                 f'at the end ({100 * growth:+.2f} %, peak {100 * peak:+.2f} %)')
    full = [m for m in result.per_minute if m['complete']]
    if len(full) >= 2:
        for stream in ('joint_states', 'joint_commands'):
            rates = [m[stream]['rate_hz'] for m in full]
            p50 = [m[stream]['period_p50_ms'] for m in full]
            drift_rate, drift_p50 = trend(rates), trend(p50)
            ok = abs(drift_rate) <= DRIFT_TOLERANCE and abs(drift_p50) <= DRIFT_TOLERANCE
            checks[f'drift {stream}'] = (ok, f'{min(rates):.0f}-{max(rates):.0f} Hz per minute, '
                                         f'trend {100 * drift_rate:+.2f} % over the run; '
                                         f'median period {min(p50):.3f}-{max(p50):.3f} ms, '
                                         f'trend {100 * drift_p50:+.2f} %')
    else:
        checks['drift'] = (False, 'fewer than two complete minutes')
    if result.counters:
        lost, reordered, crc, bad = (result.counters[-1][k] - result.counters[0][k]
                                     for k in range(1, 5))
        checks['board frames'] = (lost == 0 and reordered == 0 and crc == 0 and bad == 0,
                                  f'{lost} lost, {reordered} out of order, {crc} CRC errors, '
                                  f'{bad} bad messages')
    result.checks = {k: (bool(ok), detail) for k, (ok, detail) in checks.items()}


def run_soak(session, minutes):
    """
    Run the soak on a started session.

    Parameters
    ----------
    session : DemoSession
        Started (parts up, hardware interface configured).
    minutes : float
        Duration [min].

    Returns
    -------
    SoakResult
        Samples and checks.

    """
    from .goal import demo_waypoints
    law = session.cfg.controllers[0]
    name = controller_name(law)
    log, group = session.log, session.group
    result = SoakResult(minutes, law)
    session.progress(f'soak: {minutes:g} min under {law} at {session.cfg.rate:g} Hz')
    session.transition(name, 'activate')
    t_act = time.time()
    group.wait_until(lambda: len(log.commands(t_act)) > 5, 10.0, 'joint_commands', name)
    session.transition(HARDWARE, 'activate')
    waypoints = demo_waypoints(session.model, session.home, short=False)
    t0 = time.time()
    stop = t0 + 60.0 * minutes
    next_goal = next_sample = t0
    minute = 0
    while True:
        now = time.time()
        group.check()
        if now >= next_goal and now < stop:
            plan = session.request_plan(waypoints)
            result.goals += 1
            next_goal = plan.end + 0.5
        if now >= next_sample:
            for part in group.parts:
                kib = rss_kib(part.pid)
                if kib is not None:
                    result.rss.setdefault(part.name, []).append((now - t0, kib))
            result.counters.append((now - t0,) + tuple(
                log.counter('/' + HARDWARE, key) for key in (
                    'lost_frames', 'reordered_frames', 'crc_errors', 'message_errors')))
            diag = log.diagnostic('/' + name)
            if diag:
                result.controller.append((now - t0, {k: diag['values'].get(k) for k in (
                    'period_p50_ms', 'period_p99_ms', 'missed_percent', 'compute_p99_us')}))
            next_sample += SAMPLE_PERIOD
        if now >= t0 + 60.0 * (minute + 1) or now >= stop:
            lo = t0 + 60.0 * minute
            hi = min(now, t0 + 60.0 * (minute + 1))
            result.per_minute.append({
                'minute': minute + 1, 'complete': hi - lo >= 59.0,
                'joint_states': asdict(rate_stats(log.state_arrivals(lo, hi))),
                'joint_commands': asdict(rate_stats(log.commands(lo, hi)))})
            m = result.per_minute[-1]
            session.progress(f'soak: minute {minute + 1}: joint_states '
                             f'{m["joint_states"]["rate_hz"]:.0f} Hz, joint_commands '
                             f'{m["joint_commands"]["rate_hz"]:.0f} Hz, lost frames '
                             f'{result.counters[-1][1] - result.counters[0][1]}')
            log.trim(hi - 5.0)
            minute += 1
            if now >= stop:
                break
        time.sleep(0.05)
    session.transition(HARDWARE, 'deactivate')
    session.transition(name, 'deactivate')
    evaluate(result)
    return result


def write_soak(session, result, progress):
    """
    Print the soak's verdict and write ``soak.json`` in the output folder.

    Parameters
    ----------
    session : DemoSession
        The finished session.
    result : SoakResult
        Samples and checks.
    progress : callable
        Receives the phase line.

    Returns
    -------
    int
        0 when every check passed, 1 otherwise.

    """
    progress('writing soak.json')
    path = os.path.join(session.out, 'soak.json')
    data = asdict(result)
    data['passed'] = result.passed
    data['rate_hz'] = session.cfg.rate
    data['robot'] = session.cfg.robot
    with open(path, 'w', encoding='utf-8') as fh:
        json.dump(data, fh, indent=2, default=float)
    lines = [f'soak: {result.minutes:g} min, {result.law}, {result.goals} goals, rate '
             f'{session.cfg.rate:g} Hz']
    for check, (ok, detail) in result.checks.items():
        lines.append(f'  {"PASS" if ok else "FAIL"}  {check}: {detail}')
    lines.append(f'soak: {"passed" if result.passed else "FAILED"}; samples in {path}')
    print('\n'.join(lines), flush=True)
    return 0 if result.passed else 1
