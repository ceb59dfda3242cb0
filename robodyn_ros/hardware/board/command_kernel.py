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
The set-currents frame's encode in loop form, compiled by numba: the I/O cycle's fast path.

Every cycle the host sends one set-currents frame. :func:`encode_currents_frame`
writes it into a preallocated buffer in one compiled call: the sync pair,
the header with its CRC-8, the payload (board time, axis count, currents in
uA, rounded half to even) and the CRC-16. It gives the same bytes as
:func:`~.codec.encode_set_currents` (``test/test_command_kernel.py``), and
refuses what that refuses (a non-finite or out-of-range current) by
returning 0; the caller then takes the general encoder, which words the
error. :class:`CurrentsFrameWriter` holds the buffer and the tables, and
:data:`COMPILED` the compiled function (loaded at configure by the
hardware interface; none without numba: the general encoder alone).
"""

import numpy as np

from .frame_loops import CRC, crc16, crc_tables, HEADER, HELPERS, put, write_header
from .requests import SetCurrents
from .wire import CURRENT_SCALE, I32, MAX_AXES, MsgId
from ...realtime.compiled_functions import CompiledFunctions

#: Bytes of the payload's fixed part (board time u64, axis count u8) and per axis (i32).
HEAD_SIZE, PER_AXIS = SetCurrents.HEAD.size, 4
#: Longest set-currents frame [bytes].
MAX_FRAME = HEADER + HEAD_SIZE + PER_AXIS * MAX_AXES + CRC


def encode_currents_frame(out, tables, header, state_time_us, currents):
    """
    Write a set-currents frame into a buffer (loop form).

    Parameters
    ----------
    out : numpy.ndarray
        uint8, at least the frame's length: receives the frame.
    tables : numpy.ndarray
        (2, 256) int64: CRC-8 table, CRC-16 table.
    header : numpy.ndarray
        int64: message id, sequence number, current scale [uA per A],
        largest wire value.
    state_time_us : int
        Board time of the state used [us], 0 <= t < 2**63.
    currents : numpy.ndarray
        float64, (n,): currents [A].

    Returns
    -------
    int
        The frame's length [bytes], or 0 when a current is not finite or
        out of range (nothing usable written).

    """
    n = currents.shape[0]
    length = HEAD_SIZE + PER_AXIS * n
    write_header(out, header[0], header[1], length, tables)
    put(out, HEADER, state_time_us, 8)
    out[HEADER + 8] = n
    for k in range(n):
        wire = np.rint(currents[k] * header[2])
        if not abs(wire) <= header[3]:          # NaN fails too
            return 0
        put(out, HEADER + HEAD_SIZE + PER_AXIS * k, np.int64(wire), PER_AXIS)
    put(out, HEADER + length, crc16(out, HEADER + length, tables), CRC)
    return HEADER + length + CRC


class CurrentsFrameWriter:
    """Buffer and tables of :func:`encode_currents_frame`; :meth:`encode` a frame."""

    def __init__(self):
        self.tables = crc_tables()
        self.header = np.array([int(MsgId.SET_CURRENTS), 0, int(CURRENT_SCALE), I32[1]],
                               dtype=np.int64)
        self.out = np.zeros(MAX_FRAME, dtype=np.uint8)

    def encode(self, state_time_us, currents, seq):
        """
        Encode a set-currents frame when the compiled form can.

        Parameters
        ----------
        state_time_us : int
            Board time of the state used [us].
        currents : numpy.ndarray
            Currents [A], (n,).
        seq : int
            Sequence number.

        Returns
        -------
        bytes or None
            The frame; None when not compiled, when the arguments are not
            the cycle's (a float64 vector of 1 to 32 currents, a board time
            in [0, 2**63)) or a current is refused: the general encoder
            takes them (and words the refusal).

        """
        fast = COMPILED.get()
        if (fast is None or type(currents) is not np.ndarray or currents.dtype != np.float64
                or currents.ndim != 1 or not 0 < currents.shape[0] <= MAX_AXES
                or not currents.flags.c_contiguous):
            return None
        t = int(state_time_us)
        if not 0 <= t < 1 << 63:
            return None
        self.header[1] = seq
        size = fast[0](self.out, self.tables, self.header, t, currents)
        return self.out[:size].tobytes() if size else None


def _warm(compiled):
    writer = CurrentsFrameWriter()
    compiled[0](writer.out, writer.tables, writer.header, 1, np.zeros(6))


#: The compiled :func:`encode_currents_frame` (``COMPILED.get()``: a 1-tuple, or None).
COMPILED = CompiledFunctions('the set-currents encode', (encode_currents_frame,), _warm,
                             helpers=HELPERS)
