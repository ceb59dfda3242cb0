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
Build a controller from a law name and flat options (for the node and the CLI).

Options are plain numbers, lists and strings, as ROS parameters are. Gains
left empty are designed from poles: ``omega`` (and ``zeta``) give the
computed-torque gains; PID gains are the triple pole of seed 001 eq. 9.10 at
the largest diagonal inertia of the model. Which gains may change while the
controller runs is listed in :data:`LIVE_GAINS`; :func:`apply_gain` applies
such a change after checking it.
"""

import numpy as np

from .checks import per_joint
from .computed_torque import ComputedTorque
from .computed_torque_lme import ComputedTorqueLME
from .gains import ct_gains, max_joint_inertia, triple_pole_pid
from .mbvsst import DEFAULT_RELAY_FRACTION, MBVSST, relay_scale
from .model_dynamics import ModelDynamics
from .pid import PDGravity, PID
from .self_tuning import SelfTuningComputedTorque
from .sliding_mode import SlidingMode
from .slotine_li import SlotineLi
from ..errors import InputError

LAWS = ('pid', 'pd_gravity', 'computed_torque', 'computed_torque_lme', 'sliding_mode',
        'self_tuning_ct', 'slotine_li', 'mbvsst')

#: Gains that can change while running, per law (arrays of n values or scalars).
LIVE_GAINS = {
    'pid': ('kp', 'kd', 'ki'),
    'pd_gravity': ('kp', 'kd'),
    'computed_torque': ('kp', 'kd', 'ki'),
    'computed_torque_lme': ('kp', 'kd', 'ki'),
    'self_tuning_ct': ('kp', 'kd', 'ki'),
    'mbvsst': ('kp', 'kd', 'ki'),
    'sliding_mode': ('lam', 'gain', 'boundary'),
    'slotine_li': ('lam', 'kd'),
}


def _opt(options, key, default=None):
    value = options.get(key, default)
    if isinstance(value, (list, tuple)) and len(value) == 0:
        return default
    return value


def _ct_gains(options, n):
    kp, kd = _opt(options, 'kp'), _opt(options, 'kd')
    if kp is not None and kd is not None:
        return per_joint(kp, n, 'kp', low=0.0), per_joint(kd, n, 'kd', low=0.0)
    return ct_gains(_opt(options, 'omega', 20.0), _opt(options, 'zeta', 1.0), n)


def make_controller(law, model, period, options=None):
    """
    Build a controller.

    Parameters
    ----------
    law : str
        One of :data:`LAWS`.
    model : RobotModel
        The controller's model.
    period : float
        Sample period [s].
    options : dict, optional
        ``omega``, ``zeta``, ``kp``, ``kd``, ``ki``, ``form``,
        ``torque_limit``, ``backend``, ``lam``, ``gain``, ``boundary``,
        ``sliding_form``, ``payload_frame``, ``initial_mass``,
        ``forgetting``, ``estimator_joints``, ``relay_fraction``,
        ``vsst_boundary``, ``gamma``, ``compiled`` (CT+LME and MBVSST:
        False runs their Python code instead of the compiled sample); empty
        lists count as unset.

    Returns
    -------
    Controller
        The controller.

    Raises
    ------
    InputError
        Unknown law or invalid option.

    """
    options = dict(options or {})
    if law not in LAWS:
        raise InputError('law', f'must be one of {", ".join(LAWS)}, got {law!r}')
    n = model.n
    common = {'torque_limit': _opt(options, 'torque_limit'),
              'dynamics': ModelDynamics(model, _opt(options, 'backend', 'auto'))}
    form = _opt(options, 'form', 'tracking')
    ki = _opt(options, 'ki', 0.0)
    omega = float(_opt(options, 'omega', 20.0))
    if law in ('pid', 'pd_gravity'):
        kp, kd = _opt(options, 'kp'), _opt(options, 'kd')
        if kp is None or kd is None:
            gains = triple_pole_pid(max_joint_inertia(model), omega)
            kp = gains.kp if kp is None else kp
            kd = gains.kd if kd is None else kd
            if law == 'pid' and _opt(options, 'ki') is None:
                ki = gains.ki
        if law == 'pid':
            band = _opt(options, 'integral_band', (0.0, np.inf))
            return PID(model, period, kp, kd, ki, integral_band=tuple(band), **common)
        return PDGravity(model, period, kp, kd, **common)
    if law == 'sliding_mode':
        lam = _opt(options, 'lam', omega)
        gain = _opt(options, 'gain', omega * omega)
        return SlidingMode(model, period, lam, gain, _opt(options, 'boundary', 0.05),
                           form=_opt(options, 'sliding_form', 'decoupled'), **common)
    if law == 'slotine_li':
        lam = _opt(options, 'lam', omega)
        kd = _opt(options, 'kd')
        if kd is None:
            mid = np.clip(np.zeros(n), model.lower_limits, model.upper_limits)
            kd = 2.0 * omega * np.diag(common['dynamics'].mass_matrix(mid))
        return SlotineLi(model, period, lam, kd, _opt(options, 'gamma', 1.0), **common)
    kp, kd = _ct_gains(options, n)
    ct_args = {'form': form, 'ki': ki, **common}
    if law == 'computed_torque':
        return ComputedTorque(model, period, kp, kd, **ct_args)
    if law == 'self_tuning_ct':
        return SelfTuningComputedTorque(model, period, kp, kd,
                                        forgetting=_opt(options, 'forgetting', 0.999),
                                        **ct_args)
    lme = {'payload_frame': _opt(options, 'payload_frame') or None,
           'initial_mass': float(_opt(options, 'initial_mass', 0.0)),
           'forgetting': float(_opt(options, 'forgetting', 0.98)),
           'estimator_joints': tuple(int(j) for j in _opt(options, 'estimator_joints', (0,))),
           'compiled': bool(options.get('compiled', True))}
    if law == 'computed_torque_lme':
        return ComputedTorqueLME(model, period, kp, kd, **lme, **ct_args)
    fraction = float(_opt(options, 'relay_fraction', DEFAULT_RELAY_FRACTION))
    scale = _opt(options, 'torque_scale')
    if scale is None:
        scale = relay_scale(model, fraction)
    return MBVSST(model, period, kp, kd, torque_scale=scale,
                  boundary=_opt(options, 'vsst_boundary', 0.0), **lme, **ct_args)


def apply_gain(controller, name, value):
    """
    Change a gain of a running controller after checking it.

    Parameters
    ----------
    controller : Controller
        The controller.
    name : str
        Gain name (see :data:`LIVE_GAINS`).
    value : float or sequence of float
        New value(s).

    Raises
    ------
    InputError
        If the gain cannot change at run time or the value is invalid (the
        controller is then unchanged).

    """
    allowed = LIVE_GAINS.get(controller.law, ())
    if name not in allowed:
        raise InputError(name, f'cannot change at run time for law {controller.law!r} '
                               f'(live gains: {", ".join(allowed) or "none"})')
    strict = name in ('lam',) or (name == 'kd' and controller.law == 'slotine_li')
    arr = per_joint(value, controller.n, name, low=0.0, strict=strict)
    setattr(controller, name, arr)
