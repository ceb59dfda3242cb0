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


"""The simulated board's compiled frames against the general encoder and parser."""

import numpy as np
import pytest
from robodyn_ros.hardware.board import messages as m
from robodyn_ros.hardware.board.codec import encode_message, plausible_length
from robodyn_ros.hardware.board.framing import encode_frame, FrameParser
from robodyn_ros.hardware.errors import MessageError
from robodyn_ros.sim.board import frame_kernel
from robodyn_ros.sim.board.config import SimBoardConfig
from robodyn_ros.sim.board.simulator import build_board
from test_protocol_fuzz import _mutate, _random_message
from test_report_kernel import _general, MUTATIONS


@pytest.fixture(scope='module')
def compiled():
    if frame_kernel.COMPILED.load() is None:
        pytest.fail('numba is a dependency: the board frames must compile here')
    return frame_kernel.COMPILED.get()


def test_state_frames_are_the_general_encoders_bytes(compiled):
    """3,000 random state reports, every axis count: the same bytes; refusals refused."""
    rng = np.random.default_rng(31)
    writer = frame_kernel.StateFrameWriter()
    done = 0
    while done < 3000:
        msg = _random_message(rng)
        if not isinstance(msg, m.StateReport):
            continue
        seq = int(rng.integers(0, 1 << 20))      # taken modulo 65536, as the general one
        assert writer.encode(msg, seq) == encode_message(msg, seq)
        done += 1
    good = m.StateReport(5, 0, 0, 4, 70_000, (1, 2), (0.5, -0.25))
    assert writer.encode(good, 1) == encode_message(good, 1)    # rx errors modulo 65536
    for bad in (m.StateReport(5, 0, 0, 4, 0, (2**31, 0), (0.0, 0.0)),     # count range
                m.StateReport(5, 0, 0, 4, 0, (1, 2), (np.nan, 0.0)),      # current
                m.StateReport(5, 0, 0, 4, 0, (1, 2), (3000.0, 0.0)),      # current range
                m.StateReport(5, 0x80, 0, 4, 0, (1, 2), (0.0, 0.0)),      # reserved status
                m.StateReport(5, 0, 0x80, 4, 0, (1, 2), (0.0, 0.0)),      # reserved fault
                m.StateReport(-1, 0, 0, 4, 0, (1, 2), (0.0, 0.0)),        # time
                m.StateReport(5, 0, 0, 4, 0, (1, 2), (0.0,))):            # lengths
        assert writer.encode(bad, 1) is None
        with pytest.raises(MessageError):
            encode_message(bad, 1)


def test_good_set_currents_datagrams_decode_as_the_general_path(compiled):
    """3,000 random messages of every kind: set-currents equal, everything else refused."""
    rng = np.random.default_rng(32)
    reader = frame_kernel.CurrentsDatagramReader()
    taken = 0
    for _ in range(3000):
        msg = _random_message(rng)
        data = encode_message(msg, int(rng.integers(0, 65536)))
        fast = reader.read(data)
        if isinstance(msg, m.SetCurrents):
            taken += 1
            ((seq, general),) = _general(data)
            assert fast[:2] == (seq, general.state_time_us)
            assert tuple(fast[2].tolist()) == general.currents == msg.currents
        else:
            assert fast is None
    assert taken > 200


def test_damaged_set_currents_datagrams_go_to_the_general_parser(compiled):
    """8,000 mutated frames and two frames in one datagram: never a wrong set-point."""
    rng = np.random.default_rng(33)
    reader = frame_kernel.CurrentsDatagramReader()
    refused = 0
    for k in range(8000):
        msg = _random_message(rng)
        while not isinstance(msg, m.SetCurrents):
            msg = _random_message(rng)
        frame = encode_message(msg, k & 0xFFFF)
        bad = _mutate(rng, frame, MUTATIONS[k % len(MUTATIONS)]) if k % 11 else frame + frame
        fast = reader.read(bad)
        parser = FrameParser(plausible_length)
        one = len(parser.feed_datagram(bad)) == 1 and parser.discarded_bytes == 0
        general = _general(bad)
        if one and len(general) == 1:
            assert fast[:2] == (general[0][0], general[0][1].state_time_us)
            assert tuple(fast[2].tolist()) == general[0][1].currents
        else:
            assert fast is None
            refused += 1
    assert refused > 7500
    # valid CRCs around an axis count that disagrees with the length: refused by both
    good = encode_message(m.SetCurrents(5, (0.5, 1.0)), 9)
    for count in (0, 1, 3, 200):
        payload = bytearray(good[8:-2])
        payload[8] = count
        data = encode_frame(int(m.MsgId.SET_CURRENTS), 9, bytes(payload))
        assert reader.read(data) is None and _general(data) == []


def test_the_board_answers_the_same_with_and_without_the_compiled_frames(compiled, monkeypatch):
    """A scripted host session, with damaged and foreign frames: the same replies and counts."""
    runs = []
    for fast in (True, False):
        with monkeypatch.context() as patch:
            if not fast:
                patch.setattr(frame_kernel.COMPILED, 'get', lambda: None)
            board = build_board(SimBoardConfig(robot='ma3000', transport='udp', seed=1))
            sent = []
            board.endpoint.write = lambda data: sent.append(data) or True
            board.endpoint.framed = True
            n = board.model.n
            board.receive(encode_message(m.Configure(0.05, tuple(board.firmware.max_current),
                                                     (0.05,) * n, (100.0,) * n,
                                                     tuple(int(c) for c in
                                                           board.axes.encoder_counts)), 1),
                          ('127.0.0.1', 1))
            board.receive(encode_message(m.Enable(), 2), ('127.0.0.1', 1))
            script = np.random.default_rng(7)
            for k in range(400):
                for msg in board.firmware.tick():
                    board.send(msg)
                data = encode_message(m.SetCurrents(board.firmware.time_us,
                                                    tuple(script.normal(0.0, 2.0, n))), k)
                if k % 37 == 5:
                    data = _mutate(script, data, 'bits')
                if k % 61 == 9:         # good frame, wrong axis count: the firmware counts it
                    data = encode_message(m.SetCurrents(board.firmware.time_us, (0.1,) * (n + 1)),
                                          k)
                peer = ('127.0.0.1', 2) if k % 53 == 7 else ('127.0.0.1', 1)
                board.receive(data, peer)
            runs.append((sent, dict(board.counters), board.firmware.snapshot(),
                         board.parser.frames))
    assert runs[0][0] == runs[1][0] and runs[0][1] == runs[1][1]
    assert runs[0][2] == runs[1][2]
    counters, snapshot = runs[0][1], runs[0][2]
    assert counters['rx_foreign'] > 0 and snapshot['rx_errors'] > 0
    assert counters['rx_frames'] > 350 and snapshot['enabled']
    assert runs[0][3] < 50 < runs[1][3]       # the set-points took the compiled path
