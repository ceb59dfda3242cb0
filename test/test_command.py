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

"""Command channel, joint-limit rule and the torque-to-current pipeline."""

import math

import numpy as np
import pytest
from robodyn_ros.hardware.board.messages import Identify
from robodyn_ros.hardware.command import CommandChannel
from robodyn_ros.hardware.current_command import CurrentCommand, limit_torque
from robodyn_ros.hardware.scaling import axis_parameters, joint_scaling
from robodyn_ros.model import load_robot


def test_rejected_commands_never_replace_the_last_valid_one():
    """NaN, wrong length and over-limit efforts are counted and dropped; staleness runs on."""
    chan = CommandChannel(3, effort_limits=[5.0, 5.0, 5.0])
    assert chan.get(0.0, 0.1)[:2] == (None, 'none')
    assert chan.put([1.0, 2.0, 3.0], 10.0)
    for bad, why in (([1.0, math.nan, 3.0], 'not finite for joint index 1'),
                     ([1.0, 2.0], 'has 2 efforts for 3 joints'),
                     ([1.0, -5.5, 3.0], 'effort -5.5 exceeds the effort limit 5 of joint '
                                        'index 1'),
                     (['x', 1.0, 2.0], 'not numbers')):
        assert not chan.put(bad, 10.05)
        assert why in chan.last_problem
        torque, state, _ = chan.get(10.05, 0.1)
        assert state == 'fresh' and torque.tolist() == [1.0, 2.0, 3.0]
    assert chan.get(10.11, 0.1)[:2] == (None, 'stale')   # from the last valid one
    chan.reject('unreadable', 10.2)
    assert chan.received == 1 and chan.rejected == 5


def test_one_claim_at_a_time():
    """A stream of three takes a free claim; others are refused until it is released."""
    chan = CommandChannel(2, stream_length=3)
    for k in range(2):
        chan.put([0.1, 0.1], 1.0 + 0.01 * k, source='a', timeout=0.05)
    assert chan.ready_source(1.02, 0.05) is None             # two are not a stream
    chan.put([0.5, 0.5], 1.5, source='b', timeout=0.05)      # another source restarts it
    for k in range(3):
        chan.put([0.2, 0.2], 2.0 + 0.01 * k, source='a', timeout=0.05)
    assert chan.ready_source(2.03, 0.05) == ('a',)
    assert chan.ready_source(2.2, 0.05) is None              # the stream went quiet
    chan.claim('a')
    assert not chan.put([9.0, 9.0], 2.04, source='b') and chan.foreign == 1
    assert chan.get(2.04, 0.05)[0].tolist() == [0.2, 0.2]
    assert not chan.release('b', 2.05) and chan.claimed
    assert chan.release('a', 2.05) and not chan.claimed
    torque, state, reason = chan.get(2.05, 0.05)
    assert torque is None and state == 'none' and 'released' in reason
    chan.put([0.3, 0.3], 2.06, source=None, timeout=0.05)   # the anonymous local source
    chan.put([0.3, 0.3], 2.07, source=None, timeout=0.05)
    chan.put([0.3, 0.3], 2.08, source=None, timeout=0.05)
    assert chan.ready_source(2.08, 0.05) == (None,)
    chan.claim(None)
    assert chan.claimed and chan.owner is None
    assert not chan.put([0.3, 0.3], 2.09, source='a')


def test_a_refused_source_never_takes_the_freed_claim():
    """A publisher refused during a claim is barred; the holder and a newcomer are not."""
    chan = CommandChannel(2, stream_length=3)

    def stream(source, t0):
        ok = [chan.put([0.0, 0.0], t0 + 0.002 * k, source=source, timeout=0.02)
              for k in range(5)]
        return ok, chan.ready_source(t0 + 0.008, 0.02)

    assert stream('ctl', 1.0)[1] == ('ctl',)
    chan.claim('ctl')
    assert stream('rogue', 1.1) == ([False] * 5, None)      # refused while claimed
    assert chan.barred == {'rogue'} and chan.foreign == 5
    assert chan.release('ctl', 1.2) and not chan.claimed     # the holder pauses
    assert stream('rogue', 1.3) == ([False] * 5, None)      # the waiting rogue stays out
    assert chan.foreign == 10
    chan.clear()                                             # a hold ran out, a reset
    assert stream('rogue', 1.4)[1] is None
    assert stream('ctl', 1.5)[1] == ('ctl',)                 # the holder comes back
    chan.claim('ctl')
    assert not chan.release('stray', 1.6)                    # a stray release: counted only
    assert chan.barred == {'rogue'} and chan.foreign == 16
    assert chan.release('ctl', 1.65)
    assert stream('stray', 1.7)[1] == ('stray',)             # a switch to a new controller
    chan.unbar()                                             # the next activation
    assert stream('rogue', 1.8)[1] == ('rogue',)


