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
The velocity friction in loop form, for code that numba compiles.

:func:`~robodyn_ros.friction.models.velocity_friction` is the reference: NumPy
expressions over all joints. The same law, joint by joint and scalar by
scalar, is written here so that numba can compile it into the per-cycle
code of the simulated plant (:mod:`robodyn_ros.sim.plant_step`) and of the
friction compensation (:mod:`.compensation`):

- :func:`friction_table` packs a model's friction arrays into one (8, n)
  array (rows: the module's constants);
- :func:`joint_friction` is the friction of one joint at one velocity;
- :func:`scaled_friction` is ``k tau_v(qd)`` for every joint.

:data:`COMPILED` holds the compiled :func:`scaled_friction`
(:class:`~robodyn_ros.realtime.compiled_functions.CompiledFunctions`).
"""

import math

import numpy as np

from ..realtime.compiled_functions import CompiledFunctions

#: Rows of a friction table: band, Coulomb +/-, Stribeck +/-, Stribeck velocity, viscous +/-.
BAND, COULOMB_POS, COULOMB_NEG, STRIBECK_POS, STRIBECK_NEG, STRIBECK_VELOCITY, \
    VISCOUS_POS, VISCOUS_NEG = range(8)


def friction_table(tab, band):
    """
    Pack a model's velocity-friction arrays for the loop form.

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


def joint_friction(v, table, i):
    """
    Velocity friction of joint ``i`` at velocity ``v``.

    Parameters
    ----------
    v : float
        Joint velocity [rad/s or m/s].
    table : numpy.ndarray
        :func:`friction_table`, (8, n).
    i : int
        Joint index.

    Returns
    -------
    float
        Friction torque opposing the motion [N m or N].

    """
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


def scaled_friction(qd, table, scale):
    """
    Velocity friction of every joint, times a scale (loop form).

    Parameters
    ----------
    qd : numpy.ndarray
        Joint velocities, (n,) [rad/s or m/s], C-contiguous float64 for the
        compiled form.
    table : numpy.ndarray
        :func:`friction_table`, (8, n).
    scale : float
        Factor ``k``.

    Returns
    -------
    numpy.ndarray
        ``k tau_v(qd)``, (n,) [N m or N]; a new array.

    Raises
    ------
    ValueError
        If ``qd`` and the table differ in length.

    """
    n = qd.shape[0]
    if table.shape[1] != n:
        raise ValueError('velocities and friction table differ in length')
    out = np.empty(n)
    for i in range(n):
        out[i] = scale * joint_friction(qd[i], table, i)
    return out


def _warm(compiled):
    compiled[0](np.zeros(1), np.ones((8, 1)), 1.0)


#: The compiled :func:`scaled_friction` (``COMPILED.get()``: a 1-tuple, or None).
COMPILED = CompiledFunctions('the friction compensation', (scaled_friction,), _warm,
                             helpers=(joint_friction,))
