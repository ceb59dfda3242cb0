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
The CiA 402 backend against the simulated drives, as real processes on a real bus.

One ``robodyn sim-drive puma560`` process and one host process
(``test/cia402_host.py``, the real :class:`Cia402Driver` and
:class:`HardwareInterface`) talk CANopen over python-can's
``udp_multicast`` inside a network namespace made for this module (only
loopback: no frame can reach the machine's interfaces) and deleted after
it. The host runs its scenarios one after the other; each test judges one.
"""

import json
import os
import subprocess
import sys
import time

import pytest

from robodyn_ros.hardware.cia402 import objects as o
from robodyn_ros.hardware.cia402.namespace import CanNamespace

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SCENARIOS = ('configure', 'wrong_readback', 'refuse_mode', 'power', 'pdo_round_trip', 'emcy',
             'heartbeat_loss', 'host_loss', 'host_stall', 'bad_frames')

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason='network namespaces need root')


def _env():
    env = dict(os.environ)
    env['PYTHONPATH'] = ROOT + os.pathsep + env.get('PYTHONPATH', '')
    return env


@pytest.fixture(scope='module')
def results(tmp_path_factory):
    """Run every scenario once against one simulated drive set; give the results by name."""
    log = tmp_path_factory.mktemp('cia402') / 'sim_drive.log'
    with CanNamespace('_pt') as ns:
        with open(log, 'w') as fh:
            sim = subprocess.Popen(ns.wrap([sys.executable, '-m', 'robodyn_ros.cli.main',
                                            'sim-drive', 'puma560', '--no-load-friction',
                                            '--rate', '500', '--quick-stop-time', '0.05',
                                            '--max-runtime', '300']),
                                   stdout=fh, stderr=subprocess.STDOUT, env=_env(), cwd=ROOT)
        try:
            deadline = time.monotonic() + 60.0
            ready = None
            while ready is None and time.monotonic() < deadline and sim.poll() is None:
                time.sleep(0.1)
                with open(log) as fh:      # the model's warnings may come first
                    lines = [ln for ln in fh if ln.startswith('{"ready"')]
                if lines:
                    ready = json.loads(lines[0])
            assert ready is not None, open(log).read()[-2000:]
            proc = subprocess.run(ns.wrap([sys.executable, os.path.join(HERE, 'cia402_host.py'),
                                           str(ready['control_port']), *SCENARIOS]),
                                  capture_output=True, text=True, timeout=300, env=_env(),
                                  cwd=ROOT)
        finally:
            sim.terminate()
            try:
                sim.wait(10)
            except subprocess.TimeoutExpired:
                sim.kill()
                sim.wait()
        names = subprocess.run(['ip', 'netns', 'list'], capture_output=True, text=True).stdout
    assert ns.name not in subprocess.run(['ip', 'netns', 'list'], capture_output=True,
                                         text=True).stdout
    assert ns.name in names
    out = {}
    for line in proc.stdout.splitlines():
        if line.startswith('{'):
            r = json.loads(line)
            out[r['scenario']] = r
    assert set(out) == set(SCENARIOS), proc.stdout[-3000:] + proc.stderr[-3000:]
    return out


def _ok(r):
    assert 'error' not in r, r.get('traceback', r)
    return r


def test_configure_writes_and_reads_back_every_value(results):
    """Mode 10, scaling, quick stop and heartbeats set; PDOs mapped as the layout says."""
    r = _ok(results['configure'])
    v, m = r['values'], r['mapping']
    assert v['0x6060'] == 10 and v['0x6061'] == 10
    assert v['0x6076'] == r['rated_mnm'][2] and v['0x6072'] == 1000
    assert v['0x605A'] == 2 and v['0x6007'] == 3
    assert v['0x1006'] == 4000 and v['0x1017'] == 50
    assert v['0x1016:1'] == o.consumer_entry(127, 600)
    assert m['0x1600:0'] == 2 and m['0x1600:1'] == o.mapping_entry(0x6040, 0, 16)
    assert m['0x1600:2'] == o.mapping_entry(0x6071, 0, 16)
    assert m['0x1A00:2'] == o.mapping_entry(0x6064, 0, 32)
    assert m['0x1A01:1'] == o.mapping_entry(0x606C, 0, 32)
    assert m['0x1400:1'] == 0x203 and m['0x1400:2'] == 1 and m['0x1400:5'] == 250
    assert m['0x1802:1'] & 0x80000000            # unused TPDO disabled
    assert r['nmt'] == ['OPERATIONAL'] * 6 and r['sim_rated'] == r['rated_mnm']
    assert r['states'] == ['switch on disabled'] * 6   # configure never enables
    assert r['counts'] == [4096] * 6 and '6 CiA 402 drives' in r['describe']


def test_a_value_read_back_wrong_is_a_configure_error(results):
    """A drive that keeps another rated torque than written: named, the bus closed again."""
    r = results['wrong_readback']
    assert r['error_type'] == 'DriveConfigError'
    assert "drive node 3 (joint 'joint3')" in r['message'] and '0x6076' in r['message']
    assert 'read back' in r['message'] and r['closed']


def test_a_refused_mode_is_a_configure_error(results):
    """A drive refusing modes of operation 10: the SDO abort code in the message."""
    r = results['refuse_mode']
    assert r['error_type'] == 'DriveRefused' and r['closed']
    assert "drive node 1 (joint 'joint1')" in r['message']
    assert '0x6060' in r['message'] and '0x06090030' in r['message']


def test_power_state_machine_both_ways(results):
    """Up step by step, down, quick stop; a fault stays until reset with the cause gone."""
    r = _ok(results['power'])
    assert r['up'][0] == 'switch on disabled' and r['up'][-1] == 'operation enabled'
    assert {'ready to switch on', 'switched on'} <= set(r['up'])
    assert r['on_enabled'] and r['on_truth'] == 'operation enabled'
    assert r['down'][-1] == 'switch on disabled' and 'ready to switch on' in r['down']
    assert not r['off_enabled']
    assert r['enabled'] == ['operation enabled'] * 6
    assert r['quick'][-2:] == ['quick stop active', 'switch on disabled']
    assert r['fault_state'] == 'fault'
    assert 'refused' in r['reset_while_cause'] and '0x2310' in r['reset_while_cause']
    assert r['still_after_cause_gone'] == 'fault'           # never cleared by itself
    assert r['after_reset'] == 'switch on disabled' and r['final'] == 'switch on disabled'


def test_pdo_round_trip(results):
    """Target torques arrive exactly, torque and position come back."""
    r = _ok(results['pdo_round_trip'])
    assert r['drive_target'] == r['sent_permille'] and any(r['sent_permille'])
    for sent, actual in zip(r['sent_permille'], r['torque_actual']):
        assert abs(actual - sent) <= max(2, 0.05 * abs(sent))
    for q, truth in zip(r['position'], r['truth_q']):
        assert abs(q - truth) < 2e-3
    assert abs(max(r['position'], key=abs)) < 0.02       # the arm held against gravity
    c = r['counters']
    assert c['cycles'] >= 50 and c['complete'] + c['stale'] // 6 >= 25 and min(r['rpdos']) >= 40


def test_emcy_from_one_drive_stops_all_until_reset(results):
    """EMCY on drive 2: fault, all off; reset refused while the cause lasts; no re-enable."""
    r = _ok(results['emcy'])
    assert r['before'] == 'running' and r['seconds_to_fault'] < 1.0
    assert 'EMCY 0x4310' in r['to_fault'][0] and "node 2 (joint 'joint2')" in r['to_fault'][0]
    assert not r['truth_enabled'] and r['truth_states'][1] == 'fault'
    assert r['seconds_to_off'] < 1.0
    assert 'refused' in r['reset_with_cause']
    assert r['after_clear'] == {'state': 'fault', 'enabled': False, 'link_up': True}
    assert r['reset'].startswith('reset from fault') and r['after_reset'] == 'running'


def test_lost_heartbeat_is_a_lost_link(results):
    """A drive's heartbeat stops: link lost, drives quick-stopped, back only after a reset."""
    r = _ok(results['heartbeat_loss'])
    assert r['before'] == 'running'
    cause = r['to_fault'][0]
    assert 'drives link lost' in cause and 'heartbeat of drive node 3' in cause
    assert not r['truth_enabled']
    assert r['after_clear'] == {'state': 'fault', 'enabled': False, 'link_up': True}
    assert r['after_reset'] == 'running'


def test_drives_quick_stop_when_the_host_heartbeat_stops(results):
    """The drives' heartbeat consumer: quick stop active, then switch on disabled, EMCY 0x8130."""
    r = _ok(results['host_loss'])
    states = [s for s, _ in r['seen']]
    assert states[0] == 'operation enabled' and states[-1] == 'switch on disabled'
    assert 'quick stop active' in states
    assert all(r['host_lost']) and not r['enabled']
    assert any('0x8130' in e for e in r['emcy'])


def test_a_stalled_host_does_not_call_the_drives_lost(results):
    """The host's cycle stops 1 s (its heartbeat goes on): the drives' waiting heartbeats count."""
    r = _ok(results['host_stall'])
    assert r['before'] and r['after'], r
    assert r['read_error'] == '', r['read_error']
    assert all(s == 'switch on disabled' for s in r['states']), r['states']


def test_bad_frames_are_counted_never_obeyed(results):
    """Garbage datagrams, CAN FD, short PDOs: counted; the link and both processes live on."""
    r = _ok(results['bad_frames'])
    assert r['bus']['bad_frames'] >= 4      # 4 undecodable datagrams (FD: dropped by the bus)
    assert r['cycle']['bad_frames'] >= 2          # short TPDOs, also those of bad_tpdo
    assert r['sim_bad_rpdos'] >= 1 and r['sim_alive']
    assert r['receive_alive'] and r['read_error'] == '' and r['recovered']
    assert r['bus']['own'] >= 0.9 * r['bus']['sent'] > 0     # udp_multicast echoes: dropped
