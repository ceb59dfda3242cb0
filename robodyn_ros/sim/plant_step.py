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
The semi-implicit sub-step of the plant in loop form, compiled by numba in the background.

The simulated board advances its plant once per inner period, in real
time; the NumPy form of the step spends most of its time in small array
operations around the two Pinocchio calls. The same arithmetic is written
here as loops over the joints:

- :func:`friction_and_slope`: the velocity friction (Coulomb, Stribeck,
  viscous; seed 004's model with the smoothed sign) at ``qd`` and its slope
  ``d tau_f / d qd`` by a central difference of ``+-dv``;
- :func:`implicit_update`: ``qd' = qd + h qdd / (1 + h max(slope, 0) / M_ii)``,
  ``q' = q + h qd'`` (the friction's slope taken implicitly, per joint).

:func:`~robodyn_ros.friction.loop_form.friction_table` packs the model's friction
arrays for them; the friction of one joint is
:func:`~robodyn_ros.friction.loop_form.joint_friction`, shared with the
friction compensation. The compile is a
:class:`~robodyn_ros.realtime.compiled_functions.CompiledFunctions`.

Importing numba and loading the compiled code takes about 0.3 s, which
every simulated board would pay before it answers. So :func:`start`
does it in a background thread, once per process, and :func:`compiled`
returns the compiled pair once it is there (None until then, and always
None without numba or with ``ROBODYN_NO_NUMBA=1``): the plant runs its
NumPy form until then (the same numbers; ``test/test_plant_step.py``).
The pair compiles for C-contiguous float64 arrays only and never again: an
argument of another type raises ``TypeError`` and the plant takes its
NumPy form for that step, so no compile ever runs inside a board cycle.
:func:`load` does the same work in the calling thread (``robodyn warm``,
tests). numba's on-disk cache lives next to this file, as the control
laws' (:mod:`robodyn_ros.control.jit`).
"""

import numpy as np

from ..friction.loop_form import friction_table, joint_friction
from ..realtime.compiled_functions import CompiledFunctions


def friction_and_slope(qd, table, dv):
    """
    Velocity friction and its slope per joint (loop form; compiled by :func:`load`).

    Parameters
    ----------
    qd : numpy.ndarray
        Joint velocities, (n,) [rad/s or m/s].
    table : numpy.ndarray
        :func:`friction_table`, (8, n).
    dv : float
        Half-width of the central difference [rad/s or m/s].

    Returns
    -------
    tuple of numpy.ndarray
        Torque [N m or N] and slope [N m s/rad or N s/m], (n,) each.

    """
    n = qd.shape[0]
    torque = np.empty(n)
    slope = np.empty(n)
    for i in range(n):
        torque[i] = joint_friction(qd[i], table, i)
        slope[i] = (joint_friction(qd[i] + dv, table, i)
                    - joint_friction(qd[i] - dv, table, i)) / (2.0 * dv)
    return torque, slope


def implicit_update(q, qd, qdd, slope, inertia, h):
    """
    One semi-implicit Euler step with the friction's slope taken implicitly (loop form).

    Parameters
    ----------
    q, qd : numpy.ndarray
        State before the step, (n,).
    qdd : numpy.ndarray
        Accelerations for the torque left after the friction, (n,).
    slope : numpy.ndarray
        Friction slope, (n,); negative slopes are not taken implicitly.
    inertia : numpy.ndarray
        Diagonal of the mass matrix, (n,).
    h : float
        Step [s].

    Returns
    -------
    tuple of numpy.ndarray
        New ``(q, qd, qdd)``, new arrays of shape (n,).

    """
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


def _warm(pair):
    one = np.ones(1)
    pair[0](one, np.ones((8, 1)), 1e-6)
    pair[1](one, one, one, one, one, 1e-3)


#: The compiled pair (``_SET.get()``: ``(friction_and_slope, implicit_update)`` or None).
_SET = CompiledFunctions('the plant step', (friction_and_slope, implicit_update), _warm,
                         helpers=(joint_friction,))
_LOCK = _SET.lock          # held by load for the whole compile

#: Compile the pair in this thread (tuple, or None without numba).
load = _SET.load
#: Start :func:`load` in a background thread, once per process (returns at once).
start = _SET.start
#: The compiled pair once the background load has finished, else None (never waits).
compiled = _SET.get

__all__ = ['compiled', 'friction_and_slope', 'friction_table', 'implicit_update', 'load',
           'start']
