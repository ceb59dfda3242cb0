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
Reachability analysis on a path grid: the compiled core of :mod:`.time_optimal`.

State ``x_i = sd_i^2`` at grid point ``i``, control ``u_i = sdd`` constant on
stage ``[s_i, s_(i+1)]``, so ``x_(i+1) = x_i + 2 delta_i u_i``. At a grid point
and a given ``x`` every constraint is a condition on ``u`` alone whose
solution set is an interval, computed exactly:

* acceleration ``|q' u + q'' x| <= a_max`` and the rigid-body torque with
  velocity friction ``a u + b x + c + f(q' sqrt(x))`` are affine in ``u``
  (the friction, Coulomb, Stribeck and viscous with its smoothed sign, is
  evaluated exactly at that ``x``);
* with load-dependent friction (bearings, transmission efficiency) the
  torque is evaluated exactly by the seed-004 formulas from the affine
  reaction wrench. It need not be monotone in ``u`` (the efficiency differs
  between driving and braking), so the interval the affine rows leave is
  shrunk from its ends: an end whose torque is within the limit stays,
  otherwise the boundary is bracketed from a ``u`` that is within it
  (regula falsi to 1e-12); the dense check covers a bump between two
  admissible ends;
* the transition keeps ``x_(i+1)`` in the next controllable set.

The controllable set ``K_i`` (the ``x`` from which the end can be reached) is
the interval of ``x`` whose ``u`` interval is not empty: its ends are found
by bisection on ``x`` with the exact constraints at every trial point (to a
relative 1e-12), so the velocity-dependent friction is never linearised or
bounded by a margin. The forward pass then takes the largest ``u`` at every
stage (the greedy choice is time-optimal, Pham and Pham 2018). Compiled with
numba when it is installed (the same functions run as plain Python
otherwise, slower).
"""

import math
import os

import numpy as np

try:  # numba is optional: the same functions run as Python without it.
    if os.environ.get('ROBODYN_NO_NUMBA'):
        raise ImportError('disabled by ROBODYN_NO_NUMBA')
    import numba
except ImportError:  # pragma: no cover - depends on the installation
    numba = None

#: Whether the core is compiled.
COMPILED = numba is not None

#: Largest ``x = sd^2`` considered (a grid point that nothing bounds).
X_MAX = 1e14

#: Relative tolerance of the bisections on ``x``.
X_TOL = 1e-12


def smooth_sign(v, eps):
    """Smoothed sign ``tanh(v / eps)`` (the sign itself when ``eps = 0``)."""
    if eps > 0.0:
        return math.tanh(v / eps)
    if v > 0.0:
        return 1.0
    if v < 0.0:
        return -1.0
    return 0.0


def velocity_friction(fr, v):
    """Coulomb, Stribeck and viscous friction of one joint at speed v (``fr``: 8 values)."""
    s = smooth_sign(v, fr[7])
    e = math.exp(-abs(v) / fr[6])
    return ((fr[0] + fr[2] * e) * max(s, 0.0) + (fr[1] + fr[3] * e) * min(s, 0.0)
            + fr[4] * max(v, 0.0) + fr[5] * min(v, 0.0))


def bearing(code, mu, radius, span, w):
    """Bearing friction magnitude from the wrench ``w`` (fx, fy, fz, nx, ny, nz)."""
    fx, fy, fz, nx, ny = w[0], w[1], w[2], w[3], w[4]
    if code == 2:
        return mu * radius * abs(fz)
    if code == 3:
        if span <= 0.0:
            return mu * (abs(fx) + abs(fy))
        h = 0.5 * span
        return mu / span * (abs(h * fx - ny) + abs(h * fy - nx) + abs(h * fx + ny)
                            + abs(h * fy + nx))
    if span <= 0.0:
        return mu * radius * math.hypot(fx, fy)
    h = 0.5 * span
    return mu * radius / span * (math.hypot(h * fx + ny, h * fy - nx)
                                 + math.hypot(h * fx - ny, h * fy + nx))


def interp(x, xs, ys):
    """``numpy.interp`` for one value (clamped at the ends)."""
    m = xs.size
    if x <= xs[0]:
        return ys[0]
    if x >= xs[m - 1]:
        return ys[m - 1]
    k = 1
    while xs[k] < x:
        k += 1
    t = (x - xs[k - 1]) / (xs[k] - xs[k - 1])
    return ys[k - 1] + t * (ys[k] - ys[k - 1])


def transmission(brk, rated, xs, ys, tout, s):
    """Input torque of a lossy transmission, blended across zero speed by ``s``."""
    e = interp(abs(tout) / rated, xs, ys)
    pos = (tout / e if tout > 0.0 else tout * e) + brk
    neg = (tout / e if tout < 0.0 else tout * e) - brk
    return 0.5 * (1.0 + s) * pos + 0.5 * (1.0 - s) * neg


def load_torque(d, k, j, u, x, sig, phi):
    """Exact torque of joint j at grid point k with load-dependent friction."""
    rlin, wr = d[1], d[2]
    tout = rlin[k, j, 0] * u + rlin[k, j, 1] * x + rlin[k, j, 2]
    bear = d[6]
    if bear[j, 0] > 0.0:
        w = wr[k, j, 0] * u + wr[k, j, 1] * x + wr[k, j, 2]
        tout += sig * bearing(int(bear[j, 0]), bear[j, 1], bear[j, 2], bear[j, 3], w)
    tr = d[7]
    if tr[j, 0] > 0.0:
        tout = transmission(tr[j, 1], tr[j, 2], d[8][j], d[9][j], tout, sig)
    return tout + d[10][j] * (d[3][k, j] * u + d[4][k, j] * x) + phi


def _violation(d, k, j, u, x, sig, phi, lo, hi, dl):
    """
    Excess of joint j's torque at grid point k over [lo, hi] (<= 0: within).

    ``dl > 0``: an end-of-stage row, evaluated at ``x + 2 dl u`` with the
    exact friction there; otherwise at ``x`` with ``sig``, ``phi`` given.
    """
    if dl > 0.0:
        x = max(x + 2.0 * dl * u, 0.0)
        if d[15][0] > 0.0:
            v = d[3][k, j] * math.sqrt(x)
            sig = smooth_sign(v, d[5][j, 7])
            phi = velocity_friction(d[5][j], v)
        if not d[11][j] or d[15][0] <= 0.0:
            lin = d[0]
            t = lin[k, j, 0] * u + lin[k, j, 1] * x + lin[k, j, 2] + phi
            return max(t - hi, lo - t)
    t = load_torque(d, k, j, u, x, sig, phi)
    return max(t - hi, lo - t)


def _edge(d, k, j, x, sig, phi, lo, hi, good, bad, fbad, dl):
    """Last u within the bounds between a good and a bad u (Illinois regula falsi)."""
    fgood = _violation(d, k, j, good, x, sig, phi, lo, hi, dl)
    side = 0
    scale = 1e-12 * (abs(good) + abs(bad) + 1e-300)
    for _ in range(100):
        if abs(bad - good) <= scale:
            break
        den = fbad - fgood
        mid = good - fgood * (bad - good) / den if den > 0.0 else 0.5 * (good + bad)
        if not (min(good, bad) < mid < max(good, bad)):
            mid = 0.5 * (good + bad)
        fm = _violation(d, k, j, mid, x, sig, phi, lo, hi, dl)
        if fm <= 0.0:
            good, fgood = mid, fm
            if side == 1:
                fbad *= 0.5
            side = 1
        else:
            bad, fbad = mid, fm
            if side == -1:
                fgood *= 0.5
            side = -1
    return good


def load_bounds(d, k, j, x, sig, phi, lo, hi, ulo, uhi, dl):
    """
    Shrink ``[ulo, uhi]`` to the u whose exact load-friction torque is within [lo, hi].

    Both ends of the result satisfy the bound (found by bracketing from a
    point that does); an empty result comes back as ``ulo > uhi``.
    """
    vl = _violation(d, k, j, ulo, x, sig, phi, lo, hi, dl)
    vh = _violation(d, k, j, uhi, x, sig, phi, lo, hi, dl)
    if vl <= 0.0 and vh <= 0.0:
        return ulo, uhi
    if vl <= 0.0:
        return ulo, _edge(d, k, j, x, sig, phi, lo, hi, ulo, uhi, vh, dl)
    if vh <= 0.0:
        return _edge(d, k, j, x, sig, phi, lo, hi, uhi, ulo, vl, dl), uhi
    for m in range(1, 16):
        um = ulo + (uhi - ulo) * m / 16.0
        if _violation(d, k, j, um, x, sig, phi, lo, hi, dl) <= 0.0:
            return (_edge(d, k, j, x, sig, phi, lo, hi, um, ulo, vl, dl),
                    _edge(d, k, j, x, sig, phi, lo, hi, um, uhi, vh, dl))
    return math.inf, -math.inf


def row_bounds(d, k, j, x, xx, exact, sig, phi, lo, hi, ulo, uhi):
    """
    Intersect ``[ulo, uhi]`` with the u keeping joint j's torque at grid point k in [lo, hi].

    ``x`` sets the speed of the exact friction, ``xx`` the ``b x`` term (they
    differ only for the end-of-path probe rows). Empty as ``ulo > uhi``.
    """
    lin = d[0]
    if exact:
        if d[15][0] > 0.0:
            v = d[3][k, j] * math.sqrt(x)
            sig = smooth_sign(v, d[5][j, 7])
            phi = velocity_friction(d[5][j], v)
        else:
            sig = 0.0
            phi = 0.0
    if d[11][j] and d[15][0] > 0.0:
        if ulo > uhi:
            return ulo, uhi
        return load_bounds(d, k, j, xx, sig, phi, lo, hi, ulo, uhi, 0.0)
    a = lin[k, j, 0]
    rest = lin[k, j, 1] * xx + lin[k, j, 2] + phi
    small = 1e-12 * (abs(lin[k, j, 1]) * xx + abs(lin[k, j, 2]) + 1.0)
    if abs(a) <= small:
        if lo <= rest <= hi:
            return ulo, uhi
        return math.inf, -math.inf
    u1 = (lo - rest) / a
    u2 = (hi - rest) / a
    return max(ulo, min(u1, u2)), min(uhi, max(u1, u2))


def stage_bounds(d, probes, i, x, klo, khi, delta):
    """Interval of u at stage i from state x, next state within [klo, khi]."""
    ulo = (klo - x) / (2.0 * delta)
    uhi = (khi - x) / (2.0 * delta)
    dq, ddq, amax = d[3], d[4], d[14]
    n = dq.shape[1]
    for j in range(n):
        p = dq[i, j]
        r = ddq[i, j] * x
        lim = amax[i, j]
        if abs(p) > 1e-12:
            b1 = (-lim - r) / p
            b2 = (lim - r) / p
            ulo = max(ulo, min(b1, b2))
            uhi = min(uhi, max(b1, b2))
        elif abs(r) > lim:
            return math.inf, -math.inf
    ends = d[17][0] > 0.0
    if ends:  # the same u must also hold at the stage's end, where x is x + 2 delta u
        k = i + 1
        for j in range(n):
            p = dq[k, j] + 2.0 * delta * ddq[k, j]
            r = ddq[k, j] * x
            lim = amax[k, j]
            if abs(p) > 1e-12:
                b1 = (-lim - r) / p
                b2 = (lim - r) / p
                ulo = max(ulo, min(b1, b2))
                uhi = min(uhi, max(b1, b2))
            elif abs(r) > lim:
                return math.inf, -math.inf
    tol = 1e-12 * (abs(uhi) + 1.0)
    if ulo > uhi + tol or d[16][0] <= 0.0:
        return ulo, uhi
    tlo, thi = d[12], d[13]
    pstage, pk, pj, psig, pphi, pzero = probes
    load = d[11]
    fr = d[15][0] > 0.0
    # Affine rows first, so that the load-friction rows search a bounded interval.
    for rnd in range(2):
        for j in range(n):
            if (load[j] and fr) == (rnd == 0):
                continue
            ulo, uhi = row_bounds(d, i, j, x, x, True, 0.0, 0.0, tlo[i, j], thi[i, j], ulo,
                                  uhi)
            if ulo > uhi + tol:
                return ulo, uhi
        for m in range(pstage.size):
            if pstage[m] != i or (load[pj[m]] and fr) == (rnd == 0):
                continue
            k = pk[m]
            j = pj[m]
            xx = 0.0 if pzero[m] else x
            ulo, uhi = row_bounds(d, k, j, xx, xx, False, psig[m], pphi[m], tlo[k, j],
                                  thi[k, j], ulo, uhi)
            if ulo > uhi + tol:
                return ulo, uhi
        if not ends:
            continue
        k = i + 1
        lin = d[0]
        for j in range(n):
            exact = fr and (load[j] or d[5][j, 0] + d[5][j, 1] + d[5][j, 2] + d[5][j, 3]
                            + d[5][j, 4] + d[5][j, 5] > 0.0)
            if exact != (rnd == 1):
                continue
            if exact:
                ulo, uhi = load_bounds(d, k, j, x, 0.0, 0.0, tlo[k, j], thi[k, j], ulo, uhi,
                                       delta)
            else:
                a = lin[k, j, 0] + 2.0 * delta * lin[k, j, 1]
                rest = lin[k, j, 1] * x + lin[k, j, 2]
                if abs(a) > 1e-12 * (abs(rest) + 1.0):
                    u1 = (tlo[k, j] - rest) / a
                    u2 = (thi[k, j] - rest) / a
                    ulo = max(ulo, min(u1, u2))
                    uhi = min(uhi, max(u1, u2))
                elif not tlo[k, j] <= rest <= thi[k, j]:
                    return math.inf, -math.inf
            if ulo > uhi + tol:
                return ulo, uhi
    return ulo, uhi


def _gap(d, probes, i, x, klo, khi, delta):
    """Width of the u interval at x (negative: empty; -inf: empty by a static row)."""
    ulo, uhi = stage_bounds(d, probes, i, x, klo, khi, delta)
    if not (math.isfinite(ulo) and math.isfinite(uhi)):
        return -math.inf if ulo > uhi else math.inf
    return uhi - ulo + 1e-12 * (abs(uhi) + 1.0)


def _feasible(d, probes, i, x, klo, khi, delta):
    return _gap(d, probes, i, x, klo, khi, delta) >= 0.0


def _bisect(d, probes, i, good, bad, klo, khi, delta):
    """
    Boundary of the feasible x between a feasible and an infeasible point.

    Regula falsi (Illinois) on the width of the u interval, which is
    piecewise linear in x without friction, with bisection steps where the
    width is not finite or the step leaves the bracket; the feasible end is
    returned.
    """
    fg = _gap(d, probes, i, good, klo, khi, delta)
    fb = _gap(d, probes, i, bad, klo, khi, delta)
    side = 0
    for _ in range(200):
        if abs(bad - good) <= X_TOL * max(abs(good), abs(bad), 1e-300):
            break
        lo, hi = min(good, bad), max(good, bad)
        mid = math.nan
        if math.isfinite(fg) and math.isfinite(fb) and fg > fb:
            mid = good - fg * (bad - good) / (fb - fg)
        if not (lo < mid < hi):
            mid = math.sqrt(max(lo, 1e-300) * hi) if hi > 1e3 * max(lo, 1e-12) else \
                0.5 * (lo + hi)
            side = 0
        fm = _gap(d, probes, i, mid, klo, khi, delta)
        if fm >= 0.0:
            good, fg = mid, fm
            if side == 1:
                fb *= 0.5
            side = 1
        else:
            bad, fb = mid, fm
            if side == -1:
                fg *= 0.5
            side = -1
    return good


def backward(d, probes, deltas, xcap, x_end, klo, khi):
    """
    Compute the controllable sets ``[klo_i, khi_i]`` from the end (in place).

    Returns -1 on success, else the stage whose set is empty.
    """
    count = deltas.size
    klo[count] = x_end
    khi[count] = x_end
    for i in range(count - 1, -1, -1):
        lo1, hi1, dl = klo[i + 1], khi[i + 1], deltas[i]
        cap = min(xcap[i], X_MAX)
        found = -1.0
        for cand in (hi1, lo1, 0.5 * (lo1 + hi1), 0.0):
            c = min(cand, cap)
            if _feasible(d, probes, i, c, lo1, hi1, dl):
                found = c
                break
        if found < 0.0:
            for m in range(1, 97):
                c = cap * 10.0 ** (-(96 - m) / 6.0) if cap > 0.0 else 0.0
                if _feasible(d, probes, i, c, lo1, hi1, dl):
                    found = c
                    break
        if found < 0.0:
            return i
        if _feasible(d, probes, i, cap, lo1, hi1, dl):
            khi[i] = cap
        else:
            khi[i] = _bisect(d, probes, i, found, cap, lo1, hi1, dl)
        if _feasible(d, probes, i, 0.0, lo1, hi1, dl):
            klo[i] = 0.0
        else:
            klo[i] = _bisect(d, probes, i, found, 0.0, lo1, hi1, dl)
    return -1


def forward(d, probes, deltas, x0, klo, khi, xs, us):
    """
    Run the greedy forward pass from ``x0`` (in place).

    Returns the count of stages whose ``u`` interval was empty (by more than
    rounding).
    """
    count = deltas.size
    xs[0] = x0
    bad = 0
    for i in range(count):
        dl = deltas[i]
        ulo, uhi = stage_bounds(d, probes, i, xs[i], klo[i + 1], khi[i + 1], dl)
        if ulo > uhi + 1e-9 * (abs(uhi) + 1.0):
            bad += 1
        x1 = xs[i] + 2.0 * dl * uhi
        x1 = min(max(x1, klo[i + 1], 0.0), khi[i + 1])
        xs[i + 1] = x1
        us[i] = (x1 - xs[i]) / (2.0 * dl)
    return bad


if COMPILED:
    _jit = numba.njit(cache=True, nogil=True)
    smooth_sign = _jit(smooth_sign)
    velocity_friction = _jit(velocity_friction)
    bearing = _jit(bearing)
    interp = _jit(interp)
    transmission = _jit(transmission)
    load_torque = _jit(load_torque)
    _violation = _jit(_violation)
    _edge = _jit(_edge)
    load_bounds = _jit(load_bounds)
    row_bounds = _jit(row_bounds)
    stage_bounds = _jit(stage_bounds)
    _gap = _jit(_gap)
    _feasible = _jit(_feasible)
    _bisect = _jit(_bisect)
    backward = _jit(backward)
    forward = _jit(forward)


def pack(pd, tau_lo, tau_hi, amax, torque, ends=True):
    """
    Arrays of a :class:`~.path_dynamics.PathDynamics` in the core's layout.

    Parameters
    ----------
    pd : PathDynamics
        Coefficients on the grid.
    tau_lo, tau_hi : numpy.ndarray
        Torque bounds per grid point, (K, n).
    amax : numpy.ndarray
        Acceleration limits per grid point, (K, n) (``inf``: none).
    torque : bool
        Enforce the torque rows.
    ends : bool
        Also enforce the acceleration and torque of each stage's ``u`` at the
        stage's end (``x + 2 delta u``), not only at its start.

    Returns
    -------
    tuple
        The data tuple the core functions take.

    """
    lin = np.ascontiguousarray(np.stack([pd.a, pd.b, pd.c], axis=2))
    rlin = np.ascontiguousarray(np.stack([pd.ra, pd.rb, pd.rc], axis=2))
    wr = np.ascontiguousarray(np.stack([pd.wa, pd.wb, pd.wc], axis=2))
    return (lin, rlin, wr, np.ascontiguousarray(pd.dq), np.ascontiguousarray(pd.ddq),
            pd.fric, pd.bear, pd.trans, np.ascontiguousarray(pd.curve_load),
            np.ascontiguousarray(pd.curve_eta), pd.armature, pd.load.astype(np.bool_),
            np.ascontiguousarray(tau_lo, dtype=float), np.ascontiguousarray(tau_hi, dtype=float),
            np.ascontiguousarray(amax, dtype=float),
            np.array([1.0 if pd.friction else 0.0]), np.array([1.0 if torque else 0.0]),
            np.array([1.0 if ends else 0.0]))


def empty_probes():
    """Probe arrays with no probe (stage, grid point, joint, sign, friction, x=0 flag)."""
    return (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64),
            np.zeros(0), np.zeros(0), np.zeros(0, dtype=np.bool_))
