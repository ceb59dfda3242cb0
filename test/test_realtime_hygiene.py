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

"""The real-time set-up of a loop thread: what it applies, and what it reports instead."""

import gc
import os
import sys
import threading
import weakref

import pytest

from robodyn_ros.realtime.hygiene import (freeze_garbage, GIL_SWITCH_INTERVAL,
                                          helper_priority, setup_helper_threads,
                                          setup_process, setup_thread,
                                          shorten_gil_switch, thaw_garbage)


def _restore(interval):
    sys.setswitchinterval(interval)
    thaw_garbage()


def test_the_freeze_is_held_until_its_last_holder_releases_it():
    """A destroyed node is collectable again once no loop of the process runs."""
    gc.unfreeze()

    class Cycle:
        pass

    first = Cycle()
    first.me = first                              # only a collection frees a cycle
    ref = weakref.ref(first)
    freeze_garbage()
    freeze_garbage()
    del first
    gc.collect()
    assert ref() is not None and gc.get_freeze_count() > 0   # frozen: never collected
    assert thaw_garbage() is False                # one holder left
    gc.collect()
    assert ref() is not None
    assert thaw_garbage() is True                 # the last: back to the collector
    gc.collect()
    assert ref() is None and gc.get_freeze_count() == 0
    assert thaw_garbage() is False                # nothing held: nothing to release
    assert gc.get_freeze_count() == 0


def test_the_gil_switch_interval_is_shortened_never_raised():
    before = sys.getswitchinterval()
    try:
        sys.setswitchinterval(0.005)
        assert shorten_gil_switch() == pytest.approx(GIL_SWITCH_INTERVAL, rel=1e-3)
        sys.setswitchinterval(0.0001)
        assert shorten_gil_switch() == pytest.approx(0.0001, rel=1e-3)
    finally:
        _restore(before)


def test_setup_process_freezes_the_collector_and_shortens_the_gil_switch():
    before = sys.getswitchinterval()
    garbage = [object() for _ in range(1000)]
    try:
        sys.setswitchinterval(0.005)
        report = setup_process()
        assert gc.get_freeze_count() >= len(garbage)
        assert sys.getswitchinterval() == pytest.approx(GIL_SWITCH_INTERVAL, rel=1e-3)
        assert report[0] == 'GIL switch interval 0.5 ms'
        assert report[1].startswith('gc: ') and report[1].endswith('objects frozen')
    finally:
        _restore(before)


def test_settings_the_process_may_not_use_are_reported_not_raised():
    before = sys.getswitchinterval()
    result = {}

    def run():          # in a thread of its own: affinity and priority are per thread
        result['report'] = setup_thread(priority=200, cpus=(4096,))

    try:
        thread = threading.Thread(target=run)
        thread.start()
        thread.join()
        report = result['report']
        assert any('SCHED_FIFO priority 200 not allowed' in line for line in report), report
        assert any('CPU affinity [4096] not applied' in line for line in report), report
    finally:
        _restore(before)


def test_helper_priority_is_ten_below_the_loop():
    assert helper_priority(0) == 0 and helper_priority(1) == 0
    assert helper_priority(20) == 10 and helper_priority(5) == 1 and helper_priority(99) == 89


@pytest.mark.skipif(os.geteuid() != 0, reason='SCHED_FIFO needs root or an rtprio limit')
def test_helper_threads_take_the_priority_and_new_threads_inherit_it():
    """Every running Python thread gets SCHED_FIFO; a thread one of them starts inherits it."""
    stop = threading.Event()
    seen = {}

    def child():
        seen['policy'] = os.sched_getscheduler(0)
        seen['priority'] = os.sched_getparam(0).sched_priority

    def helper():
        stop.wait(10.0)
        started = threading.Thread(target=child)
        started.start()
        started.join()

    thread = threading.Thread(target=helper)
    thread.start()
    try:
        report = setup_helper_threads(3)
        assert report and 'SCHED_FIFO priority 3' in report[0], report
        assert os.sched_getscheduler(thread.native_id) == os.SCHED_FIFO
        assert os.sched_getparam(thread.native_id).sched_priority == 3
        assert os.sched_getscheduler(0) == os.SCHED_FIFO
        stop.set()
        thread.join()
        assert seen == {'policy': os.SCHED_FIFO, 'priority': 3}
    finally:       # the test process goes back to normal scheduling
        stop.set()
        for t in threading.enumerate():
            if t.native_id is not None:
                os.sched_setscheduler(t.native_id, os.SCHED_OTHER, os.sched_param(0))
    assert setup_helper_threads(0) == []
    refused = setup_helper_threads(200)
    assert len(refused) == 1 and 'not allowed' in refused[0], refused
