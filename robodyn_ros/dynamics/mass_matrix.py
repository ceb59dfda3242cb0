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
Joint-space inertia matrix, gravity and bias vectors.

The inertia matrix comes from the composite-rigid-body algorithm; gravity
and bias vectors from the RNE.
"""

import numpy as np

from .inputs import state_array
from .rne import inverse_dynamics, joint_transforms
from .spatial import child_transform, motion_subspace, spatial_inertias
from .tables import tables


def mass_matrix(model, q):
    """
    Joint-space inertia matrix ``M(q)``, rotor inertia on the diagonal.

    Composite rigid bodies (Walker-Orin's method 3) over any kinematic tree.

    Parameters
    ----------
    model : RobotModel
        The model.
    q : array_like
        Joint positions, (n,) or (N, n) [rad or m].

    Returns
    -------
    numpy.ndarray
        (n, n) or (N, n, n) [kg m^2, kg m or kg], symmetric positive definite.

    """
    qa = state_array(q, model.n, 'q')
    single = qa.ndim == 1
    q2 = np.atleast_2d(qa)
    tab = tables(model)
    count, n = q2.shape
    rot, pos = joint_transforms(tab, q2)
    x = child_transform(rot, pos)
    s = motion_subspace(tab)
    ic = np.broadcast_to(spatial_inertias(tab), (count, n, 6, 6)).copy()
    for i in range(n - 1, -1, -1):
        par = tab.parent[i]
        if par >= 0:
            ic[:, par] += np.swapaxes(x[:, i], -1, -2) @ ic[:, i] @ x[:, i]
    m = np.zeros((count, n, n))
    for i in range(n):
        f = ic[:, i] @ s[i]
        m[:, i, i] = f @ s[i] + tab.armature[i]
        j = i
        while tab.parent[j] >= 0:
            f = np.einsum('nji,nj->ni', x[:, j], f)
            j = tab.parent[j]
            m[:, i, j] = m[:, j, i] = f @ s[j]
    return m[0] if single else m


def gravity_torques(model, q):
    """
    Gravity torques ``g(q)``: the torque that holds the robot still.

    Parameters
    ----------
    model : RobotModel
        The model.
    q : array_like
        Joint positions, (n,) or (N, n) [rad or m].

    Returns
    -------
    numpy.ndarray
        Same shape as ``q`` [N m or N].

    """
    qa = state_array(q, model.n, 'q')
    zero = np.zeros_like(qa)
    return inverse_dynamics(model, qa, zero, zero, friction=False)


def bias_forces(model, q, qd, *, friction=True):
    """
    Bias forces ``C(q, qd) qd + g(q)`` plus friction: the torque at zero acceleration.

    Parameters
    ----------
    model : RobotModel
        The model.
    q, qd : array_like
        Joint positions and velocities, (n,) or (N, n).
    friction : bool
        Add the joint friction (as in :func:`inverse_dynamics`).

    Returns
    -------
    numpy.ndarray
        Same shape as ``q`` [N m or N].

    """
    qa = state_array(q, model.n, 'q')
    qda = state_array(qd, model.n, 'qd', qa.shape)
    return inverse_dynamics(model, qa, qda, np.zeros_like(qa), friction=friction)
