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
The state report's decode in loop form, compiled by numba: the I/O cycle's fast path.

On a datagram link (UDP) nearly every datagram the host receives is one
whole, undamaged state report. :func:`parse_state_datagram` checks and
decodes exactly that case in one compiled call: the sync pair, the message
id, the header's CRC-8, the length (whole datagram, possible for the axis
count), the CRC-16, the axis count against the length, and the status and
fault bits (reserved bits clear, the FAULT status bit agreeing with the
fault bits). Anything else (another message, a damaged or short frame, two
frames in one datagram) gives 0 axes, and the caller gives the datagram to
the general parser (:class:`~.framing.FrameParser` and
:func:`~.codec.decode_message`), which counts and words what is wrong. The
two paths give equal :class:`~.reports.StateReport` records
(``test/test_report_kernel.py``, with fuzzed datagrams).

:class:`StateReportReader` holds the tables and the output arrays, and
:data:`COMPILED` the compiled function (loaded at configure by the
hardware interface; none without numba: the general parser alone).
"""

import numpy as np

from .frame_loops import crc_tables, HEADER, HELPERS, unsigned, whole_frame
from .reports import StateReport
from .wire import CURRENT_SCALE, FAULT_MASK, MAX_AXES, MsgId, Status, STATUS_MASK
from ...realtime.compiled_functions import CompiledFunctions

#: Bytes of a state report's fixed part (time, status, faults, applied time, rx errors, count).
HEAD_SIZE = StateReport.HEAD.size
#: Bytes per axis (counts, current).
PER_AXIS = 8


def parse_state_datagram(data, tables, limits, counts, currents):
    """
    Decode a datagram that is exactly one good state report (loop form).

    Parameters
    ----------
    data : numpy.ndarray
        The datagram, uint8.
    tables : numpy.ndarray
        (2, 256) int64: CRC-8 table, CRC-16 table.
    limits : numpy.ndarray
        int64: message id, largest axis count, status mask, fault mask,
        FAULT status bit, current scale [uA per A].
    counts : numpy.ndarray
        int64, at least the largest axis count: filled with the counts.
    currents : numpy.ndarray
        float64, as ``counts``: filled with the currents [A].

    Returns
    -------
    tuple
        ``(n, seq, board_time_us, status, faults, applied_state_time_us,
        rx_errors)``; ``n`` 0 when the datagram is not one good state report.

    """
    zero = np.int64(0)
    none = (zero, zero, np.uint64(0), zero, zero, np.uint64(0), zero)
    length = whole_frame(data, limits[0], HEAD_SIZE + PER_AXIS, tables)
    if length < 0:
        return none
    extra = length - HEAD_SIZE
    n = np.int64(extra // PER_AXIS)
    if extra < PER_AXIS or extra % PER_AXIS != 0 or n > limits[1] or n > counts.shape[0]:
        return none
    p = HEADER
    status, faults = np.int64(unsigned(data, p + 8, 2)), np.int64(unsigned(data, p + 10, 2))
    if int(data[p + 22]) != n or status & ~limits[2] or faults & ~limits[3]:
        return none
    if (status & limits[4] != 0) != (faults != 0):
        return none
    for k in range(n):
        at = p + HEAD_SIZE + PER_AXIS * k
        c = np.int64(unsigned(data, at, 4))
        i = np.int64(unsigned(data, at + 4, 4))
        counts[k] = c - (1 << 32) if c >= (1 << 31) else c
        currents[k] = (i - (1 << 32) if i >= (1 << 31) else i) / limits[5]
    return (n, np.int64(unsigned(data, 5, 2)), unsigned(data, p, 8), status, faults,
            unsigned(data, p + 12, 8), np.int64(unsigned(data, p + 20, 2)))


class StateReportReader:
    """Tables and output arrays of :func:`parse_state_datagram`; :meth:`read` a datagram."""

    def __init__(self):
        self.tables = crc_tables()
        self.limits = np.array([int(MsgId.STATE_REPORT), MAX_AXES, STATUS_MASK, FAULT_MASK,
                                int(Status.FAULT), int(CURRENT_SCALE)], dtype=np.int64)
        self.counts = np.zeros(MAX_AXES, dtype=np.int64)
        self.currents = np.zeros(MAX_AXES)

    def read(self, datagram):
        """
        Decode one datagram when it is one good state report.

        Parameters
        ----------
        datagram : bytes
            One datagram.

        Returns
        -------
        tuple or None
            ``(seq, StateReport)``, or None: not compiled, or not one good
            state report (the general parser takes it).

        """
        fast = COMPILED.get()
        if fast is None or type(datagram) is not bytes:
            return None
        n, seq, t, status, faults, applied, rx = fast[0](
            np.frombuffer(datagram, dtype=np.uint8), self.tables, self.limits, self.counts,
            self.currents)
        if n == 0:
            return None
        return int(seq), StateReport(int(t), int(status), int(faults), int(applied), int(rx),
                                     tuple(self.counts[:n].tolist()),
                                     tuple(self.currents[:n].tolist()))


def _warm(compiled):
    reader = StateReportReader()
    compiled[0](np.frombuffer(bytes(64), dtype=np.uint8), reader.tables, reader.limits,
                reader.counts, reader.currents)


#: The compiled :func:`parse_state_datagram` (``COMPILED.get()``: a 1-tuple, or None).
COMPILED = CompiledFunctions('the state report decode', (parse_state_datagram,), _warm,
                             helpers=HELPERS)
