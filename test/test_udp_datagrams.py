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
UDP: each datagram parsed on its own, on the board and on the host; one session owner.

Fuzzed with real sockets on 127.0.0.1 against a real ``robodyn sim-board``
process (board side) and a board-side socket of the test (host side):

* a datagram ending inside a frame (split) never yields that frame, and the
  next datagram's bytes never complete it; frames packed together in one
  datagram (spliced) are all read;
* while a host owns the session (it enabled the outputs), valid frames
  from any other port are counted and ignored, garbage from another port
  does not move the board's reply address, and only the owner's DISABLE or
  the end of the session opens the board to another host.
"""

import socket
import time

from board_helpers import ACTUATORS, sim_board, wait_until
import numpy as np
from robodyn_ros.hardware.board import codec
from robodyn_ros.hardware.board import messages as m
from robodyn_ros.hardware.board.client import BoardClient
from robodyn_ros.hardware.board.driver import BoardDriver
from robodyn_ros.hardware.board.framing import encode_frame, FrameParser
from robodyn_ros.hardware.board.transports import UdpTransport
from robodyn_ros.hardware.settings import DriverSettings
from robodyn_ros.model import load_robot


def _frames(rng, count, n=3):
    out = []
    for k in range(count):
        amps = tuple(float(x) for x in np.round(rng.uniform(-2, 2, n), 3))
        out.append(codec.encode_message(m.SetCurrents(1000 + k, amps), k))
    return out


def test_parser_datagrams_never_complete_a_cut_frame():
    """Random packings of frames into datagrams: exactly the whole frames come out."""
    rng = np.random.default_rng(7)
    for _ in range(300):
        frames = _frames(rng, int(rng.integers(1, 8)))
        blob = b''.join(frames)
        bounds = np.sort(rng.choice(np.arange(1, len(blob)), size=int(rng.integers(0, 4)),
                                    replace=False)) if len(blob) > 1 else []
        pieces = np.split(np.frombuffer(blob, dtype=np.uint8), bounds)
        parser = FrameParser(codec.plausible_length)
        got = [f for p in pieces for f in parser.feed_datagram(p.tobytes())]
        starts = np.cumsum([0] + [len(f) for f in frames])
        cuts = {int(b) for b in bounds}
        whole = [f for i, f in enumerate(frames)
                 if not any(starts[i] < c < starts[i + 1] for c in cuts)]
        assert [encode_frame(g.msg_id, g.seq, g.payload) for g in got] == whole
        assert parser.pending == 0


def _send(sock, port, data):
    sock.sendto(data, ('127.0.0.1', port))


def test_board_obeys_only_whole_frames_of_the_session_owner():
    """Split and spliced datagrams on the board; a second port's frames are ignored."""
    with sim_board('--q0', '0', '-1.2', '0.3', transport='udp') as board:
        model = load_robot('ma3000', params=ACTUATORS)
        driver = BoardDriver(model, UdpTransport('127.0.0.1', board.info['port']),
                             DriverSettings(watchdog_period=0.5, connect_timeout=3.0))
        driver.connect()
        port = board.info['port']
        rogue = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            driver.enable()
            start = board.status()
            assert start['enabled'] and start['session_peer'] is not None

            def keep_alive(seconds):
                end = time.monotonic() + seconds
                while time.monotonic() < end:
                    s = driver.read(0.01)
                    if s is not None:
                        driver.send_currents(s, np.zeros(model.n))

            keep_alive(0.2)
            # A frame split across two datagrams of the owner: never applied.
            sample = driver.last_sample
            frame = codec.encode_set_currents(sample.board_time_us, np.array([1.5, 0, 0]), 900)
            sock = driver.client.transport._sock
            sock.send(frame[:-1])
            sock.send(frame[-1:])
            time.sleep(0.05)
            status = board.status()
            assert status['parser']['truncated'] >= 1
            assert status['command'][0] == 0.0
            keep_alive(0.1)
            # Two frames spliced in one datagram: both read (the second wins).
            s = driver.last_sample
            two = (codec.encode_set_currents(s.board_time_us, np.array([0.2, 0, 0]), 901)
                   + codec.encode_set_currents(s.board_time_us, np.array([0.3, 0, 0]), 902))
            sock.send(two)
            assert wait_until(lambda: board.status()['command'][0] == 0.3, 2.0)
            # Another port: valid SET_CURRENTS and DISABLE are ignored, garbage too.
            foreign = board.status()['rx_foreign']
            s = driver.last_sample
            _send(rogue, port, codec.encode_set_currents(s.board_time_us,
                                                         np.array([-1.0, 0, 0]), 5))
            _send(rogue, port, codec.encode_message(m.Disable(), 6))
            _send(rogue, port, b'\xaa\x55 garbage that is not a frame')
            time.sleep(0.05)
            assert board.status()['command'][0] == 0.3
            keep_alive(0.3)
            status = board.status()
            assert status['enabled'] and status['rx_foreign'] >= foreign + 2
            assert status['command'][0] != -1.0
            assert status['session_peer'] == start['session_peer']
            assert driver.last_sample is not None and time.monotonic() - (
                driver.last_sample.host_time) < 0.1        # reports still reach the owner
            # The owner disables: the session ends and the other port may talk.
            driver.disable()
            assert wait_until(lambda: board.status()['session_peer'] is None
                              or not board.status()['enabled'], 2.0)
            rogue.settimeout(2.0)
            _send(rogue, port, codec.encode_message(m.IdentifyRequest(), 7))
            data = rogue.recv(4096)
            assert any(isinstance(codec.decode_message(f), m.Identify)
                       for f in FrameParser(codec.plausible_length).feed_datagram(data))
        finally:
            rogue.close()
            driver.close()


def test_host_reads_whole_frames_of_each_datagram():
    """A report split over two datagrams is dropped by the host; spliced ones are read."""
    board = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    board.bind(('127.0.0.1', 0))
    client = BoardClient(UdpTransport('127.0.0.1', board.getsockname()[1]))
    client.connect()
    try:
        client.transport.write(b'hello')           # let the board learn the host's port
        _, host = board.recvfrom(64)
        reports = [codec.encode_message(m.StateReport(1000 + k, 3, 0, 0, 0, (k, k, k),
                                                      (0.0, 0.0, 0.0)), k) for k in range(4)]
        board.sendto(reports[0][:10], host)
        board.sendto(reports[0][10:], host)        # the rest of the cut frame: never joined
        board.sendto(reports[1] + reports[2], host)   # spliced: both
        board.sendto(reports[3][:-3], host)        # truncated at the end
        got = []
        for _ in range(20):
            got += client.receive(0.05)
        counts = [r.counts[0] for r in got if isinstance(r, m.StateReport)]
        assert counts == [1, 2]
        assert client.parser.truncated == 2
    finally:
        client.close()
        board.close()
