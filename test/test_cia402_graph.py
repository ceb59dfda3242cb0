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
The demo and the fault campaign on simulated CiA 402 drives (short forms).

Real processes: ``robodyn sim-drive``, the ``hardware_interface`` node with
``backend: cia402``, the planner, a controller and the parallel dynamics,
on loopback DDS and python-can's ``udp_multicast``, all inside the network
namespace the command creates for itself (and must delete again).
"""

import json
import math
import os
import re
import subprocess
import sys

import pytest

from robodyn_ros.demo.fault_campaign import DRIFT_LIMIT_DEG
from robodyn_ros.demo.fault_cases_drives import DRIVE_CASES

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason='network namespaces need root')

#: Bounds of the short demo (as for the board, test_demo.py) [deg].
MAX_ERROR_DEG = 5.0
RMS_ERROR_DEG = 1.5
#: Every case of the campaign on drives, in the order run (the CI form: --short).
CASES = tuple(case.__name__ for case in DRIVE_CASES)
#: SYNC and control rate of both runs [Hz]. The simulated drives and the host decode every
#: CAN frame in Python (python-can and canopen over UDP multicast, every frame reaching every
#: process): at 500 Hz the simulated drives and the host's loop took 60-87 % of a core each
#: on a slower 2-core machine (2026-11-27), the planner had what was left and took 29-39 s
#: for the demo's goal (over 60 s in CI), and in the two-node graph the commands came later
#: than the stream's 20 ms limit again and again (hold, resume). 250 Hz is a usual CANopen
#: cycle (42 % of a 1 Mbit/s bus for 6 drives); the rate is not what these tests check.
RATE = '250'


def _run(args, timeout):
    proc = subprocess.run([sys.executable, '-m', 'robodyn_ros.cli.main', *args],
                          capture_output=True, text=True, timeout=timeout)
    found = re.search(r'network namespace (robodyn_can_\d+)', proc.stdout)
    assert found, proc.stdout[-3000:] + proc.stderr[-3000:]
    names = subprocess.run(['ip', 'netns', 'list'], capture_output=True, text=True).stdout
    assert found.group(1) not in names, 'the namespace was left behind'
    return proc


def test_demo_runs_on_simulated_drives(tmp_path):
    """Exit 0; the arm tracks the plan on CiA 402 drives; the table has the cycle statistics."""
    # The demo's default one-process loop, as test_demo.py runs it on the board; the
    # two-node graph on the drives runs in the fault campaign below.
    proc = _run(['demo', '--hardware', 'cia402', '--short', '--rate', RATE,
                 '--controller', 'computed_torque', '--out', str(tmp_path)], timeout=300)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    with open(tmp_path / 'summary.json') as fh:
        summary = json.load(fh)
    assert summary['hardware'] == 'cia402' and summary['mode'] == 'one-process'
    law = summary['laws']['computed_torque']
    err = law['tracking_error_rad']
    assert max(err['max_abs']) < math.radians(MAX_ERROR_DEG), err
    assert max(err['rms']) < math.radians(RMS_ERROR_DEG), err
    hardware = law['hardware']
    assert hardware['drive_states']
    assert int(hardware['sync_cycles']) > 500 and hardware['latency_p50_us']
    assert 'SYNC-to-RPDO latency p50 / p99 [us]' in proc.stdout
    assert 'simulated CiA 402 drives' in proc.stdout


def test_fault_campaign_passes_on_simulated_drives(tmp_path):
    """Every case, the drive cases among them: within the limits, no re-enable."""
    proc = _run(['faults', '--hardware', 'cia402', '--short', '--rate', RATE,
                 '--out', str(tmp_path)], timeout=600)
    report = json.loads((tmp_path / 'faults.json').read_text())
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert [c['name'] for c in report['cases']] == list(CASES)
    cases = {c['name']: c for c in report['cases']}
    for case in report['cases']:
        assert case['passed'], case
        if case['drift_limited']:        # a failure in a motion: its drift is reported
            assert max(case['drift_deg']) < DRIFT_LIMIT_DEG, case
    assert cases['emcy_one_drive']['reaction'].startswith('running -> fault')
    assert cases['emcy_one_drive']['time_to_safe'] < 0.5
    assert 'configure refused' in cases['drive_refuses_mode']['reaction']
    assert '0x6060' in cases['drive_refuses_mode']['reaction']
    assert cases['link_lost_in_motion']['velocity_ratio'] <= 1.2
    assert 'counted by the host' in cases['can_damaged_frames']['reaction']


def test_board_only_cases_are_refused_on_drives(tmp_path):
    """A board case asked of the drives: a clear error, exit 2, no namespace left."""
    proc = _run(['faults', '--hardware', 'cia402', '--short', '--out', str(tmp_path),
                 '--cases', 'second_board_same_port'], timeout=120)
    assert proc.returncode == 2, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert 'not a case on cia402' in proc.stderr and 'Traceback' not in proc.stderr
