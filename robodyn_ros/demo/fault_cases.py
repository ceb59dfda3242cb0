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
The cases of the fault campaign: one function each, injecting one failure.

Every case starts with the arm holding still under the controller, injects
its failure, watches, checks what must be true, brings the graph back to
running and returns a :class:`~.fault_campaign.CaseResult` (the campaign
adds the drift and speed limits). The list :data:`CASES` keeps the order.
"""

import math
import socket
import subprocess
import sys
import time

import numpy as np

from .fault_campaign import CaseResult
from .graph import HARDWARE
from .processes import PartFailed
from ..hardware.board import codec
from ..hardware.board import messages as m
from ..sim.board.faults import control_request


def _unexpected(c, since):
    """Transitions other than a brief hold while the controller was late (str, '' if none)."""
    from .fault_campaign import _target
    bad = [t for _, t in c.transitions(since) if _target(t) not in ('holding', 'running')]
    state, deadline = c.drive_state(), time.monotonic() + c.hold_time + 0.5
    while state == 'holding' and time.monotonic() < deadline:   # a brief hold ends either way
        time.sleep(0.02)
        state = c.drive_state()
    if state != 'running':
        bad.append(f'ends in {state!r}')
    return '; '.join(bad)


def _watch(c, seconds):
    time.sleep(seconds if not c.short else 0.6 * seconds)


def _recover(c, r):
    """Reset the interface (if needed) and wait for the outputs to run again."""
    state = c.drive_state()
    answer = None
    if state in ('stopped', 'fault'):
        answer = c.reset_fault()
        if not answer or not answer[0]:
            r.failures.append(f'reset_fault refused: {answer}')
    try:
        c.wait_running()
    except PartFailed as exc:
        if answer is None:
            raise
        # The reset's answer is what tells a refused reset from one that did not take.
        raise PartFailed(exc.part, f'{exc.reason} (reset_fault from {state!r} answered '
                         f'{answer})', exc.log) from None


def _held_then_braked(c, r):
    """Fail unless the interface's hold ended in stopped and the board's outputs are off."""
    if c.drive_state() != 'stopped':
        r.failures.append(f'expected the hold to end in stopped, got {c.drive_state()!r}')
    if c.truth.latest()['enabled']:
        r.failures.append('outputs still on after the hold time')


def controller_killed(c):
    """Kill the controller (SIGKILL): hold, then brakes; restart, reset."""
    r = CaseResult('controller_killed', 'controller process killed (SIGKILL)')
    q0, t0 = c.here()
    c.kill(c.controller)
    time.sleep(c.hold_time + 1.0)
    r.drift_deg = c.drift(q0, t0)
    r.time_to_safe = c.first_safe(t0)
    r.reaction = c.reaction(t0)
    _held_then_braked(c, r)
    c.restart_controller()
    _recover(c, r)
    return r


def activation_without_controller(c):
    """Activate the interface with no controller: brakes stay on."""
    r = CaseResult('activation_without_controller',
                   'hardware interface activated before any controller commands')
    c.session.transition(c.controller, 'deactivate')
    c.session.transition(HARDWARE, 'deactivate')
    q0, t0 = c.here()
    c.session.transition(HARDWARE, 'activate')
    _watch(c, 2.0)
    r.drift_deg = c.drift(q0, t0)
    r.time_to_safe = c.first_safe(t0, ('armed',))
    r.reaction = c.reaction(t0)
    if c.drive_state() != 'armed' or c.truth.latest()['enabled']:
        r.failures.append(f'outputs not off and armed: {c.drive_state()!r}')
    c.activate_controller()
    _recover(c, r)
    return r


def _flood(c, r, method, *args, **kwargs):
    q0, t0 = c.here()
    c.rogue.flood_in_background(method, *args, **kwargs).join()
    _watch(c, 1.0)
    r.drift_deg = c.drift(q0, t0)
    r.reaction = c.reaction(t0)
    return t0


def rogue_invalid_commands(c):
    """Flood joint_commands with invalid messages from a second publisher."""
    r = CaseResult('rogue_invalid_commands', 'NaN, unknown, short, empty, 1e30 and duplicate '
                   'joint_commands at 1 kHz from a second publisher')
    before = c.log.counter('/' + HARDWARE, 'commands_rejected') + c.log.counter(
        '/' + HARDWARE, 'commands_foreign')
    t0 = _flood(c, r, 'flood_commands', 'invalid', 2.0, 1000.0)
    time.sleep(1.0)   # one diagnostics period
    after = c.log.counter('/' + HARDWARE, 'commands_rejected') + c.log.counter(
        '/' + HARDWARE, 'commands_foreign')
    r.reaction = f'{after - before} refused; ' + r.reaction
    if _unexpected(c, t0):
        r.failures.append('the outputs changed state: ' + _unexpected(c, t0))
    if after - before < 100:
        r.failures.append(f'only {after - before} messages counted as refused')
    return r


def second_valid_source(c):
    """Send valid commands from a second publisher while the first pauses: refused, barred."""
    r = CaseResult('second_valid_source', 'valid zero-torque joint_commands at 500 Hz from a '
                   'second publisher; the controller deactivated and activated meanwhile')
    before = c.log.counter('/' + HARDWARE, 'commands_foreign')
    q0, t0 = c.here()
    flood = c.rogue.flood_in_background('flood_commands', 'valid', 3.0, 500.0,
                                        effort=[0.0] * c.model.n)
    time.sleep(0.8)
    c.session.transition(c.controller, 'deactivate')   # the claim is freed: the rogue waits
    time.sleep(0.3)
    _check_release(c, r, t0)
    c.activate_controller()
    flood.join()
    _watch(c, 1.0)
    r.drift_deg = c.drift(q0, t0)
    after = c.log.counter('/' + HARDWARE, 'commands_foreign')
    r.reaction = f'{after - before} refused; {c.reaction(t0)}{r.reaction}'
    if _unexpected(c, t0):
        r.failures.append('the outputs changed state: ' + _unexpected(c, t0))
    if after - before < 100:
        r.failures.append(f'only {after - before} foreign commands counted')
    return r


def _implausible(c, kind, what):
    r = CaseResult(f'implausible_states_{kind}', what)
    q0, _ = c.here()
    t0 = _flood(c, r, 'flood_states', kind, q0, 1.0, 500.0)
    r.time_to_safe = c.first_safe(t0)
    if math.isnan(r.time_to_safe):
        r.failures.append('the interface never held: the controller kept commanding')
    _recover(c, r)
    return r


def implausible_states_far(c):
    """joint_states with a finite 1e30 rad from a second publisher."""
    return _implausible(c, 'far', 'joint_states with 1e30 rad on joint 2 from a second '
                                  'publisher for 1 s')


def implausible_states_jump(c):
    """joint_states 0.5 rad off from a second publisher."""
    return _implausible(c, 'jump', 'joint_states 0.5 rad off on joint 2 from a second '
                                   'publisher for 1 s')


def _goal(c):
    """Send a motion from where the arm is; return the plan's peak speed [rad/s]."""
    q0, _ = c.here()
    offset = np.zeros(c.model.n)
    offset[:3] = [0.4, -0.3, 0.3][:min(3, c.model.n)]
    plan = c.session.request_plan(np.array([q0 + offset, q0]))
    return plan, float(np.max(np.abs(plan.velocities)))


