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


"""Package names imported on first use: nothing heavy before, the same object after."""

import subprocess
import sys


def test_a_package_imports_a_name_on_first_use_only():
    """robodyn_ros.sim and .control: no runner, law or numba until a name is used."""
    code = ('import sys\n'
            'import robodyn_ros.sim as sim, robodyn_ros.control as control\n'
            'before = [m for m in ("robodyn_ros.sim.runner", "robodyn_ros.control.mbvsst",\n'
            '                      "numba") if m in sys.modules]\n'
            'from robodyn_ros.sim import simulate\n'
            'from robodyn_ros.sim.runner import simulate as direct\n'
            'law = control.MBVSST\n'
            'from robodyn_ros.control.mbvsst import MBVSST\n'
            'try:\n'
            '    control.no_such_name\n'
            '    missing = "no error"\n'
            'except AttributeError as exc:\n'
            '    missing = str(exc)\n'
            'print(before, simulate is direct, law is MBVSST, "MBVSST" in vars(control),\n'
            '      missing)\n')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         timeout=120, check=True).stdout.strip()
    assert out == ("[] True True True module 'robodyn_ros.control' has no attribute "
                   "'no_such_name'")
