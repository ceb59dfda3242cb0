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

The estimator's state is a record (:func:`rls_dtype`; an estimator that owns
an RLS nests it in its own record). One parameter with several equations per
sample, the payload estimator's case, has the information form
:func:`rls_scalar_update`, written once in loop form (compiled with numba,
see :mod:`.jit`); several parameters use the matrix form in numpy.
"""

import functools
import math

import numpy as np

from .jit import compiled, jitable, record
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


@functools.lru_cache(maxsize=None)
def rls_dtype(p):
    """
    Record type of an RLS estimator of ``p`` parameters.

    Parameters
    ----------
    p : int
        Number of parameters.

    Returns
    -------
    numpy.dtype
        Fields ``updates``, ``forgetting``, ``max_variance``, ``theta`` (p,),
        ``covariance`` (p, p), ``lower`` and ``upper`` (p,).

    """
    return np.dtype([('updates', np.int64), ('forgetting', np.float64),
                     ('max_variance', np.float64), ('theta', np.float64, (p,)),
                     ('covariance', np.float64, (p, p)), ('lower', np.float64, (p,)),
                     ('upper', np.float64, (p,))], align=True)


@jitable
def rls_scalar_update(r, x, y, m):
    """
    Take ``m`` equations ``y_j = x_j theta`` of one parameter (information form).

    ``P^-1 <- lambda P^-1 + sum x_j^2`` (forgetting pauses while ``P`` would
    exceed ``max_variance``), ``theta += P sum x_j (y_j - x_j theta)``, then
    the projection on the bounds. Returns False, changing nothing, for
    non-finite data.
    """
    sxx = 0.0
    for j in range(m):
        if not (np.isfinite(x[j]) and np.isfinite(y[j])):
            return False
        sxx += x[j] * x[j]
    theta_r, cov = r['theta'], r['covariance']
    theta = theta_r[0]
    sxr = 0.0
    for j in range(m):
        sxr += x[j] * (y[j] - x[j] * theta)
    p_old = cov[0, 0]
    p_new = p_old / (r['forgetting'] + p_old * sxx)
    if p_new > r['max_variance']:
        p_new = p_old / (1.0 + p_old * sxx)
    theta += p_new * sxr
    theta_r[0] = min(max(theta, r['lower'][0]), r['upper'][0])
    cov[0, 0] = p_new
    r['updates'] = r['updates'] + 1
    return True


def _scalar_call(state, x, y, m):
    return rls_scalar_update(state[0], x, y, m)


_scalar_update = compiled(jitable(_scalar_call))


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
    state : numpy.ndarray, optional
        Record of :func:`rls_dtype` to work in (e.g. nested in an
        estimator's); default a new one.

    Attributes
    ----------
    theta, covariance, lower, upper : numpy.ndarray
        Views of the record: estimate (p,), covariance (p, p), bounds (p,).

    """

    def __init__(self, theta0, variance=1e3, forgetting=1.0, lower=None, upper=None,
                 max_variance=None, *, state=None):
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
        lower = np.broadcast_to(np.asarray(-np.inf if lower is None else lower, dtype=float),
                                (p,))
        upper = np.broadcast_to(np.asarray(np.inf if upper is None else upper, dtype=float),
                                (p,))
        if np.any(np.isnan(lower)) or np.any(np.isnan(upper)) or np.any(lower > upper):
            raise InputError('lower', 'bounds must satisfy lower <= upper')
        if np.any(theta < lower) or np.any(theta > upper):
            raise InputError('theta0', 'initial estimate outside the bounds')
        self.state = record(rls_dtype(p)) if state is None else state
        s = self.state[0]
        s['forgetting'] = float(forgetting)
        s['max_variance'] = float(np.max(np.diag(cov)) if max_variance is None
                                  else max_variance)
        self.theta, self.covariance = s['theta'], s['covariance']
        self.lower, self.upper = s['lower'], s['upper']
        self.lower[:], self.upper[:] = lower, upper
        self._theta0 = theta.copy()
        self._cov0 = cov.copy()
        self.reset()

    @property
    def size(self):
        """Count the parameters (int)."""
        return self.theta.size

    @property
    def forgetting(self):
        """Give the forgetting factor (float)."""
        return float(self.state[0]['forgetting'])

    @property
    def max_variance(self):
        """Give the covariance cap of the forgetting (float)."""
        return float(self.state[0]['max_variance'])

    @property
    def updates(self):
        """Count the updates taken since the (re)start (int)."""
        return int(self.state[0]['updates'])

    def reset(self):
        """Return to the initial estimate and covariance."""
        self.theta[:] = self._theta0
        self.covariance[:] = self._cov0
        self.state[0]['updates'] = 0

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
        if x.shape[0] != y.size:
            raise InputError('y', f'{x.shape[0]} equations but {y.size} measurements')
        if self.theta.size == 1:
            _scalar_update(self.state, np.ascontiguousarray(x[:, 0]),
                           np.ascontiguousarray(y.reshape(-1)), y.size)
            return self.theta
        if not (np.isfinite(x).all() and np.isfinite(y).all()):
            return self.theta
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
        self.theta[:] = np.minimum(np.maximum(theta, self.lower), self.upper)
        self.covariance[:] = cov
        self.state[0]['updates'] += 1
        return self.theta

    def __repr__(self):
        return (f'RecursiveLeastSquares(p={self.size}, forgetting={self.forgetting:g}, '
                f'updates={self.updates})')
