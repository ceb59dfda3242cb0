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

import math
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
    deadline = time.monotonic() + 3.0          # the consumer time may be longer than the watch
    while math.isnan(c.first_safe(t0)) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.2)                            # the truth sampler's period and more
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
    """Stop one drive's heartbeat: lost link, quick stop, back without the outputs; reset."""
    r = CaseResult('drive_heartbeat_loss', 'heartbeat of drive 3 stopped for 2 s')
    _fault_and_reset(c, r, {'fault': 'heartbeat_loss', 'axis': 2}, seconds=2.0)
    if 'heartbeat of drive node 3' not in r.reaction + ' '.join(
            t for _, t in c.transitions(-1e18)):
        r.failures.append('the lost heartbeat was not named')
    return r


def drive_refuses_mode(c):
    """Make a drive refuse cyclic synchronous torque: configure fails, outputs stay off."""
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
    import can
    from ..hardware.cia402 import objects as o
    from ..hardware.cia402.bus import open_bus
    r = CaseResult('can_damaged_frames', 'garbage datagrams, TPDOs and RPDOs one byte short, '
                   'CAN FD frames, 125 Hz for 1 s')
    q0, t0 = c.here()
    port = c.board_info['control_port']
    before = c.log.counter('/' + HARDWARE, 'message_errors')
    drives0 = control_request(port, {'cmd': 'status'})['drives']
    info = c.board_info
    group = info.get('channel') or '239.74.163.2'
    bus = open_bus('udp_multicast', group, 1000000, int(info['can_port']))
    fd = can.Bus(interface='udp_multicast', channel=group, port=int(info['can_port']), fd=True)
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 1)
            # 500 frames/s, as the board's damaged-datagram case: more only loads the two
            # busiest processes (each decodes every datagram), which starves the graph's
            # normal-priority controller on a shared two-core machine.
            for k in range(125):
                sock.sendto(b'\xff\x00 not a frame', (group, int(info['can_port'])))
                bus.send(can.Message(arbitration_id=o.tpdo1_cob_id(2), data=bytes(5),
                                     is_extended_id=False))
                bus.send(can.Message(arbitration_id=o.rpdo1_cob_id(1), data=bytes(1),
                                     is_extended_id=False))
                fd.send(can.Message(arbitration_id=o.rpdo1_cob_id(3), data=bytes(16),
                                    is_fd=True, is_extended_id=False))
                time.sleep(0.008)
    finally:
        bus.shutdown()
        fd.shutdown()
    time.sleep(1.5)                   # one diagnostics period
    counted = c.log.counter('/' + HARDWARE, 'message_errors') - before
    drives1 = control_request(port, {'cmd': 'status'})['drives']
    ignored = drives1[0]['bad_rpdos'] - drives0[0]['bad_rpdos']
    r.drift_deg = c.drift(q0, t0)
    r.reaction = f'{counted} counted by the host, {ignored} short RPDOs ignored by drive 1; ' \
        + c.reaction(t0)
    if counted < 100 or ignored < 100:
        r.failures.append(f'bad frames not counted: host {counted}, drive {ignored}')
    if _unexpected(c, t0):
        r.failures.append('the outputs changed state: ' + _unexpected(c, t0))
        _recover(c, r)
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
