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

import os
import subprocess
import sys

import numpy as np

from .dynamics import _inputs
from ..dynamics.codegen import kernels
from ..dynamics.codegen.threads import row_ranges
from ..model import load_robot


def _worker(robot, count, seed, index, parts):
    """Hold the batch; compute this process's rows at each ``go`` line on stdin."""
    model = load_robot(robot)
    q, qd, qdd = _inputs(model, count, np.random.default_rng(seed))
    kernel = kernels(model).inverse_dynamics_rigid_batch
    out = np.empty_like(q)
    start, stop = row_ranges(count, parts)[index]
    kernel(q, qd, qdd, out, start, stop)    # warm
    print('ready', flush=True)
    for line in sys.stdin:
        if line.strip() != 'go':
            break
        kernel(q, qd, qdd, out, start, stop)
        print('done', flush=True)


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

    """

    def __init__(self, robot, count, seed, processes):
        self._procs = []
        env = dict(os.environ)
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        env['PYTHONPATH'] = root + os.pathsep + env.get('PYTHONPATH', '')
        try:
            for i in range(processes):
                self._procs.append(subprocess.Popen(
                    [sys.executable, '-m', __name__, robot, str(count), str(seed), str(i),
                     str(processes)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                    text=True, env=env))
            for proc in self._procs:
                if proc.stdout.readline().strip() != 'ready':
                    raise RuntimeError('a reference process did not start')
        except BaseException:
            self.close()
            raise

    def run(self):
        """Compute the batch once, split over the processes (returns when all are done)."""
        for proc in self._procs:
            proc.stdin.write('go\n')
            proc.stdin.flush()
        for proc in self._procs:
            if proc.stdout.readline().strip() != 'done':
                raise RuntimeError('a reference process stopped')

    def close(self):
        """Stop the processes."""
        for proc in self._procs:
            try:
                proc.stdin.close()
            except OSError:
                pass
        for proc in self._procs:
            try:
                proc.wait(timeout=10.0)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            proc.stdout.close()
        self._procs = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


if __name__ == '__main__':
    _worker(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]),
            int(sys.argv[5]))
