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

"""
CRC-16/CCITT-FALSE (frame check) and CRC-8/SMBUS (header check) of the board protocol.

Polynomial 0x1021 (x^16 + x^12 + x^5 + 1), initial value 0xFFFF, no
reflection, no final XOR; the check value of ``b'123456789'`` is 0x29B1.
The polynomial has the factor (x + 1), so every odd number of bit errors is
detected; its Hamming distance is 4 up to 32751 data bits, so every error of
up to three bits is detected; and every burst of up to 16 bits is detected.
Computed by :func:`binascii.crc_hqx` (C); the tests compare it with the
bitwise definition from :data:`POLYNOMIAL`.

The header (length, id, sequence number: 40 bits) carries its own CRC-8,
polynomial 0x07 (x^8 + x^2 + x + 1), initial value 0, no reflection (check
value of ``b'123456789'``: 0xF4). Its Hamming distance over 40 data bits is
4, so a header with up to three bit errors is always rejected and the
parser never acts on a damaged length field.
"""

import binascii

INITIAL = 0xFFFF
POLYNOMIAL = 0x1021
POLYNOMIAL8 = 0x07


def _table(polynomial, width):
    """Byte-wise lookup table of an unreflected CRC of ``width`` bits."""
    top, mask = 1 << (width - 1), (1 << width) - 1
    table = []
    for byte in range(256):
        crc = byte << (width - 8)
        for _ in range(8):
            crc = ((crc << 1) ^ polynomial) & mask if crc & top else (crc << 1) & mask
        table.append(crc)
    return tuple(table)


#: Lookup tables of the header check and of the frame check (also for compiled decoders).
TABLE8 = _table(POLYNOMIAL8, 8)
TABLE16 = _table(POLYNOMIAL, 16)


def crc8(data, value=0):
    """
    Compute the CRC-8/SMBUS of some bytes (the header check).

    Parameters
    ----------
    data : bytes-like
        The bytes.
    value : int
        Running CRC to continue from.

    Returns
    -------
    int
        The CRC, 0..0xFF.

    """
    table = TABLE8
    for byte in bytes(data):
        value = table[value ^ byte]
    return value


def crc16(data, value=INITIAL):
    """
    Compute the CRC-16/CCITT-FALSE of some bytes.

    Parameters
    ----------
    data : bytes-like
        The bytes.
    value : int
        Running CRC to continue from (default: the initial value).

    Returns
    -------
    int
        The CRC, 0..0xFFFF.

    """
    return binascii.crc_hqx(data, value)
