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
The simulated board's side of the per-cycle frames in loop form, compiled by numba.

Every board cycle the simulated board sends one state report and receives
one set-currents frame. The host compiles its side of both
(:mod:`~robodyn_ros.hardware.board.command_kernel`,
:mod:`~robodyn_ros.hardware.board.report_kernel`); this module does the
same for the board's side, whose general path (message records, the frame
parser) cost the simulator a third of its cycle:

- :func:`encode_state_frame` writes a state report frame into a buffer: the
  same bytes as ``encode_message(StateReport(...), seq)``, or 0 for what
  that encoder refuses (a count or current out of range, a reserved bit);
- :func:`parse_currents_datagram` decodes a datagram that is exactly one
  good set-currents frame; anything else gives 0 axes and goes to the
  general parser, which counts and words what is wrong.

:class:`StateFrameWriter` and :class:`CurrentsDatagramReader` hold the
buffers and tables; :data:`COMPILED` the compiled pair, loaded in the
background by the simulator (none without numba: the general path alone).
``test/test_sim_board_frame_kernel.py`` checks both against the general
encoder and parser, with fuzzed datagrams.
"""

import numpy as np

from ...hardware.board.frame_loops import (CRC, crc16, crc_tables, HEADER, HELPERS, put,
                                           unsigned, whole_frame, write_header)
from ...hardware.board.reports import StateReport
from ...hardware.board.requests import SetCurrents
from ...hardware.board.wire import CURRENT_SCALE, FAULT_MASK, I32, MAX_AXES, MsgId, STATUS_MASK
from ...realtime.compiled_functions import CompiledFunctions

#: Bytes of the state report's fixed part and per axis (counts, current).
REPORT_HEAD, REPORT_AXIS = StateReport.HEAD.size, 8
#: Bytes of the set-currents payload's fixed part (board time, axis count) and per axis.
CURRENTS_HEAD, CURRENTS_AXIS = SetCurrents.HEAD.size, 4


def encode_state_frame(out, tables, header, words, counts, currents):
    """
    Write a state report frame into a buffer (loop form).

    Parameters
    ----------
    out : numpy.ndarray
        uint8, at least the frame's length: receives the frame.
    tables : numpy.ndarray
        (2, 256) int64: CRC-8 table, CRC-16 table.
    header : numpy.ndarray
        int64: message id, sequence number, current scale [uA per A],
        largest wire value, status mask, fault mask.
    words : numpy.ndarray
        int64: board time [us], status, faults, applied state time [us],
        receive errors (taken modulo 65536).
    counts : numpy.ndarray
        int64, (n,): encoder counts.
    currents : numpy.ndarray
        float64, (n,): measured currents [A].

    Returns
    -------
    int
        The frame's length [bytes], or 0 when a value is refused (a count or
        current out of range or not finite, a reserved bit, a negative time).

    """
    n = counts.shape[0]
    if n < 1 or n > MAX_AXES or currents.shape[0] != n:
        return 0
    if words[0] < 0 or words[3] < 0 or words[1] & ~header[4] or words[2] & ~header[5]:
        return 0
    if words[1] < 0 or words[2] < 0:
        return 0
    length = REPORT_HEAD + REPORT_AXIS * n
    write_header(out, header[0], header[1], length, tables)
    p = HEADER
    put(out, p, words[0], 8)
    put(out, p + 8, words[1], 2)
    put(out, p + 10, words[2], 2)
    put(out, p + 12, words[3], 8)
    put(out, p + 20, words[4] & 0xFFFF, 2)
    out[p + 22] = n
    for k in range(n):
        at = p + REPORT_HEAD + REPORT_AXIS * k
        c = counts[k]
        if c < -header[3] - 1 or c > header[3]:
            return 0
        wire = np.rint(currents[k] * header[2])
        if not -header[3] - 1 <= wire <= header[3]:        # NaN fails too
            return 0
        put(out, at, c, 4)
        put(out, at + 4, np.int64(wire), 4)
    put(out, HEADER + length, crc16(out, HEADER + length, tables), CRC)
    return HEADER + length + CRC


def parse_currents_datagram(data, tables, limits, currents):
    """
    Decode a datagram that is exactly one good set-currents frame (loop form).

    Parameters
    ----------
    data : numpy.ndarray
        The datagram, uint8.
    tables : numpy.ndarray
        (2, 256) int64: CRC-8 table, CRC-16 table.
    limits : numpy.ndarray
        int64: message id, largest axis count, current scale [uA per A].
    currents : numpy.ndarray
        float64, at least the largest axis count: filled with the currents [A].

    Returns
    -------
    tuple
        ``(n, seq, state_time_us)``; ``n`` 0 when the datagram is not one
        good set-currents frame.

    """
    none = (np.int64(0), np.int64(0), np.uint64(0))
    length = whole_frame(data, limits[0], CURRENTS_HEAD + CURRENTS_AXIS, tables)
    if length < 0:
        return none
    n = np.int64(data[HEADER + 8])
    if n < 1 or n > limits[1] or n > currents.shape[0]:
        return none
    if length != CURRENTS_HEAD + CURRENTS_AXIS * n:
        return none
    for k in range(n):
        i = np.int64(unsigned(data, HEADER + CURRENTS_HEAD + CURRENTS_AXIS * k, 4))
        currents[k] = (i - (1 << 32) if i >= (1 << 31) else i) / limits[2]
    return n, np.int64(unsigned(data, 5, 2)), unsigned(data, HEADER, 8)


class StateFrameWriter:
    """Buffer and tables of :func:`encode_state_frame`; :meth:`encode` a report."""

    def __init__(self):
        self.tables = crc_tables()
        self.header = np.array([int(MsgId.STATE_REPORT), 0, int(CURRENT_SCALE), I32[1],
                                STATUS_MASK, FAULT_MASK], dtype=np.int64)
        self.words = np.zeros(5, dtype=np.int64)
        self.counts = np.zeros(MAX_AXES, dtype=np.int64)
        self.currents = np.zeros(MAX_AXES)
        self.out = np.zeros(HEADER + REPORT_HEAD + REPORT_AXIS * MAX_AXES + CRC, dtype=np.uint8)

    def encode(self, report, seq):
        """
        Encode a state report frame when the compiled form can.

        Parameters
        ----------
        report : StateReport
            The report.
        seq : int
            Sequence number.

        Returns
        -------
        bytes or None
            The frame; None when not compiled or a value is refused (the
            general encoder then takes the report, and words the refusal).

        """
        fast = COMPILED.get()
        n = len(report.counts)
        if fast is None or not 0 < n <= MAX_AXES or len(report.currents) != n:
            return None
        words = self.words
        try:
            words[0] = report.board_time_us
            words[1] = report.status
            words[2] = report.faults
            words[3] = report.applied_state_time_us
            words[4] = report.rx_errors & 0xFFFF
            self.counts[:n] = report.counts
            self.currents[:n] = report.currents
        except (OverflowError, TypeError, ValueError):
            return None
        self.header[1] = seq
        size = fast[0](self.out, self.tables, self.header, words, self.counts[:n],
                       self.currents[:n])
        return self.out[:size].tobytes() if size else None


class CurrentsDatagramReader:
    """Tables and output array of :func:`parse_currents_datagram`; :meth:`read` a datagram."""

    def __init__(self):
        self.tables = crc_tables()
        self.limits = np.array([int(MsgId.SET_CURRENTS), SetCurrents.max_axes,
                                int(CURRENT_SCALE)], dtype=np.int64)
        self.currents = np.zeros(MAX_AXES)

    def read(self, datagram):
        """
        Decode one datagram when it is one good set-currents frame.

        Parameters
        ----------
        datagram : bytes
            One datagram.

        Returns
        -------
        tuple or None
            ``(seq, state_time_us, currents)`` with the currents [A] as a
            new (n,) array; None when not compiled or not one good
            set-currents frame (the general parser takes it).

        """
        fast = COMPILED.get()
        if fast is None or type(datagram) is not bytes:
            return None
        n, seq, t = fast[1](np.frombuffer(datagram, dtype=np.uint8), self.tables, self.limits,
                            self.currents)
        if n == 0:
            return None
        return int(seq), int(t), self.currents[:n].copy()


def _warm(compiled):
    writer, reader = StateFrameWriter(), CurrentsDatagramReader()
    compiled[0](writer.out, writer.tables, writer.header, writer.words, writer.counts[:1],
                writer.currents[:1])
    compiled[1](np.frombuffer(bytes(32), dtype=np.uint8), reader.tables, reader.limits,
                reader.currents)


#: The compiled pair (``COMPILED.get()``: ``(encode_state_frame,
#: parse_currents_datagram)``, or None).
COMPILED = CompiledFunctions('the simulated board frames',
                             (encode_state_frame, parse_currents_datagram), _warm,
                             helpers=HELPERS)