def link_lost_in_motion(c):
    """Board link down for 2 s during a motion: off, brakes, no re-enable; reset, no lurch."""
    r = CaseResult('link_lost_in_motion', 'board link lost for 2 s in the middle of a motion, '
                   'then back')
    plan, peak = _goal(c)
    while time.time() < plan.stamp + 0.4 * plan.times[-1]:
        time.sleep(0.01)
    _, t0 = c.here()
    port = c.board_info['control_port']
    control_request(port, {'cmd': 'inject', 'fault': 'disconnect'})
    time.sleep(2.0)
    control_request(port, {'cmd': 'clear', 'fault': 'disconnect'})
    r.time_to_safe = c.first_safe(t0)
    off = c.truth.window(t0)
    stopped = off['t'][~off['enabled']] if off['t'].size else []
    time.sleep(2.0)                       # the cause is gone: nothing may switch on
    if c.truth.latest()['enabled']:
        r.failures.append('the outputs came back on by themselves')
    if len(stopped):
        q_off = c.truth.window(stopped[0], stopped[0] + 0.05)['q'][0]
        r.drift_deg = c.drift(q_off, stopped[0])
    t_reset = time.time()
    _recover(c, r)
    time.sleep(2.0)
    w = c.truth.window(t_reset)
    r.velocity_ratio = float(np.max(np.abs(w['qd']))) / peak if w['qd'].size else math.nan
    r.reaction = c.reaction(t0)
    return r


