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
Seed 003's row partition: ``M(q)`` and ``Q(q, qd)`` split by rows or elements over workers.

Configurations (seed 003 Table 7.1):

* ``'serial'``: one worker computes all of ``M`` and ``Q``;
* ``'rows'``: worker i computes row i of ``M`` and ``Q[i]`` (option A of
  the thesis, one transputer per joint);
* ``'elements'``: one worker per element of ``M`` and of ``Q``;
* ``'elements_symmetric'``: the upper triangle of ``M`` only (mirrored);
* ``'row_split<i>'``: row i alone, split over n + 1 workers (``M[i, j]``
  and ``Q[i]``); its serial reference is row i on one worker.

Two ways to run on real threads: ``mode='sample'``, every worker computes
its pieces for one state, then all meet at a barrier (the thesis's
per-sample operation), and ``mode='batch'``, every worker computes its
pieces for a whole batch of states in one GIL-free call. Each run reports
time per worker, busy fraction, speed-up and efficiency (measured) beside
the operation counts and the speed-up they predict (modelled).
"""

from dataclasses import dataclass
import time

import numpy as np

from .common import states
from .rowkernels import assemble, kernels_for
from .team import LockstepTeam
from ..errors import InputError

#: Ways to run a configuration.
MODES = ('sample', 'batch')


def configuration(n, name):
    """
    List the pieces each worker computes in a configuration.

    Parameters
    ----------
    n : int
        Joints.
    name : str
        ``'serial'``, ``'rows'``, ``'elements'``, ``'elements_symmetric'`` or
        ``'row_split<i>'``.

    Returns
    -------
    tuple
        ``(workers, reference)``: list of piece lists, one per worker, and
        the pieces of the serial reference.

    """
    if name == 'serial':
        return [['all']], ['all']
    if name == 'rows':
        return [[f'row{i}'] for i in range(n)], ['all']
    if name == 'elements':
        return ([[f'm{i}_{j}'] for i in range(n) for j in range(n)]
                + [[f'q{i}'] for i in range(n)]), ['all']
    if name == 'elements_symmetric':
        return ([[f'm{i}_{j}'] for i in range(n) for j in range(i, n)]
                + [[f'q{i}'] for i in range(n)]), ['all']
    if name.startswith('row_split') and name[9:].isdigit() and int(name[9:]) < n:
        i = int(name[9:])
        return [[f'm{i}_{j}'] for j in range(n)] + [[f'q{i}']], [f'row{i}']
    raise InputError('configuration', f'unknown: {name!r} (serial, rows, elements, '
                                      f'elements_symmetric, row_split0..row_split{n - 1})')


def configurations(n):
    """
    Every configuration of seed 003's Table 7.1 for n joints.

    Parameters
    ----------
    n : int
        Joints.

    Returns
    -------
    list of str
        Names.

    """
    return (['serial', 'rows', 'elements', 'elements_symmetric']
            + [f'row_split{i}' for i in range(n)])


@dataclass(frozen=True, eq=False)
class PartitionRun:
    """
    One configuration run on real threads, with its modelled figures.

    Attributes
    ----------
    name : str
        Configuration.
    mode : str
        ``'sample'`` or ``'batch'``.
    workers : tuple of tuple of str
        Pieces of each worker.
    mass, bias : numpy.ndarray
        ``M`` (N, n, n) and ``Q`` (N, n) as assembled from the pieces
        (only row i for ``row_split<i>``).
    wall : float
        Wall time of the parallel run [s].
    serial : float
        Wall time of the serial reference on one thread, same states [s].
    busy : tuple of float
        Time each worker spent in its pieces [s].
    ops : tuple of int
        Operations (multiplications + additions) of each worker (modelled cost).
    serial_ops : int
        Operations of the serial reference.
    states : int
        Number of states N.

    """

    name: str
    mode: str
    workers: tuple
    mass: np.ndarray
    bias: np.ndarray
    wall: float
    serial: float
    busy: tuple
    ops: tuple
    serial_ops: int
    states: int

    @property
    def speedup(self):
        """Measured speed-up, serial time over parallel time (float)."""
        return self.serial / self.wall

    @property
    def efficiency(self):
        """Measured efficiency, speed-up per worker (float)."""
        return self.speedup / len(self.workers)

    @property
    def busy_fraction(self):
        """Measured share of the wall time each worker computed (tuple of float)."""
        return tuple(b / self.wall for b in self.busy)

    @property
    def modelled_speedup(self):
        """Modelled speed-up (float): serial operations over the busiest worker's."""
        return self.serial_ops / max(self.ops)

    @property
    def modelled_busy_fraction(self):
        """Each worker's operations over the busiest worker's (tuple of float)."""
        top = max(self.ops)
        return tuple(x / top for x in self.ops)


