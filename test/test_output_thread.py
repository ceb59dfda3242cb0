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


"""OutputThread: the I/O thread hands over its outputs and never waits for them."""

import threading

from board_helpers import wait_until
from robodyn_ros.nodes.output_thread import MAX_PENDING, OutputThread


def _thread(errors=None):
    out = OutputThread('test_outputs', (errors if errors is not None else []).append)
    out.start()
    return out


def test_wakes_while_a_job_is_blocked_return_at_once_and_coalesce():
    """A job blocked in the middleware holds up neither wake() nor post(); one run catches up."""
    out = _thread()
    gate, runs, newest = threading.Event(), [], {'value': 0}

    def job():
        runs.append(newest['value'])
        gate.wait(5.0)
    out.register('state', job)
    out.wake('state')
    assert wait_until(lambda: len(runs) == 1, 5.0)       # now blocked in the job
    for value in range(1, 201):                          # the I/O thread's cycles go on
        newest['value'] = value
        out.wake('state')
    assert len(runs) == 1 and not gate.is_set()          # none of those calls waited
    gate.set()
    assert wait_until(lambda: len(runs) == 2, 5.0)
    out.stop()
    assert runs == [0, 200]                              # one catch-up run, newest value


def test_posted_jobs_run_in_order_and_stop_runs_what_is_queued():
    """Transitions are reports of their own: every one runs, in order, even at stop."""
    out = _thread()
    gate, done = threading.Event(), []
    out.post(lambda: gate.wait(5.0))
    for k in range(10):
        out.post(lambda k=k: done.append(k))
    assert done == []
    gate.set()
    out.stop()
    assert done == list(range(10))
    assert not out.running


def test_a_failing_job_is_reported_and_the_thread_goes_on():
    """An exception in a job reaches on_error; the next jobs still run."""
    errors, done = [], []
    out = _thread(errors)

    def bad():
        raise RuntimeError('middleware said no')
    out.post(bad)
    out.post(lambda: done.append(1))
    out.stop()
    assert [str(e) for e in errors] == ['middleware said no']
    assert out.failed == 1 and done == [1]


def test_a_blocked_thread_drops_jobs_beyond_the_bound():
    """A middleware blocked for good does not grow the queue without end."""
    out = _thread()
    gate = threading.Event()
    out.post(lambda: gate.wait(5.0))
    assert wait_until(lambda: out.pending == 0, 5.0)
    for _ in range(MAX_PENDING + 50):
        out.post(lambda: None)
    assert out.dropped == 50
    gate.set()
    out.stop()
