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

:func:`friction_table` packs the model's friction arrays for them.

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

import math
import os
import threading
import warnings

import numpy as np

#: Rows of a friction table: band, Coulomb +/-, Stribeck +/-, Stribeck velocity, viscous +/-.
BAND, COULOMB_POS, COULOMB_NEG, STRIBECK_POS, STRIBECK_NEG, STRIBECK_VELOCITY, \
    VISCOUS_POS, VISCOUS_NEG = range(8)

_STATE = {'compiled': None, 'thread': None}
_LOCK = threading.Lock()            # held by load for the whole compile
_START_LOCK = threading.Lock()      # only to start the thread once: start never waits


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
        torque[i] = _friction(qd[i], table, i)
        slope[i] = (_friction(qd[i] + dv, table, i)
                    - _friction(qd[i] - dv, table, i)) / (2.0 * dv)
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


def load():
    """
    Compile both functions (or load them from numba's cache) in this thread.

    Returns
    -------
    tuple or None
        ``(friction_and_slope, implicit_update)`` compiled, or None without
        numba (or with ``ROBODYN_NO_NUMBA=1``).

    """
    with _LOCK:
        if _STATE['compiled'] is not None:
            return _STATE['compiled']
        if os.environ.get('ROBODYN_NO_NUMBA'):
            return None
        try:
            import numba
        except ImportError:
            return None
        try:
            from numba.extending import register_jitable
            register_jitable(_friction)     # compiled code may call it; stays a Python function
            jit = numba.njit(cache=True)
            pair = (jit(friction_and_slope), jit(implicit_update))
            one = np.ones(1)
            pair[0](one, np.ones((8, 1)), 1e-6)      # compile (or load) now, not in a cycle
            pair[1](one, one, one, one, one, 1e-3)
        except Exception as exc:   # noqa: B902 - any numba failure: the NumPy form stays
            warnings.warn(f'the plant step could not be compiled ({type(exc).__name__}: '
                          f'{exc}); the NumPy form runs', RuntimeWarning)
            return None
        for func in pair:
            # Never compile in a cycle: another argument type raises TypeError instead
            # (the plant then takes its NumPy form for that step).
            func.disable_compile()
        _STATE['compiled'] = pair
        return pair


def start():
    """Start :func:`load` in a background thread, once per process (returns at once)."""
    with _START_LOCK:
        if _STATE['thread'] is None:
            _STATE['thread'] = threading.Thread(target=load, name='plant_step_compile',
                                                daemon=True)
            _STATE['thread'].start()


def compiled():
    """
    Return the compiled pair once the background load has finished, else None.

    Returns
    -------
    tuple or None
        ``(friction_and_slope, implicit_update)``.

    """
    return _STATE['compiled']
