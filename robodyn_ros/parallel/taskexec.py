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

Each subtask of :mod:`.taskgraph` is a small function of the modified
Newton-Euler algorithm (seed 004 Table 2.4, in the model's body frames at the
joint origins): T1-T3 the angular velocity, T4-T6 the angular acceleration,
T7-T11 the acceleration matrix ``lambda = S(dw) + S(w)^2``, T12-T19 the
origin's acceleration, T20-T26 the centre-of-mass acceleration and force,
T27-T29 the moment, T30-T43 the backward recursion. The functions are
written for any model (full rotations, any joint axis, prismatic joints,
branching trees), so a subtask does more than 3 flops when the model is not
as sparse as the thesis assumes; the schedule is still the thesis's.

A subtask that the graph removed is computed where it is first needed
(inside the subtask that reads it), so every schedule gives the exact
torques. Each subtask works on a whole batch of states at once (arrays of N
states), so the same schedule shows both the per-state case (N = 1: tasks of
a few flops, where threads only add barrier cost) and the batch case (N
large: tasks of thousands of flops, where numpy releases the GIL).
"""

from dataclasses import dataclass
import time

import numpy as np

from .common import finish_torques, states, thread_count
from .schedule import list_schedule
from .taskgraph import task_graph
from .team import LockstepTeam
from ..dynamics.rne import joint_transforms
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


class _Store:
    """Arrays of one run: every intermediate of every body, (N, ...) each."""

    def __init__(self, tab, q, qd, qdd):
        count, n = q.shape
        self.q, self.qd, self.qdd = q, qd, qdd
        self.rot, self.pos = joint_transforms(tab, q)
        shape3 = (n, count, 3)
        for name in ('win', 'w', 'c', 'dwin', 'dw', 'k', 'sq', 'a1', 'a2', 'a', 'ac1', 'ac',
                     'F', 'N', 'f', 'n2', 'n', 'fc', 'n1', 'n3'):
            setattr(self, name, np.zeros(shape3))
        self.lam = np.zeros((n, count, 3, 3))
        self.zero3 = np.zeros((count, 3))
        self.zero33 = np.zeros((count, 3, 3))
        self.base_acc = np.broadcast_to(-tab.gravity, (count, 3))


def _dot_rows(mat_rows, vec):
    # (N, 3) . (N, 3) -> (N,)
    return np.einsum('nj,nj->n', mat_rows, vec)


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
        self._funcs = {lab: self._function(lab) for lab in raw}

    # ------------------------------------------------------------------ subtasks
    def _function(self, lab):
        base = lab.split('.')[0]
        i, step = int(base[:-2]) - 1, int(base[-2:])
        child = -1
        for c in self.children[i]:
            if lab == self._child_label(i, step, c):
                child = c
        tab, joint = self.tab, self.model.joints[i]
        axis = tab.axis[i]
        prismatic = bool(tab.prismatic[i])
        p = joint.parent
        mass, com, inertia = tab.mass[i], self.model.inertials[i].com, self.model.inertials[
            i].inertia

        def parent(st, name):
            if p >= 0:
                return getattr(st, name)[p]
            if name == 'a':
                return st.base_acc
            return st.zero33 if name == 'lam' else st.zero3

        def omega_in(j):
            def f(st):
                st.win[i][:, j] = _dot_rows(st.rot[:, i, :, j], parent(st, 'w'))
            return f

        def alpha_in(j):
            def f(st):
                st.dwin[i][:, j] = _dot_rows(st.rot[:, i, :, j], parent(st, 'dw'))
            return f

        def t3(st):
            omega_in(2)(st)
            win = st.win[i]
            rate = np.outer(st.qd[:, i], axis)
            if prismatic:
                st.w[i][:] = win
                st.c[i][:] = np.outer(st.qdd[:, i], axis) + 2.0 * np.cross(win, rate)
            else:
                st.w[i][:] = win + rate
                st.c[i][:] = np.cross(win, rate) + np.outer(st.qdd[:, i], axis)

        def t6(st):
            alpha_in(2)(st)
            st.dw[i][:] = st.dwin[i] if prismatic else st.dwin[i] + st.c[i]

        def t7(st):
            w = st.w[i]
            st.k[i][:] = np.stack([w[:, 1] * w[:, 2], w[:, 2] * w[:, 0], w[:, 0] * w[:, 1]], -1)

        def t8(st):
            st.sq[i][:] = st.w[i] ** 2

        def t9(st):
            sq, lam = st.sq[i], st.lam[i]
            lam[:, 0, 0] = -(sq[:, 1] + sq[:, 2])
            lam[:, 1, 1] = -(sq[:, 0] + sq[:, 2])
            lam[:, 2, 2] = -(sq[:, 0] + sq[:, 1])

        def t10(st):
            k, dw, lam = st.k[i], st.dw[i], st.lam[i]
            lam[:, 1, 0] = k[:, 2] + dw[:, 2]
            lam[:, 0, 2] = k[:, 1] + dw[:, 1]
            lam[:, 2, 1] = k[:, 0] + dw[:, 0]

        def t11(st):
            k, dw, lam = st.k[i], st.dw[i], st.lam[i]
            lam[:, 1, 2] = k[:, 0] - dw[:, 0]
            lam[:, 2, 0] = k[:, 1] - dw[:, 1]
            lam[:, 0, 1] = k[:, 2] - dw[:, 2]

        def lam_p(j):
            def f(st):
                st.a1[i][:, j] = _dot_rows(parent(st, 'lam')[:, j, :], st.pos[:, i])
            return f

        def acc_sum(j):
            def f(st):
                st.a2[i][:, j] = parent(st, 'a')[:, j] + st.a1[i][:, j]
            return f

        def acc_rot(cols):
            def f(st):
                for j in cols:
                    st.a[i][:, j] = _dot_rows(st.rot[:, i, :, j], st.a2[i])
                    if prismatic:
                        st.a[i][:, j] += st.c[i][:, j]
            return f

        def lam_s(j):
            def f(st):
                st.ac1[i][:, j] = st.lam[i][:, j, :] @ com
            return f

        def acc_com(j):
            def f(st):
                st.ac[i][:, j] = st.a[i][:, j] + st.ac1[i][:, j]
            return f

        def t26(st):
            st.F[i][:] = mass * st.ac[i]

        def moment(j):
            def f(st):
                w, dw = st.w[i], st.dw[i]
                iw = w @ inertia.T
                st.N[i][:, j] = dw @ inertia[j] + np.cross(w, iw)[:, j]
            return f

        def force_child(cols):
            def f(st):
                for j in cols:
                    st.fc[child][:, j] = _dot_rows(st.rot[:, child, j, :], st.f[child])
            return f

        def t32(st):
            st.f[i][:] = st.F[i] + sum((st.fc[c] for c in self.children[i]), st.zero3)

        def arm_child(j):
            def f(st):
                st.n1[child][:, j] = np.cross(st.pos[:, child], st.fc[child])[:, j]
            return f

        def arm_com(j):
            def f(st):
                st.n2[i][:, j] = np.cross(com, st.F[i])[:, j]
            return f

        def moment_child(cols):
            def f(st):
                for j in cols:
                    st.n3[child][:, j] = _dot_rows(st.rot[:, child, j, :], st.n[child])
            return f

        def moment_sum(j):
            def f(st):
                total = st.N[i][:, j] + st.n2[i][:, j]
                for c in self.children[i]:
                    total = total + st.n1[c][:, j] + st.n3[c][:, j]
                st.n[i][:, j] = total
            return f

        table = {1: omega_in(0), 2: omega_in(1), 3: t3, 4: alpha_in(0), 5: alpha_in(1), 6: t6,
                 7: t7, 8: t8, 9: t9, 10: t10, 11: t11, 12: lam_p(0), 13: lam_p(1),
                 14: lam_p(2), 15: acc_sum(0), 16: acc_sum(1), 17: acc_sum(2),
                 18: acc_rot((0,)), 19: acc_rot((1, 2)), 20: lam_s(0), 21: lam_s(1),
                 22: lam_s(2), 23: acc_com(0), 24: acc_com(1), 25: acc_com(2), 26: t26,
                 27: moment(0), 28: moment(1), 29: moment(2), 30: force_child((0,)),
                 31: force_child((1, 2)), 32: t32, 33: arm_child(0), 34: arm_child(1),
                 35: arm_child(2), 36: arm_com(0), 37: arm_com(1), 38: arm_com(2),
                 39: moment_child((0,)), 40: moment_child((1, 2)), 41: moment_sum(0),
                 42: moment_sum(1), 43: moment_sum(2)}
        return table[step]

    def _child_label(self, i, step, c):
        code = f'{i + 1}{step:02d}'
        if self.children[i] and c != self.children[i][0]:
            code += f'.{c + 1}'
        return code

    # ------------------------------------------------------------------ execution
    def task(self, index, store, done):
        """
        Return the callable of a scheduled subtask bound to one run.

        Parameters
        ----------
        index : int
            Task index in the graph.
        store : _Store
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
        store : _Store
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
        store = _Store(self.program.tab, q2, qd2, qdd2)
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
