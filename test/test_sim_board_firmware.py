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

"""The simulated firmware's state machine, limits and safety, cycle by cycle."""

from board_helpers import ACTUATORS
import numpy as np
import pytest
from robodyn_ros.hardware.board import messages as m
from robodyn_ros.model import load_robot
from robodyn_ros.sim.board.axes import SensorSettings, SimAxes
from robodyn_ros.sim.board.faults import FaultInjector
from robodyn_ros.sim.board.firmware import SESSION_TIMEOUT, SimFirmware

PERIOD = 0.001


@pytest.fixture
def fw():
    model = load_robot('ma3000', params=ACTUATORS)
    axes = SimAxes(model, PERIOD, sensors=SensorSettings(encoder_counts=[4096, 2048, 1024]),
                   q0=[0.0, -1.5, 0.0])
    firmware = SimFirmware(axes, FaultInjector(np.random.default_rng(0)), [8.0, 16.0, 10.0],
                           firmware=(2, 1, 7))
    # The watchdog's clock is board time here, so that a test descheduled for a watchdog
    # period cannot trip it; the monotonic clock is tested over real processes.
    firmware.clock = lambda: firmware.time_us * 1e-6
    return firmware


def _config(watchdog=0.02, limit=(4.0, 8.0, 5.0), counts=(4096, 2048, 1024)):
    return m.Configure(watchdog, limit, (0.05, 0.06, 0.04), (100.0, -150.0, 80.0), counts)


def _ack(replies):
    (ack,) = replies
    assert isinstance(ack, m.Ack)
    return ack


def _reports(out):
    return [x for x in out if isinstance(x, m.StateReport)]


def test_identify_and_heartbeat(fw):
    """Identity carries version, axes, resolutions and ratings; heartbeats are echoed."""
    (ident,) = fw.handle(m.IdentifyRequest(), 0)
    assert ident == m.Identify(1, (2, 1, 7), PERIOD, (4096, 2048, 1024), (8.0, 16.0, 10.0))
    (reply,) = fw.handle(m.Heartbeat(1234), 1)
    assert reply == m.HeartbeatReply(1234, 0)


@pytest.mark.parametrize('config, result, detail', [
    (m.Configure(0.02, (1.0,), (0.05,), (1.0,), (4096,)), m.Result.BAD_PARAMETER, 0xFF),
    (_config(counts=(4096, 2048, 1000)), m.Result.BAD_PARAMETER, 2),
    (_config(limit=(4.0, 20.0, 5.0)), m.Result.BAD_PARAMETER, 1),
    (_config(watchdog=0.0015), m.Result.BAD_PARAMETER, 0xFF),
    (_config(watchdog=11.0), m.Result.BAD_PARAMETER, 0xFF),
    (_config(), m.Result.OK, 0),
])
def test_configure_checks(fw, config, result, detail):
    """Axis count, encoder resolution, current rating and watchdog range are checked."""
    ack = _ack(fw.handle(config, 5))
    got = (ack.acked_id, ack.acked_seq, ack.result, ack.detail)
    assert got == (m.MsgId.CONFIGURE, 5, result, detail)
    assert (fw.config is not None) == (result == m.Result.OK)


def test_enable_needs_configuration_and_no_fault(fw):
    """Enable before configure is a bad state; configure while enabled too."""
    assert _ack(fw.handle(m.Enable(), 1)).result == m.Result.BAD_STATE
    assert _ack(fw.handle(_config(), 2)).ok
    assert _ack(fw.handle(m.Enable(), 3)).ok and fw.enabled
    assert _ack(fw.handle(_config(), 4)).result == m.Result.BAD_STATE
    assert _ack(fw.handle(m.Disable(), 5)).ok and not fw.enabled
    fw.latch(m.Fault.ENCODER, 1)
    ack = _ack(fw.handle(m.Enable(), 6))
    assert ack.result == m.Result.FAULT_ACTIVE and ack.detail == m.Fault.ENCODER
    assert _ack(fw.handle(m.ClearFault(), 7)).ok and fw.faults == 0


def test_set_points_are_clamped_and_stale_ones_refused(fw):
    """Clamp to the configured limit; refuse set-points older than the watchdog period."""
    fw.handle(_config(), 0)
    fw.handle(m.Enable(), 1)
    for _ in range(15):
        fw.tick()
    now = fw.time_us
    fw.handle(m.SetCurrents(now, (10.0, -1.0, -9.0)), 2)
    assert fw.command.tolist() == [4.0, -1.0, -5.0] and fw.limited
    assert fw.status & m.Status.CURRENT_LIMITED
    fw.handle(m.SetCurrents(now - 25_000, (1.0, 1.0, 1.0)), 3)
    fw.handle(m.SetCurrents(now + 1000, (1.0, 1.0, 1.0)), 4)
    fw.handle(m.SetCurrents(now, (1.0, 1.0)), 5)
    assert fw.command.tolist() == [4.0, -1.0, -5.0]
    assert fw.stale_commands == 2 and fw.rx_errors == 1


