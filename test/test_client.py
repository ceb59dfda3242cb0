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

"""The host client against a scripted in-memory board: requests, retries, the stream."""

import math

import numpy as np
import pytest
from robodyn_ros.hardware.board import messages as m
from robodyn_ros.hardware.board.client import BoardClient
from robodyn_ros.hardware.board.codec import decode_message, encode_message, plausible_length
from robodyn_ros.hardware.board.framing import FrameParser
from robodyn_ros.hardware.errors import BoardRefused, BoardTimeout, MessageError


class ScriptedLink:
    """A transport whose board answers each request with a scripted list of messages."""

    def __init__(self, answer):
        self.answer = answer  # (msg, seq) -> list of messages to send back
        self.parser = FrameParser(plausible_length)
        self.pending = b''
        self.sent = []
        self.seq = 0
        self.is_open = False

    def connect(self):
        self.is_open = True

    def close(self):
        self.is_open = False

    def write(self, data):
        for frame in self.parser.feed(data):
            msg = decode_message(frame)
            self.sent.append((msg, frame.seq))
            for reply in self.answer(msg, frame.seq):
                self.pending += encode_message(reply, self.seq)
                self.seq += 1
        return True

    def read_chunks(self, timeout):
        out, self.pending = self.pending, b''
        return [out] if out else []


def test_messages_after_the_answer_are_kept():
    """A report arriving in the same read as an ack is not lost."""
    report = m.StateReport(1000, 3, 0, 0, 0, (1,), (0.0,))

    def board(msg, seq):
        return [m.Ack(msg.msg_id, seq, m.Result.OK), report] if isinstance(msg, m.Enable) else []

    client = BoardClient(ScriptedLink(board))
    client.connect()
    client.enable()
    assert client.receive(0.0) == [report]
    assert client.stats.rx_frames == 2 and client.stats.lost_frames == 0


def test_lost_answers_are_requested_again_and_refusals_named():
    """The first request goes unanswered, the second is acked; a NAK raises BoardRefused."""
    calls = []

    def board(msg, seq):
        calls.append(seq)
        if isinstance(msg, m.Disable) and len(calls) == 1:
            return []
        if isinstance(msg, m.ClearFault):
            return [m.Ack(msg.msg_id, seq, m.Result.FAULT_ACTIVE, m.Fault.ENCODER)]
        return [m.Ack(msg.msg_id, seq, m.Result.OK)]

    link = ScriptedLink(board)
    client = BoardClient(link)
    client.connect()
    client.disable(timeout=0.3)
    assert len(calls) == 2 and calls[0] != calls[1]
    with pytest.raises(BoardRefused, match='clear_fault: fault_active') as err:
        client.clear_fault()
    assert err.value.detail == m.Fault.ENCODER


def test_silence_and_wrong_answers_time_out():
    """An ack for another request does not count; identify is repeated until the timeout."""
    def board(msg, seq):
        return [m.Ack(int(m.MsgId.DISABLE), seq, m.Result.OK)]

    link = ScriptedLink(board)
    client = BoardClient(link)
    client.connect()
    with pytest.raises(BoardTimeout, match='enable'):
        client.enable(timeout=0.2)
    with pytest.raises(BoardTimeout, match='identify'):
        client.identify(timeout=0.35)
    assert sum(isinstance(msg, m.IdentifyRequest) for msg, _ in link.sent) >= 3
    with pytest.raises(TypeError):
        client.configure(m.Enable())


def test_sequence_gaps_count_lost_frames_and_set_currents_are_encoded():
    """Missing board sequence numbers are counted; set-points go out as one frame."""
    link = ScriptedLink(lambda msg, seq: [])
    client = BoardClient(link)
    client.connect()
    for seq in (5, 6, 9, 10):
        link.pending += encode_message(m.Heartbeat(seq), seq)
    assert len(client.receive(0.0)) == 4 and client.stats.lost_frames == 2
    client.set_currents(1234, [0.5, -1.5])
    msg, _ = link.sent[-1]
    assert client.stats.reordered_frames == 0
    assert msg == m.SetCurrents(1234, (0.5, -1.5))
    token = client.heartbeat(77)
    assert token == 77 and link.sent[-1][0] == m.Heartbeat(77)


def test_late_and_duplicate_frames_are_reordered_not_lost():
    """A frame behind the newest counts as reordered; a late state report is dropped."""
    link = ScriptedLink(lambda msg, seq: [])
    client = BoardClient(link)
    client.connect()
    for k, seq in enumerate((5, 6, 4, 7, 7, 8)):
        link.pending += encode_message(m.StateReport(1000 * (k + 1), 3, 0, 0, 0, (k,), (0.0,)),
                                       seq)
    link.pending += encode_message(m.Heartbeat(3), 3)  # late, but not a state: delivered
    msgs = client.receive(0.0)
    states = [msg.counts[0] for msg in msgs if isinstance(msg, m.StateReport)]
    assert states == [0, 1, 3, 5]
    assert any(isinstance(msg, m.Heartbeat) for msg in msgs)
    assert client.stats.lost_frames == 0
    assert client.stats.reordered_frames == 3
    link.pending += encode_message(m.Heartbeat(11), 11)
    client.receive(0.0)
    assert client.stats.lost_frames == 2 and client.stats.reordered_frames == 3


def test_set_impedance_sends_one_frame_or_nothing():
    """The impedance set-points go out as one SET_IMPEDANCE frame; bad values send nothing."""
    link = ScriptedLink(lambda msg, seq: [])
    client = BoardClient(link)
    client.connect()
    client.set_impedance(4321, [0.5, -2.0], np.array([1.0, 0.0]), [3.0, 0.25], [0.5, 0.0],
                         [0.125, -1.0])
    (msg, seq), = link.sent
    assert msg == m.SetImpedance(4321, (0.5, -2.0), (1.0, 0.0), (3.0, 0.25), (0.5, 0.0),
                                 (0.125, -1.0))
    for bad in ([math.nan, 0.0], [-1.0, 0.0], [1.0]):
        with pytest.raises(MessageError):
            client.set_impedance(4322, [0.0, 0.0], [0.0, 0.0], bad, [0.0, 0.0], [0.0, 0.0])
    assert len(link.sent) == 1 and client.stats.tx_frames == 1
    client.set_currents(4323, [0.0, 0.0])
    assert link.sent[-1][1] == (seq + 1) & 0xFFFF  # refused frames used no sequence number
