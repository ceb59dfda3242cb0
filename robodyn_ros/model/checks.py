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

"""Validation of joint limits, actuator and friction parameters."""

import math

from ..errors import ModelError, NonFiniteValueError


def check_joint_params(joint, src=None, error=ModelError):
    """
    Validate the limits, actuator and friction records of one joint.

    Parameters
    ----------
    joint : Joint
        The joint.
    src : str, optional
        File named in error messages.
    error : type, optional
        Error class raised for out-of-range values (non-finite values always
        raise :class:`NonFiniteValueError`).

    Raises
    ------
    ModelError
        Naming the joint, field and value of the first problem.

    """
    where = f'joint {joint.name!r}'
    lim = joint.limits
    for name in ('lower', 'upper', 'velocity', 'acceleration', 'effort'):
        value = getattr(lim, name)
        if math.isnan(value):
            raise NonFiniteValueError('limit must not be NaN', src, where, f'limits.{name}',
                                      value)
    if lim.lower > lim.upper:
        raise error('lower limit above upper limit', src, where, 'limits',
                    [lim.lower, lim.upper])
    for name in ('velocity', 'acceleration', 'effort'):
        if getattr(lim, name) <= 0.0:
            raise error('limit must be positive', src, where, f'limits.{name}',
                        getattr(lim, name))
    act = joint.actuator
    for name in ('gear_ratio', 'motor_inertia', 'armature'):
        if not math.isfinite(getattr(act, name)):
            raise NonFiniteValueError('must be finite', src, where, f'actuator.{name}',
                                      getattr(act, name))
    if act.gear_ratio == 0.0:
        raise error('gear ratio must not be zero', src, where, 'actuator.gear_ratio', 0.0)
    for name in ('motor_inertia', 'armature'):
        if getattr(act, name) < 0.0:
            raise error('must not be negative', src, where, f'actuator.{name}',
                        getattr(act, name))
    if not math.isnan(act.torque_constant) and not (
            math.isfinite(act.torque_constant) and act.torque_constant > 0.0):
        raise error('torque constant must be positive', src, where,
                    'actuator.torque_constant', act.torque_constant)
    if not act.current_limit > 0.0:
        raise error('current limit must be positive', src, where, 'actuator.current_limit',
                    act.current_limit)
    fr = joint.friction
    for name in ('coulomb_pos', 'coulomb_neg', 'viscous_pos', 'viscous_neg'):
        value = getattr(fr, name)
        if not math.isfinite(value):
            raise NonFiniteValueError('must be finite', src, where, f'friction.{name}', value)
        if value < 0.0:
            raise error('friction coefficients must not be negative', src, where,
                        f'friction.{name}', value)
    if fr.has_stribeck:
        for name in ('static_pos', 'static_neg'):
            value = getattr(fr, name)
            if not math.isfinite(value) or value < 0.0:
                raise error('static friction must be finite and >= 0', src, where,
                            f'friction.{name}', value)
        if not (math.isfinite(fr.stribeck_velocity) and fr.stribeck_velocity > 0.0):
            raise error('Stribeck velocity must be positive', src, where,
                        'friction.stribeck_velocity', fr.stribeck_velocity)
    if not (math.isfinite(fr.smoothing_velocity) and fr.smoothing_velocity >= 0.0):
        raise error('smoothing velocity must be finite and >= 0', src, where,
                    'friction.smoothing_velocity', fr.smoothing_velocity)
    if fr.bearing is not None:
        b = fr.bearing
        if b.kind not in ('journal', 'thrust', 'linear'):
            raise error("bearing kind must be 'journal', 'thrust' or 'linear'", src, where,
                        'friction.bearing.kind', b.kind)
        for name in ('mu', 'radius', 'span'):
            value = getattr(b, name)
            if not (math.isfinite(value) and value >= 0.0):
                raise error('must be finite and >= 0', src, where,
                            f'friction.bearing.{name}', value)
        if b.kind in ('journal', 'linear') and b.span <= 0.0 and b.mu > 0.0:
            raise error('bearing span must be positive', src, where,
                        'friction.bearing.span', b.span)
    if fr.transmission is not None:
        t = fr.transmission
        if not (math.isfinite(t.breakaway) and t.breakaway >= 0.0):
            raise error('breakaway torque must be finite and >= 0', src, where,
                        'friction.transmission.breakaway', t.breakaway)
        if not (math.isfinite(t.rated_torque) and t.rated_torque > 0.0):
            raise error('rated torque must be positive', src, where,
                        'friction.transmission.rated_torque', t.rated_torque)
        if len(t.load) != len(t.efficiency) or len(t.load) < 1:
            raise error('load and efficiency must have the same, non-zero length', src,
                        where, 'friction.transmission.efficiency', list(t.efficiency))
        if any(not (0.0 < e <= 1.0) for e in t.efficiency):
            raise error('efficiency must lie in (0, 1]', src, where,
                        'friction.transmission.efficiency', list(t.efficiency))
        if any(b <= a for a, b in zip(t.load, t.load[1:])):
            raise error('load points must increase', src, where,
                        'friction.transmission.load', list(t.load))
