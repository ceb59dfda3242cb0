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

"""The drive-style state machine: allowed transitions, causes, history."""

import pytest
from robodyn_ros.hardware.fault_reaction import DriveState as S
from robodyn_ros.hardware.fault_reaction import FaultReaction, TRANSITIONS


def test_a_normal_life_with_causes_and_listener():
    """Configure, arm, run, hold, stop, reset, fault, reset: each step kept with its cause."""
    seen = []
    r = FaultReaction(seen.append)
    path = [(S.DISABLED, 'configured'), (S.ARMED, 'activated'), (S.RUNNING, 'stream'),
            (S.HOLDING, 'stale'), (S.STOPPED, 'hold over'), (S.ARMED, 'reset'),
            (S.RUNNING, 'stream'), (S.FAULT, 'link lost'), (S.ARMED, 'reset')]
    for k, (target, cause) in enumerate(path):
        step = r.go(target, cause, now=float(k))
        assert step.target == target and r.cause == cause and r.since == float(k)
    assert [str(t) for t in seen][3] == 'running -> holding: stale'
    assert r.go(S.ARMED, 'again') is None and len(r.history) == len(path)
    assert r.elapsed(10.0) == pytest.approx(2.0)


def test_no_shortcut_back_to_the_outputs():
    """A fault or a stop never leads straight to running; only armed or (auto) holding."""
    for source in (S.FAULT, S.STOPPED, S.DISABLED, S.UNCONFIGURED):
        assert (source, S.RUNNING) not in TRANSITIONS
    r = FaultReaction()
    for target in (S.DISABLED, S.ARMED, S.RUNNING, S.FAULT):
        r.go(target, 'x')
    with pytest.raises(ValueError, match='no transition fault -> running'):
        r.go(S.RUNNING, 'commands are back')
    assert S.RUNNING.outputs_on and S.HOLDING.outputs_on
    assert not any(s.outputs_on for s in (S.ARMED, S.STOPPED, S.FAULT, S.DISABLED))
