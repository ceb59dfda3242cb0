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

"""Frames: layout, one-frame decoding, and the stream parser's resynchronisation."""

import struct

import numpy as np
import pytest
from robodyn_ros.hardware.board.codec import plausible_length
from robodyn_ros.hardware.board.crc import crc16, crc8
from robodyn_ros.hardware.board.framing import (decode_frame, encode_frame, Frame, FrameParser,
                                                MAX_PAYLOAD, OVERHEAD)
from robodyn_ros.hardware.errors import CrcError, FrameError


def test_layout_matches_the_document():
    """Sync, length, id, sequence, header check, payload, CRC-16 at their offsets."""
    data = encode_frame(0x20, 0x1234, b'\x01\x02\x03')
    assert data[:2] == b'\xaa\x55'
    assert struct.unpack_from('<HBH', data, 2) == (3, 0x20, 0x1234)
    assert data[7] == crc8(data[2:7])
    assert data[8:11] == b'\x01\x02\x03'
    assert struct.unpack_from('<H', data, 11)[0] == crc16(data[2:11])
    assert len(data) == OVERHEAD + 3
    assert decode_frame(data) == Frame(0x20, 0x1234, b'\x01\x02\x03')


def test_sequence_wraps_and_limits_are_enforced():
    """Sequence numbers wrap at 2^16; ids and payload sizes are checked on encode."""
    assert decode_frame(encode_frame(1, 65536 + 5)).seq == 5
    with pytest.raises(FrameError):
        encode_frame(256, 0)
    with pytest.raises(FrameError):
        encode_frame(1, 0, bytes(MAX_PAYLOAD + 1))
    assert len(decode_frame(encode_frame(1, 0, bytes(MAX_PAYLOAD))).payload) == MAX_PAYLOAD


@pytest.mark.parametrize('damage, error', [
    (lambda d: d[:-1], FrameError),
    (lambda d: d + b'\x00', FrameError),
    (lambda d: b'\xab' + d[1:], FrameError),
    (lambda d: d[:2] + bytes([d[2] ^ 1]) + d[3:], FrameError),
    (lambda d: d[:9] + bytes([d[9] ^ 0x10]) + d[10:], CrcError),
    (lambda d: d[:-1] + bytes([d[-1] ^ 0xFF]), CrcError),
    (lambda d: b'', FrameError),
])
def test_decode_frame_rejects_damage(damage, error):
    """Truncation, extension, sync, header and payload damage are each rejected."""
    data = encode_frame(0x10, 7, bytes(range(13)))
    with pytest.raises(error):
        decode_frame(damage(data))


def test_parser_handles_any_chunking():
    """Frames split at every possible boundary come out whole and in order."""
    frames = [encode_frame(0x07, k, struct.pack('<Q', k)) for k in range(6)]
    stream = b''.join(frames)
    for chunk in range(1, len(stream) + 1):
        parser = FrameParser(plausible_length)
        out = []
        for k in range(0, len(stream), chunk):
            out += parser.feed(stream[k:k + chunk])
        assert [f.seq for f in out] == list(range(6)), chunk
        assert parser.pending == 0


def test_parser_resynchronises_and_counts():
    """Garbage, a bad CRC, a bad header and an impossible length are skipped and counted."""
    good = [encode_frame(0x07, k, struct.pack('<Q', k)) for k in range(4)]
    bad_crc = bytearray(good[1])
    bad_crc[-1] ^= 1
    bad_head = bytearray(good[2])
    bad_head[4] ^= 1
    impossible = encode_frame(0x07, 9, b'\x00' * 9)  # a heartbeat carries 8 bytes
    stream = (b'\x00\xaa\x13garbage\xaa' + good[0] + bytes(bad_crc) + bytes(bad_head)
              + impossible + good[3] + b'\xaa')
    parser = FrameParser(plausible_length)
    out = parser.feed(stream)
    assert [f.seq for f in out] == [0, 3]
    assert parser.crc_errors == 1 and parser.header_errors == 1 and parser.length_errors == 1
    assert parser.pending == 1  # a trailing sync byte is kept for the next feed
    assert parser.discarded_bytes > 0 and len(parser.errors) == 3
    assert parser.feed(b'') == []


def test_parser_memory_stays_bounded():
    """A long stream of noise never accumulates beyond one frame."""
    rng = np.random.default_rng(0)
    parser = FrameParser(plausible_length)
    for _ in range(300):
        parser.feed(rng.integers(0, 256, 997, dtype=np.uint8).tobytes())
        assert parser.pending <= OVERHEAD + MAX_PAYLOAD
    parser.reset()
    assert parser.pending == 0