def board_fault(c):
    """Over-current fault on one axis: off, brakes; reset once cleared."""
    r = CaseResult('board_fault', 'over-current fault latched on axis 2')
    q0, t0 = c.here()
    port = c.board_info['control_port']
    control_request(port, {'cmd': 'inject', 'fault': 'over_current', 'axis': 1})
    _watch(c, 1.0)
    control_request(port, {'cmd': 'clear', 'fault': 'over_current'})
    time.sleep(1.0)
    r.drift_deg = c.drift(q0, t0)
    r.time_to_safe = c.first_safe(t0)
    r.reaction = c.reaction(t0)
    if c.truth.latest()['enabled']:
        r.failures.append('the outputs came back on by themselves')
    _recover(c, r)
    return r


def hardware_interface_killed(c):
    """Kill the hardware interface: the board's watchdog switches off; restart."""
    r = CaseResult('hardware_interface_killed', 'hardware interface process killed (SIGKILL)')
    q0, t0 = c.here()
    c.kill(HARDWARE)
    _watch(c, 1.5)
    r.drift_deg = c.drift(q0, t0)
    w = c.truth.window(t0)
    off = w['t'][~w['enabled']] if w['t'].size else []
    r.time_to_safe = float(off[0] - t0) if len(off) else math.nan
    r.reaction = 'board watchdog: outputs off, brakes' if len(off) else 'outputs stayed on'
    if not len(off):
        r.failures.append('the board kept its outputs on')
    c.restart(HARDWARE)
    c.transition_retry(HARDWARE, 'configure')
    c.transition_retry(HARDWARE, 'activate')
    _recover(c, r)
    return r


def _check_release(c, r, t0):
    """Check that the interface saw the release (or, on a loaded machine, the same hold)."""
    seen = ' '.join(t for _, t in c.transitions(t0))
    if 'released' in seen:
        return
    # On a loaded machine the stream can go stale (no command for command_timeout)
    # just before the release arrives: the same hold. Then the controller must have
    # said that it released the stream.
    diag = c.log.diagnostic('/' + c.controller) or {}
    if 'older than' in seen and 'stream released' in diag.get('message', ''):
        r.reaction += ' (stale before the release arrived)'
    else:
        r.failures.append('the interface did not see a release')


def controller_deactivated(c):
    """Deactivate the controller: release, hold, brakes."""
    r = CaseResult('controller_deactivated', 'controller deactivated (lifecycle)')
    q0, t0 = c.here()
    c.session.transition(c.controller, 'deactivate')
    time.sleep(c.hold_time + 1.0)
    r.drift_deg = c.drift(q0, t0)
    r.time_to_safe = c.first_safe(t0)
    r.reaction = c.reaction(t0)
    _check_release(c, r, t0)
    c.activate_controller()
    _recover(c, r)
    return r


def bad_gains(c):
    """Zero and huge gains through the parameter services: refused, the law unchanged."""
    r = CaseResult('bad_gains', 'set_parameters_atomically(kp=0, kd=0, ki=-1); kp=1e300')
    q0, t0 = c.here()
    n = c.model.n
    probe = c.session.probe
    answers = [probe.set_parameters_atomically(c.controller, {
        'kp': [0.0] * n, 'kd': [0.0] * n, 'ki': [-1.0] * n}),
        probe.set_parameters_atomically(c.controller, {'kp': [1e300] * n})]
    for values, answer in zip(('kp=0, kd=0, ki=-1', 'kp=1e300'), answers):
        if answer is None or answer[0]:
            r.failures.append(f'{values} was accepted ({answer})')
    _watch(c, 1.0)
    r.drift_deg = c.drift(q0, t0)
    r.reaction = 'refused: ' + '; '.join(a[1] for a in answers if a) if all(
        a and not a[0] for a in answers) else 'accepted'
    return r