def test_two_live_streams_take_no_free_claim():
    """With the claim free, two publishers at once: neither takes it until one stops."""
    chan = CommandChannel(2, stream_length=3)
    for k in range(30):                      # a fast and a slow stream, interleaved
        chan.put([0.0, 0.0], 1.0 + 0.001 * k, source='fast', timeout=0.02)
        if k % 4 == 0:
            chan.put([0.0, 0.0], 1.0 + 0.001 * k, source='slow', timeout=0.02)
        assert chan.ready_source(1.0 + 0.001 * k, 0.02) is None
    assert chan.contested > 0
    for k in range(30, 60):                  # the slow one stopped at 1.028 s
        chan.put([0.0, 0.0], 1.0 + 0.001 * k, source='fast', timeout=0.02)
    assert chan.ready_source(1.059, 0.02) == ('fast',)
    chan.claim('fast')
    assert chan.release('fast', 1.060)          # a law switch right after the claim:
    contested = chan.contested                  # the old holder is no rival of the new
    for k in range(3):
        chan.put([0.0, 0.0], 1.061 + 0.001 * k, source='next', timeout=0.02)
    assert chan.ready_source(1.063, 0.02) == ('next',) and chan.contested == contested


def test_the_bars_are_bounded():
    """A flood of publishers cannot grow the bar list without end."""
    chan = CommandChannel(1)
    chan.claim('ctl')
    for k in range(CommandChannel.MAX_BARRED + 50):
        chan.put([0.0], 1.0, source=k)
    assert len(chan.barred) == CommandChannel.MAX_BARRED
    assert chan.foreign == CommandChannel.MAX_BARRED + 50


def test_limit_rule_ramps_torque_into_the_limit_only():
    """Within the margin the torque towards the limit ramps to zero; away is untouched."""
    lower, upper = np.array([-1.0, -1.0]), np.array([1.0, 1.0])
    q = np.array([0.95, -0.99])
    tau, mask = limit_torque(q, np.array([10.0, -10.0]), lower, upper, 0.1)
    assert tau == pytest.approx([5.0, -1.0])
    assert mask.tolist() == [True, True]
    tau, mask = limit_torque(q, np.array([-10.0, 10.0]), lower, upper, 0.1)
    assert tau.tolist() == [-10.0, 10.0] and not mask.any()
    tau, _ = limit_torque(np.array([1.2, -3.0]), np.array([4.0, -4.0]), lower, upper, 0.1)
    assert tau.tolist() == [0.0, 0.0]
    tau, _ = limit_torque(np.array([0.999, 0.0]), np.array([4.0, 4.0]), lower, upper, 0.0)
    assert tau.tolist() == [4.0, 4.0]
    inf = np.array([math.inf, math.inf])
    tau, mask = limit_torque(np.array([1e6, -1e6]), np.array([3.0, -3.0]), -inf, inf, 0.1)
    assert tau.tolist() == [3.0, -3.0] and not mask.any()


def test_pipeline_adds_friction_and_clamps_effort_then_current():
    """Command plus friction, then the limit rule, the effort clamp and the current clamp."""
    puma = load_robot('puma560')
    sc = joint_scaling(axis_parameters(puma), Identify(1, (1, 0, 0), 0.001, (1000,) * 6,
                                                       (10.0,) * 6))
    limit = np.array([1.0, 8.0, 8.0, 8.0, 8.0, 8.0])
    pipe = CurrentCommand(puma, sc, limit)
    q = np.zeros(6)
    cmd = np.array([1.0, 2.0, -3.0, 500.0, 0.0, 0.0])
    fric = np.array([0.5, 0.0, 0.0, 0.0, 0.0, 0.0])
    res = pipe(q, cmd, fric, 0.05)
    effort = puma.joints[3].limits.effort
    assert res.torque[3] == effort and res.effort_limited[3]
    expect = np.minimum(np.abs(res.torque / sc.axes.torque_per_amp), limit)
    assert np.allclose(np.abs(res.currents), expect)
    signs = np.sign((cmd + fric)[:3] / sc.axes.gear_ratio[:3])
    assert np.allclose(np.sign(res.currents[:3]), signs)
    assert res.current_limited[0] == (abs(1.5 / sc.axes.torque_per_amp[0]) > 1.0)
    assert np.allclose(res.friction, fric)
    zero = pipe(q, None, fric, 0.05)
    assert np.all(zero.currents == 0.0) and np.all(zero.friction == 0.0)
    at = pipe(np.array([puma.upper_limits[0], 0, 0, 0, 0, 0]), np.full(6, 1.0), None, 0.05)
    assert at.at_limit[0] and at.currents[0] == 0.0
