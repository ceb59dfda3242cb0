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
A team of real threads that runs a plan in lock step: one barrier per level.

The per-sample schemes (list-scheduled subtasks, row partition, one worker
per link) all have the same shape: in each level (a schedule cycle, a
sample) worker ``j`` runs its own piece of work, then every worker waits
for the others. :class:`LockstepTeam` keeps ``p - 1`` threads alive between
runs and lets the calling thread be worker 0, and it can time each worker's
busy time, which gives the busy fractions seed 003 reports.
"""

import threading
import time

from ..errors import InputError


class LockstepTeam:
    """
    Persistent threads that run levels of work with a barrier after each.

    Parameters
    ----------
    workers : int
        Number of workers p (the calling thread is worker 0).

    """

    def __init__(self, workers):
        p = int(workers)
        if p < 1:
            raise InputError('workers', f'need at least one worker, got {workers}')
        self.workers = p
        self._plan = None
        self._timed = False
        self._busy = [0.0] * p
        self._error = None
        self._start = threading.Barrier(p) if p > 1 else None
        self._step = threading.Barrier(p) if p > 1 else None
        self._closed = False
        self._lock = threading.Lock()
        self._threads = [threading.Thread(target=self._loop, args=(j,), daemon=True,
                                          name=f'robodyn-lockstep-{j}') for j in range(1, p)]
        for t in self._threads:
            t.start()

    def _levels(self, j):
        timed = self._timed
        busy = 0.0
        for level in self._plan:
            if j < len(level) and level[j] is not None:
                if timed:
                    t0 = time.perf_counter()
                    level[j]()
                    busy += time.perf_counter() - t0
                else:
                    level[j]()
            if self._step is not None:
                self._step.wait()
        self._busy[j] = busy

    def _loop(self, j):
        while True:
            try:
                self._start.wait()
            except threading.BrokenBarrierError:
                return
            if self._closed:
                return
            try:
                self._levels(j)
            except threading.BrokenBarrierError:
                pass
            except BaseException as exc:  # report any failure of a worker to the caller
                with self._lock:
                    self._error = self._error or exc
                self._step.abort()
            try:
                self._start.wait()
            except threading.BrokenBarrierError:
                return

    def run(self, plan, timed=False):
        """
        Run a plan: ``plan[level][j]`` is worker ``j``'s callable (or None) at that level.

        Parameters
        ----------
        plan : sequence of sequence of callable
            Levels of work; a level may have fewer entries than workers.
        timed : bool
            Measure each worker's busy time (time inside its callables).

        Returns
        -------
        list of float
            Busy time of each worker [s] (zeros when not timed).

        Raises
        ------
        Exception
            The first exception raised by any worker (the run is abandoned).

        """
        if self._closed:
            raise InputError('team', 'is closed')
        self._plan = plan
        self._timed = bool(timed)
        self._busy = [0.0] * self.workers
        self._error = None
        if self._start is None:
            self._levels(0)
            return list(self._busy)
        self._start.wait()
        try:
            self._levels(0)
        except threading.BrokenBarrierError:
            pass
        except BaseException as exc:  # noqa: B902 - re-raised below after the team stops
            with self._lock:
                self._error = self._error or exc
            self._step.abort()
        self._start.wait()
        self._plan = None
        if self._error is not None:
            error, self._error = self._error, None
            self._step.reset()
            raise error
        return list(self._busy)

    def close(self):
        """Stop the threads (idempotent)."""
        if self._closed:
            return
        self._closed = True
        if self._start is not None:
            self._start.abort()
            for t in self._threads:
                t.join(timeout=5.0)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
