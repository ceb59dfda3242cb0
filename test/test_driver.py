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
from robodyn_ros.hardware.board.driver import BoardDriver
from robodyn_ros.hardware.board.transports import UdpTransport
from robodyn_ros.hardware.errors import BoardMismatch, BoardRefused, BoardTimeout, TransportError
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