def _ops(counts):
    return int(counts['mul'] + counts['add'] + counts['neg'] + counts['div'])


class RowPartition:
    """
    Run seed 003's configurations of one model on real threads.

    Parameters
    ----------
    model : RobotModel
        The robot.
    backend : {None, 'c', 'numpy'}
        Kernels (as :func:`robodyn_ros.dynamics.codegen.kernels`).

    """

    def __init__(self, model, backend=None):
        self.model = model
        self.kernels = kernels_for(model, backend)
        self._teams = {}

    def close(self):
        """Stop every thread team."""
        for team in self._teams.values():
            team.close()
        self._teams.clear()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _team(self, size):
        if size not in self._teams:
            self._teams[size] = LockstepTeam(size)
        return self._teams[size]

    def compute(self, q, qd, name='rows'):
        """
        Compute ``M`` and ``Q`` of a batch with a configuration, each worker over the batch.

        Parameters
        ----------
        q, qd : numpy.ndarray
            Validated positions and velocities, (N, n), C-contiguous.
        name : str
            Configuration (not a ``row_split``).

        Returns
        -------
        tuple of numpy.ndarray
            ``M`` (N, n, n) and ``Q`` (N, n).

        """
        workers, _ = configuration(self.model.n, name)
        out = {p: np.empty((len(q), self.kernels.sizes[p])) for w in workers for p in w}
        if len(q):
            self._team(len(workers)).run(self._plan(workers, out, q, qd, 'batch'))
        else:
            return np.empty((0, self.model.n, self.model.n)), np.empty((0, self.model.n))
        return assemble(self.model.n, out)

    def run(self, name, q, qd, mode='sample', repeat=3):
        """
        Run a configuration over a batch of states and time it against its serial reference.

        Parameters
        ----------
        name : str
            Configuration (see :func:`configuration`).
        q, qd : array_like
            Positions and velocities, (N, n) or (n,).
        mode : {'sample', 'batch'}
            Barrier per state, or each worker's pieces over the whole batch.
        repeat : int
            Timed runs of each (after one untimed warm-up run), interleaved
            with the serial reference; medians are reported.

        Returns
        -------
        PartitionRun
            Results and timings.

        """
        if mode not in MODES:
            raise InputError('mode', f"must be 'sample' or 'batch', got {mode!r}")
        q2, qd2, _, _ = states(self.model, q, qd, np.zeros_like(np.asarray(q, dtype=float)))
        workers, reference = configuration(self.model.n, name)
        out = {p: np.empty((len(q2), self.kernels.sizes[p])) for w in workers for p in w}
        ref_out = {p: np.empty((len(q2), self.kernels.sizes[p])) for p in reference}
        ref_plan = self._plan([reference], ref_out, q2, qd2, mode)
        plan = self._plan(workers, out, q2, qd2, mode)
        serial, walls, busy = [], [], []
        for k in range(max(1, int(repeat)) + 1):
            t_ref = self._time(ref_plan, 1)[0]
            t_par, b = self._time(plan, len(workers))
            if k > 0:
                serial.append(t_ref)
                walls.append(t_par)
                busy.append(b)
        pick = int(np.argsort(walls)[len(walls) // 2])
        serial, wall, busy = float(np.median(serial)), walls[pick], busy[pick]
        mass, bias = assemble(self.model.n, out)
        ops = tuple(sum(_ops(self.kernels.op_counts[p]) for p in w) for w in workers)
        serial_ops = sum(_ops(self.kernels.op_counts[p]) for p in reference)
        return PartitionRun(name, mode, tuple(tuple(w) for w in workers), mass, bias, wall,
                            serial, tuple(busy), ops, serial_ops, len(q2))

    def _plan(self, workers, out, q, qd, mode):
        if mode == 'batch':
            funcs = [[(self.kernels.batch(p), out[p]) for p in w] for w in workers]

            def whole(calls):
                def f():
                    for func, dest in calls:
                        func(q, qd, dest, 0, len(q))
                return f
            return [[whole(calls) for calls in funcs]]
        funcs = [[(self.kernels.single(p), out[p]) for p in w] for w in workers]

        def one(calls, k):
            qk, qdk = q[k], qd[k]

            def f():
                for func, dest in calls:
                    func(qk, qdk, dest[k])
            return f
        return [[one(calls, k) for calls in funcs] for k in range(len(q))]

    def _time(self, plan, size):
        team = self._team(size)
        t0 = time.perf_counter()
        busy = team.run(plan, timed=True)
        return time.perf_counter() - t0, busy
