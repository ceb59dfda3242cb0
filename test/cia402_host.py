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
Host side of the CiA 402 process tests: scenarios against a running ``robodyn sim-drive``.

Run inside the test's network namespace (``ip netns exec``) next to the
simulated drive set::

    python test/cia402_host.py CONTROL_PORT SCENARIO [SCENARIO ...]

Each scenario prints one JSON line ``{"scenario": name, ...}`` with what it
measured (an exception becomes ``{"error": ...}``); the test judges them.
Real ``canopen`` and ``python-can`` over ``udp_multicast``, real processes.
"""

import json
import os
import socket
import sys
import threading
import time

import can
import msgpack
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from robodyn_ros.dynamics import gravity_torques  # noqa: E402
from robodyn_ros.hardware.cia402 import objects as o  # noqa: E402
from robodyn_ros.hardware.cia402.bus import DEFAULT_GROUP, DEFAULT_PORT  # noqa: E402
from robodyn_ros.hardware.cia402.configure import DriveSetup  # noqa: E402
from robodyn_ros.hardware.cia402.driver import Cia402Driver  # noqa: E402
from robodyn_ros.hardware.cia402.power_state import (DISABLE_VOLTAGE, ENABLE_OPERATION,  # noqa
                                                     QUICK_STOP_COMMAND, SHUTDOWN, SWITCH_ON)
from robodyn_ros.hardware.cia402.settings import Cia402Settings  # noqa: E402
from robodyn_ros.hardware.interface import HardwareInterface, InterfaceSettings  # noqa: E402
from robodyn_ros.model import load_robot  # noqa: E402
from robodyn_ros.sim.board.faults import control_request  # noqa: E402

MODEL = load_robot('puma560')
PORT = int(sys.argv[1]) if len(sys.argv) > 1 else 0
gravity_torques(MODEL, MODEL.home_configuration())     # warm up: no first-call stall in a cycle


def control(**req):
    """Send one request to the drive set's control channel."""
    return control_request(PORT, req, timeout=5.0)


def driver(**changes):
    """Build a driver for the six drives (generous timing: the machine is loaded)."""
    s = {'node_ids': tuple(range(1, 7)), 'cycle_period': 0.004, 'watchdog_period': 0.25,
         'heartbeat_period': 0.05, 'heartbeat_timeout': 0.6, 'request_timeout': 0.5}
    s.update(changes)
    return Cia402Driver(MODEL, Cia402Settings(**s))


def cycles(d, n, torques=None):
    """Run ``n`` cycles; return the last sample."""
    sample = None
    for _ in range(n):
        s = d.read(0.01)
        if s is not None:
            sample = s
            if torques is not None:
                d.send_currents(s, torques(s))
    return sample


def walk_to(d, word, want, limit=2.0):
    """Send ``word`` to drive 1 each cycle until it reports ``want``; return the states seen."""
    seen = []
    d.controlword[:] = word
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if d.exchange() is not None:
            st = d.states[0].value
            if not seen or seen[-1] != st:
                seen.append(st)
            if st == want:
                d.send_raw(np.zeros(6, dtype=int))
                break
        d.send_raw(np.zeros(6, dtype=int))
    return seen


def s_configure():
    d = driver()
    ident = d.connect()
    # The cycle reads the bus itself; SDO reads here need canopen's receive thread again.
    d.network.notifier = can.Notifier(d.network.bus, d.network.listeners, 0.1)
    try:
        setup = DriveSetup(d.nodes[2], 'joint3', 0.5)
        objects = (0x6060, 0x6061, 0x6076, 0x6072, 0x605A, 0x6007, 0x1006, 0x1017)
        values = {f'0x{i:04X}': setup.read(i) for i in objects}
        values['0x1016:1'] = setup.read(0x1016, 1)
        mapping = {f'0x{i:04X}:{k}': setup.read(i, k)
                   for i, k in ((0x1600, 0), (0x1600, 1), (0x1600, 2), (0x1A00, 1), (0x1A00, 2),
                                (0x1A01, 1), (0x1A01, 2), (0x1400, 1), (0x1400, 2), (0x1400, 5),
                                (0x1800, 1), (0x1801, 1), (0x1802, 1))}
        status = control(cmd='status')
        return {'describe': d.describe(), 'axis_count': ident.axis_count,
                'counts': [x.encoder_counts for x in ident.drives],
                'rated_mnm': [int(v) for v in d.rated_mnm], 'values': values,
                'mapping': mapping, 'nmt': [x['nmt'] for x in status['drives']],
                'sim_rated': [x['rated_torque_mnm'] for x in status['drives']],
                'states': [x['state'] for x in status['drives']]}
    finally:
        d.close()


