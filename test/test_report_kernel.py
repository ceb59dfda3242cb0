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


"""The compiled decode of a state report datagram against the general parser and decoder."""

from board_helpers import ACTUATORS, sim_board, wait_until
import numpy as np
import pytest
from robodyn_ros.hardware.board import client as client_module
from robodyn_ros.hardware.board import messages as m
from robodyn_ros.hardware.board import report_kernel
from robodyn_ros.hardware.board.client import BoardClient
from robodyn_ros.hardware.board.codec import decode_message, encode_message, plausible_length
from robodyn_ros.hardware.board.framing import encode_frame, FrameParser
from robodyn_ros.hardware.errors import ProtocolError
from robodyn_ros.hardware.interface import HardwareInterface
from robodyn_ros.hardware.settings import DriverSettings
from robodyn_ros.model import load_robot
from test_protocol_fuzz import _mutate, _random_message

MUTATIONS = ('bits', 'burst8', 'burst16', 'sync', 'truncate', 'extend', 'substitute',
             'insert', 'delete', 'swap')


@pytest.fixture(scope='module')
def compiled():
    if report_kernel.COMPILED.load() is None:
        pytest.fail('numba is a dependency: the report decode must compile here')
    return report_kernel.COMPILED.get()[0]


def _general(datagram):
    """``(seq, message)`` per frame the general path takes out of one datagram."""
    out = []
    for frame in FrameParser(plausible_length).feed_datagram(datagram):
        try:
            out.append((frame.seq, decode_message(frame)))
        except ProtocolError:
            pass
    return out


def _python_form(reader, datagram):
    n, seq, t, status, faults, applied, rx = report_kernel.parse_state_datagram(
        np.frombuffer(datagram, dtype=np.uint8), reader.tables, reader.limits, reader.counts,
        reader.currents)
    if n == 0:
        return None
    return int(seq), m.StateReport(int(t), int(status), int(faults), int(applied), int(rx),
                                   tuple(reader.counts[:n].tolist()),
                                   tuple(reader.currents[:n].tolist()))


def test_every_good_report_decodes_as_the_general_path_and_nothing_else_does(compiled):
    """3,000 random messages of every kind and axis count: reports equal, the rest refused."""
    rng = np.random.default_rng(21)
    reader = report_kernel.StateReportReader()
    reports = 0
    for k in range(3000):
        msg = _random_message(rng)
        data = encode_message(msg, int(rng.integers(0, 65536)))
        fast = reader.read(data)
        if isinstance(msg, m.StateReport):
            reports += 1
            assert fast == _general(data)[0] and fast[1] == msg
            assert _python_form(reader, data) == fast
            assert all(type(v) is int for v in (fast[0], fast[1].status, fast[1].faults))
        else:
            assert fast is None and _python_form(reader, data) is None
    assert reports > 300


def test_damaged_reports_go_to_the_general_parser(compiled):
    """10,000 mutated reports, two reports in one datagram, reserved bits: never a wrong one."""
    rng = np.random.default_rng(5)
    reader = report_kernel.StateReportReader()
    refused = 0
    for k in range(10000):
        msg = _random_message(rng)
        while not isinstance(msg, m.StateReport):
            msg = _random_message(rng)
        frame = encode_message(msg, k & 0xFFFF)
        kind = MUTATIONS[k % len(MUTATIONS)]
        bad = _mutate(rng, frame, kind) if k % 11 else frame + frame
        fast = reader.read(bad)
        # taken only when the general path finds that one report in the whole datagram
        # (a swap of two equal bytes leaves the frame as it was)
        parser = FrameParser(plausible_length)
        one = len(parser.feed_datagram(bad)) == 1 and parser.discarded_bytes == 0
        general = _general(bad)
        if one and len(general) == 1:
            assert fast == general[0]
        else:
            assert fast is None
            refused += 1
    assert refused > 9400
    # valid CRCs around impossible contents: the codec's own checks refuse them
    good = encode_message(m.StateReport(5, 0, 0, 4, 0, (1,), (0.5,)), 9)
    payload = bytearray(good[8:-2])
    for at, value in ((8, 0xFF), (10, 0x01), (22, 2)):   # reserved status, lone fault, count
        damaged = bytearray(payload)
        damaged[at] = value
        data = encode_frame(int(m.MsgId.STATE_REPORT), 9, bytes(damaged))
        assert reader.read(data) is None and _general(data) == []


class _Datagrams:
    """A datagram link that gives scripted datagrams, a few at a time."""

    framed = True
    is_open = True

    def __init__(self, datagrams):
        self.datagrams = list(datagrams)

    def read_chunks(self, timeout):
        out, self.datagrams = self.datagrams[:3], self.datagrams[3:]
        return out


def _script(rng):
    out = []
    for k in range(600):
        msg = m.StateReport(1000 * k, 0, 0, 0, 0, tuple(range(6)), (0.25,) * 6)
        seq = (k + 65000 + (5 if k > 300 else 0) - (2 if k % 97 == 0 else 0)) & 0xFFFF
        data = encode_message(msg, seq)
        if k % 13 == 0:
            data = _mutate(rng, data, MUTATIONS[k % len(MUTATIONS)])
        if k % 41 == 0:
            data = encode_message(m.FaultReport(k, 1, 0, 3), seq) + data
        out.append(data)
    return out


def test_the_client_counts_and_delivers_the_same_with_the_fast_path(compiled, monkeypatch):
    """Lost, reordered, damaged and mixed datagrams: equal messages, link and parser counts."""
    runs = []
    for fast in (True, False):
        with monkeypatch.context() as patch:
            if not fast:
                patch.setattr(report_kernel.COMPILED, 'get', lambda: None)
            client = BoardClient(_Datagrams(_script(np.random.default_rng(8))))
            got = []
            for _ in range(220):
                got.extend(client._read(0.0))
            p = client.parser
            counts = (p.frames, p.crc_errors, p.header_errors, p.length_errors, p.truncated,
                      p.discarded_bytes)
            runs.append((got, client.stats, counts))
    assert runs[0] == runs[1]
    got, stats, _ = runs[0]
    assert stats.lost_frames > 0 and stats.reordered_frames > 0 and stats.crc_errors > 0
    assert any(isinstance(x, m.FaultReport) for x in got) and len(got) > 500


def test_the_interface_reads_a_real_boards_reports_on_the_fast_path(compiled, monkeypatch):
    """A simulated board over UDP: after configure, no state report needs the general decoder."""
    decoded = []

    def counting(frame):
        msg = decode_message(frame)
        decoded.append(type(msg).__name__)
        return msg

    with sim_board('--q0', '0', '-1.2', '0.3', transport='udp') as board:
        hw = HardwareInterface(load_robot('ma3000', params=ACTUATORS), board.transport(),
                               DriverSettings(connect_timeout=3.0))
        hw.configure()
        try:
            monkeypatch.setattr(client_module, 'decode_message', counting)
            start = hw.driver.reports
            assert wait_until(lambda: hw.driver.reports - start >= 200, 20.0)
        finally:
            hw.cleanup()
    assert 'StateReport' not in decoded
