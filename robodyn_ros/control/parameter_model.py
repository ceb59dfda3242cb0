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
The dynamics written linear in the base parameters, for the adaptive laws.

``tau = Y_b(q, qd, qdd) beta`` with ``beta`` the base (identifiable)
parameters of :func:`robodyn_ros.dynamics.base_parameters`: inertial
parameters, rotor inertia and the velocity-friction coefficients
(load-dependent friction is not linear in any parameter and is left out).
The Slotine-Li law needs ``M(q) qdd_r + C(q, qd) qd_r + g(q)`` with two
different velocities; since the Christoffel symbols are symmetric,
``C(q, a) b = C(q, b) a = (h(a + b) - h(a) - h(b)) / 2`` with ``h(v) = C(q, v)
v``, so that regressor is a combination of ordinary ones (polarisation).
"""

import numpy as np

from ..dynamics import base_parameters, parameter_vector, regressor
from ..errors import InputError


class BaseParameterModel:
    """
    Regressors in the base parameters of a model.

    Parameters
    ----------
    model : RobotModel
        Structure (kinematics, which joints have friction) and the nominal
        parameter values.
    friction : {'auto', 'symmetric', 'asymmetric', 'none'}
        Friction columns (see :func:`robodyn_ros.dynamics.regressor.friction_layout`).

    Attributes
    ----------
    base : BaseParameters
        The grouping.
    nominal : numpy.ndarray
        Base parameter values of ``model``.
    names : list of str
        Base parameter names (the first standard parameter of each group).

    """

    def __init__(self, model, friction='auto'):
        self.model = model
        self.base = base_parameters(model, friction=friction)
        self.layout = self.base.friction
        self.nominal = self.base.values(parameter_vector(model, self.layout))
        self.names = [self.base.names[i] for i in self.base.base]
        self._inertial = 11 * model.n

    @property
    def size(self):
        """Count the base parameters (int)."""
        return self.base.rank

    def values(self, model):
        """
        Compute the base parameters of another model with the same structure.

        Parameters
        ----------
        model : RobotModel
            E.g. the true plant model.

        Returns
        -------
        numpy.ndarray
            ``beta``.

        """
        if model.n != self.model.n:
            raise InputError('model', f'has {model.n} joints, expected {self.model.n}')
        return self.base.values(parameter_vector(model, self.layout))

    def regressor(self, q, qd, qdd):
        """
        Evaluate the base regressor ``Y_b`` with ``tau = Y_b beta``.

        Parameters
        ----------
        q, qd, qdd : numpy.ndarray
            (n,) or (N, n).

        Returns
        -------
        numpy.ndarray
            (n, p) or (N, n, p).

        """
        return self.base.regressor(regressor(self.model, q, qd, qdd, friction=self.layout))

    def slotine_li_regressor(self, q, qd, qd_r, qdd_r):
        """
        Regressor of ``M(q) qdd_r + C(q, qd) qd_r + g(q) + F(qd)``.

        Parameters
        ----------
        q, qd : numpy.ndarray
            State, (n,).
        qd_r, qdd_r : numpy.ndarray
            Reference velocity and acceleration, (n,).

        Returns
        -------
        numpy.ndarray
            (n, p); the friction columns are evaluated at ``qd``.

        """
        zero = np.zeros_like(q)
        qs = np.array([q, q, q, q, q])
        vs = np.array([zero, qd + qd_r, qd, qd_r, zero])
        acc = np.array([qdd_r, zero, zero, zero, zero])
        y = regressor(self.model, qs, vs, acc, friction=self.layout)
        out = y[0] + 0.5 * (y[1] - y[2] - y[3] + y[4])
        k = self._inertial
        out[:, k:] = y[2][:, k:]
        return self.base.regressor(out)