def test_missed_cycles_count_cycles_without_a_new_set_point(fw):
    """A cycle that starts without a set-point since the last one is missed; off cycles are not."""
    fw.handle(_config(watchdog=0.05), 0)
    for _ in range(5):
        fw.tick()
    assert fw.enabled_cycles == 0 and fw.missed_cycles == 0
    fw.handle(m.Enable(), 1)
    pattern = [1, 1, 0, 1, 2, 0, 0, 1]   # set-points sent before each cycle
    for k, sent in enumerate(pattern):
        for j in range(sent):
            fw.handle(m.SetCurrents(fw.time_us, (0.1, 0.0, 0.0)), 10 + 2 * k + j)
        fw.tick()
    assert fw.enabled_cycles == len(pattern)
    assert fw.missed_cycles == pattern.count(0)
    snap = fw.snapshot()
    assert snap['missed_cycles'] == 3 and snap['enabled_cycles'] == 8
    fw.tick(on_time=False)        # a catch-up cycle: counted apart, not missed
    assert fw.catch_up_cycles == 1 and fw.missed_cycles == 3 and fw.enabled_cycles == 9


def test_watchdog_latches_exactly_one_period_after_the_last_set_point(fw):
    """No valid set-point for W: outputs off, WATCHDOG latched, one fault report."""
    fw.handle(_config(watchdog=0.02), 0)
    fw.handle(m.Enable(), 1)
    fw.tick()
    fw.handle(m.SetCurrents(fw.time_us, (1.0, 1.0, 1.0)), 2)
    last = fw.time_us
    reports = []
    while fw.enabled:
        out = fw.tick()
        reports += [x for x in out if isinstance(x, m.FaultReport)]
        assert fw.time_us - last <= 20_000
    assert fw.time_us - last == 20_000
    assert reports == [m.FaultReport(fw.time_us, m.Fault.WATCHDOG, m.BOARD_WIDE, 20_000)]
    assert fw.faults == m.Fault.WATCHDOG and fw.axes.current.tolist() == [0.0, 0.0, 0.0]
    assert fw.status & m.Status.FAULT and not fw.status & m.Status.ENABLED
    assert fw.fault_events[-1]['last_valid_us'] == last


def test_over_current_and_persistent_causes(fw):
    """An injected over-current trips at once; clear is refused until it is gone."""
    fw.handle(_config(), 0)
    fw.handle(m.Enable(), 1)
    fw.injector.inject('over_current', {'axis': 2})
    out = fw.tick()
    faults = [x for x in out if isinstance(x, m.FaultReport)]
    assert faults and faults[0].faults == m.Fault.OVER_CURRENT and faults[0].axis == 2
    assert faults[0].value == pytest.approx(2 * 5.0 * 1e6, rel=1e-6)
    assert not any(isinstance(x, m.FaultReport) for x in fw.tick())  # reported once
    assert len(fw.fault_events) == 1
    ack = _ack(fw.handle(m.ClearFault(), 2))
    assert ack.result == m.Result.FAULT_ACTIVE and ack.detail == m.Fault.OVER_CURRENT
    fw.injector.clear('over_current')
    assert _ack(fw.handle(m.ClearFault(), 3)).ok


def test_stuck_encoder_is_detected_while_moving(fw):
    """A frozen count while the motor turns latches ENCODER within W plus one cycle."""
    fw.handle(_config(watchdog=0.02), 0)
    fw.handle(m.Enable(), 1)
    for _ in range(200):  # spin joint 1 up (no gravity on the vertical axis)
        fw.tick()
        fw.handle(m.SetCurrents(fw.time_us, (2.0, 0.0, 0.0)), 2)
    assert abs(fw.axes.qd[0]) > 0.1 and fw.enabled
    fw.injector.inject('stuck_encoder', {'axis': 0})
    start = fw.time_us
    while fw.enabled:
        fw.tick()
        fw.handle(m.SetCurrents(fw.time_us, (2.0, 0.0, 0.0)), 2)
        assert fw.time_us - start <= 21_000
    assert fw.faults == m.Fault.ENCODER and fw.fault_events[-1]['axis'] == 0


def test_state_reports_only_in_a_session(fw):
    """The board streams only while a host has been heard within the session timeout."""
    assert _reports(fw.tick()) == []
    fw.handle(m.Heartbeat(1), 0)
    report = _reports(fw.tick())[0]
    assert report.counts == tuple(int(c) for c in fw.axes.true_counts())
    assert report.status & m.Status.BRAKED and not report.faults
    for _ in range(int(SESSION_TIMEOUT / PERIOD)):
        fw.tick()
    assert _reports(fw.tick()) == []


def test_diverging_plant_latches_internal_fault(fw, monkeypatch):
    """A non-finite plant state is a fault with the joints stopped, not a crash."""
    fw.handle(_config(), 0)
    fw.handle(m.Enable(), 1)

    def explode(command, outputs_on):
        raise FloatingPointError('diverged')

    monkeypatch.setattr(fw.axes, 'step', explode)
    fw.tick()
    assert fw.faults == m.Fault.INTERNAL and not fw.enabled