def udp_damaged_and_foreign(c):
    """Split datagrams and a second port's frames reach the board during the session."""
    r = CaseResult('udp_damaged_and_foreign', 'a SET_CURRENTS cut over two datagrams, a valid '
                   'one and DISABLE from another port, garbage')
    q0, t0 = c.here()
    port = c.board_info['port']
    control = c.board_info['control_port']
    before = control_request(control, {'cmd': 'status'})
    big = np.full(c.model.n, 5.0)
    frame = codec.encode_set_currents(before['board_time_us'], big, 7)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for _ in range(50):
            sock.sendto(frame[:-1], ('127.0.0.1', port))
            sock.sendto(frame[-1:], ('127.0.0.1', port))
            sock.sendto(frame, ('127.0.0.1', port))
            sock.sendto(codec.encode_message(m.Disable(), 8), ('127.0.0.1', port))
            sock.sendto(b'\xaa\x55garbage', ('127.0.0.1', port))
            time.sleep(0.01)
    _watch(c, 1.0)
    after = control_request(control, {'cmd': 'status'})
    r.drift_deg = c.drift(q0, t0)
    foreign = after['rx_foreign'] - before['rx_foreign']
    r.reaction = (f'{foreign} foreign frames ignored, '
                  f'{after["parser"]["truncated"] - before["parser"]["truncated"]} cut '
                  'datagrams dropped; ' + c.reaction(t0))
    if foreign < 100 or not after['enabled'] or _unexpected(c, t0):
        r.failures.append(f'the board obeyed another port (enabled {after["enabled"]}, '
                          f'{foreign} ignored)')
    return r


def second_board_same_port(c):
    """Start a second sim-board on the busy UDP port: it exits with a clear error."""
    r = CaseResult('second_board_same_port', 'a second simulated board started on the same '
                   'UDP port')
    q0, t0 = c.here()
    argv = [sys.executable, '-m', 'robodyn_ros.cli.main', 'sim-board', c.model.name,
            '--transport', 'udp', '--port', str(c.board_info['port']), '--max-runtime', '3']
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    r.drift_deg = c.drift(q0, t0)
    line = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else ''
    r.reaction = f'exit {proc.returncode}: {line}'
    if proc.returncode != 2 or 'in use' not in line or 'Traceback' in proc.stderr:
        r.failures.append(f'second board: exit {proc.returncode}, {line!r}')
    return r


def control_channel_nasty(c):
    """Oversized, deeply nested and out-of-range control requests: answered, no crash."""
    r = CaseResult('control_channel_nasty', 'control requests {"axis": 1e400}, 1000-deep '
                   'nesting, 60 kB, not UTF-8')
    q0, t0 = c.here()
    port = c.board_info['control_port']
    answers = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.settimeout(2.0)
        for data in (b'{"cmd": "inject", "fault": "over_current", "axis": 1e400}',
                     b'[' * 1000 + b']' * 1000, b'{"a": ' * 50 + b'1' + b'}' * 50,
                     b'[' * 60000, b'\xff\xfe'):
            sock.sendto(data, ('127.0.0.1', port))
            try:
                answers.append(sock.recvfrom(65536)[0])
            except socket.timeout:
                answers.append(None)
    _watch(c, 0.5)
    r.drift_deg = c.drift(q0, t0)
    alive = control_request(port, {'cmd': 'state'}).get('ok', False)
    r.reaction = f'{sum(a is not None for a in answers)} of {len(answers)} answered with an ' \
                 f'error; board {"alive" if alive else "dead"}'
    if None in answers or not alive or _unexpected(c, t0):
        r.failures.append(r.reaction)
    return r


def controller_killed_in_motion(c):
    """Kill the controller in the middle of a motion: the interface holds where it was."""
    r = CaseResult('controller_killed_in_motion', 'controller killed (SIGKILL) at 40 % of a '
                   'motion', drift_limited=False)   # it keeps the last torque for the timeout
    plan, _ = _goal(c)
    while time.time() < plan.stamp + 0.4 * plan.times[-1]:
        time.sleep(0.005)
    q0, t0 = c.here()
    c.kill(c.controller)
    time.sleep(c.hold_time + 1.0)
    r.drift_deg = c.drift(q0, t0)
    r.time_to_safe = c.first_safe(t0)
    r.reaction = c.reaction(t0)
    _held_then_braked(c, r)
    c.restart_controller()
    _recover(c, r)
    return r


#: Every case, in the order run.
CASES = (controller_killed, activation_without_controller, rogue_invalid_commands,
         second_valid_source, implausible_states_far, implausible_states_jump, link_lost_in_motion,
         board_fault, hardware_interface_killed, controller_deactivated, bad_gains,
         udp_damaged_and_foreign, second_board_same_port, control_channel_nasty,
         controller_killed_in_motion)

#: Names of the cases (for ``--cases``).
CASE_NAMES = tuple(f.__name__ for f in CASES)
