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

"""The ``robodyn model`` command, run as a real process."""

import json
import os
import shutil
import subprocess
import sys

from model_compare import model_differences
import pytest

from robodyn_ros.model import RobotModel


def robodyn(*args):
    exe = shutil.which('robodyn', path=os.path.dirname(sys.executable)) or shutil.which('robodyn')
    assert exe, 'the robodyn console script is not installed'
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=120)


def test_model_table_for_a_urdf(ur5_urdf):
    """The UR5 URDF prints placements, limits, inertials, actuators, friction, validation."""
    res = robodyn('model', ur5_urdf)
    assert res.returncode == 0, res.stderr
    for text in ("Robot 'ur5': 6 joints (RRRRRR)", 'Joint placements', 'shoulder_pan_joint',
                 'Inertials', 'upper_arm_link', '8.393', 'Actuators', 'Friction',
                 'Validation: ok'):
        assert text in res.stdout, text


def test_model_json_and_urdf_export(data_dir, tmp_path):
    """--json prints the summary; --urdf/--params-out write files that load back."""
    src = os.path.join(data_dir, 'two_link.urdf')
    params = os.path.join(data_dir, 'good_params.yaml')
    out_urdf, out_yaml = tmp_path / 'out.urdf', tmp_path / 'out.yaml'
    res = robodyn('model', src, '--params', params, '--json', '--urdf', str(out_urdf),
                  '--params-out', str(out_yaml))
    assert res.returncode == 0, res.stderr
    summary = json.loads(res.stdout)
    assert summary['dof'] == 2 and summary['validation'] == 'ok'
    assert summary['joints'][0]['friction']['coulomb_neg'] == 1.3
    assert summary['joints'][1]['limits']['acceleration'] == 'inf'
    original = RobotModel.from_urdf(src, params=params)
    again = RobotModel.from_urdf(str(out_urdf), params=str(out_yaml))
    assert model_differences(original, again) == []


@pytest.mark.parametrize('name, strict', [('truncated.urdf', False), ('triangle.urdf', True),
                                          ('floating_joint.urdf', False)])
def test_bad_input_is_one_line_and_nonzero(data_dir, name, strict):
    """A corrupted or invalid URDF gives a one-line error and a non-zero exit code."""
    path = os.path.join(data_dir, 'bad', name)
    res = robodyn('model', path, *(['--strict'] if strict else []))
    assert res.returncode != 0
    assert res.stdout == ''
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith('robodyn model: error: ')
    assert path in lines[0]


def test_inconsistent_inertia_loads_with_a_warning_first(data_dir):
    """Without --strict, the broken rule is one warning line on stderr; the tables follow."""
    path = os.path.join(data_dir, 'bad', 'triangle.urdf')
    res = robodyn('model', path)
    assert res.returncode == 0
    (line,) = res.stderr.strip().splitlines()
    assert line.startswith('robodyn model: warning: ') and "link 'lower'" in line
    assert 'triangle' in line and 'Validation: ok with 1 warning' in res.stdout


def test_misspelled_inertia_is_an_error(tmp_path, data_dir):
    """A misspelled <inertia> no longer gives a massless link and "Validation: ok"."""
    with open(os.path.join(data_dir, 'two_link.urdf')) as fh:
        text = fh.read()
    path = tmp_path / 'typo.urdf'
    path.write_text(text.replace('<inertia ', '<inertai ', 1))
    res = robodyn('model', str(path))
    assert res.returncode == 2 and res.stdout == ''
    assert '<inertai>' in res.stderr and "link 'upper'" in res.stderr


def test_unknown_robot_name():
    """An unknown name lists the library robots."""
    res = robodyn('model', 'no_such_robot')
    assert res.returncode == 2
    assert 'puma560' in res.stderr and len(res.stderr.strip().splitlines()) == 1


def test_model_puma560_main_job():
    """``robodyn model puma560`` (the main job so far) prints DH rows and friction data."""
    res = robodyn('model', 'puma560')
    assert res.returncode == 0, res.stderr
    for text in ('DH table (modified', "Robot 'puma560': 6 joints (RRRRRR)", 'joint1',
                 '0.4318', 'bearing journal mu=0.1', 'transmission tauB=6.3', 'Validation: ok'):
        assert text in res.stdout, text
