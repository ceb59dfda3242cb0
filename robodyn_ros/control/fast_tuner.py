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
One sample of the variable-structure self-tuners as compiled scalar code (optional).

The tuners' per-sample work (filter bank, one RLS step per joint, the
emulator and the relay) is a few hundred multiply-adds on tiny arrays; in
numpy it is some thirty array operations whose call overhead dominates.
With numba installed, :func:`tuner_step` runs the same arithmetic as one
compiled loop (compiled once, cached on disk, warmed up when the tuner is
built so that no control step pays for it). Without numba, ``AVAILABLE`` is
False and the tuner uses its numpy code, which computes the same numbers.
"""

import os

import numpy as np

try:  # numba is optional: the numpy path in vsst.py is the reference.
    if os.environ.get('ROBODYN_NO_NUMBA'):
        raise ImportError('disabled by ROBODYN_NO_NUMBA')
    import numba
except ImportError:  # pragma: no cover - depends on the installation
    numba = None

AVAILABLE = numba is not None


def _tuner_step(z, a, b, y, m_id, m_target, m_em, theta, cov, lam, var_cap, lower, upper,
                unit, ng, w, small, u_min, u_max, switched, boundary, identify, iu,
                resid_out):
    """Advance the filters, identify, and return the tuner outputs (n,)."""
    size, n = z.shape
    p = theta.shape[1]
    if identify:
        znew = np.empty((size, n))
        for i in range(size):
            for j in range(n):
                acc = b[i] * y[j]
                for k in range(size):
                    acc += a[i, k] * z[k, j]
                znew[i, j] = acc
        z[:, :] = znew
        x = np.empty(p)
        px = np.empty(p)
        gain = np.empty(p)
        new_theta = np.empty(p)
        new_cov = np.empty((p, p))
        for j in range(n):
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
                new_theta[r] = theta[j, r] + gain[r] * err
                finite = finite and np.isfinite(new_theta[r])
            dmax = -np.inf
            for r in range(p):
                for c in range(p):
                    new_cov[r, c] = cov[j, r, c] - gain[r] * px[c]
                    finite = finite and np.isfinite(new_cov[r, c])
                if new_cov[r, r] > dmax:
                    dmax = new_cov[r, r]
            if not finite:
                continue
            scale = 1.0 / lam if dmax <= lam * var_cap else 1.0
            for r in range(p):
                theta[j, r] = min(max(new_theta[r], lower[r]), upper[r])
                for c in range(p):
                    cov[j, r, c] = 0.5 * (new_cov[r, c] + new_cov[c, r]) * scale
    u = np.empty(n)
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
        if switched:
            if boundary[j] > 0.0:
                uj = min(max(u_max * min(max(resid / boundary[j], -1.0), 1.0), u_min), u_max)
            else:
                uj = u_max if uj > 0.5 * (u_min + u_max) else u_min
        u[j] = uj
        z[iu, j] = uj
    return u


tuner_step = numba.njit(cache=True)(_tuner_step) if AVAILABLE else None
