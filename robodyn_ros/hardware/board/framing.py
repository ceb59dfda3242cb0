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
Frames of the board protocol: layout, encoder, one-frame decoder, stream parser.

Layout (all multi-byte fields little-endian)::

    offset  size  field
    0       1     sync 0xAA
    1       1     sync 0x55
    2       2     payload length L (u16), 0 <= L <= MAX_PAYLOAD
    4       1     message id (u8)
    5       2     sequence number (u16, wraps)
    7       1     header check: CRC-8/SMBUS of bytes 2 .. 6
    8       L     payload
    8 + L   2     CRC-16/CCITT-FALSE of bytes 2 .. 7 + L (u16)

The stream parser never raises on bad input: it drops bytes until the next
sync pair, rejects a header whose check fails or whose length is impossible
for its message id (so a damaged length can neither stall the stream nor
make the parser check the CRC over the wrong bytes), checks the CRC, and
counts every rejection. It keeps at most one frame's worth of pending bytes.
"""

from collections import deque
from dataclasses import dataclass
import struct

from .crc import crc16, crc8
from ..errors import CrcError, FrameError

SYNC = b'\xaa\x55'
HEADER_SIZE = 8
CRC_SIZE = 2
OVERHEAD = HEADER_SIZE + CRC_SIZE
#: Largest payload the protocol allows [bytes].
MAX_PAYLOAD = 520

_HEADER = struct.Struct('<2sHBHB')
_CRC = struct.Struct('<H')


@dataclass(frozen=True)
class Frame:
    """
    One checked frame.

    Attributes
    ----------
    msg_id : int
        Message id, 0..255.
    seq : int
        Sequence number, 0..65535.
    payload : bytes
        Payload bytes.

    """

    msg_id: int
    seq: int
    payload: bytes


def encode_frame(msg_id, seq, payload=b''):
    """
    Build the bytes of one frame.

    Parameters
    ----------
    msg_id : int
        Message id, 0..255.
    seq : int
        Sequence number (taken modulo 65536).
    payload : bytes-like
        Payload, at most :data:`MAX_PAYLOAD` bytes.

    Returns
    -------
    bytes
        The frame.

    Raises
    ------
    FrameError
        If the id or the payload size is out of range.

    """
    if not 0 <= msg_id <= 0xFF:
        raise FrameError(f'message id {msg_id} out of range 0..255')
    if len(payload) > MAX_PAYLOAD:
        raise FrameError(f'payload of {len(payload)} bytes exceeds {MAX_PAYLOAD}')
    head = struct.pack('<HBH', len(payload), msg_id, seq & 0xFFFF)
    body = SYNC + head + bytes((crc8(head),)) + bytes(payload)
    return body + _CRC.pack(crc16(memoryview(body)[2:]))


def decode_frame(data):
    """
    Check and split exactly one frame.

    Parameters
    ----------
    data : bytes-like
        The bytes of one frame, nothing more.

    Returns
    -------
    Frame
        The frame.

    Raises
    ------
    FrameError
        Bad sync, bad header check, bad length or extra/missing bytes.
    CrcError
        The CRC does not match.

    """
    data = bytes(data)
    if len(data) < OVERHEAD:
        raise FrameError(f'{len(data)} bytes is shorter than the {OVERHEAD}-byte minimum frame')
    sync, length, msg_id, seq, check = _HEADER.unpack_from(data)
    if sync != SYNC:
        raise FrameError(f'bad sync bytes {sync.hex()}')
    if crc8(data[2:7]) != check:
        raise FrameError('header check failed')
    if length > MAX_PAYLOAD:
        raise FrameError(f'length field {length} exceeds {MAX_PAYLOAD}')
    if len(data) != OVERHEAD + length:
        raise FrameError(f'length field says {OVERHEAD + length} bytes, got {len(data)}')
    (crc,) = _CRC.unpack_from(data, HEADER_SIZE + length)
    expected = crc16(memoryview(data)[2:HEADER_SIZE + length])
    if crc != expected:
        raise CrcError(f'CRC 0x{crc:04x} does not match 0x{expected:04x}')
    return Frame(msg_id, seq, data[HEADER_SIZE:HEADER_SIZE + length])


class FrameParser:
    """
    Incremental parser of a byte stream into frames.

    Parameters
    ----------
    length_ok : callable, optional
        ``length_ok(msg_id, length) -> bool``: reject a header at once when the
        length is impossible for the id (see
        :func:`robodyn_ros.hardware.board.messages.plausible_length`).
    keep_errors : int
        How many recent errors to keep in :attr:`errors`.

    Attributes
    ----------
    frames, header_errors, crc_errors, length_errors, discarded_bytes : int
        Counters since creation.
    truncated : int
        Datagrams that ended inside a frame (see :meth:`end_of_datagram`).
    errors : collections.deque
        The most recent :class:`FrameError` instances.

    """

    def __init__(self, length_ok=None, keep_errors=16):
        self._buf = bytearray()
        self._length_ok = length_ok
        self.frames = 0
        self.header_errors = 0
        self.crc_errors = 0
        self.length_errors = 0
        self.discarded_bytes = 0
        self.truncated = 0
        self.errors = deque(maxlen=keep_errors)

    def reset(self):
        """Drop pending bytes (after a reconnect); counters are kept."""
        self._buf.clear()

    def end_of_datagram(self):
        """
        Close a datagram: bytes of an unfinished frame are dropped and counted.

        On a datagram link every datagram holds whole frames; a frame cut at
        a datagram's end is damaged, and the next datagram's bytes must never
        complete it.
        """
        if self._buf:
            self.truncated += 1
            self.discarded_bytes += len(self._buf)
            self._reject(FrameError(f'datagram ended inside a frame ({len(self._buf)} bytes '
                                    'dropped)'))
            self._buf.clear()

    def feed_datagram(self, data):
        """
        Parse one datagram on its own (no bytes carried over from or to another).

        Parameters
        ----------
        data : bytes-like
            One datagram.

        Returns
        -------
        list of Frame
            Its complete frames whose CRC matched, in order.

        """
        self._buf.clear()
        frames = self.feed(data)
        self.end_of_datagram()
        return frames

    @property
    def pending(self):
        """Bytes waiting for the rest of a frame (int)."""
        return len(self._buf)

    def _reject(self, error):
        self.errors.append(error)

    def feed(self, data):
        """
        Add bytes and return the complete frames found.

        Parameters
        ----------
        data : bytes-like
            New bytes from the link.

        Returns
        -------
        list of Frame
            Frames whose CRC matched, in order.

        """
        buf = self._buf
        buf += data
        out = []
        pos = 0
        size = len(buf)
        while True:
            start = buf.find(SYNC, pos)
            if start < 0:
                keep = size - 1 if size > pos and buf[size - 1] == SYNC[0] else size
                self.discarded_bytes += keep - pos
                pos = keep
                break
            self.discarded_bytes += start - pos
            pos = start
            if size - pos < HEADER_SIZE:
                break
            _, length, msg_id, seq, check = _HEADER.unpack_from(buf, pos)
            if crc8(buf[pos + 2:pos + 7]) != check:
                self.header_errors += 1
                self._reject(FrameError('header check failed'))
                pos += 1
                self.discarded_bytes += 1
                continue
            if length > MAX_PAYLOAD or (self._length_ok is not None
                                        and not self._length_ok(msg_id, length)):
                self.length_errors += 1
                self._reject(FrameError(f'length {length} impossible for message id {msg_id}'))
                pos += 1
                self.discarded_bytes += 1
                continue
            end = pos + OVERHEAD + length
            if size < end:
                break
            (crc,) = _CRC.unpack_from(buf, end - CRC_SIZE)
            if crc != crc16(memoryview(buf)[pos + 2:end - CRC_SIZE]):
                self.crc_errors += 1
                self._reject(CrcError(f'CRC mismatch in frame id {msg_id} seq {seq}'))
                pos += 1
                self.discarded_bytes += 1
                continue
            out.append(Frame(msg_id, seq, bytes(buf[pos + HEADER_SIZE:end - CRC_SIZE])))
            self.frames += 1
            pos = end
        del buf[:pos]
        return out
