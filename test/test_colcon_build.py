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

"""The package builds with colcon in a throwaway ROS 2 workspace."""

import glob
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.slow
def test_colcon_build_installs_scripts_and_data(tmp_path):
    """A colcon build puts console scripts in lib/robodyn_ros and data in share/robodyn_ros."""
    src = tmp_path / 'ws' / 'src' / 'robodyn_ros'
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(
        '.venv', '.git', 'build', 'install', 'log', '__pycache__', '*.egg-info',
        '.pytest_cache', '.hypothesis'))
    colcon = os.path.join(os.path.dirname(sys.executable), 'colcon')
    assert os.path.exists(colcon), 'colcon is not installed in the environment'
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ['PATH'])
    res = subprocess.run([colcon, 'build', '--base-paths', 'src', '--packages-select',
                          'robodyn_ros'], cwd=tmp_path / 'ws', capture_output=True, text=True,
                         timeout=600, env=env)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    prefix = tmp_path / 'ws' / 'install' / 'robodyn_ros'
    # The README's "source install/setup.bash" works and puts the package on the index.
    setup = tmp_path / 'ws' / 'install' / 'setup.bash'
    assert setup.is_file()
    sourced = subprocess.run(['bash', '-c', f'source {setup} && echo "$AMENT_PREFIX_PATH"'],
                             capture_output=True, text=True, timeout=60,
                             env={'PATH': os.environ['PATH'], 'HOME': str(tmp_path)})
    assert sourced.returncode == 0, sourced.stderr
    assert str(prefix) in sourced.stdout.strip().split(os.pathsep)

    scripts = _console_scripts()
    assert 'robodyn' in scripts
    for name in scripts:
        assert (prefix / 'lib' / 'robodyn_ros' / name).is_file(), f'{name} not installed'
    share = prefix / 'share' / 'robodyn_ros'
    assert (share / 'package.xml').is_file()
    assert (prefix / 'share' / 'ament_index' / 'resource_index' / 'packages' /
            'robodyn_ros').is_file()
    for folder, patterns in (('launch', ['*.launch.py']), ('urdf', ['*.urdf', '*.xacro']),
                             ('urdf/common', ['*.xacro']), ('config', ['*.yaml']),
                             ('rviz', ['*.rviz'])):
        shipped = [os.path.basename(p) for pat in patterns
                   for p in glob.glob(os.path.join(ROOT, folder, pat))]
        for name in shipped:
            assert (share / folder / name).is_file(), f'{folder}/{name} not installed'
    assert glob.glob(os.path.join(ROOT, 'config', '*.yaml')), 'no config files shipped'
    eds = glob.glob(str(prefix / 'lib' / 'python*' / 'site-packages' / 'robodyn_ros' /
                        'hardware' / 'cia402' / 'robodyn_cia402.eds'))
    assert eds, 'the CiA 402 EDS is not installed with the package'


def _console_scripts():
    """Names of the console scripts declared in setup.py."""
    import ast
    with open(os.path.join(ROOT, 'setup.py')) as fh:
        tree = ast.parse(fh.read())
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values):
                if isinstance(key, ast.Constant) and key.value == 'console_scripts':
                    return [ast.literal_eval(e).split('=')[0].strip() for e in value.elts]
    raise AssertionError('setup.py declares no console_scripts')