def _refused(**fault):
    control(cmd='inject', **fault)
    d = driver(connect_timeout=2.0)
    t0 = time.monotonic()
    try:
        d.connect()
        d.close()
        return {'error_type': None, 'message': 'configured'}
    except Exception as exc:   # noqa: B902 - the test judges the type and the message
        return {'error_type': type(exc).__name__, 'message': str(exc),
                'closed': d.network is None, 'seconds': time.monotonic() - t0}
    finally:
        control(cmd='clear', fault=fault['fault'])


def s_wrong_readback():
    return _refused(fault='wrong_readback', axis=2, index=0x6076)


def s_refuse_mode():
    return _refused(fault='refuse_mode', axis=0)


def s_power():
    d = driver()
    d.connect()
    try:
        cycles(d, 5)
        up = walk_to(d, SHUTDOWN, 'ready to switch on') + \
            walk_to(d, SWITCH_ON, 'switched on') + \
            walk_to(d, ENABLE_OPERATION, 'operation enabled')
        cycles(d, 5, lambda s: np.zeros(6))          # the brake releases after its delay
        on_truth = control(cmd='state')
        down = walk_to(d, SHUTDOWN, 'ready to switch on') + \
            walk_to(d, DISABLE_VOLTAGE, 'switch on disabled')
        off_truth = control(cmd='state')
        d.enable()
        enabled = [s.value for s in d.states]
        quick = walk_to(d, QUICK_STOP_COMMAND, 'switch on disabled')
        control(cmd='inject', fault='emcy', axis=0, code=0x2310)
        cycles(d, 20)
        fault_state = d.states[0].value
        try:
            d.clear_fault()
            refused = ''
        except Exception as exc:    # noqa: B902
            refused = f'{type(exc).__name__}: {exc}'
        control(cmd='clear', fault='emcy')
        cycles(d, 10)
        still = d.states[0].value
        d.clear_fault()
        after_reset = d.states[0].value
        cycles(d, 10)
        return {'up': up, 'down': down, 'enabled': enabled, 'quick': quick,
                'on_truth': on_truth['states'][0], 'off_truth': off_truth['states'][0],
                'on_enabled': on_truth['enabled'], 'off_enabled': off_truth['enabled'],
                'fault_state': fault_state, 'reset_while_cause': refused,
                'still_after_cause_gone': still, 'after_reset': after_reset,
                'final': d.states[0].value}
    finally:
        d.close()


def s_pdo_round_trip():
    d = driver()
    d.connect()
    try:
        d.enable()
        extra = np.array([0.0, 3.0, -2.0, 0.5, -0.4, 0.3])     # joint torques [N m]
        pipe_amps = d.axes.efficiency * d.axes.gear_ratio * d.axes.torque_constant

        def hold(s):
            return (gravity_torques(MODEL, s.position) + extra) / pipe_amps

        last = cycles(d, 60, hold)
        sent = d.cycle.latencies[-1] if d.cycle.latencies else None
        amps = hold(last)
        permille = np.rint(1e3 * d.axes.torque_constant * amps / (d.rated_mnm * 1e-3))
        d.send_currents(last, amps)
        time.sleep(0.05)
        status = control(cmd='status')
        sample = cycles(d, 2)
        truth = control(cmd='state')
        counters = vars(d.cycle.counters)
        d.disable()
        return {'sent_permille': [int(v) for v in permille],
                'drive_target': [x['target_torque'] for x in status['drives']],
                'torque_actual': [x['torque'] for x in status['drives']],
                'position': sample.position.tolist(), 'truth_q': truth['q'],
                'effort': sample.effort.tolist(), 'latency': sent, 'counters': counters,
                'rpdos': [x['rpdos'] for x in status['drives']],
                'syncs': [x['syncs'] for x in status['drives']]}
    finally:
        d.close()


