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
A step run at a fixed rate in its own thread, at absolute deadlines.

The deadlines are ``start + k * period``: a late cycle does not shift the
ones after it. When a cycle ends more than a whole period late, the periods
it overran are skipped (counted, not made up for by a burst of cycles) and
the loop keeps its phase. Before the thread starts, everything built so far
is moved out of the garbage collector's sight (``gc.freeze``): the objects
of a node (its model, kernels, rclpy entities) live as long as the process,
and a full collection pass over them otherwise stops the loop for tens of
milliseconds now and then; :meth:`PeriodicLoop.stop` gives them back
(:func:`~.hygiene.thaw_garbage`). The GIL switch interval is shortened
(:func:`~.hygiene.shorten_gil_switch`) so that the executor threads hand the
GIL over to the loop within half a millisecond.
"""

import math
import threading
import time

from .hygiene import freeze_garbage, shorten_gil_switch, thaw_garbage

__all__ = ['PeriodicLoop', 'freeze_garbage', 'thaw_garbage']


class PeriodicLoop:
    """
    Call ``step()`` every ``period`` seconds in a dedicated thread.

    Parameters
    ----------
    period : float
        Period [s] (> 0).
    step : callable
        ``step()``, called once per cycle; it may return the time [s] spent
        in its own core (e.g. the control law), recorded as the law time,
        or None.
    name : str
        Thread name.
    timing : LoopTiming, optional
        Receives each cycle's start, end and law time.
    freeze_gc : bool
        Collect and freeze the garbage collector's generations before the
        thread starts (one hold, released by :meth:`stop`).
    on_error : callable, optional
        ``on_error(exc)`` when ``step`` raises; the loop then stops (the
        exception is not raised again).
    thread_setup : callable, optional
        ``thread_setup()`` once in the thread before its first cycle (e.g.
        its real-time priority).

    Attributes
    ----------
    cycles : int
        Steps run.
    skipped : int
        Periods skipped because a cycle overran them.

    """

    def __init__(self, period, step, *, name='periodic_loop', timing=None, freeze_gc=True,
                 on_error=None, thread_setup=None):
        period = float(period)
        if not (math.isfinite(period) and period > 0.0):
            raise ValueError(f'period must be finite and > 0 s, got {period}')
        self.period = period
        self.step = step
        self.name = name
        self.timing = timing
        self.freeze_gc = freeze_gc
        self.on_error = on_error
        self.thread_setup = thread_setup
        self.cycles = 0
        self.skipped = 0
        self._running = False
        self._wake = threading.Event()
        self._thread = None
        self._frozen = False

    @property
    def running(self):
        """Tell whether the loop thread is alive (bool)."""
        return self._thread is not None and self._thread.is_alive()

    def start(self):
        """
        Start the thread (freezing the garbage collector's generations first).

        Raises
        ------
        RuntimeError
            If the loop is already running.

        """
        if self.running:
            raise RuntimeError(f'{self.name} is already running')
        if self.freeze_gc and not self._frozen:
            freeze_garbage()
            self._frozen = True
        shorten_gil_switch()
        self._running = True
        self._wake.clear()
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()

    def stop(self, timeout=2.0):
        """
        Stop the loop and wait for the current cycle to finish.

        From the loop's own thread (a step stopping its loop) it returns at
        once; the loop ends after that step.

        Parameters
        ----------
        timeout : float
            Longest wait for the thread [s].

        Returns
        -------
        bool
            True when no step runs any more (the thread has ended, or is the
            caller).

        """
        self._running = False
        self._wake.set()
        if self._frozen:
            self._frozen = False
            thaw_garbage()
        thread, self._thread = self._thread, None
        if thread is None or thread is threading.current_thread():
            return True
        thread.join(timeout)
        return not thread.is_alive()

    #: Clock of the deadlines [s] (monotonic).
    clock = staticmethod(time.monotonic)

    def _sleep(self, delay):
        """Wait ``delay`` seconds; return True when woken by :meth:`stop`."""
        return self._wake.wait(delay)

    def _run(self):
        if self.thread_setup is not None:
            self.thread_setup()
        period = self.period
        clock = self.clock
        deadline = clock() + period
        timing = self.timing
        while self._running:
            delay = deadline - clock()
            if delay > 0.0 and self._sleep(delay):
                break
            if not self._running:
                break
            start = clock()
            try:
                law = self.step()
            except Exception as exc:  # noqa: B902 - reported, then the loop ends
                self._running = False
                if self.on_error is not None:
                    self.on_error(exc)
                break
            self.cycles += 1
            if timing is not None:
                timing.record(start, clock(), math.nan if law is None else law)
            deadline += period
            late = clock() - deadline
            if late > period:   # overran whole periods: skip them, keep the phase
                missed = math.ceil(late / period)
                self.skipped += missed
                deadline += period * missed

    def __repr__(self):
        return (f'PeriodicLoop({self.name!r}, period={self.period:g}, '
                f'running={self.running})')
