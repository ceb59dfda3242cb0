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
Independent-joint PID and PD plus gravity compensation (seed 001 §9.3).

PID (eq. 9.5): ``tau = Kp e + Kd e' + Ki integral(e)``, ``e = q_ref - q``.
The derivative acts on the error, so it carries the velocity feedforward
``Kd qd_ref`` that seed 001 recommends. The integral (forward Euler) follows
the seed's switch-off rules: it is frozen on a joint whose error is larger
than ``integral_band[1]`` (the proportional term is enough there) or smaller
than ``integral_band[0]`` (no limit cycles from Coulomb friction). Anti-windup
is conditional integration: a saturated joint does not integrate an error
that pushes it further into saturation, and the integral torque is clamped
to the torque limit.

PD plus gravity (eq. 9.12): ``tau = Kp e - Kd qd + g(q)`` (or ``g(q_ref)``),
the regulator whose stability seed 001 proves with ``V = qd' M qd / 2 + e'
Kp e / 2``.
"""

import numpy as np

from .base import Controller
from .checks import per_joint
from .gains import max_joint_inertia, triple_pole_pid
from .saturation import integrate_entry
from ..errors import InputError

#: Triple pole of the gains when none are given [rad/s].
DEFAULT_OMEGA = 20.0


def _pole_gains(model, opts, integral):
    """``kp``, ``kd`` (and ``ki``) from the options, else from the triple pole at ``omega``."""
    kp, kd, ki = opts.get('kp'), opts.get('kd'), opts.get('ki')
    if kp is None or kd is None:
        gains = triple_pole_pid(max_joint_inertia(model), opts.get('omega', DEFAULT_OMEGA))
        kp = gains.kp if kp is None else kp
        kd = gains.kd if kd is None else kd
        ki = gains.ki if ki is None else ki
    out = {'kp': kp, 'kd': kd}
    if integral and ki is not None:
        out['ki'] = ki
    return out


class PID(Controller):
    """
    Per-joint PID with integral switch-off and anti-windup.

    Parameters
    ----------
    model : RobotModel
        The model (used for the torque limits and the gravity hold).
    period : float
        Sample period [s].
    kp, kd, ki : float or array_like
        Gains [N m/rad, N m s/rad, N m/(rad s)] (see
        :func:`robodyn_ros.control.gains.triple_pole_pid`).
    integral_band : tuple of float or array_like
        ``(small, large)``: integrate joint j only while ``small <= |e_j|
        <= large`` [rad or m]; default ``(0, inf)``.
    **kwargs
        Passed to :class:`~robodyn_ros.control.base.Controller`.

    """

    law = 'pid'
    law_options = ('omega', 'kp', 'kd', 'ki', 'integral_band')
    live_gains = ('kp', 'kd', 'ki')
    gain_scaling = {'kp': (2, True), 'kd': (1, True), 'ki': (3, True)}

    def __init__(self, model, period, kp, kd, ki=0.0, *, integral_band=(0.0, np.inf),
                 **kwargs):
        super().__init__(model, period, **kwargs)
        n = self.n
        self.kp = per_joint(kp, n, 'kp', low=0.0)
        self.kd = per_joint(kd, n, 'kd', low=0.0)
        self.ki = per_joint(ki, n, 'ki', low=0.0)
        if len(integral_band) != 2:
            raise InputError('integral_band', 'must be (small, large)')
        self.band_low = per_joint(integral_band[0], n, 'integral_band[0]', low=0.0)
        self.band_high = per_joint(integral_band[1], n, 'integral_band[1]', low=0.0,
                                   allow_inf=True)
        if np.any(self.band_high < self.band_low):
            raise InputError('integral_band', 'large must be >= small on every joint')
        self._integral = np.zeros(n)
        self._e = np.zeros(n)

    @classmethod
    def _keywords(cls, model, opts):
        kwargs = {**super()._keywords(model, opts), **_pole_gains(model, opts, True)}
        if 'integral_band' in opts:
            kwargs['integral_band'] = tuple(np.atleast_1d(opts['integral_band']))
        return kwargs

    def _on_restart(self, t, q, qd):
        self._integral[:] = 0.0

    def _compute(self, t, q, qd, ref):
        e = ref.q - q
        self._e = e
        return self.kp * e + self.kd * (ref.qd - qd) + self.ki * self._integral

    def _applied(self, tau, saturated):
        # Integrate within the band; a saturated joint does not integrate further into
        # saturation (anti-windup), and the integral torque never exceeds the limit.
        integrate_entry(self._integral, self._e, tau, saturated, self.period, self.band_low,
                        self.band_high, self.n)
        with np.errstate(divide='ignore', invalid='ignore'):
            cap = np.where(self.ki > 0.0, self.torque_limit / self.ki, np.inf)
        np.clip(self._integral, -cap, cap, out=self._integral)

    @property
    def integral(self):
        """Integral of the error, (n,) [rad s or m s] (numpy.ndarray)."""
        return self._integral.copy()

    def estimates(self):
        """
        Report the integral torque.

        Returns
        -------
        dict
            ``{'integral_torque': Ki * integral}`` [N m or N].

        """
        return {'integral_torque': self.ki * self._integral}


class PDGravity(Controller):
    """
    PD plus gravity compensation (seed 001 eq. 9.12).

    Parameters
    ----------
    model : RobotModel
        The model whose gravity is compensated.
    period : float
        Sample period [s].
    kp, kd : float or array_like
        Gains [N m/rad, N m s/rad].
    gravity_at : {'measured', 'desired'}
        Compensate ``g(q)`` or the constant ``g(q_ref)`` (both are stable).
    damping_on : {'velocity', 'error'}
        ``-Kd qd`` (the regulator of eq. 9.12) or ``Kd (qd_ref - qd)``.
    **kwargs
        Passed to :class:`~robodyn_ros.control.base.Controller`.

    """

    law = 'pd_gravity'
    law_options = ('omega', 'kp', 'kd')
    live_gains = ('kp', 'kd')
    gain_scaling = {'kp': (2, True), 'kd': (1, True)}

    @classmethod
    def _keywords(cls, model, opts):
        return {**super()._keywords(model, opts), **_pole_gains(model, opts, False)}

    def __init__(self, model, period, kp, kd, *, gravity_at='measured', damping_on='velocity',
                 **kwargs):
        super().__init__(model, period, **kwargs)
        self.kp = per_joint(kp, self.n, 'kp', low=0.0)
        self.kd = per_joint(kd, self.n, 'kd', low=0.0)
        if gravity_at not in ('measured', 'desired'):
            raise InputError('gravity_at', f"must be 'measured' or 'desired', got {gravity_at!r}")
        if damping_on not in ('velocity', 'error'):
            raise InputError('damping_on', f"must be 'velocity' or 'error', got {damping_on!r}")
        self.gravity_at = gravity_at
        self.damping_on = damping_on

    def _compute(self, t, q, qd, ref):
        g = self._gravity(q if self.gravity_at == 'measured' else ref.q)
        v = -qd if self.damping_on == 'velocity' else ref.qd - qd
        return self.kp * (ref.q - q) + self.kd * v + g
