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

"""
Chunks of requests out with worker processes: who computes each, exactly once (no rclpy).

Every chunk is in one state: ``'building'`` (assigned, not yet sent),
``'sent'`` (its deadline runs from the moment it was handed to the
middleware), ``'local'`` (taken over by the service: the worker did not
answer in time, refused, vanished or could not be sent to) or ``'done'``.
The moves out of ``'building'`` and ``'sent'`` happen under one lock and
whoever makes one owns the chunk, so a chunk is computed by its worker or
by the service, never both, and a late answer is ignored. A worker that
misses a deadline is not dropped for it: only its heartbeats decide
whether it lives (the node forgets silent workers).
"""

from dataclasses import dataclass, field
import math
import threading

import numpy as np


@dataclass
class Chunk:
    """One chunk of a request."""

    token: str
    index: int
    worker: str
    start: int
    stop: int
    state: str = 'building'
    deadline: float = math.inf
    sent_at: float = math.nan


@dataclass
class Job:
    """A request out with workers: its states, its efforts so far, its chunks."""

    token: str
    request: object
    states: tuple
    tau: np.ndarray
    friction: bool
    chunks: dict = field(default_factory=dict)
    remaining: int = 0
    error: str = ''


class ChunkTable:
    """The chunks out with workers, thread-safe."""

    def __init__(self):
        self._lock = threading.Lock()
        self._jobs = {}

    def __len__(self):
        """Jobs not yet complete (int)."""
        return len(self._jobs)

    def add(self, job, assignment):
        """
        Register a job and its chunks (state ``'building'``).

        Parameters
        ----------
        job : Job
            The job (its ``chunks`` are filled here).
        assignment : sequence of tuple
            ``(worker, start, stop)`` per chunk.

        Returns
        -------
        list of Chunk
            The chunks, in order.

        """
        chunks = [Chunk(job.token, k, w, a, b) for k, (w, a, b) in enumerate(assignment)]
        with self._lock:
            job.chunks = {c.index: c for c in chunks}
            job.remaining = len(chunks)
            self._jobs[job.token] = job
        return chunks

    def mark_sent(self, chunk, now, timeout):
        """
        Start a chunk's deadline when it has been handed to the middleware.

        Parameters
        ----------
        chunk : Chunk
            The chunk.
        now : float
            Monotonic time [s].
        timeout : float
            Allowed time for the answer [s].

        Returns
        -------
        bool
            False when the chunk was taken over meanwhile.

        """
        with self._lock:
            if chunk.state != 'building':
                return False
            chunk.state, chunk.sent_at, chunk.deadline = 'sent', now, now + timeout
            return True

    def _claim(self, token, index, states, new_state):
        job = self._jobs.get(token)
        chunk = job.chunks.get(index) if job is not None else None
        if chunk is None or chunk.state not in states:
            return None, None
        chunk.state = new_state
        return job, chunk

    def answer(self, token, index):
        """
        Claim a chunk for its worker's answer.

        Parameters
        ----------
        token : str
            Job token.
        index : int
            Chunk number.

        Returns
        -------
        tuple
            ``(job, chunk)``, or ``(None, None)`` when the chunk is unknown or
            no longer waits for its worker (a late or repeated answer).

        """
        with self._lock:
            return self._claim(token, index, ('sent', 'building'), 'done')

    def take_over(self, token, index):
        """
        Claim a chunk for the service (its worker refused it or it could not be sent).

        Parameters
        ----------
        token : str
            Job token.
        index : int
            Chunk number.

        Returns
        -------
        tuple
            ``(job, chunk)`` or ``(None, None)`` when someone else owns it.

        """
        with self._lock:
            return self._claim(token, index, ('sent', 'building'), 'local')

    def overdue(self, now):
        """
        Claim for the service every sent chunk whose deadline passed.

        Parameters
        ----------
        now : float
            Monotonic time [s].

        Returns
        -------
        list of tuple
            ``(job, chunk)`` pairs, now in state ``'local'``.

        """
        out = []
        with self._lock:
            for job in self._jobs.values():
                for chunk in job.chunks.values():
                    if chunk.state == 'sent' and now > chunk.deadline:
                        chunk.state = 'local'
                        out.append((job, chunk))
        return out

    def of_worker(self, worker):
        """
        Claim for the service every chunk out with a worker that is gone.

        Parameters
        ----------
        worker : str
            Worker name.

        Returns
        -------
        list of tuple
            ``(job, chunk)`` pairs, now in state ``'local'``.

        """
        out = []
        with self._lock:
            for job in self._jobs.values():
                for chunk in job.chunks.values():
                    if chunk.worker == worker and chunk.state in ('sent', 'building'):
                        chunk.state = 'local'
                        out.append((job, chunk))
        return out

    def outstanding(self, worker):
        """
        Count the chunks a worker holds (built or sent, not answered).

        Parameters
        ----------
        worker : str
            Worker name.

        Returns
        -------
        int
            Chunks.

        """
        with self._lock:
            return sum(1 for job in self._jobs.values() for c in job.chunks.values()
                       if c.worker == worker and c.state in ('sent', 'building'))

    def complete(self, job, chunk, tau):
        """
        Store a claimed chunk's efforts.

        Parameters
        ----------
        job : Job
            Its job.
        chunk : Chunk
            The chunk (claimed by the caller).
        tau : numpy.ndarray
            Its efforts, (stop - start, n).

        Returns
        -------
        bool
            True when this was the job's last chunk (the job is then removed
            and the caller answers it).

        """
        job.tau[chunk.start:chunk.stop] = tau
        with self._lock:
            job.remaining -= 1
            if job.remaining > 0:
                return False
            self._jobs.pop(job.token, None)
            return True
