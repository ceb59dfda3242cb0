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

"""Message codecs: round trip of every message, exact layouts, refusal of bad values."""

import math
import struct

from hypothesis import given, HealthCheck, settings
from hypothesis import strategies as st
import numpy as np
import protocol_corpus
import pytest
from robodyn_ros.hardware.board import codec
from robodyn_ros.hardware.board import messages as m
from robodyn_ros.hardware.board.framing import decode_frame, FrameParser
from robodyn_ros.hardware.errors import MessageError

SETTINGS = settings(max_examples=400, derandomize=True, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(msg=protocol_corpus.messages(), seq=st.integers(0, 0xFFFF))
def test_every_message_round_trips(msg, seq):
    """Encode, frame and decode give the same record, which re-encodes to the same bytes."""
    data = codec.encode_message(msg, seq)
    frame = decode_frame(data)
    assert frame.msg_id == msg.msg_id and frame.seq == seq
    out = codec.decode_message(frame)
    assert out == msg
    assert codec.encode_message(out, seq) == data
    assert len(frame.payload) == codec.payload_size(
        msg.msg_id, getattr(msg, 'axis_count', 0) or len(getattr(msg, 'currents', ()))
        or len(getattr(msg, 'counts', ())))


def test_each_message_kind_in_one_stream():
    """One example of each id passes through the stream parser in order."""
    msgs = [m.IdentifyRequest(), m.Identify(1, (2, 3, 4), 0.001, (4096, 500), (8.0, 2.5)),
            m.Configure(0.05, (8.0, 2.5), (0.189, 0.05), (-62.6111, 1.0), (4096, 500)),
            m.Enable(), m.Disable(), m.ClearFault(), m.Heartbeat(99), m.HeartbeatReply(99, 7),
            m.SetCurrents(1000, (1.5, -0.25)),
            m.SetImpedance(1000, (0.5, -1.0), (2.0, 0.0), (10.0, 0.0), (0.5, 0.25), (0.125, -2.0)),
            m.StateReport(2000, m.Status.ENABLED | m.Status.CONFIGURED, 0, 1000, 0, (5, -7),
                          (1.25, -0.5)),
            m.FaultReport(3000, m.Fault.OVER_CURRENT, 1, 12_000_000), m.Ack(0x03, 17, 0)]
    assert {x.msg_id for x in msgs} == set(m.MsgId)
    parser = FrameParser(codec.plausible_length)
    stream = b''.join(codec.encode_message(x, i) for i, x in enumerate(msgs))
    frames = []
    for k in range(0, len(stream), 5):
        frames += parser.feed(stream[k:k + 5])
    assert [codec.decode_message(f) for f in frames] == msgs
    assert [f.seq for f in frames] == list(range(len(msgs)))


def test_wire_layout_of_a_state_report():
    """Fields sit where the protocol document says, little-endian, in fixed point."""
    msg = m.StateReport(0x0102030405060708, 0x03, 0, 42, 9, (-2, 70000), (1.5, -0.000001))
    payload = codec.pack_payload(msg)
    assert payload[:8] == bytes([8, 7, 6, 5, 4, 3, 2, 1])
    head = struct.unpack_from('<QHHQHB', payload)
    assert head == (0x0102030405060708, 3, 0, 42, 9, 2)
    assert struct.unpack_from('<iiii', payload, 23) == (-2, 1_500_000, 70000, -1)


def test_configure_and_set_currents_fixed_point():
    """Fixed-point units: uA, 1e-6 N m/A, 1e-4 gear ratio, us."""
    payload = codec.pack_payload(m.Configure(0.05, (8.0,), (0.189,), (-62.6111,), (4096,)))
    assert struct.unpack('<IBIIiI', payload) == (50000, 1, 8_000_000, 189_000, -626_111, 4096)
    payload = codec.pack_payload(m.SetCurrents(5, (-1.0000004, 2.0)))
    assert struct.unpack('<QBii', payload) == (5, 2, -1_000_000, 2_000_000)


def test_set_impedance_layout_is_binary32_per_axis():
    """Head as set-currents, then per axis position, velocity, kp, kd, current as binary32."""
    msg = m.SetImpedance(7, (0.5, -1.25), (2.0, 0.0), (10.0, 0.0), (0.5, 0.25), (0.125, -2.0))
    payload = codec.pack_payload(msg)
    assert len(payload) == 9 + 20 * 2 == codec.payload_size(m.MsgId.SET_IMPEDANCE, 2)
    assert struct.unpack('<QB10f', payload) == (7, 2, 0.5, 2.0, 10.0, 0.5, 0.125,
                                                -1.25, 0.0, 0.0, 0.25, -2.0)


def test_fast_set_impedance_encoder_matches():
    """The per-cycle array encoder gives the record's bytes (same binary32 rounding)."""
    rng = np.random.default_rng(2)
    for _ in range(300):
        n = int(rng.integers(1, m.SetImpedance.max_axes + 1))
        cols = [rng.normal(0.0, 10.0 ** rng.integers(-3, 6), n) for _ in range(5)]
        cols[2], cols[3] = np.abs(cols[2]), np.abs(cols[3])
        t = int(rng.integers(0, 2**63))
        seq = int(rng.integers(0, 65536))
        frame = codec.encode_set_impedance(t, *cols, seq)
        assert frame == codec.encode_message(m.SetImpedance(t, *map(tuple, cols)), seq)
        back = codec.decode_message(decode_frame(frame))
        for name, col in zip(m.SetImpedance.FIELDS, cols):
            assert np.allclose(getattr(back, name), col, rtol=2**-24, atol=1e-45)


@pytest.mark.parametrize('cols, text', [
    ([[1.0, math.nan], [0, 0], [1, 1], [1, 1], [0, 0]], 'non-finite'),
    ([[1.0, 2.0], [0, math.inf], [1, 1], [1, 1], [0, 0]], 'non-finite'),
    ([[1.0, 2.0], [0, 0], [1, -1e-30], [1, 1], [0, 0]], 'negative gain'),
    ([[1.0, 2.0], [0, 0], [1, 1], [-2, 1], [0, 0]], 'negative gain'),
    ([[1.0, 2.0], [0, 0], [1, 1], [1, 1], [0, 3.5e38]], 'binary32 range'),
    ([[1.0, 2.0], [0], [1, 1], [1, 1], [0, 0]], 'one length each'),
    ([[1.0], [0], [1], [1], ['x']], 'one length each'),
    ([[]] * 5, 'axis count 0'),
    ([[0.0] * 26] * 5, 'axis count 26 outside 1..25'),
])
def test_fast_set_impedance_encoder_refuses(cols, text):
    """Bad values raise MessageError before anything is encoded, as the record does."""
    with pytest.raises(MessageError, match=text):
        codec.encode_set_impedance(0, *cols, 0)
    if len({len(c) for c in cols}) == 1 and 'x' not in cols[4]:
        with pytest.raises(MessageError):
            codec.pack_payload(m.SetImpedance(0, *map(tuple, cols)))


def test_fast_set_currents_encoder_matches():
    """The per-cycle array encoder gives the generic encoder's bytes, and refuses NaN."""
    rng = np.random.default_rng(1)
    for _ in range(200):
        n = int(rng.integers(1, m.MAX_AXES + 1))
        cur = rng.normal(0.0, 100.0, n)
        t = int(rng.integers(0, 2**63))
        seq = int(rng.integers(0, 65536))
        assert codec.encode_set_currents(t, cur, seq) == codec.encode_message(
            m.SetCurrents(t, tuple(cur)), seq)
    with pytest.raises(MessageError, match='not finite'):
        codec.encode_set_currents(0, np.array([1.0, math.nan]), 0)
    with pytest.raises(MessageError, match='out of range'):
        codec.encode_set_currents(0, np.array([1e4]), 0)
    with pytest.raises(MessageError, match='axis count'):
        codec.encode_set_currents(0, np.zeros(0), 0)


@pytest.mark.parametrize('msg, text', [
    (m.SetCurrents(0, (math.nan,)), 'not finite'),
    (m.SetCurrents(0, (3000.0,)), 'outside the encodable range'),
    (m.SetCurrents(-1, (0.0,)), 'state_time_us'),
    (m.SetCurrents(0, ()), 'axis count'),
    (m.SetCurrents(0, (0.0,) * (m.MAX_AXES + 1)), 'axis count'),
    (m.SetImpedance(0, (math.nan,), (0.0,), (1.0,), (1.0,), (0.0,)), 'position: nan'),
    (m.SetImpedance(0, (0.0,), (0.0,), (-1.0,), (1.0,), (0.0,)), 'kp: -1.0 is below 0'),
    (m.SetImpedance(0, (0.0,), (0.0,), (1.0,), (-0.5,), (0.0,)), 'kd: -0.5 is below 0'),
    (m.SetImpedance(0, (0.0,), (1e39,), (1.0,), (1.0,), (0.0,)), 'velocity: .* binary32'),
    (m.SetImpedance(0, (0.0,), (0.0,), (1.0,), (1.0,), (math.inf,)), 'current: inf'),
    (m.SetImpedance(0, (0.0, 1.0), (0.0,), (1.0, 1.0), (1.0, 1.0), (0.0, 0.0)), 'velocity: 1'),
    (m.SetImpedance(-1, (0.0,), (0.0,), (1.0,), (1.0,), (0.0,)), 'state_time_us'),
    (m.SetImpedance(0, (0.0,) * 26, (0.0,) * 26, (1.0,) * 26, (1.0,) * 26, (0.0,) * 26),
     'axis count 26'),
    (m.Configure(0.05, (1.0, 1.0), (0.1,), (1.0, 1.0), (1, 1)), 'torque_constant'),
    (m.Configure(0.05, (1.0,), (0.1,), (0.0,), (1,)), 'gear_ratio'),
    (m.Configure(0.0, (1.0,), (0.1,), (1.0,), (1,)), 'watchdog_period'),
    (m.Configure(0.05, (-1.0,), (0.1,), (1.0,), (1,)), 'current_limit'),
    (m.Identify(0, (1, 0, 0), 0.001, (1,), (1.0,)), 'protocol_version'),
    (m.Identify(1, (256, 0, 0), 0.001, (1,), (1.0,)), 'firmware'),
    (m.StateReport(0, 0x80, 0, 0, 0, (1,), (0.0,)), 'status'),
    (m.StateReport(0, 0, 0, 0, 0, (2**31,), (0.0,)), 'counts'),
    (m.FaultReport(0, 0, 0, 0), 'faults'),
    (m.FaultReport(0, 1, 40, 0), 'axis'),
    (m.Ack(3, 70000, 0), 'acked_seq'),
    (m.Heartbeat(-5), 'token'),
])
def test_encoder_refuses_bad_values(msg, text):
    """Non-finite, out-of-range or inconsistent values never reach the wire."""
    with pytest.raises(MessageError, match=text):
        codec.pack_payload(msg)


@pytest.mark.parametrize('mid, payload, text', [
    (0x55, b'', 'unknown message id'),
    (m.MsgId.ENABLE, b'\x00', 'impossible payload length'),
    (m.MsgId.SET_CURRENTS, struct.pack('<QBi', 0, 2, 5), 'does not match 2 axes'),
    (m.MsgId.SET_CURRENTS, struct.pack('<QBh', 0, 1, 5), 'impossible payload length'),
    (m.MsgId.SET_CURRENTS, struct.pack('<QBii', 0, 1, 5, 6), 'does not match 1 axes'),
    (m.MsgId.STATE_REPORT, struct.pack('<QHHQHBii', 0, 0x80, 0, 0, 0, 1, 0, 0), 'reserved'),
    (m.MsgId.SET_IMPEDANCE, struct.pack('<QB5f', 0, 1, math.nan, 0, 1, 1, 0),
     'axis 0 position nan is not finite'),
    (m.MsgId.SET_IMPEDANCE, struct.pack('<QB10f', 0, 2, 0, 0, 1, 1, 0, 0, 0, 1, 1, -math.inf),
     'axis 1 current -inf is not finite'),
    (m.MsgId.SET_IMPEDANCE, struct.pack('<QB5f', 0, 1, 0, 0, -1, 1, 0), 'axis 0 kp -1.0 is neg'),
    (m.MsgId.SET_IMPEDANCE, struct.pack('<QB5f', 0, 1, 0, 0, 1, -1e-3, 0), 'axis 0 kd .* neg'),
    (m.MsgId.SET_IMPEDANCE, struct.pack('<QB5f', 0, 2, 0, 0, 1, 1, 0), 'does not match 2 axes'),
    (m.MsgId.SET_IMPEDANCE, struct.pack('<QB4f', 0, 1, 0, 0, 1, 1), 'impossible payload'),
    (m.MsgId.SET_IMPEDANCE, struct.pack('<QB', 0, 26) + bytes(20 * 26), 'impossible payload'),
    (m.MsgId.STATE_REPORT, struct.pack('<QHHQHBii', 0, 0, 1, 0, 0, 1, 0, 0), 'FAULT status'),
    (m.MsgId.STATE_REPORT, struct.pack('<QHHQHBii', 0, 4, 0, 0, 0, 1, 0, 0), 'FAULT status'),
    (m.MsgId.IDENTIFY, struct.pack('<5BIII', 1, 1, 0, 0, 1, 1000, 0, 5), 'must be positive'),
    (m.MsgId.IDENTIFY, struct.pack('<5BIII', 1, 1, 0, 0, 0, 1000, 1, 5), 'axis count'),
    (m.MsgId.CONFIGURE, struct.pack('<IBIIiI', 0, 1, 1, 1, 1, 1), 'zero watchdog'),
    (m.MsgId.CONFIGURE, struct.pack('<IBIIiI', 1, 1, 1, 1, 0, 1), 'zero watchdog'),
    (m.MsgId.FAULT_REPORT, struct.pack('<QHBi', 0, 0, 0, 0), 'invalid fault bits'),
    (m.MsgId.FAULT_REPORT, struct.pack('<QHBi', 0, 0x100, 0, 0), 'invalid fault bits'),
    (m.MsgId.FAULT_REPORT, struct.pack('<QHBi', 0, 1, 33, 0), 'invalid axis'),
    (m.MsgId.ACK, struct.pack('<BHBH', 0x10, 0, 0, 0), 'invalid request id'),
    (m.MsgId.ACK, struct.pack('<BHBH', 0x03, 0, 9, 0), 'invalid request id'),
])
def test_decoder_refuses_invalid_payloads(mid, payload, text):
    """A frame with a good CRC but an invalid payload raises MessageError, naming why."""
    with pytest.raises(MessageError, match=text):
        codec.decode_payload(int(mid), payload)


def test_plausible_length_matches_payload_sizes():
    """The parser's length rule accepts exactly the sizes the encoder produces."""
    for mid in m.MsgId:
        base, per = m.message_type(mid).layout
        if per == 0:
            assert codec.plausible_length(mid, base)
            assert not codec.plausible_length(mid, base + 1)
        else:
            assert not codec.plausible_length(mid, base)
            assert codec.plausible_length(mid, base + per)
            top = m.message_type(mid).max_axes
            assert codec.plausible_length(mid, base + per * top)
            assert not codec.plausible_length(mid, base + per * (top + 1))
            assert not codec.plausible_length(mid, base + per + 1)
    assert not codec.plausible_length(0x99, 0)


def test_fault_names():
    """Fault bits are named for diagnostics."""
    assert m.fault_names(m.Fault.WATCHDOG | m.Fault.ENCODER) == ['watchdog', 'encoder']
    assert m.fault_names(0) == []
