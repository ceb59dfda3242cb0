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
The fault campaign's cases on CiA 402 drives, and the case list of each backend.

The cases of :mod:`.fault_cases` that act on the graph (controller and
hardware interface killed, floods, a lost link in a motion, a latched
over-current, bad gains, the control channel) run on both backends; those
that speak the board's UDP protocol are the board's only. The drives add
their own:

* ``emcy_one_drive``: one drive faults with an EMCY: every drive off
  (brakes), a reset is refused while the cause lasts, nothing switches on
  by itself once it is gone;
* ``drive_heartbeat_loss``: one drive's heartbeat stops: a lost link, the
  drives quick-stop (brakes), the link comes back without the outputs;
* ``drive_refuses_mode``: a drive refuses cyclic synchronous torque at
  configure: the interface stays unconfigured, outputs off;
* ``can_damaged_frames``: undecodable datagrams, CAN FD and short PDOs on
  the bus: counted, never obeyed.
"""

import socket
import time

from .fault_campaign import CaseResult
from .fault_cases import (_recover, _unexpected, _watch, activation_without_controller,
                          bad_gains, board_fault, CASES, control_channel_nasty,
                          controller_deactivated, controller_killed, controller_killed_in_motion,
                          hardware_interface_killed, implausible_states_far,
                          implausible_states_jump, link_lost_in_motion, rogue_invalid_commands,
                          second_valid_source)
from .graph import HARDWARE
from ..sim.board.faults import control_request


def _fault_and_reset(c, r, fault, seconds=1.0):
    """Inject a fault, check the safe state and no re-enable, clear it, reset; fill ``r``."""
    q0, t0 = c.here()
    port = c.board_info['control_port']
    control_request(port, {'cmd': 'inject', **fault})
    _watch(c, seconds)
    if c.truth.latest()['enabled']:
        r.failures.append('outputs still on with the fault injected')
    control_request(port, {'cmd': 'clear', 'fault': fault['fault']})
    time.sleep(1.0)                       # the cause is gone: nothing may switch on
    r.drift_deg = c.drift(q0, t0)
    r.time_to_safe = c.first_safe(t0)
    r.reaction = c.reaction(t0)
    if c.truth.latest()['enabled']:
        r.failures.append('the outputs came back on by themselves')
    if c.drive_state() not in ('fault', 'stopped'):
        r.failures.append(f'expected fault until a reset, got {c.drive_state()!r}')
    _recover(c, r)
    return r


def emcy_one_drive(c):
    """EMCY from one drive: every drive off, no re-enable, reset once cleared."""
    r = CaseResult('emcy_one_drive', 'EMCY 0x4310 (excess temperature) from drive 2, held 1 s')
    _fault_and_reset(c, r, {'fault': 'emcy', 'axis': 1, 'code': 0x4310})
    if 'EMCY 0x4310' not in ' '.join(t for _, t in c.transitions(-1e18)):
        r.failures.append('the fault reaction did not name the EMCY')
    return r


def drive_heartbeat_loss(c):
    """A drive's heartbeat stops: lost link, quick stop, back without the outputs; reset."""
    r = CaseResult('drive_heartbeat_loss', 'heartbeat of drive 3 stopped for 2 s')
    _fault_and_reset(c, r, {'fault': 'heartbeat_loss', 'axis': 2}, seconds=2.0)
    if 'heartbeat of drive node 3' not in r.reaction + ' '.join(
            t for _, t in c.transitions(-1e18)):
        r.failures.append('the lost heartbeat was not named')
    return r


def drive_refuses_mode(c):
    """A drive refuses cyclic synchronous torque: configure fails, outputs stay off."""
    r = CaseResult('drive_refuses_mode', 'drive 1 refuses modes of operation 10 at configure')
    q0, t0 = c.here()
    port = c.board_info['control_port']
    s = c.session
    s.transition(c.controller, 'deactivate')
    s.transition(HARDWARE, 'deactivate')
    s.transition(HARDWARE, 'cleanup')
    control_request(port, {'cmd': 'inject', 'fault': 'refuse_mode', 'axis': 0})
    answer = s.probe.change_state(HARDWARE, 'configure', 30.0)
    r.reaction = 'configure refused' if answer is False else f'configure answered {answer}'
    if answer is not False:
        r.failures.append(f'configure with a refusing drive: {answer}')
    diag = c.log.diagnostic('/' + HARDWARE)
    message = diag['message'] if diag else ''
    if '0x6060' not in message:
        r.failures.append(f'the refusal was not named: {message!r}')
    else:
        r.reaction += ': ' + message[message.find('drive node'):][:60]
    if c.truth.latest()['enabled']:
        r.failures.append('outputs on after a refused configure')
    control_request(port, {'cmd': 'clear', 'fault': 'refuse_mode'})
    r.drift_deg = c.drift(q0, t0)
    c.transition_retry(HARDWARE, 'configure')
    c.activate_controller()
    s.transition(HARDWARE, 'activate')
    c.wait_running()
    return r


def can_damaged_frames(c):
    """Undecodable datagrams and malformed PDOs on the bus: counted, never obeyed."""
    r = CaseResult('can_damaged_frames', 'garbage datagrams, short TPDOs and RPDOs on the bus')
    q0, t0 = c.here()
    port = c.board_info['control_port']
    before = c.log.counter('/' + HARDWARE, 'message_errors')
    control_request(port, {'cmd': 'inject', 'fault': 'bad_tpdo', 'axis': 3})
    group = (c.board_info.get('channel') or '239.74.163.2', int(c.board_info['can_port']))
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 1)
        for _ in range(50):
            sock.sendto(b'\xff\x00 not a frame', group)
            time.sleep(0.004)
    time.sleep(0.05)
    control_request(port, {'cmd': 'clear', 'fault': 'bad_tpdo'})
    _watch(c, 1.0)
    time.sleep(1.0)                   # one diagnostics period
    counted = c.log.counter('/' + HARDWARE, 'message_errors') - before
    r.drift_deg = c.drift(q0, t0)
    r.reaction = f'{counted} bad frames counted; ' + c.reaction(t0)
    r.time_to_safe = c.first_safe(t0)
    if counted < 10:
        r.failures.append(f'only {counted} bad frames counted')
    if c.drive_state() != 'running':
        _recover(c, r)
    elif _unexpected(c, t0) and 'fault' in _unexpected(c, t0):
        r.failures.append('a bad frame faulted the drives: ' + _unexpected(c, t0))
    return r


def drive_over_current(c):
    """Over-current on one drive: off, brakes; reset once cleared."""
    r = board_fault(c)
    r.name, r.what = 'drive_over_current', 'over-current trip of drive 2 (EMCY 0x2310)'
    return r


#: The cases on CiA 402 drives, in the order run.
DRIVE_CASES = (emcy_one_drive, drive_heartbeat_loss, drive_refuses_mode, controller_killed,
               activation_without_controller, rogue_invalid_commands, second_valid_source,
               implausible_states_far, implausible_states_jump, link_lost_in_motion,
               drive_over_current, hardware_interface_killed, controller_deactivated, bad_gains,
               can_damaged_frames, control_channel_nasty, controller_killed_in_motion)


def cases_for(hardware):
    """
    Give the cases of a backend, in the order run.

    Parameters
    ----------
    hardware : {'board', 'cia402'}
        The simulated hardware.

    Returns
    -------
    tuple of callable
        The cases.

    """
    return DRIVE_CASES if hardware == 'cia402' else CASES


#: Every case name of either backend (for ``--cases``).
ALL_CASE_NAMES = tuple(dict.fromkeys(f.__name__ for f in CASES + DRIVE_CASES))
