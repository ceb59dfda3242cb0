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

"""The board driver: connection checks and joint-space samples against the board's truth."""

import math
import socket

from board_helpers import ACTUATORS, sim_board
import numpy as np
import pytest
from robodyn_ros.errors import InputError
from robodyn_ros.hardware.board import messages as m
from robodyn_ros.hardware.board.codec import decode_message, plausible_length
from robodyn_ros.hardware.board.driver import BoardDriver, JointSample
from robodyn_ros.hardware.board.framing import FrameParser
from robodyn_ros.hardware.board.transports import UdpTransport
from robodyn_ros.hardware.errors import (BoardMismatch, BoardRefused, BoardTimeout,
                                         MessageError, TransportError)
from robodyn_ros.hardware.settings import DriverSettings
from robodyn_ros.model import load_robot


def test_samples_match_the_board_truth():
    """Positions within one count of the true angles; effort = eta N Kt i; latency known."""
    model = load_robot('ma3000', params=ACTUATORS)
    with sim_board('--q0', '0.3', '-1.2', '0.5', '--encoder-counts', '2000',
                   '--lockstep', '--lockstep-timeout', '1') as board:
        driver = BoardDriver(model, board.transport(), DriverSettings(connect_timeout=3.0))
        ident = driver.connect()
        try:
            assert ident.encoder_counts == (2000,) * 3
            driver.enable()
            for _ in range(200):
                sample = driver.read(2.0)
                driver.send_torque(sample, np.array([1.0, 0.0, -0.2]))
            sample = driver.read(2.0)  # not answered: in lockstep the board now waits
            truth = board.status()  # ... so its true state is this sample's
            res = 2 * math.pi / (2000 * np.abs(driver.axes.gear_ratio))
            assert np.all(np.abs(sample.position - truth['q']) <= res)
            assert np.allclose(sample.effort, driver.axes.torque_per_amp * sample.currents)
            assert sample.currents == pytest.approx(truth['current'], abs=1e-6)
            assert sample.effort[0] == pytest.approx(1.0, abs=1e-4)
            assert sample.latency_us == 1000 and sample.enabled
            assert sample.velocity[0] > 0 and driver.reports >= 200
            driver.disable()
        finally:
            driver.close()


def test_connection_checks():
    """Expected encoder counts, a too short watchdog and a silent port are refused."""
    model = load_robot('ma3000', params=ACTUATORS)
    with sim_board() as board:
        strict = BoardDriver(model, board.transport(),
                             DriverSettings(encoder_counts=(1024,), connect_timeout=3.0))
        with pytest.raises(BoardMismatch, match='4096 encoder counts.*expected 1024'):
            strict.connect()
        hasty = BoardDriver(model, board.transport(),
                            DriverSettings(watchdog_period=0.001, connect_timeout=3.0))
        with pytest.raises(BoardRefused, match='configure: bad_parameter'):
            hasty.connect()
        assert not hasty.client.is_open
        again = BoardDriver(model, board.transport(), DriverSettings(connect_timeout=3.0))
        again.connect()
        again.connect()  # a re-connect on the same board works
        again.close()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as mute:  # listens, never answers
        mute.bind(('127.0.0.1', 0))
        silent = BoardDriver(model, UdpTransport('127.0.0.1', mute.getsockname()[1]),
                             DriverSettings(connect_timeout=0.2))
        with pytest.raises(BoardTimeout, match='no identify reply'):
            silent.connect()
    gone = BoardDriver(model, UdpTransport('127.0.0.1', 9), DriverSettings(connect_timeout=0.2))
    with pytest.raises(TransportError, match='lost'):
        gone.connect()
    with pytest.raises(InputError, match='watchdog_period'):
        BoardDriver(model, UdpTransport(), DriverSettings(watchdog_period=-1.0))


class CaptureLink:
    """A transport that keeps the messages written to it."""

    is_open = True
    framed = False

    def __init__(self):
        self.parser = FrameParser(plausible_length)
        self.sent = []

    def write(self, data):
        self.sent += [decode_message(f) for f in self.parser.feed(data)]
        return True


def _sample(time_us, n):
    z = np.zeros(n)
    return JointSample(time_us, 0.0, z, z, z, z, z, 0, 0, -1, 0)


def test_send_impedance_gives_the_joint_law_in_motor_units():
    """The board's motor-side law, evaluated anywhere, is the joint-side law through eta N Kt."""
    model = load_robot('ma3000', params=ACTUATORS)
    link = CaptureLink()
    driver = BoardDriver(model, link, DriverSettings(efficiency=(0.9, 0.8, 1.0)))
    rng = np.random.default_rng(4)
    q_ref, qd_ref, tau_ff = rng.normal(0, 1, 3), rng.normal(0, 1, 3), rng.normal(0, 5, 3)
    kp, kd = np.array([400.0, 900.0, 50.0]), np.array([20.0, 45.0, 2.0])
    driver.send_impedance(_sample(77_000, 3), q_ref, qd_ref, kp, kd, tau_ff)
    (msg,) = link.sent
    assert isinstance(msg, m.SetImpedance) and msg.state_time_us == 77_000
    gear = np.array([100.0, -150.0, 80.0])
    per_amp = np.array([0.9, 0.8, 1.0]) * gear * np.array([0.05, 0.06, 0.04])  # eta N Kt
    assert min(msg.kp) > 0.0 and min(msg.kd) > 0.0
    for _ in range(20):  # any joint state, any time after the state time
        q, qd, dt = rng.normal(0, 1, 3), rng.normal(0, 1, 3), rng.uniform(0, 0.05)
        theta, omega = gear * q, gear * qd  # what the board measures on the motor
        amps = (np.array(msg.kp) * (np.array(msg.position) + np.array(msg.velocity) * dt - theta)
                + np.array(msg.kd) * (np.array(msg.velocity) - omega) + np.array(msg.current))
        tau = kp * (q_ref + qd_ref * dt - q) + kd * (qd_ref - qd) + tau_ff
        assert np.allclose(per_amp * amps, tau, rtol=1e-5, atol=1e-4)  # binary32 rounding


def test_send_impedance_broadcasts_one_value_and_refuses_bad_input():
    """A gain may be one value for all joints; wrong sizes, NaN and negative gains send nothing."""
    model = load_robot('ma3000', params=ACTUATORS)
    link = CaptureLink()
    driver = BoardDriver(model, link)
    driver.send_impedance(_sample(5, 3), np.zeros(3), 0.0, 100.0, 1.0, np.zeros(3))
    (msg,) = link.sent
    assert len(set(msg.kp)) == 3 and msg.velocity == (0.0,) * 3  # same stiffness, per motor
    for args, text in [((np.zeros(2), 0.0, 1.0, 1.0, 0.0), 'q_ref: expected one value or 3'),
                       ((np.zeros(3), 0.0, -1.0, 1.0, 0.0), 'negative gain'),
                       ((np.zeros(3), math.nan, 1.0, 1.0, 0.0), 'non-finite'),
                       ((np.zeros(3), 0.0, 1.0, 'stiff', 0.0), "kd: 'stiff' is not numeric")]:
        with pytest.raises(MessageError, match=text):
            driver.send_impedance(_sample(6, 3), *args)
    assert len(link.sent) == 1
