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

"""Linting as ROS does it: ament_flake8, ament_pep257, license headers, package.xml."""

import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


_LINTERS = {
    'flake8': ('import sys\n'
               'from ament_flake8.main import main_with_errors\n'
               'rc, errors = main_with_errors(argv=[])\n'
               'sys.exit(rc)'),
    'pep257': ('import sys\n'
               'from ament_pep257.main import main\n'
               "sys.exit(main(argv=['.', 'test']))"),
}


@pytest.fixture(scope='module')
def linters():
    """Start both linters at once (each is single-threaded; they take two cores)."""
    procs = {name: subprocess.Popen([sys.executable, '-c', code], cwd=ROOT,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for name, code in _LINTERS.items()}
    yield procs
    for proc in procs.values():
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def _result(procs, name):
    out, err = procs[name].communicate(timeout=600)
    return procs[name].returncode, out, err


@pytest.mark.linter
def test_flake8(linters):
    """The whole package passes flake8 with ament's configuration."""
    rc, out, err = _result(linters, 'flake8')
    assert rc == 0, f'flake8 errors:\n{out}\n{err}'


@pytest.mark.linter
def test_pep257(linters):
    """The whole package passes pep257 with ament's convention."""
    rc, out, err = _result(linters, 'pep257')
    assert rc == 0, f'pep257 errors:\n{out}\n{err}'


def _source_files():
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = [d for d in dirnames
                       if not d.startswith('.') and d not in ('build', 'install', 'log')
                       and not d.endswith('.egg-info') and d != '__pycache__']
        for name in filenames:
            if name.endswith(('.py', '.sh')) or dirpath.endswith(os.path.join('.ci')):
                yield os.path.join(dirpath, name)
    yield os.path.join(ROOT, '.ci', 'run')


@pytest.mark.linter
def test_license_headers():
    """Every source file starts with an Apache-2.0 license header."""
    missing = []
    for path in sorted(set(_source_files())):
        with open(path, encoding='utf-8') as fh:
            head = fh.read(2000)
        if 'Copyright' not in head or ('Apache License, Version 2.0' not in head
                                       and 'SPDX-License-Identifier: Apache-2.0' not in head):
            missing.append(os.path.relpath(path, ROOT))
    assert not missing, f'files without a license header: {missing}'
    with open(os.path.join(ROOT, 'LICENSE'), encoding='utf-8') as fh:
        assert 'Apache License' in fh.read(200)


@pytest.mark.linter
def test_package_xml():
    """package.xml is well-formed format 3 and declares the ament_python build type."""
    tree = ElementTree.parse(os.path.join(ROOT, 'package.xml'))
    pkg = tree.getroot()
    assert pkg.tag == 'package' and pkg.get('format') == '3'
    assert pkg.findtext('name') == 'robodyn_ros'
    assert pkg.findtext('license') == 'Apache-2.0'
    assert pkg.find('export').findtext('build_type') == 'ament_python'
    exec_deps = {e.text for e in pkg.findall('exec_depend')}
    for dep in ('rclpy', 'sensor_msgs', 'trajectory_msgs', 'std_msgs', 'std_srvs',
                'diagnostic_msgs', 'pinocchio', 'python3-numpy', 'python3-yaml',
                'urdfdom_py', 'xacro',
                # the example robots (ur5, panda) are offered at run time, not only in tests
                'example-robot-data'):
        assert dep in exec_deps, f'package.xml lacks <exec_depend>{dep}</exec_depend>'
    test_deps = {e.text for e in pkg.findall('test_depend')}
    assert not test_deps & exec_deps, 'a test dependency repeats a run-time dependency'
    for dep in ('ament_flake8', 'ament_pep257', 'python3-pytest'):
        assert dep in test_deps
