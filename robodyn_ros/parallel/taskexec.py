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
Run a list schedule of seed 004's subtasks on real threads, one barrier per level.

Each subtask of :mod:`.taskgraph` is a small function
(:mod:`.subtask_kernels`) of the modified Newton-Euler algorithm (seed 004
Table 2.4, in the model's body frames at the joint origins). The functions
are written for any model (full rotations, any joint axis, prismatic
joints, branching trees), so a subtask does more than 3 flops when the
model is not as sparse as the thesis assumes; the schedule is still the
thesis's.

A subtask that the graph removed is computed where it is first needed
(inside the subtask that reads it), so every schedule gives the exact
torques. Each subtask works on a whole batch of states at once (arrays of N
states), so the same schedule shows both the per-state case (N = 1: tasks of
a few flops, where threads only add barrier cost) and the batch case (N
large: tasks of thousands of flops in numpy; see docs/benchmarks.md for
what threads gain there).
"""

from dataclasses import dataclass
import time

import numpy as np

from .common import finish_torques, states, thread_count
from .schedule import list_schedule
from .subtask_kernels import Store, subtask_function
from .taskgraph import task_graph
from .team import LockstepTeam
from ..dynamics.tables import tables


@dataclass(frozen=True, eq=False)
class TaskRun:
    """
    Result of one scheduled run.

    Attributes
    ----------
    tau : numpy.ndarray
        Joint torques, (N, n) [N m or N].
    force, moment : numpy.ndarray
        Joint reactions in the body frames, (N, n, 3) [N, N m].
    wall : float
        Wall time of the scheduled levels [s] (set-up and torque assembly
        excluded; see ``setup``).
    setup : float
        Joint transforms and buffers before the first level [s].
    busy : tuple of float
        Time each processor spent inside its subtasks [s].

    """

    tau: np.ndarray
    force: np.ndarray
    moment: np.ndarray
    wall: float
    setup: float
    busy: tuple


class TaskProgram:
    """
    The executable subtasks of one model's task graph.

    Parameters
    ----------
    model : RobotModel
        The robot.
    graph : TaskGraph, optional
        Its task graph (default: the customized one).

    """

    def __init__(self, model, graph=None):
        self.model = model
        self.graph = graph if graph is not None else task_graph(model, customized=True)
        if self.graph.n != model.n or tuple(self.graph.parents) != tuple(
                j.parent for j in model.joints):
            raise ValueError(f'task graph {self.graph.name!r} does not fit model {model.name!r}')
        self.tab = tables(model)
        self.children = [[c for c in range(model.n) if model.joints[c].parent == i]
                         for i in range(model.n)]
        raw = self.graph.raw_preds
        self._removed = set(self.graph.removed)
        self._removed_preds = {lab: [x for x in preds if x in self._removed]
                               for lab, preds in raw.items()}
        self._funcs = {lab: subtask_function(model, self.children, lab) for lab in raw}

    # ------------------------------------------------------------------ execution
    def task(self, index, store, done):
        """
        Return the callable of a scheduled subtask bound to one run.

        Parameters
        ----------
        index : int
            Task index in the graph.
        store : Store
            Arrays of the run.
        done : set
            Labels of removed subtasks already computed in this run.

        Returns
        -------
        callable
            No arguments.

        """
        lab = self.graph.tasks[index].label

        def run():
            self._ensure_removed(lab, store, done)
            self._funcs[lab](store)
        return run

    def _ensure_removed(self, lab, store, done):
        for pred in self._removed_preds[lab]:
            if pred not in done:
                self._ensure_removed(pred, store, done)
                self._funcs[pred](store)
                done.add(pred)

    def assemble(self, store):
        """
        Read the torques out of a finished run.

        Parameters
        ----------
        store : Store
            Arrays of the run.

        Returns
        -------
        tuple of numpy.ndarray
            ``(tau_rigid, force, moment)``: (N, n), (N, n, 3), (N, n, 3).

        """
        done = set()
        for lab in self._removed_preds:
            # Subtasks removed at the end of the recursion (e.g. T32 of a last
            # link) are read here: compute any that no scheduled task needed.
            base = lab.split('.')[0]
            if lab in self._removed and int(base[-2:]) in (32, 41, 42, 43):
                self._ensure_removed(lab, store, done)
                self._funcs[lab](store)
        force = np.transpose(store.f, (1, 0, 2))
        moment = np.transpose(store.n, (1, 0, 2))
        axis = self.tab.axis
        tau = np.where(self.tab.prismatic, np.einsum('nij,ij->ni', force, axis),
                       np.einsum('nij,ij->ni', moment, axis))
        return tau, force, moment


class ScheduledDynamics:
    """
    Inverse dynamics by a list schedule of 3-flop subtasks on p real threads.

    Parameters
    ----------
    model : RobotModel
        The robot.
    processors : int
        Threads p (the caller is one of them).
    customized : bool
        Use the customized task graph (sparsity removed) or the generic one.

    """

    def __init__(self, model, processors, customized=True):
        self.model = model
        self.processors = thread_count(processors, 'processors')
        self.program = TaskProgram(model, task_graph(model, customized))
        self.schedule = list_schedule(self.program.graph, self.processors)
        self._team = LockstepTeam(self.processors)

    def run(self, q, qd, qdd, friction=True, timed=False):
        """
        Compute joint torques with the schedule.

        Parameters
        ----------
        q, qd, qdd : array_like
            States, (n,) or (N, n) [rad, rad/s, rad/s^2 or m, m/s, m/s^2].
        friction : bool
            Include the joints' friction models.
        timed : bool
            Measure each processor's busy time.

        Returns
        -------
        TaskRun
            Torques (same leading shape as the input is in ``tau`` as (N, n)),
            reactions and timings.

        """
        q2, qd2, qdd2, _ = states(self.model, q, qd, qdd)
        t0 = time.perf_counter()
        store = Store(self.program.tab, q2, qd2, qdd2)
        done = set()
        plan = [[self.program.task(k, store, done) for k in level]
                for level in self.schedule.levels]
        t1 = time.perf_counter()
        busy = self._team.run(plan, timed=timed)
        t2 = time.perf_counter()
        tau, force, moment = self.program.assemble(store)
        tau = finish_torques(self.model, tau, qd2, qdd2, force, moment, friction)
        return TaskRun(tau, force, moment, t2 - t1, t1 - t0, tuple(busy))

    def __call__(self, q, qd, qdd, friction=True):
        """
        Compute joint torques (see :meth:`run`).

        Parameters
        ----------
        q, qd, qdd : array_like
            States, (n,) or (N, n).
        friction : bool
            Include the joints' friction models.

        Returns
        -------
        numpy.ndarray
            Torques, same shape as ``q`` [N m or N].

        """
        tau = self.run(q, qd, qdd, friction).tau
        return tau[0] if np.ndim(q) == 1 else tau

    def close(self):
        """Stop the threads."""
        self._team.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
