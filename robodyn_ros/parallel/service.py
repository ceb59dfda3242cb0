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
The computing core of the parallel-dynamics service (no rclpy).

:class:`EffortSolver` answers "efforts of these states" with one of the
schemes, safe to call from several threads at once; :func:`split_rows` cuts
a request into chunks for worker processes; :func:`model_fingerprint` lets
a service, its workers and its clients check that they use the same robot.
"""

import hashlib
import threading

import numpy as np

from .batch import parallel_inverse_dynamics
from .common import states, thread_count
from ..dynamics.tables import tables
from ..errors import InputError

#: Schemes of the service. ``auto``: worker processes when some are alive,
#: else ``threads``; ``threads``: batch partitioning; ``workers``: chunks to
#: worker processes (the rest computed here); ``rows``: seed 003's row
#: partition (M qdd + Q); ``task_graph``: seed 004's scheduled subtasks.
SCHEMES = ('auto', 'threads', 'workers', 'rows', 'task_graph')
#: Schemes that need no worker processes.
LOCAL_SCHEMES = ('threads', 'rows', 'task_graph')


def model_fingerprint(model):
    """
    Hash of everything that sets a model's inverse dynamics.

    Parameters
    ----------
    model : RobotModel
        The robot.

    Returns
    -------
    str
        16 hex digits; equal for models with the same joints, geometry,
        inertial, actuator and friction data and gravity.

    """
    h = hashlib.sha256()
    h.update(repr(model.joint_names).encode())
    for joint, inertial in zip(model.joints, model.inertials):
        h.update(joint.kind.encode())
        h.update(str(joint.parent).encode())
        for arr in (joint.rotation, joint.translation, joint.axis, inertial.com,
                    inertial.inertia):
            h.update(np.ascontiguousarray(arr, dtype=float).tobytes())
        h.update(np.float64(inertial.mass).tobytes())
        h.update(repr(joint.actuator).encode())
        h.update(repr(joint.friction).encode())
    h.update(np.ascontiguousarray(model.gravity, dtype=float).tobytes())
    return h.hexdigest()[:16]


def split_rows(count, parts, min_rows=1):
    """
    Cut ``count`` rows into at most ``parts`` contiguous chunks of at least ``min_rows``.

    Parameters
    ----------
    count : int
        Rows (points of a request).
    parts : int
        Wanted number of chunks (>= 1).
    min_rows : int
        Smallest chunk (>= 1).

    Returns
    -------
    list of (int, int)
        ``(start, stop)`` pairs covering ``0..count`` (empty for 0 rows).

    """
    if count <= 0:
        return []
    parts = max(1, min(int(parts), count // max(1, int(min_rows)) or 1))
    edges = np.linspace(0, count, parts + 1).round().astype(int)
    return [(int(a), int(b)) for a, b in zip(edges[:-1], edges[1:]) if b > a]


class EffortSolver:
    """
    Joint efforts of batches of states with one local scheme, thread-safe.

    Parameters
    ----------
    model : RobotModel
        The robot.
    threads : int
        Threads that split each batch.
    scheme : str
        One of :data:`SCHEMES`; ``auto`` and ``workers`` compute locally with
        ``threads`` (the node sends chunks to workers itself).
    friction : bool
        Include the joints' friction models.

    Raises
    ------
    InputError
        For an unknown scheme, a bad thread count, or ``rows`` with friction
        on a model that has friction (the row partition computes the
        rigid-body ``M qdd + Q`` only).

    """

    def __init__(self, model, threads=1, scheme='threads', friction=True):
        if scheme not in SCHEMES:
            raise InputError('scheme', f"must be one of {', '.join(SCHEMES)}, got {scheme!r}")
        self.model = model
        self.threads = thread_count(threads)
        self.scheme = scheme
        self.friction = bool(friction)
        tab = tables(model)
        if scheme == 'rows' and self.friction and (tab.has_load_friction
                                                   or tab.has_velocity_friction):
            raise InputError('scheme', f'rows computes rigid-body efforts (M qdd + Q) but '
                                       f'{model.name!r} has friction: set friction to false '
                                       'or use another scheme')
        self._lock = threading.Lock()
        self._engine = None
        if scheme == 'rows':
            from .rows import RowPartition
            self._engine = RowPartition(model)
        elif scheme == 'task_graph':
            from .taskexec import ScheduledDynamics
            self._engine = ScheduledDynamics(model, self.threads, customized=True)

    def compute(self, q, qd, qdd):
        """
        Compute the efforts of a batch of states.

        Parameters
        ----------
        q, qd, qdd : array_like
            States, (N, n) [rad, rad/s, rad/s^2 or m, m/s, m/s^2].

        Returns
        -------
        numpy.ndarray
            Efforts, (N, n) [N m or N].

        Raises
        ------
        InputError
            On wrong shapes or non-finite values.

        """
        q2, qd2, qdd2, _ = states(self.model, q, qd, qdd)
        if self.scheme in ('rows', 'task_graph'):
            with self._lock:
                if self._engine is None:
                    raise InputError('scheme', f'the {self.scheme} solver was closed (its '
                                               'parameters changed); send the request again')
                if self.scheme == 'task_graph':
                    return self._engine.run(q2, qd2, qdd2, friction=self.friction).tau
                mass, bias = self._engine.compute(q2, qd2)
            return np.einsum('nij,nj->ni', mass, qdd2) + bias
        return parallel_inverse_dynamics(self.model, q2, qd2, qdd2, threads=self.threads,
                                         friction=self.friction)

    def close(self):
        """Stop the threads of the scheme (after a computation in progress ends)."""
        with self._lock:
            if self._engine is not None:
                self._engine.close()
                self._engine = None

    def __repr__(self):
        return (f'EffortSolver({self.model.name!r}, threads={self.threads}, '
                f'scheme={self.scheme!r}, friction={self.friction})')
