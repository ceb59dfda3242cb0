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
The output stage in impedance mode on a real simulated-board process.

A computed-torque law's split form drives the board's inner PD: the reports
carry IMPEDANCE and the arm tracks; the host stalls (its I/O thread stops
sending) and the board keeps the arm on the reference line until its
watchdog, then brakes; the interface's hold is an impedance set-point.
"""

import math
import threading
import time

from board_helpers import ACTUATORS, sim_board, wait_until
import numpy as np
from robodyn_ros.control.base import JointReference
from robodyn_ros.control.computed_torque import ComputedTorque
from robodyn_ros.hardware.board.messages import Status
from robodyn_ros.hardware.interface import HardwareInterface
from robodyn_ros.hardware.settings import DriverSettings, InterfaceSettings
from robodyn_ros.model import load_robot

Q0 = np.array([0.0, -1.2, 0.3])
AMPLITUDE = np.array([0.3, 0.2, 0.0])
W = 2.0 * math.pi * 0.5
WATCHDOG = 0.2


def _reference(t):
    return JointReference(Q0 + AMPLITUDE * np.sin(W * t), AMPLITUDE * W * np.cos(W * t),
                          -AMPLITUDE * W * W * np.sin(W * t))


class SplitSource:
    """The law's split form on each sample; ``stall`` blocks the I/O thread (no frames)."""

    def __init__(self, law):
        self.law = law
        self.t0 = None
        self.stall = threading.Event()
        self.resume = threading.Event()
        self.stalled = threading.Event()
        self.silent = False
        self.last = None
        self.errors = []

    def __call__(self, sample):
        if self.stall.is_set():
            self.stalled.set()
            self.resume.wait(10.0)
        if self.silent:
            return []
        if self.t0 is None:
            self.t0 = sample.board_time_us
        t = (sample.board_time_us - self.t0) * 1e-6
        ref = _reference(t)
        sp, _ = self.law.impedance_step(t, sample.position, sample.velocity, ref)
        self.last = (sample.board_time_us, sp)
        self.errors.append((t, *(ref.q - sample.position)))
        return [(sp, time.monotonic(), 'law')]


def _interface(board, **settings):
    model = load_robot('ma3000', params=ACTUATORS)
    samples = []
    hw = HardwareInterface(model, board.transport(),
                           DriverSettings(connect_timeout=3.0, watchdog_period=WATCHDOG),
                           InterfaceSettings(board_mode='impedance', friction_compensation=False,
                                             **settings), on_sample=samples.append)
    law = ComputedTorque(model, 1e-3, omega=20.0)
    law.prepare_split()
    return hw, samples, SplitSource(law)


def _line_error(board, last, seconds):
    """Largest distance of the true joints from the last frame's reference line [rad]."""
    stamp, sp = last
    worst = np.zeros(3)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        st = board.request(cmd='state')
        if not st['enabled']:
            break
        line = sp.q_ref + sp.qd_ref * (st['board_time_us'] - stamp) * 1e-6
        worst = np.maximum(worst, np.abs(np.array(st['q']) - line))
        time.sleep(0.005)
    return worst


def test_split_law_tracks_and_a_stalled_host_stays_on_the_line_until_the_watchdog():
    """IMPEDANCE in the reports, tracking; a stall keeps the line, then the watchdog brakes."""
    with sim_board('--q0', *map(str, Q0), transport='udp', timeout=60.0) as board:
        hw, samples, source = _interface(board, command_timeout=0.5)
        hw.command_source = source
        hw.configure()
        try:
            hw.activate()
            assert wait_until(lambda: hw.drive_state.value == 'running', 10.0)
            assert wait_until(lambda: samples[-1].status & Status.IMPEDANCE, 5.0)
            status = board.status()
            assert status['mode'] == 'impedance' and status['enabled']
            assert wait_until(lambda: source.errors and source.errors[-1][0] > 3.0, 60.0)
            e = np.array([x for x in source.errors if x[0] > 1.0])[:, 1:]
            print(f'tracking error max {np.degrees(np.abs(e).max(axis=0))} deg')
            assert np.all(np.abs(e).max(axis=0) < np.radians(1.0)), np.degrees(e).max(axis=0)
            # The host stalls: no frame leaves; the board closes the last command's line.
            source.stall.set()
            assert source.stalled.wait(5.0)
            stalled_at = time.monotonic()
            line = _line_error(board, source.last, 0.75 * WATCHDOG)
            elapsed = time.monotonic() - stalled_at
            print(f'off the line during {elapsed:.3f} s of stall: {np.degrees(line)} deg')
            moved = np.abs(source.last[1].qd_ref) * elapsed
            assert np.all(line < np.radians(0.5)), np.degrees(line)
            assert moved.max() > 5 * line.max()      # the line moved; the arm went with it
            # Then the watchdog: outputs off, brakes on.
            assert wait_until(lambda: not board.request(cmd='state')['enabled'], 5.0)
            status = board.status()
            assert 'watchdog' in status['faults'] and status['mode'] == 'current'
            at_rest = board.request(cmd='state')
            assert np.all(np.array(at_rest['qd']) == 0.0)
        finally:
            source.resume.set()
            hw.outputs_off()
            hw.cleanup()


