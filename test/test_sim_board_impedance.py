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
The simulated board's impedance mode, cycle by cycle: its inner PD against an integration.

The board (MA3000 with the actuators of ``test/data/hw_ma3000_actuators.yaml``,
no friction, an ideal current loop) runs in this process, driven by board
time only: its watchdog clock is board time here, so a descheduled test
cannot trip it (the impedance mode over real board processes, with the
monotonic watchdog, is in ``test_sim_board_simulator.py``).
"""

import math

from board_helpers import ACTUATORS
import numpy as np
import pinocchio as pin
import pytest
from robodyn_ros.dynamics.tables import tables
from robodyn_ros.hardware.board import messages as m
from robodyn_ros.model import load_robot
from robodyn_ros.pinocchio_bridge import PinocchioBridge
from robodyn_ros.sim.board.axes import PlantSettings, SensorSettings, SimAxes
from robodyn_ros.sim.board.faults import FaultInjector
from robodyn_ros.sim.board.firmware import SimFirmware

PERIOD = 1e-3
GEAR = np.array([100.0, -150.0, 80.0])
KT = np.array([0.05, 0.06, 0.04])
LIMIT = np.array([4.0, 8.0, 5.0])
CPR = 4096
Q0 = np.array([0.3, -1.2, 0.5])
COUNTS_PER_RAD = GEAR * CPR / (2 * math.pi)


def _board(substeps=4, watchdog=1.0, q0=Q0):
    model = load_robot('ma3000', params=ACTUATORS)
    axes = SimAxes(model, PERIOD, PlantSettings(current_time_constant=0.0),
                   SensorSettings(encoder_counts=CPR), q0=q0, substeps=substeps)
    fw = SimFirmware(axes, FaultInjector(np.random.default_rng(0)), [8.0, 16.0, 10.0])
    fw.clock = lambda: fw.time_us * 1e-6
    assert fw.handle(m.Configure(watchdog, tuple(LIMIT), tuple(KT), tuple(GEAR), (CPR,) * 3),
                     0)[0].ok
    assert fw.handle(m.Enable(), 1)[0].ok
    return fw


def _command(state_time_us, q, qd, kp, kd, tau):
    """Make a joint-side command as the wire carries it (motor side, binary32)."""
    per_amp = GEAR * KT  # the board's true efficiency is 1
    msg = m.SetImpedance(state_time_us, tuple(GEAR * q), tuple(GEAR * qd),
                         tuple(kp / (per_amp * GEAR)), tuple(kd / (per_amp * GEAR)),
                         tuple(tau / per_amp))
    return m.SetImpedance.unpack(msg.pack())


def _reference(model, frames, cycles, substeps, extrapolate=True):
    """
    Integrate the specified closed loop on its own: the joint positions after each cycle.

    At the start of every inner period ``h`` the PD of the protocol document
    is evaluated on the encoder's motor angle (quantised as the encoder
    quantises) and the true motor speed, clamped and held for ``h``; the arm
    in between is Pinocchio's ``aba`` integrated by scipy's DOP853 at a tight
    tolerance. ``frames`` maps a cycle index to the command applied from it.
    """
    from scipy.integrate import solve_ivp
    bridge = PinocchioBridge(model)
    pm, pd = bridge.pin_model, bridge.pin_data

    def rate(t, x, tau):
        return np.concatenate([x[3:], pin.aba(pm, pd, x[:3], x[3:], tau)])

    x = np.concatenate([Q0, np.zeros(3)])
    h = PERIOD / substeps
    out = []
    cmd = None
    for k in range(cycles):
        cmd = frames.get(k, cmd)
        pos, vel, kp, kd, ff = (np.array(getattr(cmd, f)) for f in m.SetImpedance.FIELDS)
        for j in range(substeps):
            t = k * PERIOD + j * h
            theta = np.rint(x[:3] * COUNTS_PER_RAD) * 2 * math.pi / CPR
            since = t - cmd.state_time_us * 1e-6 if extrapolate else 0.0
            amps = kp * (pos + vel * since - theta) + kd * (vel - GEAR * x[3:]) + ff
            tau = GEAR * KT * np.clip(amps, -LIMIT, LIMIT)
            x = solve_ivp(rate, (0.0, h), x, method='DOP853', rtol=1e-11, atol=1e-12,
                          args=(tau,)).y[:, -1]
        out.append(x[:3].copy())
    return np.array(out)


@pytest.mark.parametrize('substeps', [4, 8])
def test_inner_pd_matches_an_independent_integration(substeps):
    """
    The reported trajectory is the specified loop's, within the board integrator's error.

    The board integrates the arm by one semi-implicit Euler step per inner
    period ``h``, whose positions lead the exact ones by about ``h / 2``
    times the change of velocity (about 1 rad/s here): the tolerance is
    ``1.2 rad/s * h`` (0.3 mrad at 4 kHz, 0.15 mrad at 8 kHz, of motions of
    about 0.1 rad). Three frames: a ramp, a new slope 3 ms after the state
    it was computed from (the board extrapolates from that state time), a
    third slope. The damping is such that the same PD closed at the 1 kHz
    cycle rate would misbehave (``h Kd / M`` about 0.5, four or eight times
    that at 1 kHz), and a reference without the ramp extrapolation
    differs: both are checked to be far outside the tolerance.
    """
    fw = _board(substeps)
    model = fw.axes.model
    assert not any(np.any(getattr(tables(model), c)) for c in ('coulomb_pos', 'viscous_pos'))
    h = PERIOD / substeps
    kp, kd, gravity = _stiff(substeps)
    slopes = {0: np.array([0.5, -0.3, 0.4]), 100: np.array([-0.8, 0.6, 0.0]),
              200: np.array([0.0, 0.0, -1.0])}
    frames, reports, truth = {}, [], []
    line = (Q0 + [0.02, -0.02, 0.03], None, 0)
    for k in range(300):
        if k in slopes:
            t_s = fw.time_us - (3000 if k == 100 else 0)  # computed from an older report
            start = line[0] + (0.0 if line[1] is None else line[1] * (t_s - line[2]) * 1e-6)
            line = (start, slopes[k], t_s)
            frames[k] = _command(t_s, start, slopes[k], kp, kd, gravity)
            assert fw.handle(frames[k], 10 + k) == []
        reports += [r for r in fw.tick() if isinstance(r, m.StateReport)]
        truth.append(fw.axes.q.copy())
    assert len(reports) == 300 and fw.enabled and fw.stale_commands == 0
    assert fw.enabled_cycles == 300 and fw.missed_cycles == 297  # a frame is a set-point
    assert all(r.status & m.Status.IMPEDANCE and not r.faults for r in reports)
    expected = _reference(model, frames, 300, substeps)
    tol = 1.2 * h
    counts = np.array([r.counts for r in reports])
    assert np.all(np.abs(counts - expected * COUNTS_PER_RAD) <= tol * np.abs(COUNTS_PER_RAD) + 1)
    error = np.abs(np.array(truth) - expected).max()
    assert error <= tol
    assert np.ptp(expected, axis=0).min() > 0.05  # it moved
    at_cycle_rate = _reference(model, frames, 300, 1)
    no_ramp = _reference(model, frames, 300, substeps, extrapolate=False)
    for other in (at_cycle_rate, no_ramp):
        assert np.abs(np.array(truth) - other).max() > 2.5 * tol


def _stiff(substeps=4):
    """Gains and gravity feed-forward at Q0, as in the integration test."""
    bridge = PinocchioBridge(load_robot('ma3000', params=ACTUATORS))
    inertia = np.diag(pin.crba(bridge.pin_model, bridge.pin_data, Q0))
    gravity = pin.computeGeneralizedGravity(bridge.pin_model, bridge.pin_data, Q0)
    return inertia * 40.0 ** 2, 0.5 * inertia / (PERIOD / substeps), gravity


def test_the_host_stops_and_the_board_holds_until_the_watchdog():
    """Without frames the board follows the last ramp for W, then outputs off and brakes."""
    fw = _board(watchdog=0.05)
    kp, kd, gravity = _stiff()
    frame = _command(fw.time_us, Q0, np.array([0.5, -0.4, 0.6]), kp, kd, gravity)
    fw.handle(frame, 9)
    last_valid = fw.time_us
    held, tripped = [], []
    while fw.enabled:
        out = fw.tick()
        held.append(fw.axes.q.copy())
        tripped = [x for x in out if isinstance(x, m.FaultReport)]
        assert fw.time_us - last_valid <= 50_000
    assert fw.time_us - last_valid == 50_000 and len(held) == 50
    assert tripped == [m.FaultReport(fw.time_us, m.Fault.WATCHDOG, m.BOARD_WIDE, 50_000)]
    # the command held for the 49 cycles before the trip (the trip cycle runs braked)
    expected = _reference(fw.axes.model, {0: frame}, 49, 4)
    assert np.abs(np.array(held[:49]) - expected).max() <= 1.2 * PERIOD / 4
    assert np.ptp(expected, axis=0).min() > 0.01 and np.array_equal(held[49], held[48])
    report = [x for x in fw.tick() if isinstance(x, m.StateReport)][0]
    assert report.status & m.Status.BRAKED and not report.status & (
        m.Status.ENABLED | m.Status.IMPEDANCE)
    assert report.currents == (0.0, 0.0, 0.0) and fw.mode == 'current'
    stopped = fw.axes.q.copy()
    for _ in range(20):
        fw.tick()
    assert np.array_equal(fw.axes.q, stopped) and np.all(fw.axes.qd == 0.0)


def test_current_clamp_in_impedance_mode():
    """A stiff command far from the arm runs at the configured limit, with CURRENT_LIMITED."""
    fw = _board()
    fw.handle(_command(fw.time_us, Q0 + [0.5, -0.5, 0.5], np.zeros(3), np.full(3, 5e3),
                       np.zeros(3), np.zeros(3)), 2)
    report = [x for x in fw.tick() if isinstance(x, m.StateReport)][0]
    assert report.status & m.Status.CURRENT_LIMITED and report.status & m.Status.IMPEDANCE
    assert report.currents == pytest.approx(tuple(np.sign(GEAR) * LIMIT * [1, -1, 1]))
    assert not fw.faults  # clamped at the limit, well under the over-current trip
    fw.handle(_command(fw.time_us, fw.axes.q, np.zeros(3), np.full(3, 10.0), np.full(3, 1.0),
                       np.zeros(3)), 3)
    report = [x for x in fw.tick() if isinstance(x, m.StateReport)][0]
    assert not report.status & m.Status.CURRENT_LIMITED


def test_refusals_and_the_mode_switch():
    """Stale, future and wrong-sized frames change nothing; any accepted frame sets the mode."""
    fw = _board(watchdog=0.02)
    for _ in range(30):
        fw.tick()
        fw.handle(m.SetCurrents(fw.time_us, (0.0, 0.0, 0.0)), 1)
    now = fw.time_us
    hold = _command(now, Q0, np.zeros(3), np.full(3, 300.0), np.full(3, 10.0), np.zeros(3))
    fw.handle(m.SetCurrents(now, (1.0, 0.0, 0.0)), 2)
    assert fw.mode == 'current' and not fw.status & m.Status.IMPEDANCE
    for stale in (now - 20_001, now + 1000):
        fw.handle(m.SetImpedance(stale, *(getattr(hold, f) for f in hold.FIELDS)), 3)
    fw.handle(m.SetImpedance(now, *((0.0, 0.0),) * 5), 4)
    assert fw.mode == 'current' and fw.stale_commands == 2 and fw.rx_errors == 1
    assert fw.applied_state_time_us == now and fw.command.tolist() == [1.0, 0.0, 0.0]
    fw.handle(hold, 5)
    assert fw.mode == 'impedance' and fw.status & m.Status.IMPEDANCE
    fw.tick()
    assert fw.snapshot()['impedance']['kp'] == list(hold.kp)
    fw.handle(m.SetCurrents(fw.time_us, (0.0, 0.5, 0.0)), 6)
    assert fw.mode == 'current' and fw.snapshot()['impedance'] is None
    fw.handle(_command(fw.time_us, Q0, np.zeros(3), np.ones(3), np.ones(3), np.zeros(3)), 7)
    assert fw.handle(m.Disable(), 8)[0].ok and fw.mode == 'current'
    assert fw.handle(m.Enable(), 9)[0].ok  # the command is forgotten: zero current
    fw.tick()
    assert fw.mode == 'current' and fw.axes.current.tolist() == [0.0, 0.0, 0.0]
    fw.handle(m.Disable(), 10)
    fw.handle(_command(fw.time_us, Q0, np.zeros(3), np.ones(3), np.ones(3), np.zeros(3)), 11)
    assert fw.mode == 'current' and fw.stale_commands == 2  # disabled: ignored, not stale


def test_encoder_and_over_current_checks_in_impedance_mode():
    """A frozen count under a moving reference latches ENCODER; an over-current trips at once."""
    fw = _board(watchdog=0.02)
    slope = np.array([1.0, 0.0, 0.0])
    kp, kd = np.array([400.0, 900.0, 60.0]), np.array([20.0, 45.0, 2.0])
    for _ in range(100):
        fw.handle(_command(fw.time_us, fw.axes.q + slope * 1e-3, slope, kp, kd, np.zeros(3)), 2)
        fw.tick()
    assert fw.axes.qd[0] > 0.5 and fw.enabled
    fw.injector.inject('stuck_encoder', {'axis': 0})
    start = fw.time_us
    while fw.enabled:
        fw.handle(_command(fw.time_us, fw.axes.q + slope * 1e-3, slope, kp, kd, np.zeros(3)), 3)
        fw.tick()
        assert fw.time_us - start <= 21_000
    assert fw.faults == m.Fault.ENCODER and fw.fault_events[-1]['axis'] == 0
    assert fw.mode == 'current' and fw.axes.current.tolist() == [0.0, 0.0, 0.0]
    fw = _board()
    fw.handle(_command(fw.time_us, Q0, np.zeros(3), kp, kd, np.zeros(3)), 2)
    fw.injector.inject('over_current', {'axis': 1})
    faults = [x for x in fw.tick() if isinstance(x, m.FaultReport)]
    assert [(f.faults, f.axis) for f in faults] == [(m.Fault.OVER_CURRENT, 1)]
    assert not fw.enabled and fw.mode == 'current'
