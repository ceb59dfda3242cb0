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

"""Input checks and the torque assembly shared by the parallel schemes."""

import numpy as np

from ..dynamics.inputs import state_array
from ..dynamics.tables import tables
from ..errors import InputError
from ..friction.models import load_friction, velocity_friction


def states(model, q, qd, qdd, names=('q', 'qd', 'qdd'), finite=True):
    """
    Validate positions, velocities and accelerations as a batch.

    Parameters
    ----------
    model : RobotModel
        The robot.
    q, qd, qdd : array_like
        (n,) or (N, n) [rad, rad/s, rad/s^2 or m, m/s, m/s^2].
    names : tuple of str
        Argument names for error messages.
    finite : bool
        Check every entry for NaN and inf (see
        :func:`robodyn_ros.dynamics.inputs.state_array`).

    Returns
    -------
    tuple
        ``(q, qd, qdd, single)``: C-contiguous (N, n) float arrays and
        whether one state was given.

    Raises
    ------
    InputError
        On a wrong shape or a non-finite entry.

    """
    qa = state_array(q, model.n, names[0], finite=finite)
    qda = state_array(qd, model.n, names[1], qa.shape, finite=finite)
    qdda = state_array(qdd, model.n, names[2], qa.shape, finite=finite)
    single = qa.ndim == 1
    return (np.ascontiguousarray(np.atleast_2d(qa)), np.ascontiguousarray(np.atleast_2d(qda)),
            np.ascontiguousarray(np.atleast_2d(qdda)), single)


def thread_count(threads, argument='threads'):
    """
    Check a thread or worker count.

    Parameters
    ----------
    threads : int
        Requested count.
    argument : str
        Name for the error message.

    Returns
    -------
    int
        The count (>= 1).

    Raises
    ------
    InputError
        If it is not an integer >= 1.

    """
    try:
        valid = not isinstance(threads, bool) and int(threads) == threads and threads >= 1
    except (TypeError, ValueError):
        valid = False
    if not valid:
        raise InputError(argument, f'must be an integer >= 1, got {threads!r}')
    return int(threads)


def finish_torques(model, tau_rigid, qd, qdd, force, moment, friction=True):
    """
    Turn rigid-body torques and joint reactions into joint torques.

    The same assembly as :func:`robodyn_ros.dynamics.rne.inverse_dynamics`:
    load-dependent friction from the reaction wrenches (seed 004: friction
    is a post-processor of the frictionless recursion), rotor inertia, then
    velocity friction.

    Parameters
    ----------
    model : RobotModel
        The robot.
    tau_rigid : numpy.ndarray
        Rigid-body torques, (N, n) [N m or N].
    qd, qdd : numpy.ndarray
        Velocities and accelerations, (N, n).
    force, moment : numpy.ndarray
        Reaction force and moment at each joint origin in the body frames,
        (N, n, 3) [N, N m].
    friction : bool
        Include the friction models of the joints.

    Returns
    -------
    numpy.ndarray
        Joint torques, (N, n) [N m or N].

    """
    tab = tables(model)
    tau = tau_rigid
    if friction and tab.has_load_friction:
        tau = load_friction(tab, tau, qd, force, moment)
    tau = tau + tab.armature * qdd
    if friction and tab.has_velocity_friction:
        tau = tau + velocity_friction(tab, qd)
    return tau
