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
Seed 000's per-link computers as real threads: one thread per link, a barrier per sample.

Each worker owns one link. At sample ``k`` it reads what its neighbours
wrote at sample ``k - 1`` (double buffers: slot ``k % 2`` is written,
``(k - 1) % 2`` read), computes its link's forward step, force and moment,
backward step and joint torque, and writes its own results; then all wait
at the barrier. The hybrid method waits inside the sample too: the angular
velocities and accelerations go down the tree and the forces up it one
level per barrier (2 x depth barriers per sample), as seed 000's timing
formula ``t1 + n t2 + ... + n t6 + ...`` says. The first sample is
computed exactly by the caller before the workers start. The arithmetic is
:mod:`.linkstep`'s, so the torques equal :func:`.prediction.simulate`'s.
"""

from dataclasses import dataclass
import time

import numpy as np

from .linkstep import acc_matrix, backward, base_motion, forward, joint_torque, wrench
from .prediction import _check, _frames, corrected, exact, METHODS, own_change
from .team import LockstepTeam
from ..errors import InputError


@dataclass(frozen=True, eq=False)
class WorkerRun:
    """
    Result of a run of the per-link workers along a trajectory.

    Attributes
    ----------
    tau : numpy.ndarray
        Joint torques the workers produced, (K, n) [N m or N].
    wall : float
        Wall time of samples 1..K-1 (the exact first sample excluded) [s].
    setup : float
        Joint transforms of all samples and the exact first sample [s].
    busy : tuple of float
        Time each worker spent computing [s].
    samples : int
        Number of samples K.

    """

    tau: np.ndarray
    wall: float
    setup: float
    busy: tuple
    samples: int

    @property
    def per_sample(self):
        """Wall time per predicted sample (float) [s]."""
        return self.wall / max(1, self.samples - 1)


class PredictionWorkers:
    """
    One thread per link running a prediction method along sampled trajectories.

    Parameters
    ----------
    model_or_frames : RobotModel or LinkFrames
        The robot, or its attached frames.
    method : {'zero', 'first', 'hybrid', 'exact'}
        Prediction method; ``'exact'`` is the serial baseline: the exact
        recursion, one sample after the other, on the calling thread alone,
        with the same per-link arithmetic.
    frames : {'body', 'dh'}
        Frames when a model is given.

    """

    def __init__(self, model_or_frames, method='zero', frames='body'):
        if method not in METHODS + ('exact',):
            raise InputError('method', f"must be one of {', '.join(METHODS)} or exact, got "
                                       f'{method!r}')
        self.frames = _frames(model_or_frames, frames)
        self.method = method
        fr = self.frames
        depth = []
        for p in fr.parents:
            depth.append(0 if p < 0 else depth[p] + 1)
        self.depth = depth
        self._team = LockstepTeam(1 if method == 'exact' else fr.n)

    def close(self):
        """Stop the threads."""
        self._team.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def run(self, q, qd, qdd, timed=False):
        """
        Run the workers along a trajectory.

        Parameters
        ----------
        q, qd, qdd : array_like
            Samples, (K, n), equally spaced in time.
        timed : bool
            Measure each worker's busy time.

        Returns
        -------
        WorkerRun
            Torques and timings.

        """
        fr = self.frames
        q, qd, qdd = _check(fr, q, qd, qdd)
        count, n = q.shape
        t0 = time.perf_counter()
        rot, r_in, r_out = fr.transforms(q)
        first = exact(fr, q[:1], qd[:1], qdd[:1])
        st = _Buffers(fr, first)
        tau = np.empty((count, n))
        tau[0] = first.tau[0]
        t1 = time.perf_counter()
        geo = (rot, r_in, r_out)
        if self.method == 'hybrid':
            plan = self._hybrid_plan(st, geo, qd, qdd, tau, count)
        elif self.method == 'exact':
            plan = [[self._serial(k, geo, qd, qdd, tau)] for k in range(1, count)]
        else:
            plan = [[self._step(i, k, st, geo, qd, qdd, tau) for i in range(n)]
                    for k in range(1, count)]
        busy = self._team.run(plan, timed=timed)
        t2 = time.perf_counter()
        return WorkerRun(tau, t2 - t1, t1 - t0, tuple(busy), count)

    # ------------------------------------------------------------------ one sample
    def _step(self, i, k, st, geo, qd, qdd, tau):
        fr = self.frames
        rot, r_in, r_out = geo
        p = fr.parents[i]
        cur, last = k % 2, (k - 1) % 2
        row = slice(k, k + 1)
        first = self.method == 'first'

        def work():
            if p < 0:
                parent = st.base
            elif first:
                parent = corrected(st.motion[p][last], st.change[p][last], r_out[row, p])
            else:
                parent = st.motion[p][last]
            motion = forward(fr, i, rot[row, i], r_in[row, i], r_out[row, i], qd[row, i],
                             qdd[row, i], parent)
            force, moment = wrench(fr, i, *motion)
            kids = [(rot[row, c], r_in[row, c]) + st.react[c][last] for c in fr.children[i]]
            react = backward(fr, i, force, moment, r_out[row, i], kids)
            if first:
                corr_in = st.change[p][last] if p >= 0 else st.no_change
                st.change[i][cur] = own_change(fr, i, rot[row, i], qd[row, i] - qd[k - 1, i],
                                               qdd[row, i] - qdd[k - 1, i], corr_in)
            st.motion[i][cur] = motion
            st.react[i][cur] = react
            tau[k, i] = joint_torque(fr, i, *react)[0]
        return work

    def _serial(self, k, geo, qd, qdd, tau):
        fr = self.frames
        rot, r_in, r_out = geo
        row = slice(k, k + 1)

        def work():
            base = base_motion(fr, 1)
            motion = [None] * fr.n
            for i in range(fr.n):
                p = fr.parents[i]
                motion[i] = forward(fr, i, rot[row, i], r_in[row, i], r_out[row, i],
                                    qd[row, i], qdd[row, i], base if p < 0 else motion[p])
            react = [None] * fr.n
            for i in range(fr.n - 1, -1, -1):
                kids = [(rot[row, c], r_in[row, c]) + react[c] for c in fr.children[i]]
                react[i] = backward(fr, i, *wrench(fr, i, *motion[i]), r_out[row, i], kids)
                tau[k, i] = joint_torque(fr, i, *react[i])[0]
        return work

    def _hybrid_plan(self, st, geo, qd, qdd, tau, count):
        fr = self.frames
        rot, r_in, r_out = geo
        levels = max(self.depth) + 1
        plan = []
        for k in range(1, count):
            cur, last = k % 2, (k - 1) % 2
            row = slice(k, k + 1)
            for d in range(levels):
                plan.append([self._hybrid_down(i, row, cur, last, st, geo, qd, qdd)
                             if self.depth[i] == d else None for i in range(fr.n)])
            for d in range(levels - 1, -1, -1):
                plan.append([self._hybrid_up(i, k, row, cur, last, st, rot, r_in, r_out, tau)
                             if self.depth[i] == d else None for i in range(fr.n)])
        return plan

    def _hybrid_down(self, i, row, cur, last, st, geo, qd, qdd):
        fr = self.frames
        rot, r_in, r_out = geo
        p = fr.parents[i]

        def work():
            if p < 0:
                parent = st.base
            else:
                w_p, dw_p = st.motion[p][cur][0], st.motion[p][cur][1]
                parent = (w_p, dw_p, st.motion[p][last][2], acc_matrix(w_p, dw_p))
            motion = forward(fr, i, rot[row, i], r_in[row, i], r_out[row, i], qd[row, i],
                             qdd[row, i], parent)
            st.motion[i][cur] = motion
            st.wrench[i] = wrench(fr, i, *motion)
        return work

    def _hybrid_up(self, i, k, row, cur, last, st, rot, r_in, r_out, tau):
        fr = self.frames

        def work():
            kids = [(rot[row, c], r_in[row, c], st.react[c][cur][0], st.react[c][last][1])
                    for c in fr.children[i]]
            react = backward(fr, i, *st.wrench[i], r_out[row, i], kids)
            st.react[i][cur] = react
            tau[k, i] = joint_torque(fr, i, *react)[0]
        return work


class _Buffers:
    """Double buffers of every link's published values (slot = sample % 2)."""

    def __init__(self, fr, first):
        n = fr.n
        self.base = base_motion(fr, 1)
        self.no_change = (np.zeros((1, 3)), np.zeros((1, 3)))
        self.motion = [[None, None] for _ in range(n)]
        self.react = [[None, None] for _ in range(n)]
        self.change = [[self.no_change, self.no_change] for _ in range(n)]
        self.wrench = [None] * n
        for i in range(n):
            w, dw, a = first.w[:, i], first.dw[:, i], first.a[:, i]
            self.motion[i][0] = (w, dw, a, acc_matrix(w, dw))
            self.react[i][0] = (first.f[:, i], first.n[:, i])
