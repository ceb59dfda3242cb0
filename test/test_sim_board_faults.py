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

"""Fault specifications, the injector and the JSON control channel."""

import json
import socket
import threading
import time

import numpy as np
import pytest
from robodyn_ros.hardware.board.codec import encode_message
from robodyn_ros.hardware.board.framing import decode_frame
from robodyn_ros.hardware.board.messages import Heartbeat
from robodyn_ros.hardware.errors import CrcError
from robodyn_ros.sim.board.faults import (control_request, ControlChannel, FaultInjector,
                                          FaultSpecError, parse_fault_spec)


def test_parse_fault_specs():
    """Defaults are filled in, values converted and checked."""
    assert parse_fault_spec('disconnect') == ('disconnect', {})
    assert parse_fault_spec('drop:direction=rx,rate=0.25') == (
        'drop', {'direction': 'rx', 'rate': 0.25})
    assert parse_fault_spec('over_current:axis=2,amps=30') == (
        'over_current', {'axis': 2, 'amps': 30.0})
    assert parse_fault_spec('delay')[1] == {'seconds': 0.1}
    for bad, text in [('explode', 'unknown fault'), ('drop:rate=2', 'rate'),
                      ('drop:direction=up', 'direction'), ('delay:seconds=-1', 'seconds'),
                      ('drop:speed=3', 'unknown parameters'), ('drop:rate', 'key=value'),
                      ('stuck_encoder:axis=x', 'bad parameter'),
                      ('stuck_encoder:axis=-2', 'axis')]:
        with pytest.raises(FaultSpecError, match=text):
            parse_fault_spec(bad)


def test_injector_behaviour():
    """Rates, directions, corruption, delay, stuck axes and current offsets."""
    inj = FaultInjector(np.random.default_rng(0))
    assert not inj.drop('rx') and inj.delay == 0.0 and not inj.disconnected
    inj.inject('drop', {'direction': 'rx', 'rate': 1.0}, 5)
    assert inj.drop('rx') and not inj.drop('tx')
    inj.inject('drop', {'direction': 'both', 'rate': 0.3})
    hits = sum(inj.drop('tx') for _ in range(4000))
    assert 0.25 < hits / 4000 < 0.35
    frame = encode_message(Heartbeat(7), 3)
    inj.inject('corrupt_crc', {'direction': 'tx'})
    bad = inj.corrupt(frame, 'tx')
    assert bad != frame and bad[:-1] == frame[:-1]
    with pytest.raises(CrcError):
        decode_frame(bad)
    assert inj.corrupt(frame, 'rx') == frame
    inj.inject('stuck_encoder', {'axis': 1})
    assert inj.stuck(1) and not inj.stuck(0)
    inj.inject('over_current', {'axis': -1})
    assert inj.current_offset(2, 9.0) == 9.0
    inj.inject('delay', {'seconds': 0.2})
    assert inj.delay == 0.2
    inj.clear('drop', 9)
    assert 'drop' not in inj.active
    inj.clear('all')
    assert inj.active == {}
    with pytest.raises(FaultSpecError):
        inj.clear('nothing')
    events = [(e['event'], e['fault']) for e in inj.log]
    assert events[0] == ('inject', 'drop') and ('clear', 'drop') in events


def test_control_channel_round_trip():
    """JSON requests are answered; bad requests get an error reply, not a crash."""
    seen = []

    def handler(req):
        seen.append(req)
        if req.get('cmd') == 'boom':
            raise ValueError('no such command')
        if req.get('cmd') == 'crash':
            raise RuntimeError('a bug in a handler')
        if req.get('cmd') == 'nan':
            return {'ok': True, 'value': float('nan')}      # a reply JSON cannot carry
        return {'ok': True, 'echo': req}

    chan = ControlChannel(0, handler)
    stop = threading.Event()

    def serve():
        import select
        while not stop.is_set():
            if select.select([chan], [], [], 0.05)[0]:
                chan.poll()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        assert control_request(chan.port, {'cmd': 'status'}) == {'ok': True,
                                                                 'echo': {'cmd': 'status'}}
        assert control_request(chan.port, {'cmd': 'boom'}) == {
            'ok': False, 'error': 'ValueError: no such command'}
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.settimeout(2.0)
            for data, reason in ((b'not json', 'JSONDecodeError'),
                                 (b'[1, 2]', 'JSON object'),
                                 (b'{"axis": 1e400}', 'out of range'),
                                 (b'{"cmd": "crash"}', 'RuntimeError: a bug'),
                                 (b'{"axis": NaN}', 'NaN is not a number'),
                                 (b'[' * 60000, 'exceeds 8192'),
                                 (b'[' * 1000 + b']' * 1000, 'nested deeper than 8'),
                                 (b'{"a": ' * 20 + b'1' + b'}' * 20, 'nested deeper'),
                                 (b'\xff\xfe', 'UnicodeDecodeError'),
                                 (b'{"cmd": "nan"}', 'unanswerable reply')):
                sock.sendto(data, ('127.0.0.1', chan.port))
                reply = json.loads(sock.recvfrom(4096)[0])
                assert reply['ok'] is False and reason in reply['error'], (data[:40], reply)
            # and it still answers
            assert control_request(chan.port, {'cmd': 'status'})['ok']
    finally:
        stop.set()
        thread.join(2.0)
        chan.close()
    with pytest.raises(TimeoutError, match='did not answer'):
        control_request(chan.port, {'cmd': 'status'}, timeout=0.2)


def test_control_request_takes_only_the_boards_answer():
    """A datagram from another sender (a DDS peer's RTPS packet) is skipped, not parsed."""
    board = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    stray = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    board.bind(('127.0.0.1', 0))
    board.settimeout(5.0)

    def serve():
        data, client = board.recvfrom(4096)
        stray.sendto(b'RTPS\x02\x03\x01\x0f\x01\x02\x03\xfd\xff binary', client)
        time.sleep(0.05)                       # the stray datagram arrives first
        board.sendto(json.dumps({'ok': True, 'echo': json.loads(data)['cmd']}).encode(),
                     client)

    thread = threading.Thread(target=serve)
    thread.start()
    try:
        assert control_request(board.getsockname()[1], {'cmd': 'status'}, timeout=5.0) == {
            'ok': True, 'echo': 'status'}
    finally:
        thread.join()
        board.close()
        stray.close()
