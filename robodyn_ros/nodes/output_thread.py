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
The thread that publishes for a real-time I/O thread.

A middleware write can block (see :mod:`.gil_free_publisher`): the I/O
thread that runs the board's cycle must never make one. It hands its
outputs to an :class:`OutputThread`: the newest sample by a wake-up (one
short C call, no allocation: a job registered once under a name, run once
however many wake-ups queued meanwhile) and rare reports (a state
transition, a changed diagnostics status) as jobs of their own, run in
order. The I/O thread never waits for it.
"""

import queue
import threading

#: Jobs waiting beyond this are dropped (and counted): a blocked middleware must not
#: grow the queue without end.
MAX_PENDING = 256


class OutputThread:
    """
    Run publishing jobs in a thread of their own.

    Parameters
    ----------
    name : str
        Thread name.
    on_error : callable
        Called with the exception of a job that raised (from this thread).

    """

    def __init__(self, name, on_error):
        self.name = name
        self._on_error = on_error
        # A C queue: put is one short call from the I/O thread, get sleeps without the GIL.
        self._queue = queue.SimpleQueue()
        self._named = {}
        self._running = False
        self._thread = None
        #: Jobs dropped because MAX_PENDING were waiting (int).
        self.dropped = 0
        #: Jobs that raised (int).
        self.failed = 0

    def register(self, key, job):
        """
        Name a job that :meth:`wake` runs (the newest state is read by the job itself).

        Parameters
        ----------
        key : str
            Its name.
        job : callable
            Called without arguments.

        """
        self._named[key] = job

    def wake(self, key):
        """Run the job registered as ``key`` soon (once for any number of wake-ups)."""
        if self.pending < MAX_PENDING:
            self._queue.put(key)
        else:
            self.dropped += 1

    def post(self, job):
        """Run ``job`` (a callable without arguments) after the jobs already queued."""
        if self.pending < MAX_PENDING:
            self._queue.put(job)
        else:
            self.dropped += 1

    @property
    def pending(self):
        """Items waiting in the queue (int)."""
        return self._queue.qsize()

    @property
    def running(self):
        """Whether the thread runs (bool)."""
        return self._running

    def start(self):
        """Start the thread (once)."""
        if self._thread is not None:
            return
        self._running = True
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()

    def stop(self, timeout=2.0):
        """
        Run what is queued, stop the thread and wait for it.

        Parameters
        ----------
        timeout : float
            Longest wait [s] (a write blocked in the middleware is not waited
            for longer; the thread is a daemon).

        """
        thread, self._thread = self._thread, None
        if thread is None:
            return
        self._running = False
        self._queue.put(None)
        if thread is not threading.current_thread():
            thread.join(timeout)

    def _run(self):
        while True:
            items = [self._queue.get()]          # sleeps without the GIL
            while True:                          # behind: take everything queued
                try:
                    items.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            woken = []
            for item in items:
                if item is None:                 # stop's mark: everything before it ran
                    break
                if isinstance(item, str):
                    if item not in woken:        # each named job once, on the newest state
                        woken.append(item)
                else:
                    self._run_job(item)
            for key in woken:
                job = self._named.get(key)
                if job is not None:
                    self._run_job(job)
            if None in items:
                return

    def _run_job(self, job):
        try:
            job()
        except Exception as exc:  # noqa: B902 - a publisher must not end the thread
            self.failed += 1
            self._on_error(exc)
