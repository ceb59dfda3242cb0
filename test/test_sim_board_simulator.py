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

"""``robodyn sim-board`` as a real process: protocol over pty and UDP, options, control."""

import subprocess
import sys

from board_helpers import ACTUATORS, sim_board, wait_until
import numpy as np
import pinocchio as pin
import pytest
from robodyn_ros.dynamics import gravity_torques
from robodyn_ros.hardware.board import messages as m
from robodyn_ros.hardware.board.client import BoardClient
from robodyn_ros.hardware.board.driver import BoardDriver
from robodyn_ros.hardware.settings import DriverSettings
from robodyn_ros.model import load_robot
from robodyn_ros.pinocchio_bridge import PinocchioBridge
from robodyn_ros.sim.board.config import SimBoardConfig
from robodyn_ros.sim.board.simulator import build_board
import yaml


def _session(board):
    client = BoardClient(board.transport())
    client.connect()
    ident = client.identify(5.0)
    client.configure(m.Configure(0.5, ident.max_current, (0.05, 0.06, 0.04),
                                 (100.0, -150.0, 80.0), ident.encoder_counts))
    return client, ident


def _reports(client, count, answer=None):
    out = []
    while len(out) < count:
        msgs = client.receive(2.0)
        assert msgs, 'board went silent'
        for msg in msgs:
            if isinstance(msg, m.StateReport):
                out.append(msg)
                if answer is not None:
                    client.set_currents(msg.board_time_us, answer)
    return out


@pytest.mark.parametrize('transport', ['pty', 'udp'])
def test_protocol_session(transport):
    """Identify, configure, enable, stream, apply set-points, disable."""
    with sim_board('--q0', '0', '-1.5', '0', '--encoder-counts', '1000', '2000', '4000',
                   transport=transport) as board:
        client, ident = _session(board)
        try:
            assert ident.axis_count == 3 and ident.encoder_counts == (1000, 2000, 4000)
            assert ident.cycle_period == pytest.approx(0.001)
            client.enable()
            reports = _reports(client, 300, answer=(1.0, 0.0, 0.0))
            times = [r.board_time_us for r in reports]
            steps = {b - a for a, b in zip(times, times[1:])}
            assert min(steps) >= 1000 and all(s % 1000 == 0 for s in steps)
            last = reports[-1]
            assert last.status & m.Status.ENABLED and not last.faults
            assert last.currents[0] == pytest.approx(1.0, abs=0.01)
            assert 0 < last.board_time_us - last.applied_state_time_us <= 500_000
            status = board.status()
            assert status['enabled'] and status['command'][0] == 1.0 and status['qd'][0] > 0
            client.disable()
            assert not board.status()['enabled']
        finally:
            client.close()


def test_lockstep_advances_with_the_host():
    """In lockstep each answered report advances board time by exactly one cycle."""
    with sim_board('--lockstep', '--lockstep-timeout', '5') as board:
        client, _ = _session(board)
        try:
            client.enable()
            # every report of the first batch is answered: the next one follows the last
            first = _reports(client, 1, answer=(0.0, 0.0, 0.0))[-1]
            reports = _reports(client, 50, answer=(0.0, 0.0, 0.0))
            assert len(reports) >= 50
            assert [r.board_time_us for r in reports] == [
                first.board_time_us + 1000 * (k + 1) for k in range(len(reports))]
            waiting = _reports(client, 1)[0]  # the answer to the last one made this one
            assert waiting.board_time_us == reports[-1].board_time_us + 1000
            assert client.receive(0.3) == []  # not answered: the board waits
        finally:
            client.close()


def test_config_file_options_and_control(tmp_path):
    """A --config YAML sets options; the status reports them; quit ends the process."""
    config = tmp_path / 'board.yaml'
    config.write_text(yaml.safe_dump({'rate': 500.0, 'firmware': '3.2.1', 'backlash': 0.002,
                                      'encoder_counts': 5000, 'params': ACTUATORS}))
    with sim_board('--config', str(config), '--seed', '9', params=None) as board:
        client = BoardClient(board.transport())
        client.connect()
        try:
            ident = client.identify(5.0)
            assert ident.firmware == (3, 2, 1) and ident.cycle_period == pytest.approx(0.002)
            assert ident.encoder_counts == (5000,) * 3
        finally:
            client.close()
        cfg = board.status()['config']
        assert cfg['seed'] == 9 and cfg['backlash'] == [0.002]
        assert board.request(cmd='nonsense')['ok'] is False
        assert board.request(cmd='inject', fault='melt')['ok'] is False
        assert board.request(cmd='quit')['ok']
        assert wait_until(lambda: board.proc.poll() is not None, 10.0)
        assert board.proc.returncode == 0


