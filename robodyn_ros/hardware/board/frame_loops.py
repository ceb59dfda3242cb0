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
A frame's bytes in loop form: the pieces every compiled frame encoder and decoder shares.

The per-cycle frames are encoded and decoded by numba-compiled loops on
both sides of the link (the host's
:mod:`~.command_kernel` and :mod:`~.report_kernel`, the simulated board's
:mod:`robodyn_ros.sim.board.frame_kernel`). These helpers are their common
part, plain Python functions that the compiled functions call (each kernel
registers them with numba):

- :func:`put` and :func:`unsigned` write and read little-endian integers;
- :func:`write_header` writes the sync pair and the header with its CRC-8;
- :func:`crc16` is the frame's CRC-16 over header and payload;
- :func:`whole_frame` checks that a datagram is exactly one undamaged frame
  of a given message id and gives its payload length.

The layout is :mod:`.framing`'s (docs/driver_board_protocol.md).
"""

import numpy as np

from .crc import TABLE16, TABLE8

#: Bytes of a frame's header (sync, length, id, sequence, CRC-8) and of its CRC-16.
HEADER, CRC = 8, 2


def crc_tables():
    """Give the (2, 256) int64 array of the CRC-8 and CRC-16 tables the loops take (new)."""
    return np.array([TABLE8, TABLE16], dtype=np.int64)


def put(out, at, value, size):
    """Write ``value`` (int64, two's complement) little-endian in ``size`` bytes at ``at``."""
    for i in range(size):
        out[at + i] = (value >> (8 * i)) & 0xFF


def unsigned(data, at, size):
    """Little-endian unsigned integer of ``size`` bytes at ``at`` (uint64)."""
    value = np.uint64(0)
    for i in range(size - 1, -1, -1):
        value = (value << np.uint64(8)) | np.uint64(data[at + i])
    return value


def write_header(out, msg_id, seq, length, tables):
    """Write the sync pair and the header (payload ``length``, id, sequence, CRC-8)."""
    out[0] = 0xAA
    out[1] = 0x55
    put(out, 2, length, 2)
    out[4] = msg_id
    put(out, 5, seq & 0xFFFF, 2)
    check = 0
    for i in range(2, 7):
        check = tables[0, check ^ out[i]]
    out[7] = check


def crc16(data, end, tables):
    """CRC-16 of ``data[2:end]`` (header and payload; ``tables[1]`` is its table)."""
    crc = 0xFFFF
    for i in range(2, end):
        crc = ((crc << 8) & 0xFFFF) ^ tables[1, ((crc >> 8) ^ int(data[i])) & 0xFF]
    return crc


def whole_frame(data, msg_id, least, tables):
    """
    Check that a datagram is exactly one undamaged frame of one message id.

    Parameters
    ----------
    data : numpy.ndarray
        The datagram, uint8.
    msg_id : int
        The message id it must carry.
    least : int
        Shortest payload of that message [bytes].
    tables : numpy.ndarray
        (2, 256) int64: CRC-8 table, CRC-16 table.

    Returns
    -------
    int
        The payload's length [bytes], or -1 (not one such frame: short,
        another id, a length that is not the datagram's, a bad CRC).

    """
    size = data.shape[0]
    if size < HEADER + least + CRC or data[0] != 0xAA or data[1] != 0x55:
        return -1
    length = np.int64(unsigned(data, 2, 2))
    if int(data[4]) != msg_id or size != HEADER + length + CRC:
        return -1
    check = 0
    for i in range(2, 7):
        check = tables[0, check ^ int(data[i])]
    if check != int(data[7]):
        return -1
    if crc16(data, HEADER + length, tables) != np.int64(unsigned(data, HEADER + length, 2)):
        return -1
    return length


#: The helpers, for a kernel's ``CompiledFunctions(..., helpers=HELPERS)``.
HELPERS = (put, unsigned, write_header, crc16, whole_frame)
