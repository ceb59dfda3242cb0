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

"""Tests of robodyn_ros.demo.session that need no ROS graph (the whole demo: test_demo.py)."""

import warnings

import pytest

from robodyn_ros.demo import session
from robodyn_ros.demo.config import DemoConfig
from robodyn_ros.errors import UnknownRobotError


class _Stop(Exception):
    """Raised instead of starting the processes."""


@pytest.mark.parametrize('domain_id, expected', [(57, '57'), (-1, None)])
def test_first_line_names_the_ros_domain(tmp_path, monkeypatch, domain_id, expected):
    """The first line gives ROS_DOMAIN_ID (the model's warnings, if any, come after it)."""
    monkeypatch.delenv('ROS_DOMAIN_ID', raising=False)
    lines = []
    monkeypatch.setattr(session.DemoSession, 'start', lambda self: (_ for _ in ()).throw(_Stop))
    monkeypatch.setattr(warnings, 'showwarning',
                        lambda message, *rest, **kw: lines.append(f'warning: {message}'))
    cfg = DemoConfig(robot='puma560', out=str(tmp_path / 'out'), domain_id=domain_id)
    with pytest.raises(_Stop):
        session.run_demo(cfg, progress=lines.append)
    assert lines[0].startswith('ROS_DOMAIN_ID=') and str(tmp_path / 'out') in lines[0]
    domain = lines[0].split('=', 1)[1].split(',', 1)[0]
    assert domain == expected if expected else 10 <= int(domain) < 100


def test_unknown_robot_stops_before_any_output(tmp_path):
    """An unknown robot is refused before the output folder exists."""
    cfg = DemoConfig(robot='no_such_robot', out=str(tmp_path / 'out'))
    with pytest.raises(UnknownRobotError):
        session.run_demo(cfg, progress=lambda line: None)
    assert not (tmp_path / 'out').exists()
