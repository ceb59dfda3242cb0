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
Host ends of the byte link to the board: serial (pyserial) and UDP.

:class:`SerialTransport` (a real tty at a baud rate, or the pseudo-terminal
of the simulated board) and :class:`UdpTransport` share one small interface:
``connect()``, ``close()``, ``read(timeout) -> bytes`` (empty on timeout) and
``write(data) -> bool`` (False when a frame had to be dropped); a lost link
(device gone, I/O error, port unreachable) raises
:class:`~robodyn_ros.hardware.errors.TransportError`, so the caller can
reconnect. The board ends are in :mod:`.endpoints`.
"""

import select
import socket

from ..errors import TransportError

#: Default serial speed [bit/s] (ignored by pseudo-terminals).
DEFAULT_BAUDRATE = 1_000_000
#: Longest a frame may wait for room in the serial output buffer [s]; a frame that
#: does not fit in time is dropped (counted), as a datagram would be.
WRITE_TIMEOUT = 0.005
#: Largest read from a link in one call [bytes].
READ_SIZE = 65536


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

    #: A byte stream: frames may span reads.
    framed = False

    def read_chunks(self, timeout):
        """
        Return what arrived within ``timeout`` [s] as a list of chunks (one, or none).

        Raises
        ------
        TransportError
            If the port is closed or the device is gone.

        """
        data = self.read(timeout)
        return [data] if data else []

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

    #: Datagrams: each holds whole frames, and is parsed on its own.
    framed = True

    def read(self, timeout):
        """
        Return the datagrams available within ``timeout`` [s], joined (empty on timeout).

        Use :meth:`read_chunks` to keep the datagram boundaries.

        Raises
        ------
        TransportError
            If the socket is closed or the board's port is unreachable.

        """
        return b''.join(self.read_chunks(timeout))

    def read_chunks(self, timeout):
        """
        Return the datagrams available within ``timeout`` [s], one per entry.

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
                    chunks.append(sock.recv(READ_SIZE))
                except BlockingIOError:
                    break
        except OSError as exc:
            raise TransportError(f'UDP link to {self.address}:{self.port} lost: {exc}') from exc
        return chunks

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
