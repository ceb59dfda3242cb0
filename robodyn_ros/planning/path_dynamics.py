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
The dynamics of a robot along a geometric path, per grid point (no rclpy).

On a path ``q(s)`` with path speed ``sd`` and acceleration ``sdd``, the joint
velocity is ``q' sd`` and the acceleration ``q' sdd + q'' sd^2``. With
``x = sd^2`` and ``u = sdd`` the rigid-body torque with rotor inertia is
exactly affine in ``(u, x)`` at each point::

    tau_rigid(s, u, x) = a(s) u + b(s) x + c(s)
    c = ID(q, 0, 0),  a = ID(q, 0, q') - c,  b = ID(q, q', q'') - c

where ``ID`` is the compiled inverse dynamics without friction
(:mod:`robodyn_ros.dynamics.codegen`, one batch call for the whole grid),
of the model that carries the payload. The joint reaction wrenches of the
recursion are affine in ``(u, x)`` the same way; they feed the load-dependent
friction (seed 004 bearings and transmissions). The velocity friction
depends on ``x`` only (through ``q' sqrt(x)``) and on the sign of ``q'``.
:class:`PathDynamics` holds these coefficients and the friction parameters
in flat arrays for :mod:`.reachability`.
"""

from dataclasses import dataclass

import numpy as np

from ..dynamics.rne import rne
from ..dynamics.tables import tables
from ..friction.models import velocity_friction

#: Bearing kinds as codes for the compiled torque function.
BEARING_CODES = {'journal': 1, 'thrust': 2, 'linear': 3}

#: Speeds scanned for the friction peak near zero velocity [rad/s or m/s].
PEAK_SPEEDS = np.logspace(-6.0, -1.0, 241)


@dataclass(frozen=True, eq=False)
class PathDynamics:
    """
    Coefficients of the torques along a path, per grid point.

    Attributes
    ----------
    s : numpy.ndarray
        Grid, (K,) [path units].
    q, dq, ddq : numpy.ndarray
        ``q(s)``, ``q'(s)``, ``q''(s)``, (K, n).
    a, b, c : numpy.ndarray
        Rigid-body torque (rotor inertia included) ``a u + b x + c``, (K, n).
    friction : bool
        Friction included.
    load : numpy.ndarray
        Joints with load-dependent friction, (n,) bool.
    ra, rb, rc : numpy.ndarray
        Rigid-body torque without rotor inertia (the transmission's output
        torque), (K, n).
    wa, wb, wc : numpy.ndarray
        Joint reaction wrench (force, moment) in each joint's bearing basis,
        (K, n, 6).
    fric : numpy.ndarray
        Velocity friction per joint, (n, 8): ``Fc+, Fc-, dFs+, dFs-, Fv+,
        Fv-, v_s, eps``.
    bear : numpy.ndarray
        Bearing per joint, (n, 4): code, ``mu``, radius, span.
    trans : numpy.ndarray
        Transmission per joint, (n, 3): flag, break-away, rated torque.
    curve_load, curve_eta : numpy.ndarray
        Efficiency curves, (n, m) (padded by repeating the last point).
    armature : numpy.ndarray
        Rotor inertia, (n,).
    peak : numpy.ndarray
        Peak velocity-friction magnitude at small speeds, (n, 2): positive,
        negative direction [N m or N].

    """

    s: np.ndarray
    q: np.ndarray
    dq: np.ndarray
    ddq: np.ndarray
    a: np.ndarray
    b: np.ndarray
    c: np.ndarray
    friction: bool
    load: np.ndarray
    ra: np.ndarray
    rb: np.ndarray
    rc: np.ndarray
    wa: np.ndarray
    wb: np.ndarray
    wc: np.ndarray
    fric: np.ndarray
    bear: np.ndarray
    trans: np.ndarray
    curve_load: np.ndarray
    curve_eta: np.ndarray
    armature: np.ndarray
    peak: np.ndarray

    @property
    def n(self):
        """Count the planned joints (int)."""
        return self.q.shape[1]


def _full_states(rows, idx, fixed, parts):
    n_model = fixed.size
    out = []
    for k, part in enumerate(parts):
        arr = np.tile(fixed, (rows, 1)) if k == 0 else np.zeros((rows, n_model))
        arr[:, idx] = part
        out.append(np.ascontiguousarray(arr))
    return out


def _rigid_torques(model, q, qd, qdd):
    """Inverse dynamics without friction (rotor inertia included), compiled when possible."""
    from ..dynamics.codegen import kernels
    k = kernels(model)
    out = np.empty_like(q)
    k.inverse_dynamics_rigid_batch(q, qd, qdd, out=out)
    return out


def path_dynamics(model, idx, fixed, s, q, dq, ddq, friction=True):
    """
    Compute the torque coefficients of a path on a grid.

    Parameters
    ----------
    model : RobotModel
        The robot, payload included.
    idx : numpy.ndarray
        Model indices of the planned joints, (n,) int.
    fixed : numpy.ndarray
        Positions of all model joints, used for those not planned, (n_model,).
    s : numpy.ndarray
        Grid, (K,).
    q, dq, ddq : numpy.ndarray
        Path and its first two derivatives on the grid, (K, n).
    friction : bool
        Include the model's friction.

    Returns
    -------
    PathDynamics
        The coefficients.

    """
    rows, n = q.shape
    zero = np.zeros_like(q)
    qq, vv, aa = _full_states(3 * rows, idx, fixed,
                              (np.vstack([q, q, q]), np.vstack([zero, zero, dq]),
                               np.vstack([zero, dq, ddq])))
    tau = _rigid_torques(model, qq, vv, aa)[:, idx]
    c = tau[:rows]
    a = tau[rows:2 * rows] - c
    b = tau[2 * rows:] - c
    tab = tables(model)
    arm = np.asarray(tab.armature, dtype=float)[idx]
    load = np.zeros(n, dtype=bool)
    ra, rb, rc = a - arm * dq, b - arm * ddq, c.copy()
    wa = np.zeros((rows, n, 6))
    wb, wc = wa.copy(), wa.copy()
    fric = np.zeros((n, 8))
    fric[:, 6:8] = 1.0
    bear = np.zeros((n, 4))
    trans = np.zeros((n, 3))
    width = max([2] + [len(t[2]) for t in tab.transmission if t is not None])
    curve_load = np.tile(np.linspace(0.0, 1.0, width), (n, 1))
    curve_eta = np.ones((n, width))
    peak = np.zeros((n, 2))
    if friction:
        for k, j in enumerate(idx):
            fric[k] = (tab.coulomb_pos[j], tab.coulomb_neg[j], tab.stribeck_pos[j],
                       tab.stribeck_neg[j], tab.viscous_pos[j], tab.viscous_neg[j],
                       tab.stribeck_velocity[j], tab.smoothing_velocity[j])
            if tab.bearing[j] is not None:
                kind, mu, radius, span = tab.bearing[j]
                bear[k] = (BEARING_CODES[kind], mu, radius, span)
                load[k] = True
            if tab.transmission[j] is not None:
                brk, rated, lo, eta = tab.transmission[j]
                trans[k] = (1.0, brk, rated)
                m = len(lo)
                curve_load[k, :m], curve_eta[k, :m] = lo, eta
                curve_load[k, m:], curve_eta[k, m:] = lo[-1] + np.arange(1, width - m + 1), \
                    eta[-1]
                load[k] = True
        v = np.zeros((PEAK_SPEEDS.size, model.n))
        v[:] = PEAK_SPEEDS[:, None]
        peak[:, 0] = np.max(velocity_friction(tab, v), axis=0)[idx]
        peak[:, 1] = np.max(-velocity_friction(tab, -v), axis=0)[idx]
    if np.any(load):
        res = rne(model, qq, vv, aa)
        basis = np.asarray(tab.basis)[idx]
        f = np.einsum('rjk,jlk->rjl', res.force[:, idx], basis)
        m = np.einsum('rjk,jlk->rjl', res.moment[:, idx], basis)
        w = np.concatenate([f, m], axis=2)
        wc = w[:rows]
        wa, wb = w[rows:2 * rows] - wc, w[2 * rows:] - wc
        rtau = res.tau[:, idx]
        rc = rtau[:rows]
        ra, rb = rtau[rows:2 * rows] - rc, rtau[2 * rows:] - rc
    return PathDynamics(s, q, dq, ddq, a, b, c, bool(friction), load, ra, rb, rc,
                        np.ascontiguousarray(wa), np.ascontiguousarray(wb),
                        np.ascontiguousarray(wc), fric, bear, trans, curve_load, curve_eta,
                        arm, peak)
