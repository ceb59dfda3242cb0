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

"""Health from named problems: levels, messages, transient problems, listeners."""

import time

from robodyn_ros.hardware.supervision import Problems


def test_worst_level_wins_and_listener_hears_changes():
    """The health shows the worst level with its messages; listeners hear each change."""
    heard = []
    p = Problems(heard.append)
    assert p.health().level == 'ok'
    p.report('command', 'warn', 'waiting')
    p.report('fault', 'error', 'board fault: watchdog')
    p.report('link', 'error', 'link lost')
    h = p.health({'rate': 1000})
    assert h.level == 'error' and h.message == 'board fault: watchdog; link lost'
    assert h.values == {'rate': 1000}
    p.report('link', 'error', 'link lost')  # same health: no new notification
    p.clear('fault')
    p.clear('link')
    assert p.health().message == 'waiting'
    p.clear()
    assert p.health().level == 'ok'
    assert [x.level for x in heard] == ['warn', 'error', 'error', 'error', 'warn', 'ok']


def test_transient_problems_expire_and_bad_listeners_are_ignored():
    """A problem set with a hold expires by itself; clear() does not cut it short."""
    def broken(health):
        raise RuntimeError('publisher gone')

    p = Problems(broken)
    p.report('limit', 'warn', 'torque cut at joint limit', hold=0.05)
    p.clear('limit')
    assert p.health().level == 'warn'
    time.sleep(0.08)
    assert p.health().level == 'ok'