class Feeder:
    """A controller stand-in: gravity torques at 250 Hz from a thread."""

    def __init__(self, hw):
        self.hw = hw
        self.stop = False
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.stop:
            s = self.hw.driver.last_sample
            if s is not None:
                self.hw.set_command(gravity_torques(MODEL, s.position), source='test')
            time.sleep(0.004)

    def close(self):
        self.stop = True
        self.thread.join()


def _interface():
    trans = []
    hw = HardwareInterface(MODEL, None, settings=InterfaceSettings(
        hold_time=1.0, command_timeout=0.2, reconnect_period=0.3), driver=driver(),
        on_transition=lambda t: trans.append(str(t)))
    return hw, trans


def _running(hw, limit=10.0):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and hw.drive_state.value != 'running':
        time.sleep(0.05)
    return hw.drive_state.value


def _fault_case(fault, clear_wait=1.0):
    hw, trans = _interface()
    hw.configure()
    hw.activate()
    feeder = Feeder(hw)
    try:
        before = _running(hw)
        t0 = time.monotonic()
        control(cmd='inject', **fault)
        while time.monotonic() - t0 < 5.0 and hw.drive_state.value != 'fault':
            time.sleep(0.01)
        to_fault = time.monotonic() - t0
        truth = control(cmd='state')
        while truth['enabled'] and time.monotonic() - t0 < to_fault + 1.5:
            time.sleep(0.02)
            truth = control(cmd='state')
        off = time.monotonic() - t0
        try:
            hw.reset_fault()
            reset_with_cause = 'accepted'
        except Exception as exc:    # noqa: B902
            reset_with_cause = f'{type(exc).__name__}: {exc}'
        control(cmd='clear', fault=fault['fault'])
        time.sleep(clear_wait)
        waited = {'state': hw.drive_state.value, 'enabled': control(cmd='state')['enabled'],
                  'link_up': hw.link.up}
        answer = hw.reset_fault()
        after = _running(hw)
        emcy = [str(r) for r in hw.driver.fault_reports]
        return {'before': before, 'seconds_to_fault': to_fault, 'seconds_to_off': off,
                'to_fault': [t for t in trans if '-> fault' in t], 'truth_states': truth['states'],
                'truth_enabled': truth['enabled'], 'reset_with_cause': reset_with_cause,
                'after_clear': waited, 'reset': answer, 'after_reset': after, 'emcy': emcy,
                'transitions': trans}
    finally:
        feeder.close()
        hw.outputs_off()
        hw.cleanup()


def s_emcy():
    return _fault_case({'fault': 'emcy', 'axis': 1, 'code': 0x4310})


def s_heartbeat_loss():
    return _fault_case({'fault': 'heartbeat_loss', 'axis': 2}, clear_wait=2.0)


