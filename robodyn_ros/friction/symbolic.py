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
The friction formulas of :mod:`robodyn_ros.friction.models` as graph nodes.

Same formulas, term for term; coefficients that are zero drop out, and a
symmetric joint (equal positive and negative levels) uses ``F s`` instead
of ``F+ max(s, 0) + F- min(s, 0)``, which is the same number.
"""


def smooth_sign(g, qd, eps):
    """Return the node of ``tanh(qd / eps)`` (``sign(qd)`` when ``eps`` is 0)."""
    if eps > 0.0:
        return g.fn('tanh', g.div(qd, g.const(eps)))
    return g.fn('sign', qd)


def velocity_friction(g, tab, i, qd, s):
    """
    Coulomb, viscous and Stribeck friction of joint ``i`` (node).

    Parameters
    ----------
    g : Graph
        The graph.
    tab : DynamicsTables
        Model arrays.
    i : int
        Joint index.
    qd : int
        Joint velocity node [rad/s or m/s].
    s : int
        Smoothed sign node of ``qd``.

    Returns
    -------
    int
        Friction torque node [N m or N].

    """
    fc_p, fc_n = float(tab.coulomb_pos[i]), float(tab.coulomb_neg[i])
    fs_p, fs_n = float(tab.stribeck_pos[i]), float(tab.stribeck_neg[i])
    fv_p, fv_n = float(tab.viscous_pos[i]), float(tab.viscous_neg[i])
    c = g.const
    decay = g.zero
    if fs_p != 0.0 or fs_n != 0.0:
        decay = g.fn('exp', g.neg(g.div(g.fn('fabs', qd), c(tab.stribeck_velocity[i]))))
    if fc_p == fc_n and fs_p == fs_n:
        level = g.add(c(fc_p), g.mul(c(fs_p), decay))
        total = g.mul(level, s)
    else:
        level_p = g.add(c(fc_p), g.mul(c(fs_p), decay))
        level_n = g.add(c(fc_n), g.mul(c(fs_n), decay))
        total = g.add(g.mul(level_p, g.fn('max0', s)), g.mul(level_n, g.fn('min0', s)))
    if fv_p == fv_n:
        return g.add(total, g.mul(c(fv_p), qd))
    return g.add(total, g.add(g.mul(c(fv_p), g.fn('max0', qd)),
                              g.mul(c(fv_n), g.fn('min0', qd))))


def bearing_torque(g, bearing, f, m):
    """
    Magnitude of the bearing friction (seed 004 Table 3.1) as a node.

    Parameters
    ----------
    g : Graph
        The graph.
    bearing : tuple
        ``(kind, mu, radius, span)``.
    f, m : list of int
        Reaction force and moment in the bearing frame (z along the axis).

    Returns
    -------
    int
        Friction magnitude node [N m or N].

    """
    kind, mu, radius, span = bearing
    c = g.const
    fx, fy, fz = f
    nx, ny = m[0], m[1]
    if kind == 'thrust':
        return g.mul(c(mu * radius), g.fn('fabs', fz))
    if kind == 'linear':
        if span <= 0.0:
            return g.mul(c(mu), g.add(g.fn('fabs', fx), g.fn('fabs', fy)))
        h = 0.5 * span
        hfx, hfy = g.mul(c(h), fx), g.mul(c(h), fy)
        terms = [g.fn('fabs', g.sub(hfx, ny)), g.fn('fabs', g.sub(hfy, nx)),
                 g.fn('fabs', g.add(hfx, ny)), g.fn('fabs', g.add(hfy, nx))]
        return g.mul(c(mu / span), g.total(terms))
    if span <= 0.0:
        return g.mul(c(mu * radius), g.fn('hypot', fx, fy))
    h = 0.5 * span
    hfx, hfy = g.mul(c(h), fx), g.mul(c(h), fy)
    load1 = g.fn('hypot', g.add(hfx, ny), g.sub(hfy, nx))
    load2 = g.fn('hypot', g.sub(hfx, ny), g.add(hfy, nx))
    return g.mul(c(mu * radius / span), g.add(load1, load2))


def transmission_input(g, trans, tau_out, s):
    """
    Input torque of a lossy transmission (seed 004 Table 3.2) as a node.

    Parameters
    ----------
    g : Graph
        The graph.
    trans : tuple
        ``(breakaway, rated_torque, load, efficiency)``.
    tau_out : int
        Output torque node [N m].
    s : int
        Smoothed sign of the joint velocity.

    Returns
    -------
    int
        Input torque node [N m].

    """
    breakaway, rated, load, eta = trans
    c = g.const
    name = g.interp_table(load, eta)
    e = g.fn(name, g.div(g.fn('fabs', tau_out), c(rated)))
    up, down = g.div(tau_out, e), g.mul(tau_out, e)
    pos = g.add(g.select('gt', tau_out, up, down), c(breakaway))
    neg = g.sub(g.select('lt', tau_out, up, down), c(breakaway))
    return g.add(g.mul(g.mul(c(0.5), g.add(g.one, s)), pos),
                 g.mul(g.mul(c(0.5), g.sub(g.one, s)), neg))


def loaded_torque(g, tab, i, res, s):
    """
    Joint ``i``'s rigid torque through the load-dependent friction, ``T(tau + tau_b, qd)``.

    Parameters
    ----------
    g : Graph
        The graph.
    tab : DynamicsTables
        Model arrays (bearing and transmission data).
    i : int
        Joint index.
    res : SymRne
        Symbolic rigid-body result (torques and reactions in bearing frames).
    s : int
        Smoothed sign of the joint velocity.

    Returns
    -------
    int
        Torque node [N m or N]; ``res.tau[i]`` itself without such friction.

    """
    tau = res.tau[i]
    if tab.bearing[i] is not None:
        tau = g.add(tau, g.mul(s, bearing_torque(g, tab.bearing[i], res.force[i],
                                                 res.moment[i])))
    if tab.transmission[i] is not None:
        tau = transmission_input(g, tab.transmission[i], tau, s)
    return tau


def inverse_dynamics_torque(g, tab, res, qd, qdd, friction=True):
    """
    Joint torques ``T(tau_rigid + tau_bearing, qd) + Ia qdd + tau_v`` as nodes.

    Parameters
    ----------
    g : Graph
        The graph.
    tab : DynamicsTables
        Model arrays (friction data, armature).
    res : SymRne
        Symbolic rigid-body result (torques and reactions in bearing frames).
    qd, qdd : list of int
        Velocity and acceleration nodes.
    friction : bool
        Include every friction model.

    Returns
    -------
    list of int
        Joint torque nodes [N m or N].

    """
    out = []
    for i, tau in enumerate(res.tau):
        s = smooth_sign(g, qd[i], float(tab.smoothing_velocity[i]))
        if friction:
            tau = loaded_torque(g, tab, i, res, s)
        tau = g.add(tau, g.mul(g.const(tab.armature[i]), qdd[i]))
        if friction:
            tau = g.add(tau, velocity_friction(g, tab, i, qd[i], s))
        out.append(tau)
    return out


def friction_torque(g, tab, res, qd):
    """
    Friction torques alone, ``(T(tau_rigid + tau_bearing, qd) - tau_rigid) + tau_v``.

    The inverse dynamics of :func:`inverse_dynamics_torque` less its
    rigid-body and armature part, written directly (no subtraction of two
    torques): joints without load-dependent friction give ``tau_v`` alone.

    Parameters
    ----------
    g : Graph
        The graph.
    tab : DynamicsTables
        Model arrays (friction data).
    res : SymRne
        Symbolic rigid-body result (torques and reactions in bearing frames).
    qd : list of int
        Velocity nodes.

    Returns
    -------
    list of int
        Friction torque nodes [N m or N].

    """
    out = []
    for i, tau in enumerate(res.tau):
        s = smooth_sign(g, qd[i], float(tab.smoothing_velocity[i]))
        load = g.sub(loaded_torque(g, tab, i, res, s), tau)
        out.append(g.add(load, velocity_friction(g, tab, i, qd[i], s)))
    return out


def velocity_friction_torques(g, tab, qd):
    """
    Velocity friction of every joint (Coulomb, viscous, Stribeck) as nodes.

    The ``tau_v`` of :func:`inverse_dynamics_torque`: it depends on the
    velocities alone, so forward dynamics subtracts it from the torque.

    Parameters
    ----------
    g : Graph
        The graph.
    tab : DynamicsTables
        Model arrays (friction data).
    qd : list of int
        Velocity nodes [rad/s or m/s].

    Returns
    -------
    list of int
        Friction torque nodes [N m or N].

    """
    return [velocity_friction(g, tab, i, qd[i],
                              smooth_sign(g, qd[i], float(tab.smoothing_velocity[i])))
            for i in range(len(qd))]
