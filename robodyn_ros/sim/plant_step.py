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
The semi-implicit sub-step of the plant in loop form (compiled with numba when installed).

The simulated board advances its plant once per inner period, in real
time; the NumPy form of the step spent most of its time in small array
operations around the two Pinocchio calls. The same arithmetic is written
here as loops over the joints (:func:`~robodyn_ros.control.jit.jitable`),
compiled by numba when it is installed and run as Python otherwise:

- :func:`friction_and_slope`: the velocity friction (Coulomb, Stribeck,
  viscous; seed 004's model with the smoothed sign) at ``qd`` and its slope
  ``d tau_f / d qd`` by a central difference of ``+-dv``;
- :func:`implicit_update`: ``qd' = qd + h qdd / (1 + h max(slope, 0) / M_ii)``,
  ``q' = q + h qd'`` (the friction's slope taken implicitly, per joint).

:func:`friction_table` packs the model's friction arrays for them. The
NumPy form stays in :class:`~robodyn_ros.sim.plant.Plant` (RK4, and the
reference the tests compare with).
"""

import math

import numpy as np

from ..control.jit import compiled, jitable

#: Rows of a friction table: band, Coulomb +/-, Stribeck +/-, Stribeck velocity, viscous +/-.
BAND, COULOMB_POS, COULOMB_NEG, STRIBECK_POS, STRIBECK_NEG, STRIBECK_VELOCITY, \
    VISCOUS_POS, VISCOUS_NEG = range(8)


def friction_table(tab, band):
    """
    Pack a model's velocity-friction arrays for :func:`friction_and_slope`.

    Parameters
    ----------
    tab : DynamicsTables
        The model's arrays.
    band : numpy.ndarray
        Width of the smoothed sign per joint, (n,) [rad/s or m/s]; 0 gives the sign.

    Returns
    -------
    numpy.ndarray
        (8, n) float64, the rows in the order of the module's row constants.

    """
    rows = (band, tab.coulomb_pos, tab.coulomb_neg, tab.stribeck_pos, tab.stribeck_neg,
            tab.stribeck_velocity, tab.viscous_pos, tab.viscous_neg)
    return np.ascontiguousarray(np.array(rows, dtype=float))


@jitable
def _friction(v, table, i):
    """Velocity friction of joint ``i`` at velocity ``v`` [rad/s] (N m or N)."""
    band = table[BAND, i]
    if band > 0.0:
        s = math.tanh(v / band)
    elif v > 0.0:
        s = 1.0
    elif v < 0.0:
        s = -1.0
    else:
        s = 0.0
    decay = math.exp(-abs(v) / table[STRIBECK_VELOCITY, i])
    return ((table[COULOMB_POS, i] + table[STRIBECK_POS, i] * decay) * max(s, 0.0)
            + (table[COULOMB_NEG, i] + table[STRIBECK_NEG, i] * decay) * min(s, 0.0)
            + table[VISCOUS_POS, i] * max(v, 0.0) + table[VISCOUS_NEG, i] * min(v, 0.0))


@jitable
def _friction_and_slope(qd, table, dv):
    n = qd.shape[0]
    torque = np.empty(n)
    slope = np.empty(n)
    for i in range(n):
        torque[i] = _friction(qd[i], table, i)
        slope[i] = (_friction(qd[i] + dv, table, i)
                    - _friction(qd[i] - dv, table, i)) / (2.0 * dv)
    return torque, slope


@jitable
def _implicit_update(q, qd, qdd, slope, inertia, h):
    n = q.shape[0]
    q_new = np.empty(n)
    qd_new = np.empty(n)
    qdd_new = np.empty(n)
    for i in range(n):
        v = qd[i] + h * qdd[i] / (1.0 + h * max(slope[i], 0.0) / inertia[i])
        qd_new[i] = v
        q_new[i] = q[i] + h * v
        qdd_new[i] = (v - qd[i]) / h
    return q_new, qd_new, qdd_new


#: ``(torque, slope) = friction_and_slope(qd, table, dv)``: (n,) each [N m or N; N m s/rad].
friction_and_slope = compiled(_friction_and_slope)

#: ``(q, qd, qdd) = implicit_update(q, qd, qdd, slope, inertia, h)``: new arrays, (n,) each.
implicit_update = compiled(_implicit_update)


def warm():
    """
    Compile (or load from numba's cache) both steps now, not in a real-time loop.

    Returns
    -------
    str
        What runs them: ``'numba'`` or ``'python'``.

    """
    from ..control.jit import AVAILABLE
    one = np.ones(1)
    friction_and_slope(one, np.ones((8, 1)), 1e-6)
    implicit_update(one, one, one, one, one, 1e-3)
    return 'numba' if AVAILABLE else 'python'
