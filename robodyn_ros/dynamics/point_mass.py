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
Joint torques of a point mass fixed in a frame of the robot (numpy reference).

The payload model of the controllers: a point mass ``m`` at ``c`` in a
frame, the same load as :meth:`RobotModel.with_payload` without an inertia.
Its rigid-body torque is ``m y(q, qd, qdd, c)`` exactly, with ``y`` the torque
of 1 kg at ``c``, computed here from the motion of the frame's body (forward
recursion of :mod:`.rne`): force ``a + dw x p + w x (w x p)`` per kilogram at
``p``, moment ``p x f`` about the body origin, carried down the chain of
ancestors. The generated kernels (``payload_torque``) do the same in C.
"""

import numpy as np

from .inputs import state_array, state_batches
from .rne import cross, motion_pass
from .tables import tables


def point_mass_torque(model, q, qd, qdd, com, frame=None, gravity=True):
    """
    Rigid-body joint torques of a 1 kg point mass at ``com`` in ``frame``.

    Parameters
    ----------
    model : RobotModel
        The robot (its own masses do not enter).
    q, qd, qdd : array_like
        Positions, velocities, accelerations, (n,) or (N, n).
    com : array_like
        Centre of mass in ``frame``, (3,) or (N, 3) [m].
    frame : str, optional
        Frame the mass is fixed to; default ``model.end_effector``.
    gravity : bool
        Include gravity.

    Returns
    -------
    numpy.ndarray
        Torques per kilogram, same shape as ``q`` [N m/kg or N/kg]; zero when
        the frame is on the root.

    Raises
    ------
    InputError
        On a wrong shape or a non-finite value.

    """
    single, q2, qd2, qdd2 = state_batches(model, q, qd, qdd)
    c = state_array(com, 3, 'com')
    if c.ndim == 2 and c.shape[0] != q2.shape[0]:
        state_array(com, 3, 'com', (q2.shape[0], 3))
    tab = tables(model)
    place = model.frame(frame or model.end_effector)
    tau = np.zeros_like(q2)
    if place.body >= 0:
        mp = motion_pass(tab, q2, qd2, qdd2, gravity)
        i = place.body
        p = c @ place.rotation.T + place.translation
        w, dw = mp.w[:, i], mp.dw[:, i]
        force = mp.acc[:, i] + cross(dw, p) + cross(w, cross(w, p))
        moment = cross(p, force)
        while i >= 0:
            tau[:, i] = (force if tab.prismatic[i] else moment) @ tab.axis[i]
            if tab.parent[i] < 0:
                break
            rot = mp.rot[:, i]
            f_par = np.einsum('nij,nj->ni', rot, force)
            moment = np.einsum('nij,nj->ni', rot, moment) + cross(mp.pos[:, i], f_par)
            force = f_par
            i = tab.parent[i]
    return tau[0] if single else tau
