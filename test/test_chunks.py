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


"""Chunks out with workers: each computed exactly once, deadlines from sending, late answers."""

import threading

import numpy as np
from robodyn_ros.parallel.chunks import ChunkTable, Job


def _job(token='t', rows=10, n=2):
    return Job(token, None, (np.zeros((rows, n)),) * 3, np.full((rows, n), np.nan), True)


def test_answers_complete_the_job_in_any_order():
    """The job completes with its last chunk; a repeated answer is refused."""
    table = ChunkTable()
    job = _job()
    chunks = table.add(job, [('w1', 0, 4), ('w2', 4, 10)])
    for c in chunks:
        assert table.mark_sent(c, 0.0, 1.0)
    j, c = table.answer('t', 1)
    assert not table.complete(j, c, np.ones((6, 2)))
    assert table.answer('t', 1) == (None, None)          # repeated
    j, c = table.answer('t', 0)
    assert table.complete(j, c, np.zeros((4, 2)))
    assert len(table) == 0 and np.array_equal(job.tau[4:], np.ones((6, 2)))
    assert table.answer('t', 0) == (None, None)          # the job is gone


def test_deadline_starts_when_sent_and_late_answers_are_ignored():
    """A chunk still being built is never overdue; a sent one is, once; its late answer loses."""
    table = ChunkTable()
    job = _job()
    first, second = table.add(job, [('w1', 0, 5), ('w2', 5, 10)])
    table.mark_sent(first, 100.0, 0.5)
    assert table.overdue(1e9) == [(job, first)]          # second: not sent yet, no clock
    assert table.overdue(1e9) == []                      # taken once
    assert table.answer('t', 0) == (None, None)          # the worker's late answer
    table.mark_sent(second, 200.0, 0.5)
    assert table.overdue(200.4) == [] and table.outstanding('w2') == 1
    assert table.outstanding('w1') == 0


def test_worker_gone_takes_its_chunks_even_unsent():
    """A vanished worker's chunks go to the service; marking one sent afterwards fails."""
    table = ChunkTable()
    job = _job()
    a, b, c = table.add(job, [('w1', 0, 3), ('w2', 3, 6), ('w1', 6, 10)])
    table.mark_sent(a, 0.0, 1.0)
    taken = table.of_worker('w1')
    assert [ch.index for _, ch in taken] == [0, 2]
    assert not table.mark_sent(c, 0.0, 1.0) and table.take_over('t', 2) == (None, None)
    assert table.mark_sent(b, 0.0, 1.0)


def test_racing_claims_give_each_chunk_one_owner():
    """Answers, timeouts and a worker's loss racing on 400 chunks: every chunk owned once."""
    table = ChunkTable()
    jobs = [_job(f't{k}', 40) for k in range(10)]
    chunks = []
    for job in jobs:
        chunks += table.add(job, [(f'w{i % 2}', 10 * i, 10 * i + 10) for i in range(4)])
    for ch in chunks:
        table.mark_sent(ch, 0.0, 0.0)
    owners = []
    lock = threading.Lock()

    def answers():
        for ch in chunks:
            j, c = table.answer(ch.token, ch.index)
            if c is not None:
                with lock:
                    owners.append(('worker', c.token, c.index))

    def timeouts():
        for _ in range(50):
            for _, c in table.overdue(1.0):
                with lock:
                    owners.append(('local', c.token, c.index))

    def loss():
        for _, c in table.of_worker('w1'):
            with lock:
                owners.append(('gone', c.token, c.index))
    threads = [threading.Thread(target=f) for f in (answers, timeouts, loss, answers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    keys = [(tok, i) for _, tok, i in owners]
    assert len(keys) == len(set(keys)) == len(chunks)
