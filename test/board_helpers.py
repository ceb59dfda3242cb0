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

"""Start a simulated board as a real process for a test, and always stop it."""

import contextlib
import json
import os
import select
import subprocess
import sys
import tempfile
import time

from robodyn_ros.hardware.board.transports import SerialTransport, UdpTransport
from robodyn_ros.sim.board.faults import control_request

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data')
#: The MA3000 with actuators and no friction (host and board).
ACTUATORS = os.path.join(DATA, 'hw_ma3000_actuators.yaml')
#: The same actuators plus friction the host does not know (board truth).
TRUTH = os.path.join(DATA, 'hw_ma3000_truth.yaml')


class Board:
    """A running simulated board: its ready line and its control channel."""

    def __init__(self, proc, info):
        self.proc = proc
        self.info = info

    @property
    def control_port(self):
        """Control channel port (int)."""
        return self.info['control_port']

    def request(self, **req):
        """Send one control request and return the reply."""
        return control_request(self.control_port, req, timeout=5.0)

    def status(self):
        """Full board status."""
        return self.request(cmd='status')

    def inject(self, fault, **params):
        """Inject a fault; return the reply (with the board time)."""
        reply = self.request(cmd='inject', fault=fault, **params)
        assert reply['ok'], reply
        return reply

    def clear(self, fault='all'):
        """Clear a fault."""
        reply = self.request(cmd='clear', fault=fault)
        assert reply['ok'], reply
        return reply

    def transport(self):
        """Make a host transport to this board."""
        if self.info['transport'] == 'pty':
            return SerialTransport(self.info['link'])
        return UdpTransport('127.0.0.1', self.info['port'])

    def node_parameters(self):
        """Give the hardware_interface parameters that reach this board (name -> value)."""
        if self.info['transport'] == 'pty':
            return {'transport': 'serial', 'device': self.info['link']}
        return {'transport': 'udp', 'address': '127.0.0.1', 'port': self.info['port']}


def _read_line(proc, timeout):
    deadline = time.monotonic() + timeout
    buf = ''
    fd = proc.stdout.fileno()
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            chunk = os.read(fd, 4096).decode()
            if not chunk:
                break
            buf += chunk
            if '\n' in buf:
                return buf.split('\n', 1)[0]
        if proc.poll() is not None:
            break
    raise RuntimeError(f'simulated board did not start: {buf!r} '
                       f'{proc.stderr.read() if proc.poll() is not None else ""}')


@contextlib.contextmanager
def sim_board(*args, robot='ma3000', params=ACTUATORS, transport='pty', timeout=30.0):
    """Run ``robodyn sim-board`` in a process for the duration of a with block."""
    with tempfile.TemporaryDirectory(prefix='robodyn_board_') as tmp:
        cmd = [sys.executable, '-m', 'robodyn_ros.cli.main', 'sim-board', robot,
               '--transport', transport, '--max-runtime', '600']
        if params:
            cmd += ['--params', params]
        if transport == 'pty':
            cmd += ['--link', os.path.join(tmp, 'board')]
        cmd += list(args)
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                stdin=subprocess.DEVNULL)
        try:
            info = json.loads(_read_line(proc, timeout))
            yield Board(proc, info)
        finally:
            died = proc.poll()
            proc.terminate()
            try:
                proc.wait(5.0)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5.0)
            err = proc.stderr.read().decode(errors='replace')
            if died is not None or err.strip():
                print(f'simulated board exited {proc.returncode}; stderr:\n{err}')
            proc.stdout.close()
            proc.stderr.close()


def wait_until(predicate, timeout=10.0, period=0.01):
    """Poll until ``predicate()`` is true; return its last value."""
    deadline = time.monotonic() + timeout
    value = predicate()
    while not value and time.monotonic() < deadline:
        time.sleep(period)
        value = predicate()
    return value
