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
Validation of a robot model: the whole tree, each joint's parameters, vectors.

Structural problems (tree, joint types, NaN, limits) are errors. Broken rules
of physical consistency (negative or zero mass, inertia tensors that are not
positive semidefinite or break the triangle inequality, moving links without
``<inertial>``) are warnings, as Pinocchio accepts such descriptions; strict
validation raises them.
"""

import math

import numpy as np

from .inertial import check_inertial, is_missing_inertial
from .joint import JOINT_KINDS
from .transforms import is_rotation
from ..errors import (InputError, MissingInertialError, ModelError, NonFiniteValueError,
                      NonPositiveMassError, TopologyError, UnsupportedJointError)


def check_model(model, strict=True):
    """
    Check a whole model (its constructor calls this).

    Parameters
    ----------
    model : RobotModel
        The model.
    strict : bool
        Raise on a broken rule of physical consistency (see
        :func:`~.inertial.check_inertial`; also a moving link without mass
        or without ``<inertial>``); otherwise report it. Structural errors
        (tree, joints, NaN, limits) always raise.

    Returns
    -------
    list of str
        One warning per broken rule, naming the link and the rule (empty
        when ``strict``).

    Raises
    ------
    ModelError
        With the joint or link, field and value of the first problem found.

    """
    src = model.source
    if not np.all(np.isfinite(model.gravity)):
        raise NonFiniteValueError('gravity must be finite', src, None, 'gravity',
                                  model.gravity.tolist())
    problems = []
    for i, (j, body) in enumerate(zip(model.joints, model.inertials)):
        _check_joint_placement(i, j, src)
        check_joint_params(j, src)
        link = f'link {j.link!r}'
        found = check_inertial(body, link, src, strict=False)
        if not found and body.mass == 0.0:
            if is_missing_inertial(body):
                found = [MissingInertialError('moving link has no inertial (taken as massless)',
                                              src, link)]
            else:
                found = [NonPositiveMassError('a moving link must have a positive mass', src,
                                              link, 'mass', body.mass)]
        problems += found
    problems += check_inertial(model.root_inertial, f'link {model.root_link!r} (fixed base)',
                               src, strict=False)
    for f in model.frames.values():
        if not -1 <= f.body < model.n:
            raise TopologyError('frame attached to a body that does not exist', src,
                                f'frame {f.name!r}', 'body', f.body)
    if strict and problems:
        raise problems[0]
    return [warning_text(p) for p in problems]


def warning_text(error):
    """
    One-line warning for a rule a description breaks but that loading accepts.

    Parameters
    ----------
    error : ModelError
        The problem (what strict loading raises).

    Returns
    -------
    str
        ``"<source>: <link or joint>: <rule broken>; loaded as given (strict loading
        refuses it)"``.

    """
    parts = [str(p) for p in (error.source, error.element) if p]
    return ': '.join(parts + [f'{error.reason}; loaded as given (strict loading refuses it)'])


def _check_joint_placement(i, j, src):
    """Check the kind, tree position, placement and axis of joint ``i``."""
    where = f'joint {j.name!r}'
    if j.kind not in JOINT_KINDS:
        raise UnsupportedJointError(
            f'unsupported joint type (supported: {", ".join(JOINT_KINDS)})',
            src, where, 'type', j.kind)
    if not -1 <= j.parent < i:
        raise TopologyError('parent must come before the joint in tree order', src,
                            where, 'parent', j.parent)
    for name in ('rotation', 'translation', 'axis'):
        if not np.all(np.isfinite(getattr(j, name))):
            raise NonFiniteValueError(f'{name} must be finite', src, where, name,
                                      getattr(j, name).tolist())
    if not is_rotation(j.rotation, tol=1e-6):
        raise ModelError('placement is not a proper rotation', src, where, 'rotation',
                         j.rotation.tolist())
    if abs(np.linalg.norm(j.axis) - 1.0) > 1e-9:
        raise ModelError('axis must be a unit vector', src, where, 'axis',
                         j.axis.tolist())


def check_vector(value, n, argument):
    """
    Validate a vector argument of length ``n``.

    Parameters
    ----------
    value : array_like
        The vector.
    n : int
        Required length.
    argument : str
        Name used in error messages.

    Returns
    -------
    numpy.ndarray
        Float array of shape (n,).

    Raises
    ------
    InputError
        Wrong shape or non-finite entries.

    """
    arr = np.asarray(value, dtype=float)
    if arr.shape != (n,):
        raise InputError(argument, f'expected shape ({n},), got {arr.shape}')
    if not np.all(np.isfinite(arr)):
        bad = int(np.flatnonzero(~np.isfinite(arr))[0])
        raise InputError(argument, f'entry {bad} is {arr[bad]} (must be finite)')
    return arr


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
