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
Symbolic torque of a point-mass payload whose mass and position are inputs.

The payload is a point mass fixed in a frame chosen at generation time
(``DynParams.payload``); its centre of mass ``c`` in that frame is a run-time
input. At ``p = R c + t`` (the body's axis-aligned frame) it needs the force
``f = a + U p`` per kilogram (``a`` the body origin's acceleration with
gravity, ``U`` the acceleration matrix of the recursion) and the moment
``p x f`` about the body origin; that wrench travels down the chain of
ancestors exactly as in the backward pass of :func:`.sym_rne.rne`. This is
the rigid-body torque of :meth:`RobotModel.with_payload` with a point mass
(inertia about the origin ``m (|p|^2 I - p p^T)``), written linear in the
mass, so the motion nodes of the robot's own recursion are shared.
"""

from .spatial import cmatvec, const_vec, cross, umatvec, vadd


def payload_position(g, params, com):
    """
    Position of the payload in its body's axis-aligned frame (nodes).

    Parameters
    ----------
    g : Graph
        The graph.
    params : DynParams
        Model data (``payload`` placement).
    com : list of int
        Centre of mass in the payload frame, three nodes [m].

    Returns
    -------
    list of int
        ``R c + t`` [m].

    """
    place = params.payload
    return vadd(g, cmatvec(g, place.rot, com), const_vec(g, place.trans))


def chain_torques(g, params, transforms, body, force, moment):
    """
    Joint torques of one wrench applied to a body, carried down to the root.

    Parameters
    ----------
    g : Graph
        The graph.
    params : DynParams
        Model data (tree, joint kinds).
    transforms : list of JointTransform
        Joint transforms of the recursion.
    body : int
        Body the wrench acts on.
    force, moment : list of int
        Force and moment about the body origin, body frame.

    Returns
    -------
    list of int
        One torque node per joint (zero off the chain of ancestors).

    """
    tau = [g.zero] * params.n
    i = body
    while i >= 0:
        b = params.bodies[i]
        tau[i] = force[2] if b.prismatic else moment[2]
        if b.parent < 0:
            break
        t = transforms[i]
        f_par = t.to_parent(force)
        moment = vadd(g, t.to_parent(moment), cross(g, t.trans, f_par))
        force = f_par
        i = b.parent
    return tau


def point_mass_torque(g, params, res, com):
    """
    Rigid-body joint torques of a 1 kg point mass at ``com`` in the payload frame.

    Parameters
    ----------
    g : Graph
        The graph.
    params : DynParams
        Model data.
    res : SymRne
        The robot's recursion at the same state (motion nodes, transforms).
    com : list of int
        Centre of mass in the payload frame, three nodes [m].

    Returns
    -------
    list of int
        Torque per kilogram [N m/kg or N/kg] (gravity included as in ``res``);
        all zero when the payload frame is on the root.

    """
    b = params.payload.body
    if b < 0:
        return [g.zero] * params.n
    p = payload_position(g, params, com)
    force = vadd(g, res.acc[b], umatvec(g, res.umat[b], p))
    return chain_torques(g, params, res.transforms, b, force, cross(g, p, force))


def with_payload(g, tau, mass, unit):
    """
    Return ``tau + mass unit`` per joint (nodes).

    Parameters
    ----------
    g : Graph
        The graph.
    tau : list of int
        Torques without the payload.
    mass : int
        Payload mass node [kg].
    unit : list of int
        Torques of a 1 kg payload.

    Returns
    -------
    list of int
        Torques with the payload.

    """
    return [g.add(t, g.mul(mass, y)) for t, y in zip(tau, unit)]
