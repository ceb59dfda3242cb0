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

"""The frame and header checks: catalogue check values and error-detection guarantees."""

import itertools

import numpy as np
from robodyn_ros.hardware.board.crc import crc16, crc8, INITIAL, POLYNOMIAL


def crc16_reference(data, value=INITIAL):
    """Compute the CRC-16/CCITT-FALSE bit by bit, from its definition (slow)."""
    crc = value
    for byte in bytes(data):
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ POLYNOMIAL) if crc & 0x8000 else (crc << 1)
            crc &= 0xFFFF
    return crc


def test_catalogue_check_values():
    """CRC-16/CCITT-FALSE gives 0x29B1 and CRC-8/SMBUS 0xF4 for '123456789'."""
    assert crc16(b'123456789') == 0x29B1
    assert crc16_reference(b'123456789') == 0x29B1
    assert crc8(b'123456789') == 0xF4
    assert crc16(b'') == 0xFFFF and crc8(b'') == 0


def test_fast_crc16_equals_the_bitwise_definition():
    """The table CRC of binascii equals the bit-by-bit definition, also when continued."""
    rng = np.random.default_rng(3)
    for size in list(range(0, 40)) + [255, 1000]:
        data = rng.integers(0, 256, size, dtype=np.uint8).tobytes()
        assert crc16(data) == crc16_reference(data)
        cut = size // 2
        assert crc16(data[cut:], crc16(data[:cut])) == crc16(data)


def _codeword16(data):
    c = crc16(data)
    return bytearray(data + bytes((c >> 8, c & 0xFF)))


def _ok16(word):
    return crc16(bytes(word[:-2])) == (word[-2] << 8 | word[-1])


def test_crc16_detects_all_errors_up_to_three_bits_and_odd_counts():
    """Every 1-, 2- and 3-bit error of a 12-byte word is caught, and random odd-bit errors."""
    rng = np.random.default_rng(4)
    word = _codeword16(rng.integers(0, 256, 10, dtype=np.uint8).tobytes())
    assert _ok16(word)
    bits = len(word) * 8
    for k in (1, 2, 3):
        for pos in itertools.combinations(range(bits), k):
            bad = bytearray(word)
            for p in pos:
                bad[p // 8] ^= 0x80 >> (p % 8)
            assert not _ok16(bad), pos
    long_word = _codeword16(rng.integers(0, 256, 300, dtype=np.uint8).tobytes())
    for _ in range(3000):
        bad = bytearray(long_word)
        for p in rng.choice(len(bad) * 8, int(rng.choice([5, 7, 9, 11])), replace=False):
            bad[p // 8] ^= 0x80 >> (p % 8)
        assert not _ok16(bad)


def test_crc16_detects_every_burst_up_to_16_bits():
    """Every burst of length <= 16 (first and last bit flipped) at every offset is caught."""
    rng = np.random.default_rng(5)
    word = _codeword16(rng.integers(0, 256, 8, dtype=np.uint8).tobytes())
    bits = len(word) * 8
    for width in range(1, 17):
        inner = range(1 << max(0, width - 2)) if width > 2 else [0]
        for start in range(bits - width + 1):
            for middle in list(inner)[:16]:
                pattern = 1 | (1 << (width - 1)) | (middle << 1)
                bad = bytearray(word)
                for k in range(width):
                    if pattern >> k & 1:
                        p = start + k
                        bad[p // 8] ^= 0x80 >> (p % 8)
                assert not _ok16(bad), (width, start)


def test_crc8_protects_the_header_against_three_bit_errors():
    """Hamming distance 4 over the 40 header bits: no 1-3 bit error passes."""
    rng = np.random.default_rng(6)
    for _ in range(5):
        head = bytearray(rng.integers(0, 256, 5, dtype=np.uint8).tobytes())
        word = head + bytes((crc8(head),))
        for k in (1, 2, 3):
            for pos in itertools.combinations(range(48), k):
                bad = bytearray(word)
                for p in pos:
                    bad[p // 8] ^= 1 << (p % 8)
                assert crc8(bytes(bad[:5])) != bad[5], pos
