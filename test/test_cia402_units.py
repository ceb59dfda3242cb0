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
Pieces of the CiA 402 backend that need no second process.

The power state machine (both sides), the object layout, the settings, the
paced bus on python-can's in-process ``virtual`` interface, and the refusal
of ``udp_multicast`` outside an isolated namespace.
"""

import subprocess
import sys
import time

import can
import pytest

from robodyn_ros.errors import InputError
from robodyn_ros.hardware.cia402 import objects as o
from robodyn_ros.hardware.cia402.bus import check_isolated, frame_bits, open_bus
from robodyn_ros.hardware.cia402.power_state import (after_stop, DISABLE_VOLTAGE,
                                                     ENABLE_OPERATION, FAULT_RESET, next_state,
                                                     P, QUICK_STOP_COMMAND, SHUTDOWN, state_of,
                                                     statusword, SWITCH_ON)
from robodyn_ros.hardware.cia402.settings import Cia402Settings


@pytest.mark.parametrize('state', list(P))
def test_statusword_reads_back_as_its_state(state):
    """Every state's statusword decodes to that state, with or without voltage and warning."""
    for voltage in (True, False):
        for warning in (True, False):
            assert state_of(statusword(state, voltage, warning=warning)) == state


def test_power_state_machine_transitions():
    """The CiA 402 table: up by shutdown/switch on/enable, down, quick stop, fault reset edge."""
    s = P.SWITCH_ON_DISABLED
    assert next_state(s, ENABLE_OPERATION) == s            # no shortcut from switch on disabled
    s = next_state(s, SHUTDOWN)
    assert s == P.READY_TO_SWITCH_ON
    assert next_state(s, SWITCH_ON) == P.SWITCHED_ON
    assert next_state(P.SWITCHED_ON, ENABLE_OPERATION) == P.OPERATION_ENABLED
    assert next_state(P.OPERATION_ENABLED, SWITCH_ON) == P.SWITCHED_ON       # disable operation
    assert next_state(P.OPERATION_ENABLED, SHUTDOWN) == P.READY_TO_SWITCH_ON
    assert next_state(P.OPERATION_ENABLED, DISABLE_VOLTAGE) == P.SWITCH_ON_DISABLED
    assert next_state(P.OPERATION_ENABLED, QUICK_STOP_COMMAND) == P.QUICK_STOP_ACTIVE
    assert next_state(P.SWITCHED_ON, QUICK_STOP_COMMAND) == P.SWITCH_ON_DISABLED
    qs = P.QUICK_STOP_ACTIVE
    assert next_state(qs, ENABLE_OPERATION, quick_stop_option=2) == qs
    assert next_state(qs, ENABLE_OPERATION, quick_stop_option=6) == P.OPERATION_ENABLED
    assert after_stop(qs, 2) == P.SWITCH_ON_DISABLED and after_stop(qs, 6) == qs
    f = P.FAULT
    assert next_state(f, ENABLE_OPERATION) == f
    assert next_state(f, FAULT_RESET, previous_controlword=0) == P.SWITCH_ON_DISABLED
    assert next_state(f, FAULT_RESET, previous_controlword=FAULT_RESET) == f    # no edge
    assert next_state(f, FAULT_RESET, 0, fault_cleared=False) == f             # cause there
    assert next_state(P.FAULT_REACTION_ACTIVE, FAULT_RESET) == P.FAULT_REACTION_ACTIVE


def test_mapping_entries_round_trip():
    """PDO mapping and consumer entries encode as CiA 301 writes them."""
    assert o.mapping_entry(0x6040, 0, 16) == 0x60400010
    assert o.mapping_fields(0x60640020) == (0x6064, 0, 32)
    assert o.consumer_entry(127, 500) == 0x007F01F4
    assert sum(b for _, _, b in o.TPDO1) <= 64 and sum(b for _, _, b in o.TPDO2) <= 64
    assert o.TPDO1_FORMAT.size == 6 and o.RPDO1_FORMAT.size == 4
    assert o.emcy_description(0x2310) == '0x2310 continuous over-current'
    assert 'unknown' in o.emcy_description(0x9999)


