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
One sample of the variable-structure self-tuners, in loop form, on their state record.

Per joint (a column of the record's arrays): advance the filter bank
(:mod:`.vsst_bank`), one RLS step of the emulator's parameters, then the
emulator one sample ahead and the relay. The arithmetic is a few hundred
multiply-adds on tiny arrays, written once as scalar loops (compiled with
numba, see :mod:`.jit`) and run both by
:class:`~robodyn_ros.control.vsst.VariableStructureSelfTuner` and inside the
compiled step of MBVSST.
"""

import functools

import numpy as np

from .jit import capacity, jitable


@functools.lru_cache(maxsize=None)
def tuner_dtype(n, size, p):
    """
    Record type of ``n`` tuners with a bank of ``size`` states and ``p`` parameters (padded).

    Parameters
    ----------
    n : int
        Joints.
    size : int
        Rows of the augmented filter state ``Z``.
    p : int
        Emulator parameters per joint.

    Returns
    -------
    numpy.dtype
        Sizes, the bank's matrices, the per-joint state ``z`` (size, n),
        estimates ``theta`` (n, p) and covariances ``cov`` (n, p, p), the
        RLS and relay settings, the set-point polynomial, the outputs ``u``,
        ``residual`` and set-point ``w`` (n,), the periods since the last
        sample ``steps`` and its angles ``y_prev`` (n,), and work space.

    """
    nn, ss, pp = capacity(n), capacity(size, 16), capacity(p, 8)
    f8 = np.float64
    return np.dtype([
        ('n', np.int64), ('size', np.int64), ('p', np.int64), ('ng', np.int64),
        ('iu', np.int64), ('i1', np.int64), ('n_setpoint', np.int64), ('steps', np.int64),
        ('started', np.bool_),
        ('switched', np.bool_), ('forgetting', f8), ('var_cap', f8), ('small', f8),
        ('u_min', f8), ('u_max', f8), ('setpoint', f8, (3,)),
        ('a', f8, (ss, ss)), ('b', f8, (ss,)), ('m_id', f8, (pp, ss)), ('m_target', f8, (ss,)),
        ('m_em', f8, (pp, ss)), ('unit', f8, (pp,)), ('dc_u', f8, (ss,)), ('dc_y', f8, (ss,)),
        ('lower', f8, (pp,)), ('upper', f8, (pp,)), ('boundary', f8, (nn,)),
        ('z', f8, (ss, nn)), ('theta', f8, (nn, pp)), ('cov', f8, (nn, pp, pp)),
        ('u', f8, (nn,)), ('residual', f8, (nn,)), ('w', f8, (nn,)), ('y_prev', f8, (nn,)),
        ('z_new', f8, (ss,)), ('x', f8, (pp,)), ('px', f8, (pp,)), ('gain', f8, (pp,)),
        ('theta_new', f8, (pp,)), ('cov_new', f8, (pp, pp))], align=True)


@jitable
def tuner_setpoint(t, rq, rqd, rqdd, w):
    """Set-point ``w`` (n,): the reference position, or ``P(s) q_ref`` from its derivatives."""
    k, c = t['n_setpoint'], t['setpoint']
    for j in range(t['n']):
        if k == 0:
            w[j] = rq[j]
        else:
            acc = 0.0 + c[0] * rq[j]
            if k > 1:
                acc += c[1] * rqd[j]
            if k > 2:
                acc += c[2] * rqdd[j]
            w[j] = acc


@jitable
def _advance(t, y):
    """
    Advance every joint's filter bank: start at rest, or ``Z <- A Z + b y``.

    Over ``t['steps']`` periods (a loop that missed samples) the bank
    advances that many times, the angle interpolated linearly from the last
    sample's and the input held.
    """
    n, size, z, y_prev = t['n'], t['size'], t['z'], t['y_prev']
    if not t['started']:   # steady state of the current input and angle
        iu, dc_u, dc_y = t['iu'], t['dc_u'], t['dc_y']
        for j in range(n):
            u_prev = z[iu, j]
            for i in range(size):
                z[i, j] = dc_u[i] * u_prev + dc_y[i] * y[j]
            z[t['i1'], j] = 1.0
            y_prev[j] = y[j]
        t['started'] = True
        return False
    a, b, z_new = t['a'], t['b'], t['z_new']
    steps = max(t['steps'], 1)
    for j in range(n):
        for s in range(1, steps + 1):
            ys = y_prev[j] + (y[j] - y_prev[j]) * (s / steps)
            for i in range(size):
                acc = b[i] * ys
                for k in range(size):
                    acc += a[i, k] * z[k, j]
                z_new[i] = acc
            for i in range(size):
                z[i, j] = z_new[i]
        y_prev[j] = y[j]
    return True


@jitable
def _identify(t, j):
    """One RLS step of joint ``j``'s emulator parameters (skipped if anything is not finite)."""
    size, p, z = t['size'], t['p'], t['z']
    m_id, m_target = t['m_id'], t['m_target']
    theta, cov = t['theta'], t['cov']
    x, px, gain, theta_new, cov_new = t['x'], t['px'], t['gain'], t['theta_new'], t['cov_new']
    lam = t['forgetting']
    for r in range(p):
        acc = 0.0
        for k in range(size):
            acc += m_id[r, k] * z[k, j]
        x[r] = acc
    target = 0.0
    for k in range(size):
        target += m_target[k] * z[k, j]
    denom = lam
    pred = 0.0
    for r in range(p):
        acc = 0.0
        for c in range(p):
            acc += cov[j, r, c] * x[c]
        px[r] = acc
        denom += x[r] * acc
        pred += theta[j, r] * x[r]
    err = target - pred
    finite = np.isfinite(err) and np.isfinite(denom) and denom != 0.0
    for r in range(p):
        gain[r] = px[r] / denom
        theta_new[r] = theta[j, r] + gain[r] * err
        finite = finite and np.isfinite(theta_new[r])
    dmax = -np.inf
    for r in range(p):
        for c in range(p):
            cov_new[r, c] = cov[j, r, c] - gain[r] * px[c]
            finite = finite and np.isfinite(cov_new[r, c])
        if cov_new[r, r] > dmax:
            dmax = cov_new[r, r]
    if not finite:
        return
    # Forgetting pauses while the covariance would exceed its cap (no wind-up).
    scale = 1.0 / lam if dmax <= lam * t['var_cap'] else 1.0
    lower, upper = t['lower'], t['upper']
    for r in range(p):
        theta[j, r] = min(max(theta_new[r], lower[r]), upper[r])
        for c in range(p):
            cov[j, r, c] = 0.5 * (cov_new[r, c] + cov_new[c, r]) * scale


@jitable
def tuner_step(t, y, w):
    """
    Take the joint angles ``y`` (n,), tune, and set the outputs ``t['u']`` for set-points ``w``.

    The emulator one sample ahead with ``u`` held is ``phi*(u) = phi*(0) +
    u slope``; the input that makes it equal the set-point, ``(w - phi*(0)) /
    slope``, is limited to ``[u_min, u_max]`` and switched to the nearer
    limit (or, with a boundary layer ``Phi > 0``, ``u_max sat((w - phi*(0)) /
    Phi)``).
    """
    n, size, p, ng = t['n'], t['size'], t['p'], t['ng']
    if _advance(t, y):
        for j in range(n):
            _identify(t, j)
    z, theta, m_em, unit = t['z'], t['theta'], t['m_em'], t['unit']
    boundary, u_out, resid_out = t['boundary'], t['u'], t['residual']
    u_min, u_max, small = t['u_min'], t['u_max'], t['small']
    for j in range(n):
        phi0 = 0.0
        for r in range(p):
            acc = 0.0
            for k in range(size):
                acc += m_em[r, k] * z[k, j]
            phi0 += theta[j, r] * acc
        slope = 0.0
        for r in range(ng):
            slope += theta[j, r] * unit[r]
        resid = w[j] - phi0
        resid_out[j] = resid
        u_lin = resid / slope if abs(slope) > small else 0.0
        uj = min(max(u_lin, u_min), u_max)
        if t['switched']:
            if boundary[j] > 0.0:
                uj = min(max(u_max * min(max(resid / boundary[j], -1.0), 1.0), u_min), u_max)
            else:
                uj = u_max if uj > 0.5 * (u_min + u_max) else u_min
        u_out[j] = uj
        z[t['iu'], j] = uj
