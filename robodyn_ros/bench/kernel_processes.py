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
A machine reference for the thread speed-up: the same kernel in separate processes.

The batch benchmark's speed-up from 1 to 2 threads depends on what the
machine gives a second floating-point-heavy thread at that moment (on a
shared virtual machine, often much less than a core). The sha256 reference
of :mod:`robodyn_ros.bench.dynamics` measures a different (integer, SHA
instruction) workload. :class:`KernelProcesses` measures this one without
threads: k processes, each holding the same batch, each computing its
contiguous share of the rows with the same C kernel when told to; the time of
a round is from the go to the last process's answer. No GIL, no shared
address space: what it shows is what the machine allows for this work.
"""

import multiprocessing

import numpy as np

from .dynamics import _inputs
from ..dynamics.codegen import kernels
from ..dynamics.codegen.threads import row_ranges
from ..model import load_robot


def _worker(conn, robot, count, seed, index, parts):
    model = load_robot(robot)
    q, qd, qdd = _inputs(model, count, np.random.default_rng(seed))
    kernel = kernels(model).inverse_dynamics_rigid_batch
    out = np.empty_like(q)
    start, stop = row_ranges(count, parts)[index]
    kernel(q, qd, qdd, out, start, stop)    # warm
    conn.send('ready')
    while conn.recv() == 'go':
        kernel(q, qd, qdd, out, start, stop)
        conn.send('done')


class KernelProcesses:
    """
    k processes that compute their shares of one batch on each :meth:`run`.

    Parameters
    ----------
    robot : str
        Library robot.
    count : int
        States in the batch (made as in the batch benchmark, same seed).
    seed : int
        Seed of the states.
    processes : int
        Number of processes k.
    timeout : float
        Start-up time allowed [s].

    """

    def __init__(self, robot, count, seed, processes, timeout=120.0):
        ctx = multiprocessing.get_context('spawn')   # no fork of a threaded parent
        self._conns, self._procs = [], []
        try:
            for i in range(processes):
                parent, child = ctx.Pipe()
                proc = ctx.Process(target=_worker, args=(child, robot, count, seed, i,
                                                         processes), daemon=True)
                proc.start()
                child.close()
                self._conns.append(parent)
                self._procs.append(proc)
            for conn in self._conns:
                if not conn.poll(timeout) or conn.recv() != 'ready':
                    raise RuntimeError('a reference process did not start')
        except BaseException:
            self.close()
            raise

    def run(self):
        """Compute the batch once, split over the processes (returns when all are done)."""
        for conn in self._conns:
            conn.send('go')
        for conn in self._conns:
            conn.recv()

    def close(self):
        """Stop the processes."""
        for conn in self._conns:
            try:
                conn.send('stop')
            except OSError:
                pass
        for proc in self._procs:
            proc.join(timeout=10.0)
            if proc.is_alive():
                proc.kill()
        self._conns, self._procs = [], []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
