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
Host side of the protocol: send requests, wait for answers, receive the stream.

:class:`BoardClient` owns a transport, a frame parser and the host's sequence
counter. Requests (identify, configure, enable, disable, clear fault) are
sent and answered synchronously; all of them are idempotent, so a request
whose answer is lost (a full link buffer, a dropped datagram) is sent again
within the timeout. State and fault reports that arrive meanwhile are kept
for :meth:`BoardClient.receive`. It is used by one thread at a time. On a
datagram link a datagram that is one good state report is decoded by the
compiled fast path of :mod:`.report_kernel` (the same record and counts),
and the cycle's set-currents frame is encoded by that of
:mod:`.command_kernel` (the same bytes).
"""

from collections import deque
from dataclasses import dataclass
import time

from .codec import (decode_message, encode_message, encode_set_currents, encode_set_impedance,
                    plausible_length)
from .command_kernel import CurrentsFrameWriter
from .framing import FrameParser
from .messages import (Ack, ClearFault, Configure, Disable, Enable, Heartbeat, Identify,
                       IdentifyRequest, MsgId, Result, StateReport)
from .report_kernel import StateReportReader
from ..errors import BoardRefused, BoardTimeout, ProtocolError


@dataclass
class LinkStats:
    """
    Counters of the host's side of the link.

    Attributes
    ----------
    rx_frames, tx_frames : int
        Frames received and sent.
    crc_errors, length_errors, message_errors : int
        Rejected frames by cause (``crc_errors`` counts header and frame
        check failures).
    lost_frames : int
        Gaps in the board's sequence numbers.
    reordered_frames : int
        Frames whose sequence number is behind the newest one (late or
        duplicated); they do not count as lost, and a late state report is
        dropped (a newer one has already been delivered).
    reconnects : int
        Successful re-opens after a lost link.

    """

    rx_frames: int = 0
    tx_frames: int = 0
    crc_errors: int = 0
    length_errors: int = 0
    message_errors: int = 0
    lost_frames: int = 0
    reordered_frames: int = 0
    reconnects: int = 0


class BoardClient:
    """
    Talk to one board over one transport.

    Parameters
    ----------
    transport : SerialTransport or UdpTransport
        The link (opened by :meth:`connect`).

    """

    def __init__(self, transport):
        self.transport = transport
        self.parser = FrameParser(plausible_length)
        self._reports = StateReportReader()
        self._currents_frame = CurrentsFrameWriter()
        self.stats = LinkStats()
        self._seq = 0
        self._last_rx_seq = None
        self._inbox = deque(maxlen=256)

    def __repr__(self):
        return f'BoardClient({self.transport!r})'

    # ------------------------------------------------------------------ link
    def connect(self):
        """Open the transport and forget partial input."""
        self.transport.connect()
        self.parser.reset()
        self._inbox.clear()
        self._last_rx_seq = None

    def close(self):
        """Close the transport."""
        self.transport.close()

    @property
    def is_open(self):
        """Whether the transport is open (bool)."""
        return self.transport.is_open

    def send(self, msg):
        """
        Send one message.

        Parameters
        ----------
        msg : message record
            The message.

        Returns
        -------
        int
            Its sequence number.

        """
        seq = self._seq
        self._seq = (seq + 1) & 0xFFFF
        self.transport.write(encode_message(msg, seq))
        self.stats.tx_frames += 1
        return seq

    def _decoded(self, timeout):
        """
        ``(seq, message)`` of what arrived, and the count of undecodable frames.

        A datagram that is one good state report is decoded by the compiled
        fast path (:mod:`.report_kernel`); every other datagram, and a
        stream's bytes, go through the parser, each datagram on its own.
        """
        chunks = self.transport.read_chunks(timeout)
        out, bad = [], 0
        framed = getattr(self.transport, 'framed', False)
        for chunk in chunks:
            if framed:
                fast = self._reports.read(chunk)
                if fast is not None:
                    self.parser.frames += 1
                    out.append(fast)
                    continue
            for frame in (self.parser.feed_datagram(chunk) if framed
                          else self.parser.feed(chunk)):
                try:
                    out.append((frame.seq, decode_message(frame)))
                except ProtocolError:
                    bad += 1
        return out, bad

    def _read(self, timeout):
        out = []
        decoded, bad = self._decoded(timeout)
        self.stats.message_errors += bad
        for seq, msg in decoded:
            if self._last_rx_seq is not None:
                gap = (seq - self._last_rx_seq - 1) & 0xFFFF
                if gap >= 0x8000:  # behind the newest: keep the newest as reference
                    self.stats.reordered_frames += 1
                    self.stats.rx_frames += 1
                    if not isinstance(msg, StateReport):
                        out.append(msg)
                    continue
                self.stats.lost_frames += gap
            self._last_rx_seq = seq
            self.stats.rx_frames += 1
            out.append(msg)
        self._parser_stats()
        return out

    def _parser_stats(self):
        self.stats.crc_errors = self.parser.crc_errors + self.parser.header_errors
        self.stats.length_errors = self.parser.length_errors + self.parser.truncated

    def receive(self, timeout=0.0):
        """
        Return the messages received so far or within ``timeout`` [s].

        Parameters
        ----------
        timeout : float
            Longest wait for the first message [s].

        Returns
        -------
        list
            Messages, oldest first (empty on timeout).

        """
        if self._inbox:
            out = list(self._inbox)
            self._inbox.clear()
            out.extend(self._read(0.0))
            return out
        deadline = time.monotonic() + timeout
        while True:
            out = self._read(max(0.0, deadline - time.monotonic()))
            if out or time.monotonic() >= deadline:
                return out

    def _await(self, match, timeout, resend=None):
        deadline = time.monotonic() + timeout
        next_send = time.monotonic() + 0.1
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0.0:
                return None
            found = None
            for msg in self._read(min(remaining, 0.02)):
                if found is None and match(msg):
                    found = msg
                else:
                    self._inbox.append(msg)  # keep everything else, also after the answer
            if found is not None:
                return found
            if resend is not None and time.monotonic() >= next_send:
                resend()
                next_send = time.monotonic() + 0.1

    # ------------------------------------------------------------------ requests
    def identify(self, timeout=1.0):
        """
        Ask the board who it is (the request is repeated every 0.1 s).

        Parameters
        ----------
        timeout : float
            Longest wait [s].

        Returns
        -------
        Identify
            The board's identity.

        Raises
        ------
        BoardTimeout
            If no identity arrives in time.

        """
        self.send(IdentifyRequest())
        reply = self._await(lambda m: isinstance(m, Identify), timeout,
                            resend=lambda: self.send(IdentifyRequest()))
        if reply is None:
            raise BoardTimeout(f'no identify reply from {self.transport!r} within {timeout:g} s')
        return reply

    def _request(self, msg, name, timeout, attempts=3):
        """Send an idempotent request, resending it if no answer comes, and check the answer."""
        sent = set()
        deadline = time.monotonic() + timeout
        reply = None
        for k in range(attempts):
            sent.add(self.send(msg))
            wait = (deadline - time.monotonic()) / (attempts - k)
            reply = self._await(lambda m: isinstance(m, Ack) and m.acked_seq in sent
                                and m.acked_id == msg.msg_id, wait)
            if reply is not None:
                break
        if reply is None:
            raise BoardTimeout(f'no answer to {name} from {self.transport!r} within '
                               f'{timeout:g} s ({attempts} attempts)')
        if not reply.ok:
            raise BoardRefused(name, Result(reply.result).name.lower(), reply.detail)
        return reply

    def configure(self, config, timeout=0.5):
        """
        Send the configuration and wait for the acknowledgement.

        Parameters
        ----------
        config : Configure
            The configuration.
        timeout : float
            Longest wait [s].

        Raises
        ------
        BoardTimeout, BoardRefused
            No answer, or a negative one.

        """
        if not isinstance(config, Configure):
            raise TypeError('config must be a Configure message')
        self._request(config, 'configure', timeout)

    def enable(self, timeout=0.5):
        """Switch the outputs on (raises BoardTimeout or BoardRefused)."""
        self._request(Enable(), 'enable', timeout)

    def disable(self, timeout=0.5):
        """Switch the outputs off (raises BoardTimeout or BoardRefused)."""
        self._request(Disable(), 'disable', timeout)

    def clear_fault(self, timeout=0.5):
        """Clear latched faults (raises BoardTimeout or BoardRefused)."""
        self._request(ClearFault(), 'clear_fault', timeout)

    def heartbeat(self, token=None):
        """
        Send a heartbeat, which keeps the board streaming while no currents are sent.

        Parameters
        ----------
        token : int, optional
            Value the board echoes; default the host clock [us].

        Returns
        -------
        int
            The token sent.

        """
        token = int(time.monotonic() * 1e6) if token is None else int(token)
        self.send(Heartbeat(token))
        return token

    def set_currents(self, state_time_us, currents):
        """
        Send the set-points of one cycle.

        Parameters
        ----------
        state_time_us : int
            Board time of the state they were computed from [us].
        currents : sequence of float
            Motor currents [A].

        """
        seq = self._seq
        self._seq = (seq + 1) & 0xFFFF
        frame = self._currents_frame.encode(state_time_us, currents, seq)
        if frame is None:       # not compiled, or refused: the general encoder (and its error)
            frame = encode_set_currents(state_time_us, currents, seq)
        self.transport.write(frame)
        self.stats.tx_frames += 1

    def set_impedance(self, state_time_us, position, velocity, kp, kd, current):
        """
        Send the impedance set-points of one cycle, in the board's motor units.

        See :class:`~robodyn_ros.hardware.board.requests.SetImpedance` for
        the law the board closes; a joint-side caller uses
        :meth:`~robodyn_ros.hardware.board.driver.BoardDriver.send_impedance`.

        Parameters
        ----------
        state_time_us : int
            Board time of the state they were computed from, at which the
            position reference holds [us].
        position, velocity : sequence of float
            Motor angle [rad] and speed [rad/s] references.
        kp, kd : sequence of float
            Gains [A/rad] and [A s/rad], >= 0.
        current : sequence of float
            Feed-forward currents [A].

        Raises
        ------
        MessageError
            A non-finite value, a negative gain, a value beyond the binary32
            range or arrays of different lengths; nothing is sent.

        """
        frame = encode_set_impedance(state_time_us, position, velocity, kp, kd, current,
                                     self._seq)
        self._seq = (self._seq + 1) & 0xFFFF
        self.transport.write(frame)
        self.stats.tx_frames += 1


__all__ = ['BoardClient', 'LinkStats', 'MsgId']