def test_hold_in_impedance_mode_is_a_setpoint_on_the_board():
    """The stream stops: the hold goes as a set-point (zero velocity, the hold's gains)."""
    with sim_board('--q0', *map(str, Q0), transport='udp', timeout=60.0) as board:
        hw, samples, source = _interface(board, command_timeout=0.1, hold_time=1.0)
        hw.command_source = source
        hw.configure()
        try:
            hw.activate()
            assert wait_until(lambda: hw.drive_state.value == 'running', 10.0)
            assert wait_until(lambda: source.errors and source.errors[-1][0] > 0.5, 30.0)
            source.silent = True
            assert wait_until(lambda: hw.drive_state.value == 'holding', 5.0)
            held = hw.hold.position.copy()
            time.sleep(0.3)
            status = board.status()
            imp = status['impedance']
            gear = hw.driver.axes.gear_ratio
            assert status['mode'] == 'impedance' and samples[-1].status & Status.IMPEDANCE
            assert np.allclose(imp['velocity'], 0.0)
            assert np.allclose(np.array(imp['position']) / gear, held, atol=1e-6)
            assert np.all(np.array(imp['kp']) > 0.0)
            drift = np.abs(np.array(board.request(cmd='state')['q']) - held)
            assert np.all(drift < np.radians(0.5)), np.degrees(drift)
            assert wait_until(lambda: hw.drive_state.value == 'stopped', 5.0)
            assert wait_until(lambda: not board.status()['enabled'], 5.0)
        finally:
            hw.outputs_off()
            hw.cleanup()


def test_the_impedance_cycle_leaves_no_cyclic_garbage():
    """Board report -> split law -> impedance frame: refcounting frees it all."""
    import gc
    from robodyn_ros.control.control_cycle import ControlCycle
    from robodyn_ros.control.mbvsst import MBVSST
    with sim_board('--q0', *map(str, Q0), transport='udp', timeout=60.0) as board:
        model = load_robot('ma3000', params=ACTUATORS)
        # A long watchdog: on a loaded machine the board may lag; only the cycles count here.
        hw = HardwareInterface(model, board.transport(),
                               DriverSettings(connect_timeout=3.0, watchdog_period=2.0),
                               InterfaceSettings(board_mode='impedance'))
        cycle = ControlCycle(MBVSST(model, 1e-3), model, 1.0, split=True)

        def source(sample):
            now = time.monotonic()
            cycle.take_state(sample.position, sample.velocity, now)
            out = cycle.run(now, time.time())
            return [] if out.command is None else [(out.command, now, 'law')]

        hw.command_source = source
        hw.configure()
        try:
            hw.activate()
            assert wait_until(lambda: hw.drive_state.value == 'running', 10.0)
            gc.collect()
            gc.disable()
            try:
                start = hw.stats.cycles
                assert wait_until(lambda: hw.stats.cycles - start >= 300, 30.0)
                # Read before the collection: with many objects alive (earlier tests in the
                # process) it holds the GIL long enough for the command stream to go stale.
                state = hw.drive_state.value
                found = gc.collect()
            finally:
                gc.enable()
            assert state == 'running'
            assert board.status()['mode'] == 'impedance'
            assert found == 0
        finally:
            hw.outputs_off()
            hw.cleanup()
