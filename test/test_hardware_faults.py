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
Injected faults on a real simulated-board process reach their safe state and recover.

The hardware interface runs in this process against ``robodyn sim-board``
over a pseudo-terminal and over UDP. For every fault the test checks, from
the board's own record, that the outputs went off with the specified fault
latched in time; that the host reports it; that nothing switches the outputs
on again by itself once the fault is cleared; and that everything recovers
after the explicit reset. "In time" is, in board time from the injection:

* host-to-board link faults (drop rx, corrupt rx) and disconnect: within one
  watchdog period ``W``;
* board-to-host link faults (drop tx, corrupt tx, delay): exactly ``W`` after
  the last valid set-point, and that set-point was computed from a report
  sent before the fault (an answer already in flight), so the outputs are
  off one watchdog period after the last command based on a pre-fault state;
* stuck encoder (while the joint moves): within ``W`` plus one cycle;
* over-current: within one cycle.
"""

import math
import threading
import time

from board_helpers import ACTUATORS, sim_board, wait_until
import numpy as np
import pytest
from robodyn_ros.dynamics import gravity_torques
from robodyn_ros.hardware.errors import HardwareError
from robodyn_ros.hardware.interface import HardwareInterface
from robodyn_ros.hardware.settings import DriverSettings, InterfaceSettings
from robodyn_ros.model import load_robot

WATCHDOG = 0.2  # long enough that a loaded test machine does not trip it by itself
W_US = int(WATCHDOG * 1e6)
CYCLE_US = 1000
IN_FLIGHT = None  # bound by the state the last set-point came from, not by time
Q0 = [0.0, -1.5, 0.0]


class Controller:
    """
    Hold the arm with PD + gravity and swing joint 1, from a thread.

    With ``spin`` set, joint 1 gets a constant torque instead, so that it keeps
    turning whatever its (frozen) encoder says.
    """

    def __init__(self, hw, model):
        self.hw = hw
        self.model = model
        self.samples = []
        self.health = []
        self.g0 = gravity_torques(model, np.array(Q0))
        self.spin = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def on_sample(self, sample):
        self.samples.append(sample)
        if len(self.samples) > 5000:
            del self.samples[:2500]

    def _run(self):
        t0 = time.monotonic()
        kp = np.array([150.0, 300.0, 40.0])
        kd = np.array([15.0, 30.0, 3.0])
        while not self._stop.wait(0.005):
            if not self.samples:
                continue
            s = self.samples[-1]
            t = time.monotonic() - t0
            ref = np.array(Q0) + np.array([0.3 * math.sin(2 * math.pi * 0.5 * t), 0.0, 0.0])
            vref = np.array([0.3 * math.pi * math.cos(2 * math.pi * 0.5 * t), 0.0, 0.0])
            tau = self.g0 + kp * (ref - s.position) + kd * (vref - s.velocity)
            if self.spin:
                tau[0] = 3.0
            self.hw.set_command(tau)

    def start(self):
        self._thread.start()

    def stop(self):
        self._stop.set()
        self._thread.join(5.0)

    def running(self):
        """Tell whether samples flow with the outputs on, no fault and no error."""
        if not self.samples or time.monotonic() - self.samples[-1].host_time > 0.05:
            return False
        s = self.samples[-1]
        return s.enabled and not s.faults and self.hw.health().level != 'error'


@pytest.fixture(params=['pty', 'udp'])
def rig(request):
    model = load_robot('ma3000', params=ACTUATORS)
    with sim_board('--q0', *map(str, Q0), transport=request.param) as board:
        hw = HardwareInterface(model, board.transport(),
                               DriverSettings(watchdog_period=WATCHDOG, connect_timeout=2.0),
                               InterfaceSettings(reconnect_period=0.2, recover_period=0.2))
        ctl = Controller(hw, model)
        hw.on_sample = ctl.on_sample
        hw.problems.listener = ctl.health.append
        hw.configure()
        try:
            hw.activate()
            ctl.start()
            assert wait_until(ctl.running, 10.0), hw.health()
            yield board, hw, ctl
        finally:
            ctl.stop()
            hw.outputs_off()
            hw.cleanup()


def _latch_after(board, fault, since_us):
    for event in board.status()['fault_events']:
        if fault in event['faults'] and event['board_time_us'] >= since_us:
            return event
    return None


def _reset(hw):
    """Reset the fault (the explicit act); False while the board refuses."""
    try:
        return 'armed' in hw.reset_fault()
    except HardwareError:
        return False


def _check_fault(board, hw, ctl, fault, params, latched, bound_us, host_text, transport):
    before = board.status()
    assert before['enabled'] and not before['faults'], (fault, before['fault_events'][-3:])
    injected = board.inject(fault, **params)['board_time_us']
    event = wait_until(lambda: _latch_after(board, latched, injected), 10.0, 0.02)
    assert event, f'{fault}: no {latched} fault on the board ({board.status()})'
    delay_us = event['board_time_us'] - injected
    if bound_us is IN_FLIGHT:
        assert event['applied_state_time_us'] <= injected, (fault, params, injected, event)
    else:
        assert 0 <= delay_us <= bound_us, (fault, params, injected, event)
    if latched == 'watchdog':
        # board time W after the last valid set-point, or earlier when the monotonic
        # watchdog saw W of real time pass first (a board loop behind real time)
        assert (event['board_time_us'] - event['last_valid_us'] == W_US
                or event['since_valid_wall_s'] >= WATCHDOG), event
    status = board.status()
    assert status['outputs_off_since_us'] >= event['board_time_us']
    if fault != 'delay':  # the others stay off while the fault lasts
        assert not status['enabled'] and latched in status['faults'], status
        assert max(abs(c) for c in status['current']) == 0.0
    texts = (host_text,) if isinstance(host_text, str) else host_text
    assert wait_until(lambda: any(t in h.message and h.level == 'error'
                                  for h in ctl.health for t in texts), 10.0), (
        fault, ctl.health[-5:], hw.health())
    board.clear(fault)
    # No silent re-enable: the outputs stay off (brakes on) until the explicit reset,
    # whatever the controller keeps sending.
    assert wait_until(lambda: hw.drive_state.value == 'fault', 10.0), (fault, hw.reaction)
    assert wait_until(lambda: hw.link.up, 15.0), (fault, hw.health())
    time.sleep(3 * WATCHDOG)
    assert not board.status()['enabled'] and hw.drive_state.value == 'fault', fault
    ctl.health.clear()
    assert wait_until(lambda: _reset(hw), 15.0), (fault, hw.health(), board.status())
    assert wait_until(ctl.running, 15.0), (fault, transport, hw.health(), board.status())

    def board_on():
        status = board.status()
        return status['enabled'] and not status['faults']

    assert wait_until(board_on, 10.0, 0.05), (fault, board.status()['fault_events'][-3:],
                                              hw.health())
    return delay_us


def test_every_fault_reaches_the_safe_state_and_recovers(rig, request):
    """Drop, corrupt, delay, disconnect, stuck encoder, over-current: off in one period, back."""
    board, hw, ctl = rig
    transport = board.info['transport']
    cases = [
        ('drop', {'direction': 'rx'}, 'watchdog', W_US, 'board fault: watchdog'),
        ('corrupt_crc', {'direction': 'rx'}, 'watchdog', W_US, 'board fault: watchdog'),
        ('over_current', {'axis': 1}, 'over_current', CYCLE_US, 'board fault: over_current'),
        ('stuck_encoder', {'axis': 0}, 'encoder', W_US + CYCLE_US, 'board fault: encoder'),
        # the host sees the fault when the delayed reports arrive, or first sees silence
        ('delay', {'seconds': 2.5 * WATCHDOG}, 'watchdog', IN_FLIGHT,
         ('board fault: watchdog', 'no state report')),
        ('drop', {'direction': 'tx'}, 'watchdog', IN_FLIGHT, 'no state report'),
        ('corrupt_crc', {'direction': 'tx'}, 'watchdog', IN_FLIGHT, 'no state report'),
        ('disconnect', {}, 'watchdog', W_US, 'board link lost'),
    ]
    crc_before = hw.driver.stats.crc_errors
    board_rx_errors = board.status()['rx_crc_injected']
    delays = {}
    for fault, params, latched, bound, text in cases:
        ctl.spin = fault == 'stuck_encoder'
        if ctl.spin:  # the joint must turn for a frozen count to be detectable
            assert wait_until(lambda: ctl.samples[-1].velocity[0] > 0.2, 5.0)
        delays[f'{fault}:{params}'] = _check_fault(board, hw, ctl, fault, params, latched, bound,
                                                   text, transport)
        ctl.spin = False
    assert hw.driver.stats.crc_errors > crc_before
    assert board.status()['rx_crc_injected'] > board_rx_errors
    assert hw.driver.stats.reconnects >= 1
    reports = {r.faults for r in hw.driver.fault_reports}
    assert {1, 2, 4} <= reports, reports
