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

import pytest

from robodyn_ros.demo.config import DemoConfig
from robodyn_ros.demo.session import run_demo
from robodyn_ros.errors import UnknownRobotError


@pytest.mark.parametrize('domain_id, expected', [(57, '57'), (-1, None)])
def test_first_line_names_the_ros_domain(tmp_path, monkeypatch, domain_id, expected):
    """The demo's first line gives ROS_DOMAIN_ID (before the model loads and warns)."""
    monkeypatch.delenv('ROS_DOMAIN_ID', raising=False)
    lines = []
    cfg = DemoConfig(robot='no_such_robot', out=str(tmp_path / 'out'), domain_id=domain_id)
    with pytest.raises(UnknownRobotError):
        run_demo(cfg, progress=lines.append)
    assert len(lines) == 1 and lines[0].startswith('ROS_DOMAIN_ID=')
    domain = lines[0].split('=', 1)[1].split(',', 1)[0]
    assert domain == expected if expected else 10 <= int(domain) < 100
    assert str(tmp_path / 'out') in lines[0]
