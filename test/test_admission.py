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


"""Admission of the dynamics service's requests: limits, busy, order, release, close."""

import threading

import pytest
from robodyn_ros.parallel.admission import BusyError, RequestQueue


def test_limits_busy_and_first_come_first_served():
    """Requests beyond the point or request limit are refused with the depth; FIFO order."""
    queue = RequestQueue(max_requests=3, max_points=1000)
    queue.offer('a', 400)
    queue.offer('b', 500)
    with pytest.raises(BusyError) as err:
        queue.offer('c', 200)                    # 1100 points > 1000
    assert err.value.depth == 2 and err.value.points == 900 and 'busy' in str(err.value)
    queue.offer('d', 100)
    with pytest.raises(BusyError):
        queue.offer('e', 0)                      # 3 requests outstanding
    assert [queue.get(0.1) for _ in range(3)] == ['a', 'b', 'd']
    assert queue.get(0.01) is None and queue.depth == 3 and queue.waiting == 0
    queue.release(400)
    queue.offer('c', 200)
    assert (queue.depth, queue.points, queue.peak_points) == (3, 800, 1000)


def test_one_request_always_fits_when_idle():
    """A request above max_points is admitted when nothing is outstanding, alone."""
    queue = RequestQueue(max_requests=4, max_points=100)
    queue.offer('big', 5000)
    with pytest.raises(BusyError):
        queue.offer('small', 1)
    queue.get(0.1)
    queue.release(5000)
    queue.offer('small', 1)
    assert queue.points == 1


def test_concurrent_offers_never_exceed_the_limits():
    """Eight threads offering at once: admitted points stay within the limit."""
    queue = RequestQueue(max_requests=50, max_points=10_000)
    admitted, refused = [], []
    lock = threading.Lock()

    def offer(k):
        for j in range(100):
            try:
                queue.offer((k, j), 300)
                with lock:
                    admitted.append((k, j))
            except BusyError:
                with lock:
                    refused.append((k, j))
    threads = [threading.Thread(target=offer, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(admitted) + len(refused) == 800
    assert len(admitted) == 33 == queue.depth and queue.points == 9900 <= queue.peak_points


def test_close_wakes_waiters_and_refuses():
    """A thread blocked in get returns None on close; later offers are busy."""
    queue = RequestQueue(2, 10)
    got = []
    t = threading.Thread(target=lambda: got.append(queue.get()))
    t.start()
    queue.close()
    t.join(2.0)
    assert got == [None] and not t.is_alive()
    with pytest.raises(BusyError):
        queue.offer('x', 1)
