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
Byte links to the board: serial (pyserial: a real tty or a pseudo-terminal) and UDP.

Host side, :class:`SerialTransport` and :class:`UdpTransport` share one small
interface: ``connect()``, ``close()``, ``read(timeout) -> bytes`` (empty on
timeout) and ``write(data)``; a lost link (device gone, I/O error, port
unreachable) raises :class:`~robodyn_ros.hardware.errors.TransportError`, so
the caller can reconnect. Board side (the simulated board),
:class:`PtyEndpoint` owns a pseudo-terminal pair and :class:`UdpEndpoint` a
bound socket; both are non-blocking and expose ``fileno()`` for ``select``.
"""

import errno
import os
import select
import socket
import tty

from .errors import TransportError

#: Default serial speed [bit/s] (ignored by pseudo-terminals).
DEFAULT_BAUDRATE = 1_000_000
#: Longest a frame may wait for room in the serial output buffer [s]; a frame that
#: does not fit in time is dropped (counted), as a datagram would be.
WRITE_TIMEOUT = 0.005
_READ_SIZE = 65536


class SerialTransport:
    """
    A serial port through pyserial: a real tty at a baud rate, or a pty slave.

    Parameters
    ----------
    device : str
        Device path (e.g. ``/dev/ttyUSB0`` or the simulated board's link).
    baudrate : int
        Line speed [bit/s].

    """

    def __init__(self, device, baudrate=DEFAULT_BAUDRATE):
        self.device = str(device)
        self.baudrate = int(baudrate)
        self.dropped = 0
        self._port = None

    def __repr__(self):
        return f'SerialTransport({self.device!r}, baudrate={self.baudrate})'

    @property
    def is_open(self):
        """Whether the port is open (bool)."""
        return self._port is not None

    def connect(self):
        """
        Open the port in raw mode and drop stale input.

        Raises
        ------
        TransportError
            If the device does not exist or cannot be opened.

        """
        import serial
        self.close()
        try:
            port = serial.Serial(self.device, self.baudrate, timeout=0,
                                 write_timeout=WRITE_TIMEOUT, exclusive=True)
            port.reset_input_buffer()
        except (serial.SerialException, OSError, ValueError) as exc:
            raise TransportError(f'cannot open serial device {self.device}: {exc}') from exc
        self._port = port

    def close(self):
        """Close the port (idempotent)."""
        port, self._port = self._port, None
        if port is not None:
            try:
                port.close()
            except Exception:  # closing a vanished device may fail; it is closed either way
                pass

    def read(self, timeout):
        """
        Return the bytes available within ``timeout`` [s] (empty on timeout).

        Raises
        ------
        TransportError
            If the port is closed or the device is gone.

        """
        import serial
        port = self._port
        if port is None:
            raise TransportError(f'serial device {self.device} is not open')
        try:
            ready, _, _ = select.select([port.fileno()], [], [], max(0.0, timeout))
            if not ready:
                return b''
            data = port.read(max(1, port.in_waiting))
        except (serial.SerialException, OSError, ValueError, TypeError) as exc:
            raise TransportError(f'serial device {self.device} lost: {exc}') from exc
        if not data:
            raise TransportError(f'serial device {self.device} lost: readable but no data')
        return data

    def write(self, data):
        """
        Send bytes; a frame that finds no room within ``WRITE_TIMEOUT`` is dropped.

        Returns
        -------
        bool
            False if the bytes were dropped (the board is not reading).

        Raises
        ------
        TransportError
            If the port is closed or the device is gone.

        """
        import serial
        port = self._port
        if port is None:
            raise TransportError(f'serial device {self.device} is not open')
        try:
            port.write(data)
        except serial.SerialTimeoutException:
            self.dropped += 1
            return False
        except (serial.SerialException, OSError, ValueError, TypeError) as exc:
            raise TransportError(f'serial device {self.device} lost: {exc}') from exc
        return True


class UdpTransport:
    """
    UDP to the board at ``address:port``.

    The socket is connected, so that an unreachable board is reported as an
    error instead of silence.

    Parameters
    ----------
    address : str
        Board IP address or host name.
    port : int
        Board UDP port.
    local_port : int
        Local port to bind (0: any).

    """

    def __init__(self, address='127.0.0.1', port=5005, local_port=0):
        self.address = str(address)
        self.port = int(port)
        self.local_port = int(local_port)
        self.dropped = 0
        self._sock = None

    def __repr__(self):
        return f'UdpTransport({self.address!r}, {self.port})'

    @property
    def is_open(self):
        """Whether the socket is open (bool)."""
        return self._sock is not None

    def connect(self):
        """
        Create and connect the socket.

        Raises
        ------
        TransportError
            If the address cannot be resolved or the socket not created.

        """
        self.close()
        try:
            sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            try:
                sock.bind(('', self.local_port) if self.local_port else ('', 0))
                sock.connect((self.address, self.port))
                sock.setblocking(False)
            except OSError:
                sock.close()
                raise
        except OSError as exc:
            raise TransportError(f'cannot open UDP link to {self.address}:{self.port}: '
                                 f'{exc}') from exc
        self._sock = sock

    def close(self):
        """Close the socket (idempotent)."""
        sock, self._sock = self._sock, None
        if sock is not None:
            sock.close()

    def read(self, timeout):
        """
        Return the datagrams available within ``timeout`` [s] (empty on timeout).

        Raises
        ------
        TransportError
            If the socket is closed or the board's port is unreachable.

        """
        sock = self._sock
        if sock is None:
            raise TransportError(f'UDP link to {self.address}:{self.port} is not open')
        chunks = []
        try:
            ready, _, _ = select.select([sock], [], [], max(0.0, timeout))
            while ready:
                try:
                    chunks.append(sock.recv(_READ_SIZE))
                except BlockingIOError:
                    break
        except OSError as exc:
            raise TransportError(f'UDP link to {self.address}:{self.port} lost: {exc}') from exc
        return b''.join(chunks)

    def write(self, data):
        """
        Send one datagram.

        Returns
        -------
        bool
            False if it was dropped (full socket buffer).

        Raises
        ------
        TransportError
            If the socket is closed or the board's port is unreachable.

        """
        sock = self._sock
        if sock is None:
            raise TransportError(f'UDP link to {self.address}:{self.port} is not open')
        try:
            sock.send(data)
        except BlockingIOError:
            self.dropped += 1  # a full socket buffer drops the datagram, as the network would
            return False
        except OSError as exc:
            raise TransportError(f'UDP link to {self.address}:{self.port} lost: {exc}') from exc
        return True


def open_transport(kind, device='', baudrate=DEFAULT_BAUDRATE, address='127.0.0.1', port=5005):
    """
    Create (not open) a host-side transport.

    Parameters
    ----------
    kind : {'serial', 'udp'}
        Link type.
    device : str
        Serial device path (serial).
    baudrate : int
        Serial speed [bit/s].
    address : str
        Board address (udp).
    port : int
        Board port (udp).

    Returns
    -------
    SerialTransport or UdpTransport
        The transport.

    Raises
    ------
    ValueError
        For an unknown kind or a missing device.

    """
    if kind == 'serial':
        if not device:
            raise ValueError('serial transport needs a device path')
        return SerialTransport(device, baudrate)
    if kind == 'udp':
        return UdpTransport(address, port)
    raise ValueError(f"transport must be 'serial' or 'udp', got {kind!r}")


# ---------------------------------------------------------------------------- board side
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
            return os.read(self._master, _READ_SIZE)
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
                data, peer = self._sock.recvfrom(_READ_SIZE)
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
