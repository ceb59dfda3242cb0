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


"""The compiled encode of the set-currents frame against the general encoder."""

import time

from board_helpers import ACTUATORS, sim_board, wait_until
import numpy as np
import pytest
from robodyn_ros.hardware.board import client as client_module
from robodyn_ros.hardware.board import command_kernel
from robodyn_ros.hardware.board import messages as m
from robodyn_ros.hardware.board.client import BoardClient
from robodyn_ros.hardware.board.codec import decode_message, encode_set_currents
from robodyn_ros.hardware.board.framing import decode_frame
from robodyn_ros.hardware.errors import MessageError
from robodyn_ros.hardware.interface import HardwareInterface
from robodyn_ros.hardware.settings import DriverSettings, InterfaceSettings
from robodyn_ros.model import load_robot
from test_sim_board_simulator import _session

#: Largest current the wire carries [A] (2**31 - 1 uA).
TOP = (2**31 - 1) / 1e6


@pytest.fixture(scope='module')
def compiled():
    if command_kernel.COMPILED.load() is None:
        pytest.fail('numba is a dependency: the set-currents encode must compile here')
    return command_kernel.COMPILED.get()[0]


def _python_form(writer, t, currents, seq):
    writer.header[1] = seq
    size = command_kernel.encode_currents_frame(writer.out, writer.tables, writer.header, t,
                                                currents)
    return writer.out[:size].tobytes() if size else None


def _currents(rng, n):
    """Currents of every kind: small, large, at the wire's ends, on half a microampere."""
    kind = rng.integers(0, 4)
    if kind == 0:
        return rng.uniform(-5.0, 5.0, n)
    if kind == 1:
        return rng.uniform(-TOP, TOP, n)
    if kind == 2:
        return rng.choice([TOP, -TOP, 0.0, -0.0, 1e-7, -1e-7], n)
    return (rng.integers(-10**6, 10**6, n) + 0.5) / 1e6       # ties: rounded half to even


def test_every_frame_is_the_general_encoders_bytes(compiled):
    """4,000 random frames (1 to 32 axes, any time and sequence): the same bytes, decodable."""
    rng = np.random.default_rng(31)
    writer = command_kernel.CurrentsFrameWriter()
    for k in range(4000):
        n = int(rng.integers(1, 33))
        currents = _currents(rng, n)
        t = int(rng.integers(0, 2**63, dtype=np.uint64))
        seq = int(rng.integers(0, 2**20))
        want = encode_set_currents(t, currents, seq)
        assert writer.encode(t, currents, seq) == want, (k, currents, t, seq)
        assert _python_form(writer, t, currents, seq) == want
    frame = decode_frame(writer.encode(77, np.array([1.5, -0.25]), 65537))
    msg = decode_message(frame)
    assert frame.seq == 1 and isinstance(msg, m.SetCurrents)
    assert msg.state_time_us == 77 and msg.currents == (1.5, -0.25)


@pytest.mark.parametrize('bad', [np.nan, np.inf, -np.inf, TOP + 1e-6, -TOP - 1e-6, 1e12])
def test_a_refused_current_goes_to_the_general_encoder_which_words_it(compiled, bad):
    """Not finite or beyond the wire: the fast path gives nothing, the general one raises."""
    writer = command_kernel.CurrentsFrameWriter()
    currents = np.array([0.5, bad, -0.5])
    assert writer.encode(10, currents, 1) is None
    assert _python_form(writer, 10, currents, 1) is None
    with pytest.raises(MessageError, match='not finite or out of range'):
        encode_set_currents(10, currents, 1)
    sent = []
    client = BoardClient(_Link(sent))
    with pytest.raises(MessageError):
        client.set_currents(10, currents)
    assert not sent


@pytest.mark.parametrize('args', [
    (5, [0.5, -0.5]),                                     # a list
    (5, np.array([0.5, -0.5], dtype=np.float32)),          # another dtype
    (5, np.arange(6.0)[::2]),                              # strided
    (5, np.zeros((2, 2))),                                 # not a vector
    (5, np.zeros(0)),                                      # no axis
    (5, np.zeros(33)),                                     # too many
    (-1, np.zeros(2)),                                     # a time before zero
    (2**63, np.zeros(2)),                                  # beyond int64 (the wire takes u64)
])
def test_other_arguments_take_the_general_encoder(compiled, args):
    """What is not the cycle's own kind of argument is left to the general encoder."""
    t, currents = args
    writer = command_kernel.CurrentsFrameWriter()
    assert writer.encode(t, currents, 3) is None
    sent = []
    client = BoardClient(_Link(sent))
    try:
        want = encode_set_currents(t, currents, 0)
    except MessageError:
        with pytest.raises(MessageError):
            client.set_currents(t, currents)
    else:
        client.set_currents(t, currents)
        assert sent == [want]


class _Link:
    """A link that keeps what is written."""

    def __init__(self, sent):
        self.sent = sent

    def write(self, data):
        self.sent.append(bytes(data))


def test_a_real_board_applies_the_fast_paths_frames(compiled, monkeypatch):
    """A simulated board over UDP applies every cycle's currents; the general encoder is idle."""
    general = []

    def counting(*args):
        general.append(args)
        return encode_set_currents(*args)

    monkeypatch.setattr(client_module, 'encode_set_currents', counting)
    with sim_board('--q0', '0', '-1.5', '0', transport='udp') as board:
        client, _ = _session(board)
        try:
            client.enable()
            answer = np.array([1.0, 0.0, -0.5])
            last = None
            for _ in range(300):
                for msg in client.receive(2.0):
                    if isinstance(msg, m.StateReport):
                        last = msg
                        client.set_currents(msg.board_time_us, answer)
            status = board.status()
            assert status['enabled'] and status['command'] == [1.0, 0.0, -0.5]
            assert last.currents[0] == pytest.approx(1.0, abs=0.01)
            assert 0 < last.board_time_us - last.applied_state_time_us <= 20_000
            client.disable()
        finally:
            client.close()
    assert not general and client.stats.tx_frames >= 300


def test_the_interfaces_cycle_running_and_holding_takes_the_fast_path(compiled, monkeypatch):
    """The hardware interface's own currents (a law's, then the hold's) need no general encode."""
    general = []

    def counting(*args):
        general.append(args)
        return encode_set_currents(*args)

    with sim_board('--q0', '0', '-1.2', '0.3', transport='udp') as board:
        hw = HardwareInterface(load_robot('ma3000', params=ACTUATORS), board.transport(),
                               DriverSettings(connect_timeout=3.0, watchdog_period=0.2),
                               InterfaceSettings(command_timeout=0.1, hold_time=5.0))
        hw.configure()
        try:
            hw.activate()
            monkeypatch.setattr(client_module, 'encode_set_currents', counting)
            start = hw.driver.client.stats.tx_frames
            until = time.monotonic() + 0.5
            while time.monotonic() < until:
                hw.set_command([0.3, 0.0, 0.0])
                time.sleep(0.005)
            assert hw.drive_state.value == 'running' and board.status()['enabled']
            assert wait_until(lambda: hw.drive_state.value == 'holding', 5.0)
            held = hw.driver.client.stats.tx_frames
            assert wait_until(lambda: hw.driver.client.stats.tx_frames - held >= 100, 5.0)
            assert hw.drive_state.value == 'holding' and board.status()['enabled']
        finally:
            hw.outputs_off()
            hw.cleanup()
    assert hw.driver.client.stats.tx_frames - start >= 300 and not general