def s_host_loss():
    d = driver(heartbeat_timeout=0.6)
    d.connect()
    try:
        d.enable()
        cycles(d, 10, lambda s: gravity_torques(MODEL, s.position) / (
            d.axes.efficiency * d.axes.gear_ratio * d.axes.torque_constant))
        d.cycle.heartbeat = None        # the host's heartbeat stops; SYNC and RPDOs go on
        t0 = time.monotonic()
        seen = []
        while time.monotonic() - t0 < 3.0:
            s = d.read(0.01)
            if s is not None:
                d.send_currents(s, gravity_torques(MODEL, s.position) / (
                    d.axes.efficiency * d.axes.gear_ratio * d.axes.torque_constant))
                st = d.states[0].value
                if not seen or seen[-1][0] != st:
                    seen.append((st, round(time.monotonic() - t0, 3)))
                if st == 'switch on disabled':
                    break
        status = control(cmd='status')
        return {'seen': seen, 'host_lost': [x['host_lost'] for x in status['drives']],
                'emcy': [str(r) for r in d.fault_reports],
                'enabled': status['enabled']}
    finally:
        d.close()


def s_host_stall():
    d = driver(heartbeat_timeout=0.6)
    d.connect()
    try:
        before = cycles(d, 10) is not None
        cob_id, period = d.cycle.heartbeat
        t0 = time.monotonic()
        while time.monotonic() - t0 < 1.0:   # no cycle: the drives' frames wait in the socket
            d.network.send_message(cob_id, bytes([o.NMT_OPERATIONAL]))   # the host lives on
            time.sleep(period)
        read_error = ''
        after = False
        try:
            after = cycles(d, 5) is not None
        except Exception as exc:    # noqa: B902 - reported to the test
            read_error = f'{type(exc).__name__}: {exc}'
        return {'before': before, 'after': after, 'read_error': read_error,
                'states': [s.value for s in d.states]}
    finally:
        d.close()


def s_bad_frames():
    d = driver()
    d.connect()
    try:
        cycles(d, 20)
        raw = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        raw.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 1)
        for data in (b'\xff\x00garbage', msgpack.packb([1, 2, 3]),
                     msgpack.packb({'arbitration_id': 'x'}), b''):
            raw.sendto(data, (DEFAULT_GROUP, DEFAULT_PORT))
        raw.close()
        fd_bus = can.Bus(interface='udp_multicast', channel=DEFAULT_GROUP, port=DEFAULT_PORT,
                         fd=True)
        fd_bus.send(can.Message(arbitration_id=o.tpdo1_cob_id(1), data=bytes(12), is_fd=True,
                                is_extended_id=False))
        fd_bus.send(can.Message(arbitration_id=o.tpdo1_cob_id(2), data=bytes(3),
                                is_extended_id=False))           # a TPDO one byte short
        fd_bus.send(can.Message(arbitration_id=o.rpdo1_cob_id(1), data=bytes(1),
                                is_extended_id=False))           # an RPDO too short
        fd_bus.shutdown()
        cycles(d, 20)
        control(cmd='inject', fault='bad_tpdo', axis=3)
        t0 = time.monotonic()
        none = 0
        error = ''
        while time.monotonic() - t0 < 0.3:
            try:
                if d.read(0.01) is None:
                    none += 1
            except Exception as exc:    # noqa: B902
                error = f'{type(exc).__name__}: {exc}'
                break
        control(cmd='clear', fault='bad_tpdo')
        ok = cycles(d, 20) is not None
        status = control(cmd='status')
        return {'bus': vars(d.bus.counters), 'cycle': vars(d.cycle.counters),
                'cycles_without_sample': none, 'read_error': error, 'recovered': ok,
                'receive_alive': d.bus.counters.rx_errors == 0,
                'sim_bad_rpdos': status['drives'][0]['bad_rpdos'], 'sim_alive': status['ok']}
    finally:
        d.close()


SCENARIOS = {name[2:]: f for name, f in globals().items() if name.startswith('s_')}

if __name__ == '__main__':
    for name in sys.argv[2:]:
        t0 = time.monotonic()
        try:
            result = SCENARIOS[name]()
        except Exception as exc:    # noqa: B902 - reported to the test
            import traceback
            result = {'error': f'{type(exc).__name__}: {exc}',
                      'traceback': traceback.format_exc()[-2000:]}
        result['scenario'] = name
        result['elapsed'] = time.monotonic() - t0
        print(json.dumps(result, default=str), flush=True)
