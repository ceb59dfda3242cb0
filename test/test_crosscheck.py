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

"""The Pinocchio cross-check on every library robot, UR5 and Panda, and ``robodyn check``."""

import json
import os
import shutil
import subprocess
import sys

import pytest
from robodyn_ros.dynamics.crosscheck import cross_check, QUANTITIES
from robodyn_ros.model import library, load_robot

ROBOTS = library.names() + ['ur5', 'panda']


@pytest.mark.parametrize('name', ROBOTS)
def test_cross_check_1000_states(name):
    """rnea, crba, aba, gravity, nle and Coriolis agree to 1e-10 relative on 1,000 states."""
    worst = cross_check(load_robot(name), count=1000, seed=7)
    assert set(worst) == set(QUANTITIES)
    for key, err in worst.items():
        assert err <= 1e-10, (name, key, err)


def _robodyn(*args):
    exe = shutil.which('robodyn', path=os.path.dirname(sys.executable)) or 'robodyn'
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=300)


def test_check_command_json():
    """``robodyn check ur5 --json`` reports every quantity and passes."""
    res = _robodyn('check', 'ur5', '--states', '100', '--json')
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out['pass'] is True and set(out['max_relative_error']) == set(QUANTITIES)


def test_check_command_table_and_bad_name():
    """The table names each quantity; an unknown robot is a one-line error."""
    res = _robodyn('check', 'panda', '--states', '50')
    assert res.returncode == 0 and 'coriolis' in res.stdout and 'Result: pass' in res.stdout
    bad = _robodyn('check', 'nonexistent_robot')
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
