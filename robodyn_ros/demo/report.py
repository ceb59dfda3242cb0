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

"""The demo's outputs: the printed tables, ``summary.json``, ``report.txt`` and the plots."""

import json
import math
import os


def joint_units(model):
    """Return per joint ``(scale, unit)`` for display: degrees or millimetres."""
    return [(1000.0, 'mm') if p else (180.0 / math.pi, 'deg') for p in model.is_prismatic]


def _fmt(value, digits=3):
    return 'n/a' if value is None or not math.isfinite(value) else f'{value:.{digits}f}'


def error_table(model, runs):
    """
    Format the per-joint max and RMS tracking error of each run.

    Parameters
    ----------
    model : RobotModel
        Joint names and kinds.
    runs : list of LawRun
        The runs.

    Returns
    -------
    str
        A text table, one row per joint, max and RMS columns per law.

    """
    units = joint_units(model)
    width = 20
    col = max([10] + [len(n) + 2 for n in model.joint_names])
    head = f'{"joint":<{col}}{"unit":<6}' + ''.join(f'{r.law:>{width}}' for r in runs)
    sub = f'{"":<{col + 6}}' + ''.join(f'{"max":>10}{"RMS":>10}' for _ in runs)
    lines = [head, sub]
    for j, name in enumerate(model.joint_names):
        scale, unit = units[j]
        row = f'{name:<{col}}{unit:<6}'
        for r in runs:
            row += (f'{_fmt(r.errors.max_abs[j] * scale):>10}'
                    f'{_fmt(r.errors.rms[j] * scale):>10}')
        lines.append(row)
    lines.append(f'{"samples":<{col + 6}}' + ''.join(f'{r.errors.samples:>20}' for r in runs))
    return '\n'.join(lines)


def timing_table(runs, rate, hardware='board'):
    """
    Format the loop-rate statistics of each run.

    Parameters
    ----------
    runs : list of LawRun
        The runs.
    rate : float
        Configured rate [Hz].
    hardware : {'board', 'cia402'}
        The simulated hardware (CiA 402 adds the SYNC-to-RPDO latency and
        the drives' cycle counters).

    Returns
    -------
    str
        A text table, one column per law.

    """
    rows = [
        ('controller cycles', lambda r: str(r.timing.get('cycles', 'n/a'))),
        ('controller period p50 / p99 / max [ms]', lambda r: ' / '.join(
            _fmt(r.timing.get(k + '_ms'), 2) for k in ('period_p50', 'period_p99',
                                                       'period_max'))),
        ('missed deadlines (> 1.5 periods)', lambda r: (
            f'{r.timing.get("missed_deadlines", "n/a")} '
            f'({_fmt(r.timing.get("missed_percent"), 1)} %)')),
        ('law compute p50 / p99 [us]', lambda r: ' / '.join(
            _fmt(r.timing.get(k), 0) for k in ('law_p50_us', 'law_p99_us'))),
        ('joint_states received [Hz]', lambda r: _fmt(r.states.rate_hz, 0)),
        ('joint_states gap p99 / max [ms]', lambda r: ' / '.join(
            _fmt(v, 2) for v in (r.states.period_p99_ms, r.states.period_max_ms))),
        ('joint_commands received [Hz]', lambda r: _fmt(r.commands.rate_hz, 0)),
        ('board reports at the host [Hz]', lambda r: r.hardware.get('report_rate_hz', 'n/a')),
        ('host cycle p50 / p99 [us]', lambda r: ' / '.join(
            str(r.hardware.get(k, 'n/a')) for k in ('cycle_time_p50_us', 'cycle_time_p99_us'))),
        ('board frames lost', lambda r: str(r.lost_frames)),
    ]
    if hardware == 'cia402':
        rows[-3] = ('drive cycles with a sample at the host [Hz]',
                    lambda r: r.hardware.get('report_rate_hz', 'n/a'))
        rows[-1] = ('drive answers missing (cycles without a sample)',
                    lambda r: str(r.lost_frames))
        rows += [
            ('SYNC-to-RPDO latency p50 / p99 [us]', lambda r: ' / '.join(
                str(r.hardware.get(k, 'n/a')) for k in ('latency_p50_us', 'latency_p99_us'))),
            ("host's part: TPDOs read to RPDOs sent p50 / p99 [us]", lambda r: ' / '.join(
                str(r.hardware.get(k, 'n/a')) for k in ('compute_p50_us', 'compute_p99_us'))),
            ('SYNCs sent / overruns', lambda r: ' / '.join(
                str(r.hardware.get(k, 'n/a')) for k in ('sync_cycles', 'sync_overruns'))),
            ('drive answers from an earlier SYNC (stale)', lambda r: str(
                r.hardware.get('tpdo_stale', 'n/a'))),
            ('EMCY received', lambda r: str(r.hardware.get('emcy_received', 'n/a'))),
        ]
    for part in (runs[0].cpu if runs else {}):
        rows.append((f'CPU {part} [% of a core]',
                     lambda r, p=part: _fmt(r.cpu.get(p), 0)))
    width = 26
    title = f'configured rate {rate:g} Hz'
    lines = [f'{title:<42}' + ''.join(f'{r.law:>{width}}' for r in runs)]
    for label, get in rows:
        lines.append(f'{label:<42}' + ''.join(f'{get(r):>{width}}' for r in runs))
    return '\n'.join(lines)


