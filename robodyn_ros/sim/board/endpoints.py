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
Board ends of the byte link, for the simulated board.

:class:`PtyEndpoint` owns a pseudo-terminal pair (the host opens the slave
device, or a symbolic link to it that is updated when the pair is
re-created) and :class:`UdpEndpoint` a bound socket, exclusively (a second
board on the same port is refused), that answers the host its owner chose
(:attr:`UdpEndpoint.peer`: the simulator sets it on a valid frame of the
host that owns the session). Both are non-blocking, expose ``fileno()`` for
``select`` and give what arrived as chunks with their sender
(:meth:`read_chunks`): the pty one chunk of a byte stream, UDP one
datagram each, which the simulator parses on its own.
"""

import errno
import os
import socket
import tty

from ...errors import RobodynError
from ...hardware.board.transports import READ_SIZE


class PtyEndpoint:
    """
    Board end of a pseudo-terminal pair (the host opens :attr:`device` or the link).

    Parameters
    ----------
    link : str, optional
        Path of a symbolic link to the slave device, replaced atomically each
        time the pair is (re)created, so that a host can reconnect after a
        disconnect.

    """

    def __init__(self, link=None):
        self.link = link
        self._master = None
        self._slave = None
        self.device = None

    def connect(self):
        """Create a new pair in raw mode and point the link at it."""
        self.close(unlink=False)
        master, slave = os.openpty()
        tty.setraw(slave)
        tty.setraw(master)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self.device = os.ttyname(slave)
        if self.link:
            tmp = f'{self.link}.{os.getpid()}.tmp'
            if os.path.lexists(tmp):
                os.unlink(tmp)
            os.symlink(self.device, tmp)
            os.replace(tmp, self.link)

    def close(self, unlink=True):
        """Close both ends (the slave device disappears); remove the link if asked."""
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None
        if unlink and self.link and os.path.islink(self.link):
            os.unlink(self.link)

    @property
    def is_open(self):
        """Whether the pair exists (bool)."""
        return self._master is not None

    def fileno(self):
        """File descriptor to wait on (int)."""
        return self._master

    def read(self):
        """Return the bytes waiting (non-blocking; empty if none)."""
        try:
            return os.read(self._master, READ_SIZE)
        except BlockingIOError:
            return b''
        except OSError as exc:
            if exc.errno == errno.EIO:
                return b''
            raise

    #: A byte stream: frames may span reads.
    framed = False

    def read_chunks(self):
        """
        Return what is waiting as ``[(bytes, None)]`` (or an empty list).

        Returns
        -------
        list of tuple
            One chunk of the stream; the sender is the one host on the pty.

        """
        data = self.read()
        return [(data, None)] if data else []

    def write(self, data):
        """Send bytes; return False if they were dropped (host not reading)."""
        try:
            return os.write(self._master, data) == len(data)
        except (BlockingIOError, OSError):
            return False


class PortInUse(RobodynError, OSError):
    """The board's UDP port is taken (another board, or another program)."""


class UdpEndpoint:
    """
    Board end of the UDP link: an exclusively bound socket answering :attr:`peer`.

    Parameters
    ----------
    address : str
        Local address to bind (default loopback).
    port : int
        Local port (0: any free port, see :attr:`port` after opening).

    """

    def __init__(self, address='127.0.0.1', port=0):
        self.address = address
        self.requested_port = int(port)
        self.port = None
        self.peer = None
        self._sock = None

    #: Datagrams: each one is parsed on its own.
    framed = True

    def connect(self):
        """
        Bind the socket (the first port again on a re-open), exclusively.

        Raises
        ------
        PortInUse
            If the address and port are taken.

        """
        self.close()
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        port = self.port or self.requested_port
        try:
            sock.bind((self.address, port))
        except OSError as exc:
            sock.close()
            if exc.errno == errno.EADDRINUSE:
                raise PortInUse(f'UDP port {port} on {self.address} is in use (another '
                                'simulated board, or another program)') from None
            raise
        sock.setblocking(False)
        self._sock = sock
        self.port = sock.getsockname()[1]

    def close(self, unlink=True):
        """Close the socket (``unlink`` is accepted for symmetry with the pty)."""
        if self._sock is not None:
            self._sock.close()
        self._sock = None
        self.peer = None

    @property
    def is_open(self):
        """Whether the socket is bound (bool)."""
        return self._sock is not None

    def fileno(self):
        """File descriptor to wait on (int)."""
        return self._sock.fileno()

    def read_chunks(self):
        """
        Return the datagrams waiting (non-blocking), each with its sender.

        Returns
        -------
        list of tuple
            ``(datagram, (host, port))`` in arrival order.

        """
        chunks = []
        while True:
            try:
                chunks.append(self._sock.recvfrom(READ_SIZE))
            except (BlockingIOError, ConnectionRefusedError):
                return chunks

    def write(self, data):
        """Send one datagram to :attr:`peer`; False if there is none."""
        if self.peer is None:
            return False
        try:
            self._sock.sendto(data, self.peer)
            return True
        except OSError:
            return False
