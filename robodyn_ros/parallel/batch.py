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
Batch partitioning: many states split across threads running the GIL-free kernels.

The scheme that pays on today's CPUs: a batch of states (a planned
trajectory, an identification data set, a Monte-Carlo over payloads) is cut
into row ranges, and k threads run the customized C kernels of
:mod:`robodyn_ros.dynamics.codegen` on them; the kernels release the GIL, so
the threads really run at once. Thread pools are kept per thread count and
shared by every caller (safe for concurrent calls).

Without a C compiler the kernels fall back to the numpy reference (with a
warning from :func:`robodyn_ros.dynamics.codegen.kernels`); results are the
same, only slower and without a gain from threads.
"""

import threading

import numpy as np

from .common import states, thread_count
from ..dynamics.codegen import kernels
from ..dynamics.codegen.threads import BatchRunner
from ..dynamics.inputs import state_array
from ..errors import InputError

_RUNNERS = {}
_LOCK = threading.Lock()


def runner(threads):
    """
    Return the shared thread pool for a thread count.

    Parameters
    ----------
    threads : int
        Threads (the calling thread is one of them).

    Returns
    -------
    BatchRunner
        The pool.

    """
    k = thread_count(threads)
    with _LOCK:
        if k not in _RUNNERS:
            _RUNNERS[k] = BatchRunner(k)
        return _RUNNERS[k]


def _run(func, arrays, out, threads, recheck):
    """
    Run a batch kernel over the runner's threads; inputs are checked while it runs.

    The C kernels check every input row for NaN and inf inside their loop
    (split over the threads like the work) and raise ``ValueError``; then
    ``recheck()`` runs the exact check, which raises the error naming the
    row and joint. (The numpy kernels raise :class:`InputError` themselves.)
    """
    if len(arrays[0]) == 0:
        return out
    try:
        return runner(threads).run(func, arrays, out)
    except ValueError:
        recheck()
        raise


def parallel_inverse_dynamics(model, q, qd, qdd, threads=1, friction=True, backend=None):
    """
    Joint torques of a batch of states, split over threads.

    Exactly :func:`robodyn_ros.dynamics.inverse_dynamics` (armature and, with
    ``friction``, every friction model of the joints).

    Parameters
    ----------
    model : RobotModel
        The robot.
    q, qd, qdd : array_like
        Positions, velocities, accelerations, (N, n) or (n,) [rad, rad/s,
        rad/s^2 or m, m/s, m/s^2].
    threads : int
        Threads k (>= 1).
    friction : bool
        Include the joints' friction models.
    backend : {None, 'c', 'numpy'}
        Kernels (see :func:`robodyn_ros.dynamics.codegen.kernels`).

    Returns
    -------
    numpy.ndarray
        Torques, same shape as ``q`` [N m or N].

    Raises
    ------
    InputError
        On wrong shapes, non-finite values or a bad thread count.

    """
    thread_count(threads)
    q2, qd2, qdd2, single = states(model, q, qd, qdd, finite=False)
    k = kernels(model, backend)
    func = k.inverse_dynamics_batch if friction else k.inverse_dynamics_rigid_batch
    out = _run(func, (q2, qd2, qdd2), np.empty_like(q2), threads,
               lambda: states(model, q2, qd2, qdd2))
    return out[0] if single else out


def parallel_mass_matrix(model, q, threads=1, backend=None):
    """
    Mass matrices (rotor inertia included) of a batch of configurations, split over threads.

    Parameters
    ----------
    model : RobotModel
        The robot.
    q : array_like
        Positions, (N, n) or (n,) [rad or m].
    threads : int
        Threads k (>= 1).
    backend : {None, 'c', 'numpy'}
        Kernels.

    Returns
    -------
    numpy.ndarray
        (N, n, n) or (n, n) [kg m^2, kg m or kg].

    """
    thread_count(threads)
    qa = state_array(q, model.n, 'q', finite=False)
    single = qa.ndim == 1
    q2 = np.ascontiguousarray(np.atleast_2d(qa))
    out = np.empty((len(q2), model.n, model.n))
    out = _run(kernels(model, backend).mass_matrix_batch, (q2,), out, threads,
               lambda: state_array(q2, model.n, 'q'))
    return out[0] if single else out


def parallel_forward_dynamics(model, q, qd, tau, threads=1, friction=True, backend=None):
    """
    Joint accelerations of a batch of states, split over threads.

    The inverse of :func:`parallel_inverse_dynamics` with the same
    ``friction``: exactly :func:`robodyn_ros.dynamics.forward_dynamics`
    (rotor inertia and, with ``friction``, every friction model; the
    load-dependent one by the solver of the generated kernel), so
    ``parallel_forward_dynamics(m, Q, QD, parallel_inverse_dynamics(m, Q,
    QD, QDD))`` gives ``QDD`` to round-off.

    Parameters
    ----------
    model : RobotModel
        The robot.
    q, qd : array_like
        Positions and velocities, (N, n) or (n,).
    tau : array_like
        Joint torques, same shape [N m or N].
    threads : int
        Threads k (>= 1).
    friction : bool
        Include the joints' friction models (``False``: ``M^-1 (tau - h)``,
        rigid body with rotor inertia).
    backend : {None, 'c', 'numpy'}
        Kernels.

    Returns
    -------
    numpy.ndarray
        Accelerations, same shape as ``q`` [rad/s^2 or m/s^2].

    Raises
    ------
    InputError
        On wrong shapes, non-finite values, a bad thread count or a
        singular mass matrix.
    ForwardDynamicsError
        When the load-dependent friction equations have no solution found
        for some state.

    """
    thread_count(threads)
    names = ('q', 'qd', 'tau')
    q2, qd2, tau2, single = states(model, q, qd, tau, names, finite=False)
    k = kernels(model, backend)
    func = k.forward_dynamics_batch if friction else k.forward_dynamics_rigid_batch
    out = _run(func, (q2, qd2, tau2), np.empty_like(q2), threads,
               lambda: states(model, q2, qd2, tau2, names))
    if not np.all(np.isfinite(out)):
        raise InputError('q', 'the mass matrix is singular at some state (non-finite '
                              'accelerations)')
    return out[0] if single else out