def payload_lines(runs, true_mass):
    """Return one line per law that estimates the payload [kg]."""
    lines = []
    for r in runs:
        if math.isfinite(r.payload):
            rel = (f' ({100.0 * (r.payload - true_mass) / true_mass:+.1f} %)'
                   if true_mass > 0 else '')
            if r.payload_held:
                rest = (f'{r.payload_rest:.3f} kg at rest, held there (frozen: at rest the '
                        'regressor does not excite the estimate, Coulomb friction carries part '
                        'of the load'
                        + (f'; excitation {r.payload_excitation:.3g} N m/kg'
                           if math.isfinite(r.payload_excitation) else '') + ')')
            elif r.payload_held is None:
                rest = (f'{r.payload_rest:.3f} kg at rest (Coulomb friction then carries part '
                        'of the load)')
            else:
                rest = (f'{r.payload_rest:.3f} kg at rest, not held (Coulomb friction then '
                        'carries part of the load)')
            lines.append(f'{r.law}: payload estimate {r.payload:.3f} kg while moving (median), '
                         f'true {true_mass:g} kg{rel}; {rest}')
    return lines or ['no law of this run estimates the payload']


def summary(session):
    """Return the run's summary as JSON-ready data."""
    cfg = session.cfg
    return {
        'robot': cfg.robot, 'rate_hz': cfg.rate, 'payload_kg': cfg.payload,
        'payload_com_m': list(cfg.payload_com), 'short': cfg.short, 'mode': cfg.mode,
        'hardware': cfg.hardware,
        'joints': list(session.model.joint_names),
        'domain_id': int(session.env['ROS_DOMAIN_ID']),
        'laws': {r.law: {
            'plan_duration_s': r.plan_duration, 'window_s': r.end - r.start,
            'tracking_error_rad': r.errors.as_dict(),
            'controller_reported_error_rad': r.reported.as_dict(),
            'payload_estimate_kg': None if not math.isfinite(r.payload) else r.payload,
            'payload_estimate_at_rest_kg': (None if not math.isfinite(r.payload_rest)
                                            else r.payload_rest),
            'payload_estimate_at_rest_held': r.payload_held,
            'payload_excitation_at_rest': (None if not math.isfinite(r.payload_excitation)
                                           else r.payload_excitation),
            'joint_states': r.states.as_dict(), 'joint_commands': r.commands.as_dict(),
            'controller_timing': r.timing, 'hardware': r.hardware, 'cpu_percent': r.cpu,
            'lost_frames': r.lost_frames} for r in session.runs},
        'recorded_messages': session.recorder.messages if session.recorder else 0,
        'notes': list(session.log.notes),
    }


def write_outputs(session, progress):
    """
    Print the tables and write summary, report, plots and the recording's path.

    Parameters
    ----------
    session : DemoSession
        A finished session.
    progress : callable
        Receives the phase line.

    """
    from .plots import plot_errors, plot_tracking
    progress('writing the report and the plots')
    cfg, model, runs, out = session.cfg, session.model, session.runs, session.out
    files = []
    for r in runs:
        files.append(plot_tracking(model, r, os.path.join(out, f'tracking_{r.law}.png')))
    files.append(plot_errors(model, runs, cfg.payload, os.path.join(out, 'errors.png')))
    with open(os.path.join(out, 'summary.json'), 'w', encoding='utf-8') as fh:
        json.dump(summary(session), fh, indent=2, default=float)
    text = '\n\n'.join([
        f'robodyn demo: {cfg.robot} carrying {cfg.payload:g} kg its model does not know, '
        f'{len(runs)} law(s) on the same goal, on '
        + ('simulated CiA 402 drives (CANopen over udp_multicast)' if cfg.hardware == 'cia402'
           else 'the simulated driver board (UDP)'),
        'Tracking error (q_ref - q from joint_states against the planned trajectory)\n'
        + error_table(model, runs),
        ('Control loop: one process (control_loop: board, law and friction compensation in '
         'one loop, no DDS in the cycle)' if cfg.mode == 'one-process' else
         'Control loop: two-node graph (hardware_interface and controller over DDS)')
        + '\n' + timing_table(runs, cfg.rate, cfg.hardware),
        '\n'.join(payload_lines(runs, cfg.payload)),
        'Files in ' + out + '\n' + '\n'.join(
            '  ' + name for name in [os.path.basename(f) for f in files] + [
                'summary.json', 'report.txt', 'recording.mcap', 'run.json', 'logs/'])])
    with open(os.path.join(out, 'report.txt'), 'w', encoding='utf-8') as fh:
        fh.write(text + '\n')
    print('\n' + text, flush=True)
