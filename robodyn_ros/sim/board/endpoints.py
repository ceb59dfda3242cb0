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
re-created) and :class:`UdpEndpoint` a bound socket that answers the last
host heard. Both are non-blocking and expose ``fileno()`` for ``select``.
"""

import errno
import os
import socket
import tty

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

    def write(self, data):
        """Send bytes; return False if they were dropped (host not reading)."""
        try:
            return os.write(self._master, data) == len(data)
        except (BlockingIOError, OSError):
            return False


class UdpEndpoint:
    """
    Board end of the UDP link: a bound socket answering the last host heard.

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

    def connect(self):
        """Bind the socket (reusing the first port on a re-open)."""
        self.close()
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.address, self.port or self.requested_port))
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

    def read(self):
        """Return the datagrams waiting (non-blocking) and remember the sender."""
        chunks = []
        while True:
            try:
                data, peer = self._sock.recvfrom(READ_SIZE)
            except (BlockingIOError, ConnectionRefusedError):
                break
            if peer != self.peer:
                chunks.clear()  # a new host: drop what the old one sent in this batch
                self.peer = peer
            chunks.append(data)
        return b''.join(chunks)

    def write(self, data):
        """Send one datagram to the last host heard; False if there is none."""
        if self.peer is None:
            return False
        try:
            self._sock.sendto(data, self.peer)
            return True
        except OSError:
            return False
