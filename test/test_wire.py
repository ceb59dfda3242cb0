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

"""The wire layer: one record per message id, fixed-point fields, the record registry."""

from dataclasses import dataclass
import math
import struct

import pytest
from robodyn_ros.hardware.board import messages as m
from robodyn_ros.hardware.board import wire
from robodyn_ros.hardware.board.framing import MAX_PAYLOAD
from robodyn_ros.hardware.errors import MessageError


def test_every_id_has_one_record_that_names_it():
    """Each MsgId maps to the record whose msg_id it is; unknown ids map to nothing."""
    for mid in m.MsgId:
        cls = wire.message_type(mid)
        assert issubclass(cls, m.Message) and cls.msg_id is mid
        assert wire.message_type(int(mid)) is cls
        assert getattr(m, cls.__name__) is cls
    assert wire.message_type(0x99) is None and wire.message_type(None) is None


def test_layouts_are_the_struct_sizes():
    """Fixed parts follow the little-endian layouts of the protocol document."""
    sizes = {m.MsgId.HEARTBEAT: ('<Q', 0), m.MsgId.HEARTBEAT_REPLY: ('<QQ', 0),
             m.MsgId.SET_CURRENTS: ('<QB', 4), m.MsgId.SET_IMPEDANCE: ('<QB', 20),
             m.MsgId.STATE_REPORT: ('<QHHQHB', 8),
             m.MsgId.IDENTIFY: ('<5BI', 8), m.MsgId.CONFIGURE: ('<IB', 16),
             m.MsgId.FAULT_REPORT: ('<QHBi', 0), m.MsgId.ACK: ('<BHBH', 0)}
    for mid in m.MsgId:
        fmt, per = sizes.get(mid, ('<', 0))
        assert wire.message_type(mid).layout == (struct.calcsize(fmt), per), mid.name


def test_an_id_cannot_be_registered_twice():
    """A second record for a taken id is refused when it is defined."""
    with pytest.raises(TypeError, match='taken by Heartbeat'):
        @dataclass(frozen=True)
        class Duplicate(m.Message):
            msg_id = m.MsgId.HEARTBEAT
    assert wire.message_type(m.MsgId.HEARTBEAT) is m.Heartbeat


@pytest.mark.parametrize('value, scale, expected', [
    (1.5, m.CURRENT_SCALE, 1_500_000), (-2.0000004, m.CURRENT_SCALE, -2_000_000),
    (0.1894, m.TORQUE_CONSTANT_SCALE, 189_400), (-62.61114, m.GEAR_RATIO_SCALE, -626_111),
])
def test_fixed_point_rounds_to_the_nearest_lsb(value, scale, expected):
    """to_fixed gives the nearest wire integer (within half an LSB of the value)."""
    out = wire.to_fixed(value, scale, *wire.I32, 'x')
    assert out == expected and abs(out / scale - value) <= 0.5 / scale


def test_fields_out_of_range_are_refused_by_name():
    """Non-finite, out-of-range and non-integer values name their field."""
    with pytest.raises(MessageError, match='current: nan is not finite'):
        wire.to_fixed(math.nan, m.CURRENT_SCALE, *wire.I32, 'current')
    with pytest.raises(MessageError, match='limit: 5000.0 outside the encodable range'):
        wire.to_fixed(5000.0, m.CURRENT_SCALE, 1, wire.U32[1], 'limit')
    with pytest.raises(MessageError, match=r'seq: 1.5 is not an integer in \[0, 65535\]'):
        wire.to_integer(1.5, 0, 0xFFFF, 'seq')
    assert wire.to_integer(7.0, 0, 10, 'x') == 7
    with pytest.raises(MessageError, match=f'axis count 0 outside 1..{m.MAX_AXES}'):
        wire.check_axis_count(0, 'currents')
    assert wire.check_axis_count(m.MAX_AXES, 'currents') == m.MAX_AXES


def test_float32_fields_round_to_the_nearest_binary32():
    """to_float32 gives what struct's binary32 carries; it refuses NaN, inf, range and sign."""
    for value in (0.1, -3.3, 1e-40, 123456.789, -0.0, m.F32_MAX):
        out = wire.to_float32(value, -math.inf, 'x')
        assert struct.pack('<f', out) == struct.pack('<f', value)
        assert out == struct.unpack('<f', struct.pack('<f', value))[0]
    assert wire.to_float32(0.1, 0.0, 'kp') != 0.1  # rounded, not kept as a double
    with pytest.raises(MessageError, match='kp: nan is not finite'):
        wire.to_float32(math.nan, 0.0, 'kp')
    with pytest.raises(MessageError, match='kd: -inf is not finite'):
        wire.to_float32(-math.inf, 0.0, 'kd')
    with pytest.raises(MessageError, match='kp: -1e-30 is below 0'):
        wire.to_float32(-1e-30, 0.0, 'kp')
    with pytest.raises(MessageError, match='position: .* outside the binary32 range'):
        wire.to_float32(-3.5e38, -math.inf, 'position')


def test_per_axis_limit_of_a_message_follows_the_payload_limit():
    """SET_IMPEDANCE's 20-byte axes fit 25 axes in the 520-byte payload; the others 32."""
    imp = wire.message_type(m.MsgId.SET_IMPEDANCE)
    base, per = imp.layout
    assert imp.max_axes == 25
    assert base + per * imp.max_axes <= MAX_PAYLOAD < base + per * (imp.max_axes + 1)
    for mid in m.MsgId:
        cls = wire.message_type(mid)
        if cls is not imp:
            assert cls.max_axes == m.MAX_AXES
            assert cls.layout[0] + cls.layout[1] * m.MAX_AXES <= MAX_PAYLOAD
    with pytest.raises(MessageError, match='axis count 26 outside 1..25'):
        wire.check_axis_count(26, 'position', imp.max_axes)
