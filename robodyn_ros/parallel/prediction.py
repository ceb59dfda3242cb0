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
Seed 000's prediction-decoupled pipelining: one worker per link, neighbours' last sample.

Along a sampled trajectory, worker i computes its link's forward and
backward steps every sample without waiting for its neighbours, using what
they computed at the previous sample (the "predictors" of seed 000 Ch. 4):

* ``'zero'`` (zero-order prediction): the parent's ``w, dw, a`` and the
  children's ``f, n`` of the previous sample, unchanged (speed-up n);
* ``'first'`` (first-order): the same plus correction vectors passed down
  the arm with one sample of delay: each worker estimates how much its own
  ``w`` and ``dw`` change per sample (its parent's estimate, rotated, plus its
  joint's own change ``z (qd(t) - qd(t-1))``, resp. ``qdd``) and the child
  adds that change to the previous value (eqs. 5.1-16/17); the parent's
  ``a`` gets ``dC x r + C x (C x r)`` over its frame offset ``r``
  (eqs. 5.1-21..23, read literally). Seed 000 leaves the algorithm
  under-specified (see the digest, §1.5b); this is one consistent reading;
* ``'hybrid'``: ``w``, ``dw`` and ``f`` exact (each worker waits for its
  neighbour within the sample), ``a`` and ``n`` from the previous sample.

The first sample is computed exactly. :func:`simulate` computes all samples
vectorised (link by link over the whole trajectory, which the one-sample
delay allows); :class:`PredictionWorkers` runs the same arithmetic on one
real thread per link with a barrier per sample (and, for the hybrid, the
waits inside a sample as extra barriers). Both give the same numbers.
"""

from dataclasses import dataclass

import numpy as np

from .linkframes import link_frames, LinkFrames
from .linkstep import (acc_matrix, backward, base_motion, cross, forward, joint_torque,
                       mat_t_vec, wrench)
from ..errors import InputError

#: Prediction methods.
METHODS = ('zero', 'first', 'hybrid')


@dataclass(frozen=True, eq=False)
class Recursion:
    """
    Every link's quantities over a batch (states or samples).

    Attributes
    ----------
    tau : numpy.ndarray
        Joint torques (rigid body, no armature, no friction), (N, n) [N m or N].
    w, dw, a : numpy.ndarray
        Angular velocity, acceleration and frame-origin acceleration, (N, n, 3).
    f, n : numpy.ndarray
        Reaction force and moment about the joint point, (N, n, 3).

    """

    tau: np.ndarray
    w: np.ndarray
    dw: np.ndarray
    a: np.ndarray
    f: np.ndarray
    n: np.ndarray


def _frames(model_or_frames, frames='body'):
    if isinstance(model_or_frames, LinkFrames):
        return model_or_frames
    return link_frames(model_or_frames, frames)


def _check(fr, q, qd, qdd):
    arrays = []
    for name, x in (('q', q), ('qd', qd), ('qdd', qdd)):
        arr = np.ascontiguousarray(x, dtype=float)
        if arr.ndim != 2 or arr.shape[1] != fr.n or (arrays and arr.shape != arrays[0].shape):
            raise InputError(name, f'expected shape (N, {fr.n}) like q, got {arr.shape}')
        if not np.all(np.isfinite(arr)):
            raise InputError(name, 'must be finite')
        arrays.append(arr)
    if arrays[0].shape[0] < 1:
        raise InputError('q', 'needs at least one sample')
    return arrays


def exact(model_or_frames, q, qd, qdd, frames='body'):
    """
    Run the serial recursion (every link waits for its neighbours): the exact torques.

    Parameters
    ----------
    model_or_frames : RobotModel or LinkFrames
        The robot, or its attached frames.
    q, qd, qdd : array_like
        States, (N, n).
    frames : {'body', 'dh'}
        Frames when a model is given.

    Returns
    -------
    Recursion
        All quantities; ``tau`` equals the rigid-body RNE.

    """
    fr = _frames(model_or_frames, frames)
    q, qd, qdd = _check(fr, q, qd, qdd)
    rot, r_in, r_out = fr.transforms(q)
    count, n = q.shape
    base = base_motion(fr, count)
    motion = [None] * n
    for i in range(n):
        p = fr.parents[i]
        motion[i] = forward(fr, i, rot[:, i], r_in[:, i], r_out[:, i], qd[:, i], qdd[:, i],
                            base if p < 0 else motion[p])
    react = [None] * n
    for i in range(n - 1, -1, -1):
        force, moment = wrench(fr, i, *motion[i])
        kids = [(rot[:, c], r_in[:, c]) + react[c] for c in fr.children[i]]
        react[i] = backward(fr, i, force, moment, r_out[:, i], kids)
    return _record(fr, motion, react)


def _record(fr, motion, react):
    tau = np.stack([joint_torque(fr, i, *react[i]) for i in range(fr.n)], -1)
    return Recursion(tau, *(np.stack([m[k] for m in motion], 1) for k in range(3)),
                     *(np.stack([r[k] for r in react], 1) for k in range(2)))


def previous(x):
    """
    Return the previous sample's values, the first sample's own at the start.

    Parameters
    ----------
    x : numpy.ndarray
        Values per sample, (K, ...).

    Returns
    -------
    numpy.ndarray
        ``y[0] = x[0]``, ``y[k] = x[k - 1]``.

    """
    return np.concatenate([x[:1], x[:-1]])


def simulate(model_or_frames, q, qd, qdd, method='zero', frames='body'):
    """
    Compute the torques the per-link workers produce along a sampled trajectory.

    Parameters
    ----------
    model_or_frames : RobotModel or LinkFrames
        The robot, or its attached frames.
    q, qd, qdd : array_like
        Samples of the trajectory, (K, n), equally spaced in time.
    method : {'zero', 'first', 'hybrid'}
        Prediction method.
    frames : {'body', 'dh'}
        Frames when a model is given.

    Returns
    -------
    Recursion
        What the workers computed; the first sample is exact.

    """
    if method not in METHODS:
        raise InputError('method', f"must be one of {', '.join(METHODS)}, got {method!r}")
    fr = _frames(model_or_frames, frames)
    q, qd, qdd = _check(fr, q, qd, qdd)
    rot, r_in, r_out = fr.transforms(q)
    count, n = q.shape
    base = base_motion(fr, count)
    truth = exact(fr, q, qd, qdd) if method == 'hybrid' else None
    motion = [None] * n
    corr = [None] * n
    for i in range(n):
        p = fr.parents[i]
        if p < 0:
            parent = base
        elif method == 'hybrid':
            # Exact w, dw of the parent at this sample; its a from the last sample.
            parent = (truth.w[:, p], truth.dw[:, p], previous(motion[p][2]),
                      acc_matrix(truth.w[:, p], truth.dw[:, p]))
        elif method == 'first':
            parent = corrected(tuple(previous(x) for x in motion[p]), corr[i], r_out[:, p])
        else:
            parent = tuple(previous(x) for x in motion[p])
        motion[i] = forward(fr, i, rot[:, i], r_in[:, i], r_out[:, i], qd[:, i], qdd[:, i],
                            parent)
        if method == 'first':
            corr_in = corr[i] if p >= 0 else (np.zeros((count, 3)), np.zeros((count, 3)))
            own = own_change(fr, i, rot[:, i], qd[:, i] - previous(qd[:, i]),
                             qdd[:, i] - previous(qdd[:, i]), corr_in)
            for c in fr.children[i]:
                corr[c] = tuple(previous_or_zero(x) for x in own)
    react = [None] * n
    for i in range(n - 1, -1, -1):
        force, moment = wrench(fr, i, *motion[i])
        kids = []
        for c in fr.children[i]:
            f_c, n_c = react[c]
            if method != 'hybrid':
                f_c = previous(f_c)
            kids.append((rot[:, c], r_in[:, c], f_c, previous(n_c)))
        react[i] = backward(fr, i, force, moment, r_out[:, i], kids)
    return _record(fr, motion, react)


def previous_or_zero(x):
    """
    Return the previous sample's values, zero at the first sample.

    Parameters
    ----------
    x : numpy.ndarray
        Values per sample, (K, ...).

    Returns
    -------
    numpy.ndarray
        ``y[0] = 0``, ``y[k] = x[k - 1]``.

    """
    return np.concatenate([np.zeros_like(x[:1]), x[:-1]])


def own_change(fr, i, rot, dq, ddq, corr_in):
    """
    Estimate how much link i's ``w`` and ``dw`` change per sample (first-order prediction).

    Parameters
    ----------
    fr : LinkFrames
        Link data.
    i : int
        Link index.
    rot : numpy.ndarray
        Frame i in the parent frame, (N, 3, 3).
    dq, ddq : numpy.ndarray
        Change of joint i's velocity and acceleration since the last sample, (N,).
    corr_in : tuple of numpy.ndarray
        The parent's estimated changes ``(C_w, C_dw)`` as received, (N, 3) each.

    Returns
    -------
    tuple of numpy.ndarray
        ``(D_w, D_dw)`` in link i's frame, (N, 3) each.

    """
    cw, cdw = corr_in
    own_w = mat_t_vec(rot, cw)
    own_dw = mat_t_vec(rot, cdw)
    if not fr.prismatic[i]:
        own_w = own_w + dq[:, None] * fr.axis[i]
        own_dw = own_dw + ddq[:, None] * fr.axis[i]
    return own_w, own_dw


def corrected(last, corr, r_out_p):
    """
    Add the first-order corrections to the parent's last-sample motion.

    Parameters
    ----------
    last : tuple of numpy.ndarray
        The parent's ``(w, dw, a, L)`` of the last sample.
    corr : tuple of numpy.ndarray
        ``(C_w, C_dw)``: the parent's estimated change per sample, parent axes.
    r_out_p : numpy.ndarray
        The parent's joint point to frame origin, (N, 3) [m].

    Returns
    -------
    tuple of numpy.ndarray
        Predicted ``(w, dw, a, L)`` of the parent.

    """
    w_p, dw_p, a_p = last[0], last[1], last[2]
    cw, cdw = corr
    w = w_p + cw
    dw = dw_p + cdw
    a = a_p + cross(cdw, r_out_p) + cross(cw, cross(cw, r_out_p))
    return w, dw, a, acc_matrix(w, dw)


def prediction_error(u_pred, u_exact):
    """
    Seed 000's error measure: ``100 RMS(u_pred - u_exact) / (max u_exact - min u_exact)``.

    Parameters
    ----------
    u_pred, u_exact : numpy.ndarray
        Torques along a trajectory, (K, n).

    Returns
    -------
    numpy.ndarray
        Error per joint [% of the full scale]; 0 where the exact torque is
        constant and the prediction equals it.

    """
    err = np.sqrt(np.mean((np.asarray(u_pred) - np.asarray(u_exact)) ** 2, axis=0))
    span = np.ptp(np.asarray(u_exact), axis=0)
    safe = np.where(span > 0.0, span, 1.0)
    return np.where(span > 0.0, 100.0 * err / safe, np.where(err > 0.0, np.inf, 0.0))