def _cli(*args):
    return subprocess.run([sys.executable, '-m', 'robodyn_ros.cli.main', 'sim-board', *args],
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize('args, text', [
    (['ma3000', '--inject', 'melt'], 'unknown fault'),
    (['ma3000', '--rate', '0'], 'rate'),
    (['ma3000', '--inner-rate', '5'], 'inner_rate'),
    (['ma3000', '--transport', 'udp', '--encoder-counts', '1', '2'], 'encoder_counts'),
    (['no_such_robot'], 'unknown robot'),
    (['ma3000', '--firmware', '1.x'], 'firmware'),
    (['ma3000', '--payload', '-1'], 'payload_mass'),
    (['ma3000', '--payload', '1', '--payload-frame', 'no_frame'], 'payload_frame'),
])
def test_bad_options_exit_with_a_message(args, text):
    """Bad options give exit code 2 and a one-line error, not a traceback."""
    res = _cli(*args, '--max-runtime', '1')
    assert res.returncode == 2, res.stderr
    assert text in res.stderr and 'Traceback' not in res.stderr


def test_bad_config_file(tmp_path):
    """Unknown keys in --config are named."""
    bad = tmp_path / 'bad.yaml'
    bad.write_text('rate: 1000\nwarp: 9\n')
    res = _cli('ma3000', '--config', str(bad))
    assert res.returncode == 2 and 'unknown keys warp' in res.stderr


def test_unit_torque_warning_and_max_runtime():
    """A robot without torque constants runs as unit torque axes, with a warning."""
    res = _cli('ur5', '--transport', 'udp', '--max-runtime', '0.5', '--control-port', '-1')
    assert res.returncode == 0, res.stderr
    assert 'unit torque axis' in res.stderr and '"ready": true' in res.stdout


@pytest.mark.parametrize('robot, mass, com', [('puma560', 2.0, (0.0, 0.0, 0.05)),
                                              ('ur5', 3.5, (0.02, -0.01, 0.1))])
def test_payload_joins_the_plant(robot, mass, com):
    """--payload adds a point mass to the true plant only, as Pinocchio computes it."""
    bare = build_board(SimBoardConfig(robot=robot, load_friction=False)).model
    board = build_board(SimBoardConfig(robot=robot, load_friction=False, payload_mass=mass,
                                       payload_com=list(com))).model
    bridge = PinocchioBridge(bare, armature=False)
    pm = bridge.pin_model
    assert list(pm.names)[1:] == [j.name for j in bare.joints]  # serial chain, same order
    frame = pm.getFrameId(bare.end_effector)
    joint = pm.frames[frame].parentJoint
    placement = pm.frames[frame].placement
    pm.inertias[joint] += pin.Inertia(mass, placement.act(np.array(com)), np.zeros((3, 3)))
    data = pm.createData()
    rng = np.random.default_rng(3)
    for _ in range(5):
        q = rng.uniform(bare.lower_limits, bare.upper_limits)
        expected = pin.computeGeneralizedGravity(pm, data, bridge.q(q))
        assert np.allclose(gravity_torques(board, q), expected, atol=1e-9)
        assert not np.allclose(gravity_torques(bare, q), expected, atol=1e-3)


@pytest.mark.parametrize('rate, inner, substeps', [(1000.0, 4000.0, 4), (300.0, 4000.0, 14),
                                                   (2000.0, 1000.0, 1), (250.0, 10000.0, 40)])
def test_inner_rate_is_a_whole_number_of_substeps(rate, inner, substeps):
    """The inner period divides the cycle: ceil(inner_rate / rate) sub-steps, at least one."""
    config = SimBoardConfig(robot='ma3000', rate=rate, inner_rate=inner)
    assert config.substeps == substeps
    board = build_board(config)
    assert board.axes.substeps == substeps
    assert board.axes.inner_period == pytest.approx(1.0 / (rate * substeps))


def _hold_gains(model, q):
    bridge = PinocchioBridge(model)
    inertia = np.diag(pin.crba(bridge.pin_model, bridge.pin_data, q))
    return inertia * 30.0 ** 2, 2.0 * 30.0 * inertia


def _after(driver, state_time_us):
    """Read reports until the first one made after the frame answering ``state_time_us``."""
    for _ in range(5000):
        sample = driver.read(2.0)
        assert sample is not None, 'board went silent'
        if sample.latency_us >= 0 and sample.board_time_us - sample.latency_us >= state_time_us:
            return sample
    raise AssertionError(f'no report after the frame of {state_time_us} us')


@pytest.mark.parametrize('transport', ['pty', 'udp'])
def test_impedance_session(transport):
    """The driver's joint-side impedance holds a new pose on the board; currents switch back."""
    model = load_robot('ma3000', params=ACTUATORS)
    target = np.array([0.2, -1.3, 0.3])
    kp, kd = _hold_gains(model, target)
    with sim_board('--q0', '0', '-1.5', '0', '--inner-rate', '5000', '--lockstep',
                   '--lockstep-timeout', '5', transport=transport) as board:
        assert board.info['inner_rate'] == 5000.0
        driver = BoardDriver(model, board.transport(),
                             DriverSettings(watchdog_period=2.0, connect_timeout=5.0))
        driver.connect()
        try:
            driver.enable()
            sample = driver.read(2.0)
            # Reports made before the enable may still come, and a read may find only the
            # answer to a resent request (None).
            for _ in range(1000):
                if sample is not None and sample.enabled:
                    break
                sample = driver.read(2.0)
            assert sample is not None and sample.enabled, 'no enabled report'
            # 0.6 s of board time from the enable: the board ran in real time until then,
            # for as long as the host took to connect (longer on a loaded machine).
            end_us = sample.board_time_us + 600_000
            while sample.board_time_us < end_us:
                driver.send_impedance(sample, target, 0.0, kp, kd,
                                      gravity_torques(model, target))
                sample = _after(driver, sample.board_time_us)
                assert sample.status & m.Status.IMPEDANCE, sample
                assert not sample.faults, sample
            status = board.status()
            assert status['mode'] == 'impedance' and status['impedance']['kp'][0] > 0.0
            assert np.abs(np.array(status['q']) - target).max() < 2e-3, status['q']
            driver.send_currents(sample, np.zeros(3))
            sample = _after(driver, sample.board_time_us)
            assert not sample.status & m.Status.IMPEDANCE, sample
            assert board.status()['mode'] == 'current'
            driver.disable()
        finally:
            driver.close()


def test_impedance_hold_until_the_monotonic_watchdog():
    """A host that stops: the board follows the last ramp for W of wall time, then brakes."""
    model = load_robot('ma3000', params=ACTUATORS)
    start = np.array([0.0, -1.5, 0.0])
    slope = np.array([0.4, 0.0, -0.4])
    kp, kd = _hold_gains(model, start)
    with sim_board('--q0', '0', '-1.5', '0', transport='udp') as board:
        driver = BoardDriver(model, board.transport(),
                             DriverSettings(watchdog_period=0.2, connect_timeout=5.0))
        driver.connect()
        try:
            driver.enable()
            first = driver.read(2.0)
            for _ in range(50):
                sample = driver.read(2.0)
                line = start + slope * (sample.board_time_us - first.board_time_us) * 1e-6
                driver.send_impedance(sample, line, slope, kp, kd, gravity_torques(model, line))
            last_sent = sample.board_time_us
            after = []  # answer nothing from now on: 20 reports after the outputs went off
            while sum(not s.enabled for s in after) < 20:
                sample = driver.read(2.0)  # None when only the fault report came
                assert sample is not None or driver.fault_reports, 'board went silent'
                after += [sample] if sample is not None else []
        finally:
            driver.close()
        event = board.status()['fault_events'][-1]
    assert event['faults'] == ['watchdog'] and event['applied_state_time_us'] == last_sent
    # never before W: of board time (the cycle count) or of monotonic time (its own timer)
    assert (event['board_time_us'] - event['last_valid_us'] >= 200_000
            or event['since_valid_wall_s'] >= 0.2)
    held = [s for s in after if s.enabled]
    assert all(s.status & m.Status.IMPEDANCE for s in held)
    moved = held[-1].position - held[0].position
    expected = slope * (held[-1].board_time_us - held[0].board_time_us) * 1e-6
    assert abs(expected[0]) > 0.02
    assert np.all(np.abs(moved - expected) <= 0.5 * np.abs(expected) + 1e-3)
    off = [s for s in after if not s.enabled]
    assert all(s.status & m.Status.BRAKED and s.faults == m.Fault.WATCHDOG for s in off)
    assert all(np.array_equal(s.position, off[0].position) for s in off[1:])
    assert all(not np.any(s.currents) for s in off)
