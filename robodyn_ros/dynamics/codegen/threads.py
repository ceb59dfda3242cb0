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
Split a batch kernel call over Python threads (the kernels release the GIL).

A minimal helper for the benchmark; the parallel-dynamics issue builds its
public API on the same ``start, stop`` row ranges.
"""

from concurrent.futures import ThreadPoolExecutor
import threading

import numpy as np


def row_ranges(rows, parts):
    """
    Split ``rows`` into ``parts`` contiguous ranges of nearly equal size.

    Parameters
    ----------
    rows : int
        Number of rows.
    parts : int
        Number of ranges (>= 1).

    Returns
    -------
    list of (int, int)
        ``(start, stop)`` pairs covering ``0..rows``.

    """
    edges = np.linspace(0, rows, max(1, int(parts)) + 1).round().astype(int)
    return [(int(a), int(b)) for a, b in zip(edges[:-1], edges[1:])]


class _GuidedRanges:
    """
    Hand out row ranges that shrink as the batch runs out (guided scheduling).

    Each range is the remaining rows over twice the thread count, at least
    ``min_rows``: large ranges first (little overhead), small ones at the
    end, so that the threads finish within a small range of each other even
    when one of them ran slower.
    """

    def __init__(self, rows, threads, min_rows):
        self._next, self._rows = 0, rows
        self._div, self._min = 2 * threads, min_rows
        self._lock = threading.Lock()

    def take(self):
        with self._lock:
            start = self._next
            if start >= self._rows:
                return None
            size = max(self._min, (self._rows - start) // self._div)
            self._next = stop = min(self._rows, start + size)
        return start, stop


class BatchRunner:
    """
    A persistent pool of threads that runs a batch kernel over row ranges.

    The threads take row ranges one at a time, large first and smaller as
    the batch runs out (guided scheduling), so a thread whose core is busy
    with another process does less of the work instead of holding up the
    end of the batch.

    Parameters
    ----------
    threads : int
        Number of threads (1 runs in the calling thread).
    min_rows : int
        Smallest range worth handing out.

    """

    def __init__(self, threads, min_rows=500):
        self.threads = max(1, int(threads))
        self.min_rows = max(1, int(min_rows))
        # The calling thread works too.
        self._pool = ThreadPoolExecutor(self.threads - 1) if self.threads > 1 else None

    def run(self, func, arrays, out):
        """
        Run ``func(*arrays, out, start, stop)`` over all rows, in parallel.

        Parameters
        ----------
        func : callable
            A ``*_batch`` kernel entry point.
        arrays : sequence of numpy.ndarray
            Inputs, (N, n) each.
        out : numpy.ndarray
            Output, (N, ...).

        Returns
        -------
        numpy.ndarray
            ``out``.

        """
        rows = len(arrays[0])
        if self._pool is None:
            func(*arrays, out, 0, rows)
            return out
        take = _GuidedRanges(rows, self.threads, self.min_rows).take

        def work():
            while True:
                got = take()
                if got is None:
                    return
                func(*arrays, out, got[0], got[1])

        futures = [self._pool.submit(work) for _ in range(self.threads - 1)]
        try:
            work()
        finally:
            for f in futures:
                f.result()
        return out

    def close(self):
        """Stop the threads."""
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def run_batch(func, arrays, out, threads=1):
    """
    Run a batch kernel over ``threads`` threads once (pool made and closed here).

    Parameters
    ----------
    func : callable
        A ``*_batch`` kernel entry point.
    arrays : sequence of numpy.ndarray
        Inputs, (N, n) each.
    out : numpy.ndarray
        Output, (N, ...).
    threads : int
        Number of threads.

    Returns
    -------
    numpy.ndarray
        ``out``.

    """
    with BatchRunner(threads) as runner:
        return runner.run(func, arrays, out)
