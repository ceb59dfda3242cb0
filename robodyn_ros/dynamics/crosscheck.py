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
Cross-check of our dynamics against Pinocchio on random states.

Used by ``robodyn check`` and by the tests. Friction is off on both sides
(Pinocchio has none); rotor inertia is on both sides (Pinocchio's
``armature``).
"""

import numpy as np

from .coriolis import coriolis_matrix
from .forward import forward_dynamics
from .mass_matrix import bias_forces, gravity_torques, mass_matrix
from .rne import inverse_dynamics

#: Quantities compared, with the Pinocchio function each is checked against.
QUANTITIES = {
    'rnea': 'inverse dynamics vs pinocchio.rnea',
    'crba': 'mass matrix vs pinocchio.crba',
    'aba': 'forward dynamics (ABA) vs pinocchio.aba',
    'gravity': 'gravity vs pinocchio.computeGeneralizedGravity',
    'nle': 'bias forces vs pinocchio.nonLinearEffects',
    'coriolis': 'Coriolis matrix vs pinocchio.computeCoriolisMatrix',
}


def random_states(model, count, seed=0, speed=2.0, accel=5.0):
    """
    Random joint states within the position limits.

    Parameters
    ----------
    model : RobotModel
        The model.
    count : int
        Number of states N.
    seed : int
        Random seed.
    speed, accel : float
        Standard deviation of velocities [rad/s] and accelerations [rad/s^2].

    Returns
    -------
    tuple of numpy.ndarray
        ``(q, qd, qdd)``, each (N, n).

    """
    rng = np.random.default_rng(seed)
    q = np.array([model.random_configuration(rng) for _ in range(count)]).reshape(count, model.n)
    qd = rng.normal(0.0, speed, (count, model.n))
    qdd = rng.normal(0.0, accel, (count, model.n))
    return q, qd, qdd


def _rel(ours, ref):
    scale = max(1.0, float(np.max(np.abs(ref))))
    return float(np.max(np.abs(np.asarray(ours) - np.asarray(ref)))) / scale


def cross_check(model, count=1000, seed=0):
    """
    Largest relative error of each quantity against Pinocchio.

    The error of a state is ``max|ours - pinocchio| / max(1, max|pinocchio|)``;
    the result is the largest over all states.

    Parameters
    ----------
    model : RobotModel
        The model.
    count : int
        Number of random states.
    seed : int
        Random seed.

    Returns
    -------
    dict
        Quantity name (see :data:`QUANTITIES`) to largest relative error.

    """
    import pinocchio as pin

    from ..pinocchio_bridge import PinocchioBridge
    bridge = PinocchioBridge(model)
    pm, pd = bridge.pin_model, bridge.pin_data
    q, qd, qdd = random_states(model, count, seed)
    tau = inverse_dynamics(model, q, qd, qdd, friction=False)
    mass = mass_matrix(model, q)
    acc = forward_dynamics(model, q, qd, tau, friction=False)
    grav = gravity_torques(model, q)
    nle = bias_forces(model, q, qd, friction=False)
    cor = coriolis_matrix(model, q, qd)
    worst = dict.fromkeys(QUANTITIES, 0.0)
    for k in range(count):
        pq, pv, pa = bridge.q(q[k]), bridge.v(qd[k]), bridge.v(qdd[k])
        ref_tau = bridge.from_v(pin.rnea(pm, pd, pq, pv, pa))
        worst['rnea'] = max(worst['rnea'], _rel(tau[k], ref_tau))
        ref_m = bridge.from_matrix(pin.crba(pm, pd, pq))
        ref_m = np.triu(ref_m) + np.triu(ref_m, 1).T
        worst['crba'] = max(worst['crba'], _rel(mass[k], ref_m))
        ref_acc = bridge.from_v(pin.aba(pm, pd, pq, pv, bridge.v(tau[k])))
        worst['aba'] = max(worst['aba'], _rel(acc[k], ref_acc))
        ref_g = bridge.from_v(pin.computeGeneralizedGravity(pm, pd, pq))
        worst['gravity'] = max(worst['gravity'], _rel(grav[k], ref_g))
        ref_nle = bridge.from_v(pin.nonLinearEffects(pm, pd, pq, pv))
        worst['nle'] = max(worst['nle'], _rel(nle[k], ref_nle))
        ref_c = bridge.from_matrix(pin.computeCoriolisMatrix(pm, pd, pq, pv))
        worst['coriolis'] = max(worst['coriolis'], _rel(cor[k], ref_c))
    return worst