@pytest.mark.parametrize('changes, name', [
    ({'node_ids': (1, 2)}, 'node_ids'),
    ({'node_ids': (1, 1, 2, 3, 4, 5)}, 'node_ids'),
    ({'node_ids': (0, 1, 2, 3, 4, 5)}, 'node_ids'),
    ({'master_id': 3}, 'master_id'),
    ({'interface': 'pcan'}, 'can_interface'),
    ({'bitrate': 5}, 'bitrate'),
    ({'watchdog_period': 0.001}, 'watchdog_period'),
    ({'heartbeat_timeout': 0.05}, 'heartbeat_timeout'),
    ({'rated_torque': (-1.0,)}, 'rated_torque'),
])
def test_settings_refuse_bad_values(changes, name):
    """Each bad setting names itself."""
    values = {'node_ids': (1, 2, 3, 4, 5, 6), **changes}
    with pytest.raises(InputError) as err:
        Cia402Settings(**values).check(6)
    assert name in str(err.value)


def test_paced_bus_paces_counts_and_survives_bad_frames():
    """A burst waits for the bus; own echoes, error and FD frames are counted, never raised."""
    a = open_bus('virtual', 'units_pace', 125000, tx_queue=2)
    b = open_bus('virtual', 'units_pace', 1000000)
    try:
        msg = can.Message(arbitration_id=0x181, data=bytes(8), is_extended_id=False)
        t0 = time.perf_counter()
        for _ in range(12):
            a.send(msg)
        elapsed = time.perf_counter() - t0
        assert elapsed >= 9 * frame_bits(msg) / 125000 * 0.8     # 12 frames, 2 queued freely
        assert a.counters.paced > 0 and a.counters.sent == 12
        got = [b.recv(1.0) for _ in range(12)]
        assert all(m is not None and m.arbitration_id == 0x181 for m in got)
        a.send(can.Message(arbitration_id=0x80, is_error_frame=True, is_extended_id=False))
        a.send(can.Message(arbitration_id=0x182, data=bytes(12), is_fd=True,
                           is_extended_id=False))
        a.send(can.Message(arbitration_id=0x181, data=b'\x01', is_extended_id=False))
        m = b.recv(1.0)
        assert m is not None and m.data == b'\x01'
        assert b.counters.error_frames == 1 and b.counters.bad_frames == 1
    finally:
        a.shutdown()
        b.shutdown()


def test_udp_multicast_is_refused_outside_an_isolated_namespace():
    """This process sees real interfaces: udp_multicast says where it may run."""
    import socket
    if sorted(n for _, n in socket.if_nameindex()) == ['lo']:
        pytest.skip('running inside an isolated namespace already')
    with pytest.raises(InputError) as err:
        check_isolated()
    assert 'network namespace' in str(err.value)
    with pytest.raises(InputError):
        open_bus('udp_multicast', '', 1000000)


def test_sim_drive_outside_a_namespace_exits_with_a_clear_error():
    """No traceback for a user error: exit 2 and one line."""
    proc = subprocess.run([sys.executable, '-m', 'robodyn_ros.cli.main', 'sim-drive', 'puma560',
                           '--max-runtime', '1'], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert 'network namespace' in proc.stderr and 'Traceback' not in proc.stderr
    proc = subprocess.run([sys.executable, '-m', 'robodyn_ros.cli.main', 'sim-drive', 'puma560',
                           '--interface', 'virtual', '--inject', 'emcy:axis=1,code=zz',
                           '--max-runtime', '1'], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and 'code must be an integer' in proc.stderr
    assert 'Traceback' not in proc.stderr


def test_a_restarted_heartbeat_replaces_its_task():
    """Writing 0x1017 again (every configure) keeps one live heartbeat task per drive."""
    from robodyn_ros.sim.cia402.drive_set import SimNetwork
    bus = open_bus('virtual', 'units_heartbeat', 1000000)
    try:
        network = SimNetwork(bus, lambda can_id, data: True)
        tasks = []
        for period in (0.1, 0.05, 0.2):
            for task in tasks:
                task.stop()
            tasks = [network.send_periodic(0x701, b'\x05', period),
                     network.send_periodic(0x702, b'\x05', period)]
        assert network.periodic == tasks
        assert [t.period for t in network.periodic] == [0.2, 0.2]
    finally:
        bus.shutdown()
