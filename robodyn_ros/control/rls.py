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
Recursive least squares with exponential forgetting and bounded estimates.

Model ``y = X theta`` with ``m`` equations per sample (``X`` is (m, p)). With
forgetting factor ``lambda`` the estimate minimises ``sum_k lambda^(N-k)
|y_k - X_k theta|^2`` (seed 003 eqs. 4.13-4.15)::

    K = P X' (lambda I + X P X')^-1
    theta += K (y - X theta)
    P = (P - K X P) / lambda

Two safeguards keep it usable in a control loop: the covariance does not
grow past ``max_variance`` (forgetting pauses when the data stop exciting
the parameters, so ``P`` cannot wind up), and the estimate is projected onto
the box ``[lower, upper]`` after every update (estimates stay bounded).
"""

import math

import numpy as np

from ..errors import InputError


def forgetting_from_time(period, time_constant):
    """
    Forgetting factor for a memory time constant, ``exp(-period / time_constant)``.

    Parameters
    ----------
    period : float
        Sample period [s].
    time_constant : float
        Memory of the estimator [s] (``inf`` for no forgetting).

    Returns
    -------
    float
        Forgetting factor in (0, 1].

    """
    if not (period > 0.0 and time_constant > 0.0):
        raise InputError('time_constant', f'must be > 0 s, got {time_constant}')
    return math.exp(-period / time_constant)


class RecursiveLeastSquares:
    """
    RLS estimator of ``p`` parameters.

    Parameters
    ----------
    theta0 : array_like
        Initial estimate, (p,).
    variance : float or array_like
        Initial covariance: scalar (times identity), (p,) diagonal or (p, p).
    forgetting : float
        Forgetting factor in (0, 1].
    lower, upper : float or array_like, optional
        Bounds of the estimate (projection); default unbounded.
    max_variance : float, optional
        Largest diagonal entry of the covariance before forgetting pauses;
        default the largest initial variance.

    """

    def __init__(self, theta0, variance=1e3, forgetting=1.0, lower=None, upper=None,
                 max_variance=None):
        theta = np.array(theta0, dtype=float).reshape(-1)
        p = theta.size
        if p < 1 or not np.all(np.isfinite(theta)):
            raise InputError('theta0', 'must be a finite non-empty vector')
        if not (0.0 < forgetting <= 1.0):
            raise InputError('forgetting', f'must be in (0, 1], got {forgetting}')
        var = np.asarray(variance, dtype=float)
        if var.ndim == 0:
            cov = float(var) * np.eye(p)
        elif var.shape == (p,):
            cov = np.diag(var)
        elif var.shape == (p, p):
            cov = var.copy()
        else:
            raise InputError('variance', f'expected a scalar, ({p},) or ({p}, {p}), got '
                                         f'{var.shape}')
        if not np.all(np.isfinite(cov)) or np.any(np.diag(cov) <= 0.0):
            raise InputError('variance', 'must be finite and positive')
        self.lower = np.broadcast_to(np.asarray(-np.inf if lower is None else lower,
                                                dtype=float), (p,)).copy()
        self.upper = np.broadcast_to(np.asarray(np.inf if upper is None else upper,
                                                dtype=float), (p,)).copy()
        if np.any(np.isnan(self.lower)) or np.any(np.isnan(self.upper)) or np.any(
                self.lower > self.upper):
            raise InputError('lower', 'bounds must satisfy lower <= upper')
        if np.any(theta < self.lower) or np.any(theta > self.upper):
            raise InputError('theta0', 'initial estimate outside the bounds')
        self.forgetting = float(forgetting)
        self.max_variance = float(np.max(np.diag(cov)) if max_variance is None else max_variance)
        self._theta0 = theta.copy()
        self._cov0 = cov.copy()
        self.theta = theta
        self.covariance = cov
        self.updates = 0

    @property
    def size(self):
        """Count the parameters (int)."""
        return self.theta.size

    def reset(self):
        """Return to the initial estimate and covariance."""
        self.theta = self._theta0.copy()
        self.covariance = self._cov0.copy()
        self.updates = 0

    def update(self, x, y):
        """
        Take one sample of ``m`` equations.

        Parameters
        ----------
        x : array_like
            Regressor, (p,) for one equation or (m, p).
        y : float or array_like
            Measurement(s), scalar or (m,).

        Returns
        -------
        numpy.ndarray
            The new estimate (p,) (the estimator's own array; copy to keep).

        Notes
        -----
        Non-finite data are ignored (the estimate is left unchanged).

        """
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        if x.ndim == 1:
            x = x[None, :]
            y = y.reshape(1)
        if not (np.isfinite(x).all() and np.isfinite(y).all()):
            return self.theta
        if self.theta.size == 1:
            return self._update_scalar(x[:, 0], y)
        cov = self.covariance
        px = cov @ x.T
        if x.shape[0] == 1:
            gain = px / (self.forgetting + float(x[0] @ px[:, 0]))
        else:
            s = self.forgetting * np.eye(x.shape[0]) + x @ px
            gain = np.linalg.solve(s, px.T).T
        resid = y - x @ self.theta
        theta = self.theta + gain @ resid
        cov = cov - gain @ px.T
        cov = 0.5 * (cov + cov.T)
        if np.max(np.diag(cov)) / self.forgetting <= self.max_variance:
            cov = cov / self.forgetting
        self.theta = np.minimum(np.maximum(theta, self.lower), self.upper)
        self.covariance = cov
        self.updates += 1
        return self.theta

    def _update_scalar(self, x, y):
        # One parameter, m equations: information form, P^-1 <- lambda P^-1 + sum x^2.
        lam = self.forgetting
        p_old = float(self.covariance[0, 0])
        sxx = float(x @ x)
        p_new = p_old / (lam + p_old * sxx)
        if p_new > self.max_variance:
            p_new = p_old / (1.0 + p_old * sxx)
        theta = float(self.theta[0])
        theta += p_new * float(x @ (y - x * theta))
        self.theta[0] = min(max(theta, float(self.lower[0])), float(self.upper[0]))
        self.covariance[0, 0] = p_new
        self.updates += 1
        return self.theta

    def __repr__(self):
        return (f'RecursiveLeastSquares(p={self.size}, forgetting={self.forgetting:g}, '
                f'updates={self.updates})')
