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
Self-tuning computed torque: the base parameters estimated on line by RLS.

The inverse dynamics is linear in the base parameters (inertial, rotor
inertia and friction), ``tau = Y_b(q, qd, qdd) beta``. Every sample the
measured positions and the applied torque pass through the same
state-variable filter (seed 003 Appendix B), the regressor is evaluated on
the filtered position, velocity and acceleration, and recursive least
squares with forgetting updates ``beta`` (all joints' equations at once).

The filter is ``(s / 50 + 1)^2`` by default, five times faster than seed
003's ``(0.1 s + 1)^2``: the dynamics are not linear, so ``Y(filtered
state) beta`` equals the filtered torque only when the filter is fast
compared with the motion, and the slow filter biases the estimate (Coulomb
friction, discontinuous in the velocity, is biased by any filter).
The computed-torque law then uses the estimate: ``tau = Y_b(q, qd, w)
beta_hat``. Estimates are projected onto a box around the initial model
(``bound_fraction`` of each value, at least a floor) so they stay bounded.
The estimator's settings are one record, :class:`ParameterEstimatorSettings`.
"""

from dataclasses import dataclass

import numpy as np

from .base import Controller
from .checks import setting_number, setting_numbers
from .computed_torque import ComputedTorque
from .filters import StateVariableFilter
from .parameter_model import BaseParameterModel
from .rls import RecursiveLeastSquares
from ..errors import InputError

#: ``C(s) = (s / 50 + 1)^2``: double pole at -50 rad/s.
DEFAULT_FILTER = (4e-4, 0.04, 1.0)

#: Friction columns the regressor can have.
FRICTION_COLUMNS = ('auto', 'symmetric', 'asymmetric', 'none')


def parameter_box(nominal, fraction, floor_fraction=1e-3):
    """
    Half-widths of the estimate box around a nominal parameter vector.

    Parameters
    ----------
    nominal : numpy.ndarray
        Nominal values.
    fraction : float
        Relative half-width.
    floor_fraction : float
        Smallest half-width, as a fraction of the largest ``|nominal|``.

    Returns
    -------
    numpy.ndarray
        ``fraction * max(|nominal|, floor)``.

    """
    scale = max(float(np.abs(nominal).max()), 1e-12)
    return fraction * np.maximum(np.abs(nominal), floor_fraction * scale)


@dataclass(frozen=True)
class ParameterEstimatorSettings:
    """
    Settings of the base-parameter estimator of the self-tuning law.

    Every field is checked (sequences made tuples) when the record is made.

    Attributes
    ----------
    forgetting : float
        RLS forgetting factor in (0, 1] [-].
    variance_fraction : float
        Initial standard deviation of each parameter relative to its
        initial value (with the box floor) [-]: the prior belief in the
        model (0.3: about 30 %). Larger values learn faster but pass
        through wilder estimates (a mass matrix that is not positive
        definite) in the first seconds.
    bound_fraction : float
        Relative half-width of the estimate box [-] (0.5: each base
        parameter stays within 50 % of its initial value).
    friction : {'auto', 'symmetric', 'asymmetric', 'none'}
        Friction columns of the regressor (which friction coefficients are
        estimated).
    filter_coefficients : tuple of float
        State-variable filter ``C(s)``, highest power first, degree >= 2
        (coefficient of ``s^k`` in [s^k]); default :data:`DEFAULT_FILTER`.

    """

    forgetting: float = 0.999
    variance_fraction: float = 0.3
    bound_fraction: float = 0.5
    friction: str = 'auto'
    filter_coefficients: tuple = DEFAULT_FILTER

    def __post_init__(self):
        checked = {
            'forgetting': setting_number(self.forgetting, 'forgetting', low=0.0, strict=True,
                                         high=1.0),
            'variance_fraction': setting_number(self.variance_fraction, 'variance_fraction',
                                                low=0.0, strict=True),
            'bound_fraction': setting_number(self.bound_fraction, 'bound_fraction', low=0.0),
            'filter_coefficients': setting_numbers(self.filter_coefficients,
                                                   'filter_coefficients'),
        }
        for name, value in checked.items():
            object.__setattr__(self, name, value)
        if self.friction not in FRICTION_COLUMNS:
            raise InputError('friction', "must be 'auto', 'symmetric', 'asymmetric' or 'none', "
                                         f'got {self.friction!r}')
        if not isinstance(self.filter_coefficients, tuple) or len(self.filter_coefficients) < 3:
            raise InputError('filter_coefficients', 'C(s) must have degree >= 2')


class SelfTuningComputedTorque(ComputedTorque):
    """
    Computed torque on base parameters estimated by RLS.

    Parameters
    ----------
    model : RobotModel
        The initial (possibly wrong) model; its structure is the true one.
    period : float
        Sample period [s].
    kp, kd, omega, zeta, form, ki
        As for :class:`~robodyn_ros.control.computed_torque.ComputedTorque`.
    estimator : ParameterEstimatorSettings
        Forgetting, prior, estimate box, friction columns and filter of the
        estimator.
    adapt : bool
        Update the estimate.
    parameter_model : BaseParameterModel, optional
        Precomputed base parameters of ``model`` (with the friction columns
        of ``estimator``).
    **kwargs
        Passed to :class:`~robodyn_ros.control.base.Controller`.

    Attributes
    ----------
    estimator_settings : ParameterEstimatorSettings
        The settings it was built with.

    """

    law = 'self_tuning_ct'
    law_options = ('forgetting',)

    def __init__(self, model, period, kp=None, kd=None, *, omega=None, zeta=1.0,
                 form='tracking', ki=0.0, estimator=ParameterEstimatorSettings(), adapt=True,
                 parameter_model=None, **kwargs):
        if not isinstance(estimator, ParameterEstimatorSettings):
            raise InputError('estimator', f'must be a ParameterEstimatorSettings, got '
                                          f'{estimator!r}')
        super().__init__(model, period, kp, kd, omega=omega, zeta=zeta, form=form, ki=ki,
                         **kwargs)
        self.estimator_settings = s = estimator
        self.params = parameter_model or BaseParameterModel(model, s.friction)
        beta0 = self.params.nominal
        half = parameter_box(beta0, s.bound_fraction)
        spread = parameter_box(beta0, s.variance_fraction)
        self.rls = RecursiveLeastSquares(beta0, spread ** 2, s.forgetting, beta0 - half,
                                         beta0 + half)
        n = self.n
        self._q_filter = StateVariableFilter(s.filter_coefficients, self.period, n,
                                             hold='linear')
        self._tau_filter = StateVariableFilter(s.filter_coefficients, self.period, n,
                                               hold='zero')
        c = self._q_filter.coefficients
        self._settle = int(round(c[-2] / c[-1] / self.period))
        self._count = 0
        self.adapt = bool(adapt)

    # The torque comes from the regressor in Python, not from the compiled sample (and
    # it has no split form).
    _compiled_step = Controller._compiled_step
    has_split_form = False

    @classmethod
    def _keywords(cls, model, opts):
        kwargs = super()._keywords(model, opts)
        if 'forgetting' in opts:
            kwargs['estimator'] = ParameterEstimatorSettings(forgetting=opts['forgetting'])
        return kwargs

    @property
    def beta(self):
        """Give the current base-parameter estimate (numpy.ndarray, a copy)."""
        return self.rls.theta.copy()

    def _on_restart(self, t, q, qd):
        super()._on_restart(t, q, qd)
        self._q_filter.reset()
        self._tau_filter.reset()
        self._count = 0

    def _compute(self, t, q, qd, ref):
        w = self.command_acceleration(q, qd, ref)
        if self.form == 'predictive':
            state = (ref.q, ref.qd)
        else:
            state = (q, qd)
        fq = self._q_filter.update(q) if self.adapt else None
        self._count += 1
        learn = self.adapt and self._count > self._settle + 2
        if self.adapt and self._count >= 2:
            if self._count == 2:
                self._tau_filter.reset(self._last_tau)
            ftau = self._tau_filter.update(self._last_tau)[0]
        if learn:
            y = self.params.regressor(np.array([fq[0], state[0]]), np.array([fq[1], state[1]]),
                                      np.array([fq[2], w]))
            self.rls.update(y[0], ftau)
            return y[1] @ self.rls.theta
        return self.params.regressor(state[0], state[1], w) @ self.rls.theta

    def _gravity(self, q):
        zero = np.zeros(self.n)
        return self.params.regressor(q, zero, zero) @ self.rls.theta

    def reset(self):
        """Forget filters and integrators and return to the initial parameters."""
        super().reset()
        self.rls.reset()

    def estimates(self):
        """
        Report the base-parameter estimate.

        Returns
        -------
        dict
            ``{'base_parameters': beta_hat}``.

        """
        return {'base_parameters': self.rls.theta.copy()}
