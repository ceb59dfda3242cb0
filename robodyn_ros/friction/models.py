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
Joint friction models of the seeds, evaluated for one state or a batch.

Velocity friction (seed 001 eq. 7.26 with seed 003's asymmetric levels)::

    s = tanh(qd / eps)            (sign(qd) when eps = 0)
    tau_v = (Fc+ + dFs+ e) s+ + (Fc- + dFs- e) s- + Fv+ qd+ + Fv- qd-
    e = exp(-|qd| / vs),  dFs = Fs - Fc,  x+ = max(x, 0),  x- = min(x, 0)

Load-dependent friction (seed 004): bearing friction from the joint reaction
wrench of the rigid-body recursion (Table 3.1; the journal formula is derived
from the statics of two bearings a span ``d`` apart), and transmission losses
(Table 3.2: efficiency ``eta(|tau_out| / tau_rated)`` and break-away torque
``tau_B``), blended smoothly across zero velocity with the same ``s``.

The joint torque is assembled as::

    tau_out = tau_rigid + tau_bearing
    tau = T(tau_out, qd) + Ia qdd + tau_v

where ``T`` is the transmission map (identity without a transmission model).
All torques are joint side [N m or N].
"""

from dataclasses import replace

import numpy as np

from ..model.joint import Friction


def smooth_sign(qd, eps):
    """
    Smoothed sign of the joint velocity.

    Parameters
    ----------
    qd : numpy.ndarray
        Joint velocities, (..., n) [rad/s or m/s].
    eps : numpy.ndarray
        Band width per joint, (n,); 0 gives ``sign(qd)``.

    Returns
    -------
    numpy.ndarray
        Values in [-1, 1], same shape as ``qd``.

    """
    eps = np.asarray(eps, dtype=float)
    safe = np.where(eps > 0.0, eps, 1.0)
    return np.where(eps > 0.0, np.tanh(qd / safe), np.sign(qd))


def velocity_friction(tab, qd):
    """
    Coulomb, viscous and Stribeck friction torque.

    Parameters
    ----------
    tab : DynamicsTables
        Model arrays.
    qd : numpy.ndarray
        Joint velocities, (..., n) [rad/s or m/s].

    Returns
    -------
    numpy.ndarray
        Friction torque opposing the motion, same shape as ``qd`` [N m or N].

    """
    s = smooth_sign(qd, tab.smoothing_velocity)
    sp, sn = np.maximum(s, 0.0), np.minimum(s, 0.0)
    decay = np.exp(-np.abs(qd) / tab.stribeck_velocity)
    return ((tab.coulomb_pos + tab.stribeck_pos * decay) * sp
            + (tab.coulomb_neg + tab.stribeck_neg * decay) * sn
            + tab.viscous_pos * np.maximum(qd, 0.0) + tab.viscous_neg * np.minimum(qd, 0.0))


def bearing_torque(kind, mu, radius, span, f, m):
    """
    Magnitude of the bearing friction of one joint (seed 004, Table 3.1).

    Parameters
    ----------
    kind : str
        ``'journal'``, ``'thrust'`` or ``'linear'``.
    mu, radius, span : float
        Coefficient, journal radius [m] and bearing span [m].
    f, m : numpy.ndarray
        Reaction force [N] and moment [N m] at the joint, (..., 3), in a
        frame whose z axis is the joint axis.

    Returns
    -------
    numpy.ndarray
        Friction magnitude (>= 0), shape (...,) [N m, or N for ``'linear'``].

    """
    fx, fy, fz = f[..., 0], f[..., 1], f[..., 2]
    nx, ny = m[..., 0], m[..., 1]
    if kind == 'thrust':
        return mu * radius * np.abs(fz)
    if kind == 'linear':
        if span <= 0.0:
            return mu * (np.abs(fx) + np.abs(fy))
        h = 0.5 * span
        return mu / span * (np.abs(h * fx - ny) + np.abs(h * fy - nx)
                            + np.abs(h * fx + ny) + np.abs(h * fy + nx))
    if span <= 0.0:
        return mu * radius * np.hypot(fx, fy)
    h = 0.5 * span
    # Two bearings at z = +-span/2 carry the radial force and the bending moment.
    load1 = np.hypot(h * fx + ny, h * fy - nx)
    load2 = np.hypot(h * fx - ny, h * fy + nx)
    return mu * radius / span * (load1 + load2)


def efficiency(load, eta, ratio):
    """
    Transmission efficiency at a load ratio (linear interpolation, clamped).

    Parameters
    ----------
    load, eta : numpy.ndarray
        Curve points: ``|tau_out| / tau_rated`` and efficiency.
    ratio : numpy.ndarray
        Load ratios to evaluate.

    Returns
    -------
    numpy.ndarray
        Efficiency in (0, 1].

    """
    return np.interp(ratio, load, eta)


def transmission_input(breakaway, rated, load, eta, tau_out, s):
    """
    Input torque of a lossy transmission (seed 004, Table 3.2), smooth in velocity.

    Parameters
    ----------
    breakaway, rated : float
        Break-away torque ``tau_B`` and rated torque [N m].
    load, eta : numpy.ndarray
        Efficiency curve.
    tau_out : numpy.ndarray
        Output (link-side) torque, (...,) [N m].
    s : numpy.ndarray
        Smoothed sign of the joint velocity, (...,).

    Returns
    -------
    numpy.ndarray
        Input torque referred to the joint side, (...,) [N m].

    """
    e = efficiency(load, eta, np.abs(tau_out) / rated)
    driving_pos = np.where(tau_out > 0.0, tau_out / e, tau_out * e) + breakaway
    driving_neg = np.where(tau_out < 0.0, tau_out / e, tau_out * e) - breakaway
    return 0.5 * (1.0 + s) * driving_pos + 0.5 * (1.0 - s) * driving_neg


def load_friction(tab, tau_rigid, qd, force, moment):
    """
    Apply bearing and transmission friction to the rigid-body torque.

    Parameters
    ----------
    tab : DynamicsTables
        Model arrays.
    tau_rigid : numpy.ndarray
        Rigid-body joint torque, (..., n).
    qd : numpy.ndarray
        Joint velocities, (..., n).
    force, moment : numpy.ndarray
        Joint reaction force and moment in each body frame, (..., n, 3).

    Returns
    -------
    numpy.ndarray
        Joint-side input torque ``T(tau_rigid + tau_bearing, qd)``, (..., n).

    """
    out = np.array(tau_rigid, dtype=float, copy=True)
    s = smooth_sign(qd, tab.smoothing_velocity)
    for i in range(tab.n):
        b = tab.bearing[i]
        if b is not None:
            kind, mu, radius, span = b
            basis = tab.basis[i]
            f = force[..., i, :] @ basis.T
            m = moment[..., i, :] @ basis.T
            out[..., i] += s[..., i] * bearing_torque(kind, mu, radius, span, f, m)
        t = tab.transmission[i]
        if t is not None:
            out[..., i] = transmission_input(t[0], t[1], t[2], t[3], out[..., i], s[..., i])
    return out


def with_joint_friction(model, coulomb, viscous, smoothing_velocity=0.01):
    """
    Give every joint symmetric Coulomb and viscous friction.

    Parameters
    ----------
    model : RobotModel
        The model.
    coulomb : array_like
        Coulomb level per joint [N m].
    viscous : array_like
        Viscous coefficient per joint [N m s/rad].
    smoothing_velocity : float
        Width of the smooth sign [rad/s].

    Returns
    -------
    RobotModel
        The changed model (other friction terms removed).

    """
    c = np.broadcast_to(np.asarray(coulomb, dtype=float), (model.n,))
    v = np.broadcast_to(np.asarray(viscous, dtype=float), (model.n,))
    return model.replace_joints([
        j.with_changes(friction=Friction(c[i], c[i], v[i], v[i],
                                         smoothing_velocity=smoothing_velocity))
        for i, j in enumerate(model.joints)])


def without_friction(model):
    """
    Remove all joint friction.

    Parameters
    ----------
    model : RobotModel
        The model.

    Returns
    -------
    RobotModel
        Same model, frictionless.

    """
    return model.replace_joints([j.with_changes(friction=Friction()) for j in model.joints])


def without_load_friction(model):
    """
    Remove the load-dependent (bearing and transmission) friction of every joint.

    What remains (rigid body, rotor inertia, Coulomb, viscous and Stribeck
    friction) is linear in the standard parameters:
    ``inverse_dynamics(without_load_friction(m), ...) = regressor(m, ...) @
    parameter_vector(m)``.

    Parameters
    ----------
    model : RobotModel
        The model.

    Returns
    -------
    RobotModel
        Same model, with the velocity-dependent friction only.

    """
    return model.replace_joints([
        j.with_changes(friction=replace(j.friction, bearing=None, transmission=None))
        for j in model.joints])
