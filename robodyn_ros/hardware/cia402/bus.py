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
The CAN bus of a drive set: opened, isolated, paced and counted.

:func:`open_bus` opens a python-can bus and wraps it in a :class:`PacedBus`:

* ``socketcan`` (a real interface such as ``can0``; its bitrate is set
  with ``ip link``, see ``docs/drives.md``);
* ``udp_multicast`` (frames as UDP multicast datagrams between processes,
  for tests and the demo): refused unless the process runs in a network
  namespace whose only interface is loopback (:func:`check_isolated`), so
  CAN traffic never reaches the machine's real interfaces;
* ``virtual`` (python-can's in-process bus, for unit tests).

A :class:`PacedBus` sends no faster than a real bus of the given bitrate
would (frames queue behind each other for their bit time; the sender waits
when more than ``tx_queue`` frames are queued), drops the frames it sent
itself when the transport echoes them, and counts every received frame that
is not a classical CAN frame (undecodable datagrams, CAN FD, error frames)
instead of raising it: the receiving thread of ``canopen`` never dies of a
bad frame.
"""

from dataclasses import dataclass
import ipaddress
import os
import socket
import threading
import time

import can

from ..errors import TransportError
from ...errors import InputError

#: Interfaces the backend opens.
INTERFACES = ('socketcan', 'udp_multicast', 'virtual')
#: Default multicast group of ``udp_multicast`` (python-can's IPv4 default).
DEFAULT_GROUP = '239.74.163.2'
#: Default UDP port of ``udp_multicast``.
DEFAULT_PORT = 43113


def frame_bits(msg):
    """
    Length of a classical CAN frame on the wire, without bit stuffing.

    Parameters
    ----------
    msg : can.Message
        The frame.

    Returns
    -------
    int
        Bits: 47 + 8 x DLC (standard identifier) or 67 + 8 x DLC (extended),
        interframe space included (stuffing adds up to about 20 %).

    """
    return (67 if msg.is_extended_id else 47) + 8 * min(len(msg.data), 8)


def check_isolated():
    """
    Refuse to run unless this process sees loopback as its only network interface.

    Raises
    ------
    InputError
        Naming the interfaces seen: ``udp_multicast`` would carry CAN
        frames over them.

    """
    names = sorted(name for _, name in socket.if_nameindex())
    if names != ['lo']:
        raise InputError('can_interface', 'udp_multicast runs only inside a network namespace '
                         'whose only interface is loopback (run it with ip netns exec, see '
                         'docs/drives.md; robodyn demo --hardware cia402 makes its own); this '
                         f'process sees {", ".join(names)}')


@dataclass
class BusCounters:
    """
    Traffic of one :class:`PacedBus`.

    Attributes
    ----------
    sent, received : int
        Frames sent and accepted.
    bits_sent : int
        Their length on the wire [bit].
    own : int
        Echoes of this bus's own frames dropped.
    bad_frames : int
        Received frames that are not classical CAN frames (undecodable,
        CAN FD, more than 8 bytes, remote frames).
    error_frames : int
        CAN error frames received.
    tx_errors : int
        Sends that failed.
    paced : int
        Sends that waited for the bus.
    paced_time : float
        Total wait [s].
    rx_errors : int
        Receive failures of the interface itself (a lost link).
    last_error : str
        The newest of them.

    """

    sent: int = 0
    received: int = 0
    bits_sent: int = 0
    own: int = 0
    bad_frames: int = 0
    error_frames: int = 0
    tx_errors: int = 0
    paced: int = 0
    paced_time: float = 0.0
    rx_errors: int = 0
    last_error: str = ''


class PacedBus(can.BusABC):
    """
    A python-can bus sent at a real bus's pace, with bad frames counted.

    Parameters
    ----------
    inner : can.BusABC
        The bus carrying the frames.
    bitrate : int
        Bitrate to pace at [bit/s].
    tx_queue : int
        Frames that may wait in the transmit queue before a send blocks.
    tag : str, optional
        Marks this bus's frames so that their echoes are dropped
        (``udp_multicast`` delivers a sender's own datagrams to it).

    Attributes
    ----------
    counters : BusCounters
        The traffic so far.

    """

    def __init__(self, inner, bitrate, tx_queue=32, tag=None):
        self._inner = inner
        self.bitrate = int(bitrate)
        self.tx_queue = int(tx_queue)
        self.tag = tag
        self.counters = BusCounters()
        self._free_at = 0.0
        self._lock = threading.Lock()
        super().__init__(channel=getattr(inner, 'channel_info', 'paced'))
        self.channel_info = f'{inner.channel_info} paced at {self.bitrate} bit/s'

    def send(self, msg, timeout=None):
        """
        Send one frame once the bus has room for it.

        Parameters
        ----------
        msg : can.Message
            The frame.
        timeout : float, optional
            Passed to the inner bus [s].

        Raises
        ------
        can.CanError
            When the inner bus fails.

        """
        bits = frame_bits(msg)
        with self._lock:
            now = time.perf_counter()
            start = max(now, self._free_at)
            queued = start - now
            room = self.tx_queue * 111.0 / self.bitrate
            if queued > room:
                wait = queued - room
                self.counters.paced += 1
                self.counters.paced_time += wait
                time.sleep(wait)
            self._free_at = start + bits / self.bitrate
            if self.tag is not None:
                msg.channel = self.tag
            try:
                self._inner.send(msg, timeout)
            except can.CanError:
                self.counters.tx_errors += 1
                raise
            self.counters.sent += 1
            self.counters.bits_sent += bits

    def _recv_internal(self, timeout):
        deadline = None if timeout is None else time.monotonic() + timeout
        c = self.counters
        dropped = 0
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                msg = self._inner.recv(left)
            except can.CanOperationError as exc:
                if isinstance(exc.__cause__, OSError) or 'socket' in str(exc):
                    c.rx_errors += 1        # the interface failed, not one frame
                    c.last_error = str(exc)
                    return None, False
                c.bad_frames += 1
                msg = False
            except OSError as exc:
                c.rx_errors += 1
                c.last_error = str(exc)
                return None, False
            except (can.CanError, ValueError):
                c.bad_frames += 1
                msg = False
            if msg is None:
                return None, False
            if msg is not False:
                if self.tag is not None and msg.channel == self.tag:
                    c.own += 1
                elif msg.is_error_frame:
                    c.error_frames += 1
                elif (msg.is_fd or msg.is_remote_frame or len(msg.data) > 8
                      or not 0 <= msg.arbitration_id <= 0x7FF):
                    c.bad_frames += 1
                else:
                    c.received += 1
                    return msg, False
            # A dropped frame is no answer: look again (until the bus is quiet, or a flood
            # of dropped frames outlasts the timeout).
            dropped += 1
            if deadline is not None and time.monotonic() >= deadline and dropped > 64:
                return None, False

    def fileno(self):
        """Give the inner bus's file descriptor (int)."""
        return self._inner.fileno()

    def shutdown(self):
        """Close the inner bus."""
        super().shutdown()
        self._inner.shutdown()


def open_bus(interface, channel, bitrate, port=DEFAULT_PORT, tx_queue=32):
    """
    Open a CAN bus for the drive set.

    Parameters
    ----------
    interface : str
        One of :data:`INTERFACES`.
    channel : str
        ``can0`` (socketcan), the multicast group (udp_multicast; '' for
        :data:`DEFAULT_GROUP`) or the virtual channel's name.
    bitrate : int
        Bitrate [bit/s] (paced at; SocketCAN's own is set with ``ip link``).
    port : int
        UDP port (udp_multicast).
    tx_queue : int
        Frames queued before a send waits.

    Returns
    -------
    PacedBus
        The bus.

    Raises
    ------
    InputError
        For an unknown interface, a bad bitrate, or udp_multicast outside
        an isolated namespace.
    TransportError
        When the bus cannot be opened.

    """
    if interface not in INTERFACES:
        raise InputError('can_interface', f'must be one of {", ".join(INTERFACES)}, got '
                         f'{interface!r}')
    if not 10000 <= int(bitrate) <= 1000000:
        raise InputError('bitrate', f'must be in [10000, 1000000] bit/s, got {bitrate}')
    tag = None
    if interface == 'udp_multicast':
        try:
            multicast = ipaddress.ip_address(channel or DEFAULT_GROUP).is_multicast
        except ValueError:
            multicast = False
        if not multicast:
            raise InputError('can_channel', 'udp_multicast needs a multicast group (e.g. '
                             f'{DEFAULT_GROUP}, or empty for it), got {channel!r}')
        check_isolated()
    try:
        if interface == 'udp_multicast':
            inner = can.Bus(interface='udp_multicast', channel=channel or DEFAULT_GROUP,
                            port=int(port), hop_limit=1, fd=False)
            tag = f'{os.getpid()}:{id(inner):x}'
        elif interface == 'virtual':
            inner = can.Bus(interface='virtual', channel=channel or 'robodyn')
        else:
            inner = can.Bus(interface='socketcan', channel=channel or 'can0')
    except (can.CanError, OSError, ValueError) as exc:
        raise TransportError(f'cannot open CAN bus {interface}:{channel}: {exc}') from None
    return PacedBus(inner, bitrate, tx_queue, tag)
