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

"""PeriodicLoop: absolute deadlines, skipped periods, stop and errors."""

import gc
import threading
import time

import pytest
from robodyn_ros.realtime import LoopTiming, PeriodicLoop


class _Clocked(PeriodicLoop):
    """A loop on a simulated clock: sleeping advances it, steps take what they are told."""

    def __init__(self, period, durations, **kwargs):
        self.now = 100.0
        self.starts = []
        self._durations = list(durations)
        super().__init__(period, self._step, freeze_gc=False, **kwargs)
        self.clock = lambda: self.now

    def _sleep(self, delay):
        self.now += delay
        return False

    def _step(self):
        self.starts.append(self.now)
        if not self._durations:
            self.stop()
            return None
        self.now += self._durations.pop(0)
        return 1e-4


def test_deadlines_keep_their_phase_and_overruns_skip_periods():
    """Starts sit on the period grid; a 3.5-period step skips 3 periods, later ones resume."""
    loop = _Clocked(0.01, [0.001, 0.001, 0.035, 0.001, 0.0095, 0.001])
    loop._running = True
    loop._run()
    offsets = [round((t - 100.0) / 0.01, 9) for t in loop.starts]
    assert offsets == [1.0, 2.0, 3.0, 7.0, 8.0, 9.0, 10.0]
    assert loop.skipped == 3 and loop.cycles == 7


def test_timing_receives_each_cycle():
    """Period and law time of every cycle reach the LoopTiming."""
    timing = LoopTiming(0.01)
    loop = _Clocked(0.01, [0.002] * 5, timing=timing)
    loop._running = True
    loop._run()
    stats = timing.stats()
    assert stats['cycles'] == 6 and stats['period_p50_ms'] == pytest.approx(10.0)
    assert stats['law_p50_us'] == pytest.approx(100.0) and stats['missed_deadlines'] == 0


def test_real_thread_runs_stops_and_reports_errors():
    """The thread runs the step, stop() joins it, an exception stops the loop and is reported."""
    ran = threading.Event()
    loop = PeriodicLoop(0.001, lambda: ran.set(), name='probe', freeze_gc=False)
    loop.start()
    assert ran.wait(5.0) and loop.running
    with pytest.raises(RuntimeError, match='already running'):
        loop.start()
    assert loop.stop() and not loop.running
    errors = []

    def fail():
        raise ValueError('boom')

    bad = PeriodicLoop(0.001, fail, on_error=errors.append, freeze_gc=False)
    bad.start()
    bad._thread.join(5.0)
    assert [str(e) for e in errors] == ['boom'] and not bad.running


def test_start_freezes_the_garbage_collector_and_stop_gives_it_back():
    """Objects alive at start leave the collector's full passes until the loop stops."""
    gc.unfreeze()
    loop = PeriodicLoop(0.01, lambda: None)
    loop.start()
    try:
        assert gc.get_freeze_count() > 0
    finally:
        loop.stop()
    assert gc.get_freeze_count() == 0
    loop.stop()                                   # a second stop releases nothing more
    other = PeriodicLoop(0.01, lambda: None)
    other.start()
    loop.start()
    other.stop()
    assert gc.get_freeze_count() > 0              # the restarted loop still holds it
    loop.stop()
    assert gc.get_freeze_count() == 0


def test_period_must_be_positive():
    """A zero, negative or NaN period is refused."""
    for bad in (0.0, -1.0, float('nan')):
        with pytest.raises(ValueError, match='period'):
            PeriodicLoop(bad, lambda: None)


def test_thread_setup_runs_once_in_the_loop_thread_before_the_first_step():
    """The set-up hook (e.g. a real-time priority) runs in the loop's own thread, first."""
    seen = []
    loop = PeriodicLoop(0.002, lambda: seen.append(('step', threading.get_ident())),
                        thread_setup=lambda: seen.append(('setup', threading.get_ident())))
    loop.start()
    try:
        deadline = time.monotonic() + 5.0
        while len(seen) < 4 and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        loop.stop()
    assert len(seen) >= 4 and seen[0][0] == 'setup' and [k for k, _ in seen].count('setup') == 1
    assert {t for _, t in seen} == {seen[0][1]} != {threading.get_ident()}
