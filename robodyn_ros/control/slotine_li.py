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
The Slotine-Li adaptive law (seed 003 eqs. 6.17-6.22).

With ``e = q_ref - q``, the reference velocity ``qd_r = qd_ref + Lambda e``
and ``s = qd - qd_r`` (so ``s = -(e' + Lambda e)``)::

    tau = Y(q, qd, qd_r, qdd_r) a_hat - K_D s
    a_hat' = -Gamma Y' s

where ``Y a = M(q) qdd_r + C(q, qd) qd_r + g(q) + F(qd)`` in the base
parameters ``a``. The closed loop ``M s' + (K_D + C) s = Y a_tilde`` is
passive; ``V = s' M s / 2 + a_tilde' Gamma^-1 a_tilde / 2`` does not grow,
so ``s -> 0`` and ``e -> 0`` without persistent excitation (the parameters
converge only with it). Discrete update: forward Euler; the estimate is
projected onto a box and the adaptation pauses while the torque is
saturated.
"""

import numpy as np

from .base import Controller
from .checks import per_joint
from .parameter_model import BaseParameterModel
from .self_tuning import parameter_box
from ..dynamics import mass_matrix
from ..errors import InputError


class SlotineLi(Controller):
    """
    Slotine-Li adaptive control.

    Parameters
    ----------
    model : RobotModel
        Initial model (parameters may be wrong; structure right).
    period : float
        Sample period [s].
    lam : float or array_like
        ``Lambda`` [1/s] (> 0).
    kd : float or array_like
        ``K_D`` [N m s/rad] (> 0).
    gamma : float
        Adaptation gain: ``Gamma = gamma diag(box^2)``, the box of
        ``bound_fraction`` around the initial parameters (so every parameter
        adapts at a rate scaled to its size) [1/(N m rad/s) s].
    bound_fraction : float
        Relative half-width of the estimate box.
    friction : str
        Friction columns of the regressor.
    adapt : bool
        Update the estimate.
    parameter_model : BaseParameterModel, optional
        Precomputed base parameters of ``model``.
    **kwargs
        Passed to :class:`~robodyn_ros.control.base.Controller`.

    """

    law = 'slotine_li'
    law_options = ('omega', 'lam', 'kd', 'gamma')
    live_gains = ('lam', 'kd')
    gain_scaling = {'lam': (1, False), 'kd': (1, True)}
    #: ``Lambda`` and ``K_D = 2 omega M_jj`` from this when not given [rad/s].
    default_omega = 20.0

    def __init__(self, model, period, lam, kd, gamma=1.0, *, bound_fraction=1.0,
                 friction='auto', adapt=True, parameter_model=None, **kwargs):
        super().__init__(model, period, **kwargs)
        n = self.n
        self.lam = per_joint(lam, n, 'lam', low=0.0, strict=True)
        self.kd = per_joint(kd, n, 'kd', low=0.0, strict=True)
        if not (np.isfinite(gamma) and gamma >= 0.0):
            raise InputError('gamma', f'must be finite and >= 0, got {gamma}')
        self.params = parameter_model or BaseParameterModel(model, friction)
        beta0 = self.params.nominal
        half = parameter_box(beta0, bound_fraction)
        self.gamma = float(gamma) * half ** 2
        self.lower, self.upper = beta0 - half, beta0 + half
        self._a0 = beta0.copy()
        self.a_hat = beta0.copy()
        self.adapt = bool(adapt)
        self._pending = None
        self._s = np.zeros(n)

    @classmethod
    def _keywords(cls, model, opts):
        kwargs = super()._keywords(model, opts)
        omega = opts.get('omega', cls.default_omega)
        kwargs['lam'] = opts.get('lam', omega)
        kd = opts.get('kd')
        if kd is None:   # the diagonal inertia at the home configuration
            kd = 2.0 * omega * np.diag(mass_matrix(model, model.home_configuration()))
        kwargs['kd'] = kd
        if 'gamma' in opts:
            kwargs['gamma'] = opts['gamma']
        return kwargs

    def check_gain(self, name, value, live=True):
        """Check a live gain (see :meth:`Controller.check_gain`); both must be > 0."""
        super().check_gain(name, value, live)
        return per_joint(value, self.n, name, low=0.0, strict=True)

    def _compute(self, t, q, qd, ref):
        e = ref.q - q
        qd_r = ref.qd + self.lam * e
        qdd_r = ref.qdd + self.lam * (ref.qd - qd)
        s = qd - qd_r
        self._s = s
        y = self.params.slotine_li_regressor(q, qd, qd_r, qdd_r)
        self._pending = (y, s) if self.adapt else None
        return y @ self.a_hat - self.kd * s

    def _applied(self, tau, saturated):
        if self._pending is None or saturated.any():
            return
        y, s = self._pending
        a = self.a_hat - self.period * self.gamma * (y.T @ s)
        self.a_hat = np.minimum(np.maximum(a, self.lower), self.upper)
        self._pending = None

    def _gravity(self, q):
        zero = np.zeros(self.n)
        return self.params.regressor(q, zero, zero) @ self.a_hat

    def reset(self):
        """Forget the adaptation and return to the initial parameters."""
        super().reset()
        self.a_hat = self._a0.copy()

    def estimates(self):
        """
        Report the parameter estimate and ``s``.

        Returns
        -------
        dict
            ``base_parameters`` and ``sliding_variable`` (``-s`` of the
            law, i.e. ``e' + Lambda e``).

        """
        return {'base_parameters': self.a_hat.copy(), 'sliding_variable': -self._s}
