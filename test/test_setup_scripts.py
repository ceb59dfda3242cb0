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

"""The two README commands, CI and the set-up script stay consistent."""

import os
import re
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _readme():
    with open(os.path.join(ROOT, 'README.md'), encoding='utf-8') as fh:
        return fh.read()


def test_readme_gives_the_two_commands():
    """README names the demo command and the test command."""
    text = _readme()
    assert './scripts/demo.sh' in text
    assert './scripts/test.sh' in text


def test_ci_runs_the_readme_test_command():
    """.ci/run executes the README's test command."""
    with open(os.path.join(ROOT, '.ci', 'run')) as fh:
        ci = fh.read()
    assert re.search(r'^exec \./scripts/test\.sh', ci, re.M)
    assert os.access(os.path.join(ROOT, '.ci', 'run'), os.X_OK)


def test_scripts_keep_dds_on_loopback_and_use_the_venv():
    """Both scripts default to localhost discovery and use .venv/."""
    for name in ('demo.sh', 'test.sh'):
        with open(os.path.join(ROOT, 'scripts', name)) as fh:
            text = fh.read()
        assert 'ROS_AUTOMATIC_DISCOVERY_RANGE:-LOCALHOST' in text
        assert 'setup_env.sh' in text and '.venv/bin' in text


def test_setup_is_idempotent():
    """A second run of the set-up script reuses .venv/ and installs nothing."""
    res = subprocess.run([os.path.join(ROOT, 'scripts', 'setup_env.sh')], capture_output=True,
                         text=True, timeout=900)
    assert res.returncode == 0, res.stderr
    res = subprocess.run([os.path.join(ROOT, 'scripts', 'setup_env.sh')], capture_output=True,
                         text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert 'up to date' in res.stdout


def test_requirements_are_pinned():
    """Every requirement is pinned to one version."""
    with open(os.path.join(ROOT, 'requirements.txt')) as fh:
        reqs = [ln.strip() for ln in fh if ln.strip() and not ln.startswith('#')]
    assert reqs
    for req in reqs:
        assert re.fullmatch(r'[A-Za-z0-9_.\-]+==[0-9][A-Za-z0-9.]*', req), req
    names = {r.split('==')[0].lower() for r in reqs}
    for needed in ('ros-rclpy', 'ros-rmw-fastrtps-cpp', 'pin', 'numpy', 'urdf-parser-py',
                   'pyyaml', 'xacro', 'pytest'):
        assert needed in names, needed


def test_test_runs_use_their_own_domain():
    """The test session has a ROS domain of its own and loopback discovery."""
    assert os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] in ('LOCALHOST', 'SUBNET', 'OFF',
                                                           'SYSTEM_DEFAULT')
    assert 101 <= int(os.environ['ROS_DOMAIN_ID']) <= 199 or os.environ.get(
        'ROBODYN_TEST_DOMAIN_ID')


def test_every_serial_module_exists():
    """The serial list names test modules that exist (a renamed one would run beside others)."""
    from conftest import SERIAL_MODULES
    missing = [m for m in sorted(SERIAL_MODULES)
               if not os.path.isfile(os.path.join(ROOT, 'test', m + '.py'))]
    assert not missing


def _test_script(*args):
    env = dict(os.environ, ROBODYN_TEST_WORKERS='0')
    return subprocess.run([os.path.join(ROOT, 'scripts', 'test.sh'), *args,
                           '-p', 'no:cacheprovider'], capture_output=True, text=True,
                          timeout=600, env=env, cwd=ROOT)


def test_the_test_script_runs_both_passes_and_fails_on_an_empty_selection():
    """Each test runs in one pass; one empty pass is fine, two are exit 5, an error fails."""
    from conftest import SERIAL_MODULES
    assert 'test_bench_loop' in SERIAL_MODULES and 'test_gantt' not in SERIAL_MODULES
    res = _test_script('test/test_gantt.py', 'test/test_bench_loop.py', '-q',
                       '-k', 'gantt or goal_is_long_enough')
    out = res.stdout
    assert res.returncode == 0, out[-2000:] + res.stderr[-2000:]
    first, second = out.split('pass 2 of 2')
    assert re.search(r'\b2 passed', first), first[-1000:]
    assert re.search(r'\b1 passed', second), second[-1000:]
    res = _test_script('test/test_gantt.py', '-q', '-k', 'no_test_has_this_name')
    assert res.returncode == 5 and 'no tests were collected' in res.stderr
    res = _test_script('test/test_no_such_module.py', '-q')    # a usage error in each pass
    assert res.returncode not in (0, 5), res.stdout[-1000:]
