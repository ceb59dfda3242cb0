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
Gain design from poles (seed 001 §9.3.1 and §9.4.2).

* Computed torque: the decoupled error obeys ``e'' + Kd e' + Kp e = 0``;
  with ``Kp = w^2`` and ``Kd = 2 zeta w`` its poles are those of a second
  order system of natural frequency ``w`` [rad/s] and damping ``zeta``
  (eq. 9.26; ``zeta = 1`` is critically damped).
* PID per joint on the model ``a_j q'' + Fv_j q' = tau`` (eq. 9.6): the
  characteristic polynomial ``a s^3 + (Kd + Fv) s^2 + Kp s + Ki`` (eq. 9.8)
  gets the triple real pole ``-w`` with ``Kp = 3 a w^2``, ``Kd = 3 a w -
  Fv``, ``Ki = a w^3`` (eq. 9.10). ``a_j`` is the largest diagonal inertia
  over the workspace (:func:`max_joint_inertia`), so that the loop is never
  underdamped.
"""

from dataclasses import dataclass

import numpy as np

from .checks import per_joint
from ..dynamics import mass_matrix
from ..errors import InputError


@dataclass(frozen=True, eq=False)
class PidGains:
    """
    Per-joint PID gains.

    Attributes
    ----------
    kp : numpy.ndarray
        Proportional gains, (n,) [N m/rad].
    kd : numpy.ndarray
        Derivative gains, (n,) [N m s/rad].
    ki : numpy.ndarray
        Integral gains, (n,) [N m/(rad s)].

    """

    kp: np.ndarray
    kd: np.ndarray
    ki: np.ndarray


def ct_gains(omega, zeta=1.0, n=None):
    """
    Computed-torque gains from the closed-loop natural frequency.

    Parameters
    ----------
    omega : float or array_like
        Natural frequency per joint [rad/s] (> 0).
    zeta : float or array_like
        Damping ratio (> 0); 1 is critically damped.
    n : int, optional
        Number of joints (to broadcast scalars).

    Returns
    -------
    tuple of numpy.ndarray
        ``(kp, kd)`` [1/s^2, 1/s].

    """
    count = n if n is not None else np.size(omega)
    w = per_joint(omega, count, 'omega', low=0.0, strict=True)
    z = per_joint(zeta, count, 'zeta', low=0.0, strict=True)
    return w * w, 2.0 * z * w


def triple_pole_pid(inertia, omega, viscous=0.0):
    """
    PID gains placing a triple pole at ``-omega`` (seed 001 eq. 9.10).

    Parameters
    ----------
    inertia : array_like
        ``a_j``: the largest diagonal inertia of each joint, (n,) [kg m^2].
    omega : float or array_like
        Pole magnitude per joint [rad/s]; keep it below half the
        structural resonance.
    viscous : float or array_like
        Viscous friction ``Fv_j`` of each joint [N m s/rad].

    Returns
    -------
    PidGains
        ``Kp = 3 a w^2``, ``Kd = 3 a w - Fv``, ``Ki = a w^3``.

    Raises
    ------
    InputError
        If the friction alone exceeds the derivative term (``Kd < 0``).

    """
    a = np.asarray(inertia, dtype=float)
    n = a.size
    a = per_joint(a, n, 'inertia', low=0.0, strict=True)
    w = per_joint(omega, n, 'omega', low=0.0, strict=True)
    fv = per_joint(viscous, n, 'viscous', low=0.0)
    kd = 3.0 * a * w - fv
    if np.any(kd < 0.0):
        j = int(np.argmin(kd))
        raise InputError('omega', f'joint {j}: viscous friction {fv[j]:g} exceeds 3 a w = '
                                  f'{3.0 * a[j] * w[j]:g}; choose a larger omega')
    return PidGains(3.0 * a * w * w, kd, a * w ** 3)


def pid_poles(inertia, gains, viscous=0.0):
    """
    Closed-loop poles of each PID joint loop (roots of seed 001 eq. 9.8).

    Parameters
    ----------
    inertia : array_like
        ``a_j`` per joint [kg m^2].
    gains : PidGains
        The gains.
    viscous : float or array_like
        ``Fv_j`` per joint [N m s/rad].

    Returns
    -------
    numpy.ndarray
        (n, 3) complex roots [rad/s].

    """
    a = np.asarray(inertia, dtype=float)
    fv = np.broadcast_to(np.asarray(viscous, dtype=float), a.shape)
    return np.array([np.roots([a[j], gains.kd[j] + fv[j], gains.kp[j], gains.ki[j]])
                     for j in range(a.size)])


def max_joint_inertia(model, samples=256, seed=0):
    """
    Largest diagonal inertia ``max_q M_jj(q)`` per joint (rotor inertia included).

    Parameters
    ----------
    model : RobotModel
        The model (with the heaviest payload it will carry).
    samples : int
        Random configurations within the joint limits.
    seed : int
        Random seed.

    Returns
    -------
    numpy.ndarray
        (n,) [kg m^2 or kg].

    """
    if samples < 1:
        raise InputError('samples', f'must be >= 1, got {samples}')
    rng = np.random.default_rng(seed)
    q = np.array([model.random_configuration(rng) for _ in range(samples)])
    q[0] = np.clip(np.zeros(model.n), model.lower_limits, model.upper_limits)
    diag = np.diagonal(mass_matrix(model, q), axis1=1, axis2=2)
    return diag.max(axis=0)
