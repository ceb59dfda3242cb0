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
Least-squares fit of velocity friction to constant-velocity data.

For each direction ``d`` (+ or -) and speed ``v = |qd| > 0`` the steady
friction torque magnitude is modelled as (seed 001 eq. 7.26, asymmetric
levels as in seed 003)::

    |tau| = Fc_d + (Fs_d - Fc_d) exp(-v / vs) + Fv_d v

For a fixed Stribeck velocity ``vs`` this is linear in ``(Fc, Fs - Fc, Fv)``,
so ``vs`` is found by a one-dimensional search (a log grid, then golden
section) over the linear least-squares residual (variable projection).
Both directions share ``vs`` (the model has one per joint). The asymmetric
fit (six levels) is kept only when the data say so, statistically and
materially: an F-test at the 1 % level prefers it to the symmetric one
(three levels), and some level differs between the directions by more than
``min_asymmetry`` (5 %) of its mean (with very clean data the F-test alone
would split levels that differ by a fraction of a percent). A Stribeck hump
that the data do not support (non-positive or within two standard errors of
zero) is dropped and the fit repeated without it.
"""

from dataclasses import dataclass
import math

import numpy as np
from scipy import stats

from ..errors import InputError

#: Stribeck velocity written when no Stribeck term is fitted (then unused) [rad/s].
NO_STRIBECK = 0.1


@dataclass(frozen=True)
class FrictionFit:
    """
    Fitted friction of one joint.

    Attributes
    ----------
    coulomb, static, viscous : tuple of float
        ``(positive, negative)`` levels [N m or N] and viscous coefficients
        [N m s/rad or N s/m]; ``static == coulomb`` without a Stribeck term.
    stribeck_velocity : float
        ``vs`` [rad/s or m/s] (meaningless without a Stribeck term).
    stribeck : bool
        Whether a Stribeck term was fitted.
    asymmetric : bool
        Whether the two directions got separate levels.
    rms_residual : float
        Root-mean-square residual of the chosen fit [N m or N].
    relative_residual : float
        ``rms_residual`` over the mean |torque|.
    samples : int
        Number of (velocity, torque) points.
    f_statistic : float
        F statistic of asymmetric against symmetric.

    """

    coulomb: tuple
    static: tuple
    viscous: tuple
    stribeck_velocity: float
    stribeck: bool
    asymmetric: bool
    rms_residual: float
    relative_residual: float
    samples: int
    f_statistic: float

    def params(self):
        """
        Return the ``friction`` entry of a parameter file.

        Returns
        -------
        dict
            ``coulomb``, ``viscous``, ``static`` as ``[positive, negative]``
            and ``stribeck_velocity``.

        """
        return {'coulomb': [float(v) for v in self.coulomb],
                'viscous': [float(v) for v in self.viscous],
                'static': [float(v) for v in self.static],
                'stribeck_velocity': float(self.stribeck_velocity)}

    def torque(self, qd):
        """
        Friction torque of the fit (signed, discontinuous at zero).

        Parameters
        ----------
        qd : array_like
            Velocities [rad/s or m/s].

        Returns
        -------
        numpy.ndarray
            Torques [N m or N].

        """
        qd = np.asarray(qd, dtype=float)
        v = np.abs(qd)
        e = np.exp(-v / self.stribeck_velocity)
        pos = self.coulomb[0] + (self.static[0] - self.coulomb[0]) * e + self.viscous[0] * v
        neg = self.coulomb[1] + (self.static[1] - self.coulomb[1]) * e + self.viscous[1] * v
        return np.where(qd > 0, pos, np.where(qd < 0, -neg, 0.0))


def _design(v, side, vs, asymmetric, stribeck):
    """Columns of the linear problem for one Stribeck velocity."""
    cols = []
    groups = (side > 0, side < 0) if asymmetric else (np.ones_like(v, dtype=bool),)
    for g in groups:
        cols.append(g * 1.0)
        if stribeck:
            cols.append(g * np.exp(-v / vs))
        cols.append(g * v)
    return np.column_stack(cols)


def _solve(v, side, mag, vs, asymmetric, stribeck):
    a = _design(v, side, vs, asymmetric, stribeck)
    coef, *_ = np.linalg.lstsq(a, mag, rcond=None)
    resid = mag - a @ coef
    return coef, float(resid @ resid), a


def _best_vs(v, side, mag, asymmetric, bounds):
    lo, hi = np.log(bounds[0]), np.log(bounds[1])
    grid = np.linspace(lo, hi, 61)
    sse = [_solve(v, side, mag, math.exp(g), asymmetric, True)[1] for g in grid]
    k = int(np.argmin(sse))
    a, b = grid[max(k - 1, 0)], grid[min(k + 1, len(grid) - 1)]
    ratio = (math.sqrt(5.0) - 1.0) / 2.0
    c, d = b - ratio * (b - a), a + ratio * (b - a)
    fc = _solve(v, side, mag, math.exp(c), asymmetric, True)[1]
    fd = _solve(v, side, mag, math.exp(d), asymmetric, True)[1]
    for _ in range(40):
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - ratio * (b - a)
            fc = _solve(v, side, mag, math.exp(c), asymmetric, True)[1]
        else:
            a, c, fc = c, d, fd
            d = a + ratio * (b - a)
            fd = _solve(v, side, mag, math.exp(d), asymmetric, True)[1]
    return math.exp((a + b) / 2.0)


def _fit(v, side, mag, asymmetric, bounds):
    """Fit with a Stribeck term if the data support it, else without."""
    vs = _best_vs(v, side, mag, asymmetric, bounds)
    coef, sse, a = _solve(v, side, mag, vs, asymmetric, True)
    dof = len(mag) - a.shape[1]
    if dof > 0:
        sigma2 = sse / dof
        cov = sigma2 * np.linalg.pinv(a.T @ a)
        humps = coef[1::3]
        errors = np.sqrt(np.maximum(np.diag(cov)[1::3], 0.0))
        if np.all(humps > 2.0 * errors) and np.all(humps > 0.0):
            return coef, sse, vs, True, a.shape[1]
    coef, sse, a = _solve(v, side, mag, vs, asymmetric, False)
    return coef, sse, vs, False, a.shape[1]


def _levels(coef, stribeck, asymmetric):
    per = 3 if stribeck else 2
    out = []
    for k in range(2 if asymmetric else 1):
        c = coef[k * per:(k + 1) * per]
        fc, fv = c[0], c[-1]
        hump = c[1] if stribeck else 0.0
        out.append((fc, fc + hump, fv))
    if not asymmetric:
        out.append(out[0])
    return out


def _material(asym, min_asymmetry):
    coef, _, _, stribeck, _ = asym
    (cp, sp, vp), (cn, sn, vn) = _levels(coef, stribeck, True)[:2]
    for a, b in ((cp, cn), (sp, sn), (vp, vn)):
        scale = 0.5 * (abs(a) + abs(b))
        if scale > 0.0 and abs(a - b) > min_asymmetry * scale:
            return True
    return False


def fit_friction(velocity, torque, stribeck_bounds=(1e-3, 2.0), min_asymmetry=0.05):
    """
    Fit asymmetric Coulomb, viscous and Stribeck friction to steady points.

    Parameters
    ----------
    velocity : array_like
        Mean joint velocities of the constant-velocity runs (both signs,
        non-zero) [rad/s or m/s].
    torque : array_like
        Mean friction torques of the runs (same signs as the velocities
        when friction opposes the motion) [N m or N].
    stribeck_bounds : tuple of float
        Search range of the Stribeck velocity [rad/s or m/s].
    min_asymmetry : float
        Smallest relative difference between the directions' levels that
        counts as asymmetry.

    Returns
    -------
    FrictionFit
        The fit.

    Raises
    ------
    InputError
        Fewer than three points per direction, or non-finite data.

    """
    qd = np.asarray(velocity, dtype=float).reshape(-1)
    tau = np.asarray(torque, dtype=float).reshape(-1)
    if qd.shape != tau.shape or not (np.all(np.isfinite(qd)) and np.all(np.isfinite(tau))):
        raise InputError('velocity/torque', 'need finite arrays of the same length')
    side = np.sign(qd)
    if np.sum(side > 0) < 3 or np.sum(side < 0) < 3:
        raise InputError('velocity', 'need at least three runs in each direction')
    v, mag = np.abs(qd), tau * side
    sym = _fit(v, side, mag, False, stribeck_bounds)
    asym = _fit(v, side, mag, True, stribeck_bounds)
    n = len(v)
    extra = asym[4] - sym[4]
    dof = n - asym[4]
    f_stat = 0.0
    use = sym
    if dof > 0 and asym[1] > 0.0 and extra > 0:
        f_stat = ((sym[1] - asym[1]) / extra) / (asym[1] / dof)
        if f_stat > stats.f.ppf(0.99, extra, dof) and _material(asym, min_asymmetry):
            use = asym
    elif asym[1] <= 0.0 < sym[1]:
        use = asym
    coef, sse, vs, stribeck, _ = use
    asymmetric = use is asym
    (cp, sp, vp), (cn, sn, vn) = (tuple(float(x) for x in lv)
                                  for lv in _levels(coef, stribeck, asymmetric)[:2])
    rms = math.sqrt(sse / n)
    return FrictionFit((cp, cn), (sp, sn), (vp, vn), float(vs) if stribeck else NO_STRIBECK,
                       stribeck, asymmetric, rms,
                       rms / max(float(np.mean(np.abs(mag))), 1e-12), n, float(f_stat))
