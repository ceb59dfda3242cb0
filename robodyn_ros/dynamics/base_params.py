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
Base (identifiable) parameters found numerically from stacked regressors.

Regressors at random states are stacked and their columns examined left to
right: a column that is (numerically) a combination of the columns kept
before it is grouped into them. With the standard order (links from the
base, ``XX ... M`` per link) this reproduces the classic grouping of
Khalil's rules (e.g. ``YY_j``, ``MZ_j`` and ``M_j`` of a revolute link fold
into ``XX_j`` and the parent's parameters, seed 001 §1.8).
"""

from dataclasses import dataclass

import numpy as np

from .regressor import friction_layout, parameter_names, parameter_vector, regressor


@dataclass(frozen=True, eq=False)
class BaseParameters:
    """
    An identifiable parameter set and its grouping.

    ``beta = theta[base] + grouping @ theta[dependent]`` and
    ``Y theta = Y[:, base] beta`` for every state.

    Attributes
    ----------
    names : list of str
        Standard parameter names (all columns).
    base : numpy.ndarray
        Indices of the base columns (int).
    dependent : numpy.ndarray
        Indices of the columns grouped into the base ones or without effect.
    grouping : numpy.ndarray
        (len(base), len(dependent)) coefficients.
    unidentifiable : list of str
        Standard parameters that have no effect at all.
    friction : str
        Friction layout of the regressor.

    """

    names: list
    base: np.ndarray
    dependent: np.ndarray
    grouping: np.ndarray
    unidentifiable: list
    friction: str

    @property
    def rank(self):
        """Count the base parameters (int)."""
        return len(self.base)

    def values(self, theta):
        """
        Compute the base parameter values of a standard vector.

        Parameters
        ----------
        theta : array_like
            Standard parameters.

        Returns
        -------
        numpy.ndarray
            ``beta``.

        """
        theta = np.asarray(theta, dtype=float)
        return theta[self.base] + self.grouping @ theta[self.dependent]

    def regressor(self, y):
        """
        Select the base columns of a regressor.

        Parameters
        ----------
        y : numpy.ndarray
            Full regressor, (..., p).

        Returns
        -------
        numpy.ndarray
            (..., rank).

        """
        return y[..., self.base]

    def expressions(self, digits=6):
        """
        Each base parameter as a sum of standard ones.

        Parameters
        ----------
        digits : int
            Significant digits of the coefficients.

        Returns
        -------
        list of str
            E.g. ``'link2.XX - 1*link2.YY + 0.45*link3.MZ'``.

        """
        out = []
        for row, b in enumerate(self.base):
            terms = [self.names[b]]
            for col, d in enumerate(self.dependent):
                c = self.grouping[row, col]
                if c != 0.0:
                    sign = '-' if c < 0 else '+'
                    terms.append(f'{sign} {abs(c):.{digits}g}*{self.names[d]}')
            out.append(' '.join(terms))
        return out


def base_parameters(model, *, friction='auto', samples=None, tol=1e-8, seed=0):
    """
    Find the base parameters of a model numerically.

    Parameters
    ----------
    model : RobotModel
        The model (only its kinematics and friction structure matter).
    friction : str
        Friction layout (see :func:`robodyn_ros.dynamics.regressor.friction_layout`).
    samples : int, optional
        Random states stacked; default ``max(60, 4 p / n)``.
    tol : float
        Relative tolerance on the residual norm of a column.
    seed : int
        Seed of the random states.

    Returns
    -------
    BaseParameters
        The base set and its grouping.

    """
    layout = friction_layout(model, friction)
    names = parameter_names(model, layout)
    p, n = len(names), model.n
    count = samples or max(60, (4 * p) // n + 1)
    rng = np.random.default_rng(seed)
    q = np.array([model.random_configuration(rng) for _ in range(count)])
    qd = rng.normal(0.0, 1.0, (count, n))
    qdd = rng.normal(0.0, 2.0, (count, n))
    w = regressor(model, q, qd, qdd, friction=layout).reshape(count * n, p)
    norms = np.linalg.norm(w, axis=0)
    scale = max(float(norms.max()), 1e-300)
    kept, basis = [], np.zeros((w.shape[0], 0))
    for k in range(p):
        col = w[:, k]
        if norms[k] <= tol * scale:
            continue
        resid = col - basis @ (basis.T @ col) if basis.shape[1] else col
        if np.linalg.norm(resid) > tol * max(norms[k], 1e-300) * 1e2:
            kept.append(k)
            basis = np.column_stack([basis, resid / np.linalg.norm(resid)])
    base = np.array(kept, dtype=int)
    dependent = np.array([k for k in range(p) if k not in set(kept)], dtype=int)
    grouping = np.zeros((len(base), len(dependent)))
    if len(dependent):
        grouping, *_ = np.linalg.lstsq(w[:, base], w[:, dependent], rcond=None)
        grouping[np.abs(grouping) < 1e-10] = 0.0
    unident = [names[k] for k in dependent if norms[k] <= tol * scale]
    return BaseParameters(names, base, dependent, grouping, unident, layout)


__all__ = ['BaseParameters', 'base_parameters', 'parameter_vector']
