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
``robodyn identify friction`` on a simulated board recovers the board's true friction.

The board (a real process, lockstep) carries friction the host model does
not have: asymmetric Coulomb, viscous and Stribeck on the vertical waist
joint, symmetric on the gravity-loaded shoulder. The CLI sweeps both joints
and writes a YAML; every identified parameter must be within 10 % of the
truth, the asymmetry must be found where it exists and not elsewhere, and
the file must load as the node's ``friction_params``.
"""

import subprocess
import sys

from board_helpers import ACTUATORS, sim_board, TRUTH
import pytest
from robodyn_ros.friction.compensation import with_friction
from robodyn_ros.friction.sweep import _profile, SweepSettings
from robodyn_ros.model import load_robot
import yaml


def test_identification_recovers_the_true_friction(tmp_path):
    """Coulomb, static, viscous (both directions) and Stribeck velocity within 10 %."""
    out = tmp_path / 'friction.yaml'
    # 250 Hz: a quarter of the cycles for the same board time (the loop is slow, not fast)
    with sim_board('--q0', '0', '-1.2', '0', '--lockstep', '--rate', '250',
                   params=TRUTH) as board:
        res = subprocess.run(
            [sys.executable, '-m', 'robodyn_ros.cli.main', 'identify', 'friction', 'ma3000',
             '--params', ACTUATORS, '--device', board.info['link'], '--joints', 'joint1',
             'joint2', '--velocities', '0.01', '0.02', '0.05', '0.12', '0.3', '--settle',
             '0.15', '--measure', '0.25', '-o', str(out)],
            capture_output=True, text=True, timeout=300)
        assert res.returncode == 0, res.stderr
        assert not board.status()['enabled']  # outputs off after the sweep
    doc = yaml.safe_load(out.read_text())
    truth = load_robot('ma3000', params=TRUTH)
    for name in ('joint1', 'joint2'):
        got = doc['joints'][name]['friction']
        f = truth.joint(name).friction
        for key, want in (('coulomb', (f.coulomb_pos, f.coulomb_neg)),
                          ('static', (f.static_pos, f.static_neg)),
                          ('viscous', (f.viscous_pos, f.viscous_neg))):
            assert got[key] == pytest.approx(list(want), rel=0.10), (name, key, got[key])
        assert got['stribeck_velocity'] == pytest.approx(f.stribeck_velocity, rel=0.10)
        report = doc['identification']['joints'][name]
        assert report['relative_residual'] < 0.05 and report['samples'] == 10
    assert doc['identification']['joints']['joint1']['asymmetric']
    assert not doc['identification']['joints']['joint2']['asymmetric']
    host = with_friction(load_robot('ma3000', params=ACTUATORS), out)
    assert host.joint('joint1').friction.coulomb_neg == doc['joints']['joint1']['friction'][
        'coulomb'][1]
    assert 'joint1: coulomb' in res.stdout and 'asymmetric' in res.stdout


def test_cli_refuses_bad_requests(tmp_path):
    """Unknown joints and an absent board fail with one line and exit code 2."""
    base = [sys.executable, '-m', 'robodyn_ros.cli.main', 'identify', 'friction', 'ma3000',
            '--params', ACTUATORS]
    res = subprocess.run(base + ['--joints', 'elbow', '--device', '/dev/null'],
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 2 and 'unknown joint' in res.stderr
    res = subprocess.run(base + ['--device', str(tmp_path / 'none')], capture_output=True,
                         text=True, timeout=60)
    assert res.returncode == 2 and 'cannot open serial device' in res.stderr
    res = subprocess.run(base + ['--transport', 'udp', '--port', '9', '--velocities', '-1'],
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 2 and 'velocities' in res.stderr


def test_trapezoid_profile():
    """The sweep profile reaches the distance at the set speed, or a triangle if short."""
    p, v, total = _profile(10.0, 1.0, -0.5, 0.25, 0.1)
    assert p == pytest.approx(0.5) and v == 0.0 and total == pytest.approx(2.1)
    assert _profile(1.0, 1.0, -0.5, 0.25, 0.1)[1] == pytest.approx(-0.25)
    p, v, total = _profile(0.0, 0.0, 0.001, 0.25, 0.1)
    assert total == pytest.approx(2 * (0.001 / 2.5) ** 0.5)
    with pytest.raises(Exception, match='positive'):
        SweepSettings(settle=0.0).check(load_robot('ma3000'))
