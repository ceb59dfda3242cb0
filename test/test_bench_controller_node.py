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

"""``robodyn bench controller``: the controller node fed at its rate, its timing read back."""

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_a_short_run_reports_the_node_timing():
    """Two seconds at 200 Hz: the node ran its cycles and the feeder's share is there."""
    env = dict(os.environ, ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST')
    proc = subprocess.run([sys.executable, '-m', 'robodyn_ros.cli.main', 'bench',
                           'controller', '--law', 'computed_torque', '--robot', 'ma3000',
                           '--rate', '200', '--seconds', '2', '--json'],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    res = json.loads(proc.stdout)
    assert res['law'] == 'computed_torque' and res['rate_hz'] == 200.0
    assert res['cycles'] >= 100
    assert 0.0 < res['period_p50_ms'] <= res['period_p99_ms'] <= res['period_max_ms']
    assert res['law_p50_us'] > 0.0 and res['feeder_cpu_percent'] >= 0.0
