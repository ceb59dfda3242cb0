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

"""Serial (pyserial on a real pseudo-terminal) and UDP links, and their failures."""

import os
import time

import pytest
from robodyn_ros.hardware.board.transports import open_transport, SerialTransport, UdpTransport
from robodyn_ros.hardware.errors import TransportError
from robodyn_ros.sim.board.endpoints import PortInUse, PtyEndpoint, UdpEndpoint


def _read_all(read, size, timeout=2.0):
    out = b''
    deadline = time.monotonic() + timeout
    while len(out) < size and time.monotonic() < deadline:
        out += read()
    return out


def test_pty_round_trip_through_pyserial(tmp_path):
    """Bytes pass both ways unchanged (raw mode: no echo, no newline translation)."""
    link = str(tmp_path / 'board')
    board = PtyEndpoint(link)
    board.connect()
    host = SerialTransport(link, 115200)
    try:
        assert os.path.realpath(link) == board.device
        host.connect()
        payload = bytes(range(256)) * 4  # includes \r, \n, XON/XOFF, ^C, ...
        host.write(payload)
        assert _read_all(board.read, len(payload)) == payload
        assert board.write(payload[::-1])
        assert _read_all(lambda: host.read(0.1), len(payload)) == payload[::-1]
        assert host.read(0.01) == b''  # nothing echoed back
    finally:
        host.close()
        board.close()
    assert not os.path.lexists(link)


def test_pty_disconnect_is_a_transport_error_and_reconnects(tmp_path):
    """Closing the board end makes reads fail; a new pair behind the same link works."""
    link = str(tmp_path / 'board')
    board = PtyEndpoint(link)
    board.connect()
    first = board.device
    host = SerialTransport(link)
    host.connect()
    board.close(unlink=False)
    with pytest.raises(TransportError, match='lost'):
        for _ in range(50):
            host.read(0.02)
            host.write(b'x')
    host.close()
    with pytest.raises(TransportError, match='cannot open'):
        host.connect()
    board.connect()
    try:
        assert os.path.realpath(link) == board.device
        host.connect()
        host.write(b'again')
        assert _read_all(board.read, 5) == b'again'
    finally:
        host.close()
        board.close()
    assert first  # the first device existed


def test_serial_errors_are_clear(tmp_path):
    """A missing device, or use before open, raise TransportError naming the device."""
    missing = SerialTransport(str(tmp_path / 'nothing'))
    with pytest.raises(TransportError, match='nothing'):
        missing.connect()
    with pytest.raises(TransportError, match='not open'):
        missing.read(0.0)
    with pytest.raises(TransportError, match='not open'):
        missing.write(b'x')
    missing.close()


def test_udp_round_trip_keeps_datagrams_and_senders():
    """Datagrams pass both ways on 127.0.0.1, one by one, each with its sender."""
    board = UdpEndpoint('127.0.0.1', 0)
    board.connect()
    host = UdpTransport('127.0.0.1', board.port)
    try:
        host.connect()
        assert not board.write(b'nobody yet')   # no peer chosen
        host.write(b'hel')
        host.write(b'lo')
        got = []
        for _ in range(50):
            got += board.read_chunks()
            if len(got) == 2:
                break
            time.sleep(0.01)
        assert [d for d, _ in got] == [b'hel', b'lo'] and got[0][1] == got[1][1]
        assert board.peer is None                # the endpoint does not choose by itself
        board.peer = got[0][1]
        assert board.write(b'wor') and board.write(b'ld')
        chunks = []
        for _ in range(50):
            chunks += host.read_chunks(0.05)
            if len(chunks) == 2:
                break
        assert chunks == [b'wor', b'ld'] and host.read_chunks(0.01) == []
    finally:
        host.close()
        board.close()


def test_a_second_board_on_a_busy_port_is_refused():
    """The board's UDP port is exclusive: a second bind fails with a clear error."""
    first = UdpEndpoint('127.0.0.1', 0)
    first.connect()
    try:
        second = UdpEndpoint('127.0.0.1', first.port)
        with pytest.raises(PortInUse, match=f'UDP port {first.port} on 127.0.0.1 is in use'):
            second.connect()
        assert not second.is_open
    finally:
        first.close()


def test_udp_unreachable_board_is_a_transport_error():
    """A connected socket reports the board's closed port as a lost link."""
    board = UdpEndpoint('127.0.0.1', 0)
    board.connect()
    port = board.port
    board.close()
    host = UdpTransport('127.0.0.1', port)
    host.connect()
    try:
        with pytest.raises(TransportError, match='lost'):
            for _ in range(50):
                host.write(b'ping')
                host.read(0.02)
    finally:
        host.close()
    board.connect()  # re-binds the same port
    try:
        assert board.port == port
    finally:
        board.close()


def test_open_transport_factory():
    """The factory checks the kind and the device."""
    assert isinstance(open_transport('udp', port=6000), UdpTransport)
    assert isinstance(open_transport('serial', '/dev/ttyUSB7', 9600), SerialTransport)
    with pytest.raises(ValueError, match='device'):
        open_transport('serial')
    with pytest.raises(ValueError, match="'serial' or 'udp'"):
        open_transport('can')
    with pytest.raises(TransportError):
        UdpTransport('256.1.1.1', 5).connect()
