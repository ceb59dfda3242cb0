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
Actuator, friction and limit parameters: the YAML schema and its merge onto a model.

A parameter file (schema in ``config/robot_params.schema.yaml``) looks like::

    gravity: [0.0, 0.0, -9.81]          # optional, m/s^2
    joints:
      joint1:
        limits: {lower: -2.8, upper: 2.8, velocity: 2.0, acceleration: 8.0, effort: 97.6}
        actuator: {gear_ratio: 62.61, motor_inertia: 2.9e-4, torque_constant: 0.26,
                   current_limit: 6.0}
        friction:
          coulomb: [6.3, 6.9]           # one value or [positive, negative], N m
          viscous: 4.9                  # N m s/rad
          static: [7.0, 7.5]
          stribeck_velocity: 0.05       # rad/s
          smoothing_velocity: 0.001     # rad/s
          bearing: {mu: 0.1, radius: 0.10, span: 0.1, kind: journal}
          transmission: {breakaway: 6.3, rated_torque: 97.6,
                         load: [0.0, 0.1, 1.0], efficiency: [0.3, 0.6, 0.85]}

Fields that are given replace the model's; the others are kept.
"""

from collections.abc import Mapping
from dataclasses import replace
import math
import os

from .checks import check_joint_params
from .joint import (Actuator, BearingFriction, dataclass_to_dict, Friction, JointLimits,
                    TransmissionFriction)
from ..errors import DescriptionParseError, NonFiniteValueError, ParameterError

_LIMIT_KEYS = ('lower', 'upper', 'velocity', 'acceleration', 'effort')
_ACTUATOR_KEYS = ('gear_ratio', 'motor_inertia', 'armature', 'torque_constant', 'current_limit')
_FRICTION_KEYS = ('coulomb', 'viscous', 'static', 'stribeck_velocity', 'smoothing_velocity',
                  'bearing', 'transmission')
_BEARING_KEYS = ('mu', 'radius', 'span', 'kind')
_TRANSMISSION_KEYS = ('breakaway', 'rated_torque', 'load', 'efficiency')


def _check_keys(mapping, allowed, element, source, section):
    if not isinstance(mapping, Mapping):
        raise ParameterError(f'{section} must be a mapping', source, element, section, mapping)
    unknown = [str(k) for k in mapping if k not in allowed]
    if unknown:
        raise ParameterError(f'unknown keys {", ".join(unknown)} in {section} (allowed: '
                             f'{", ".join(allowed)})', source, element, section)


def _float(value, element, source, field, allow_inf=True):
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise ParameterError('must be a number', source, element, field, value) from None
    if math.isnan(out) or (not allow_inf and math.isinf(out)):
        raise NonFiniteValueError('must be finite', source, element, field, value)
    return out


def _pair(value, element, source, field):
    if isinstance(value, (list, tuple)):
        if len(value) != 2:
            raise ParameterError('give one value or [positive, negative]', source, element,
                                 field, list(value))
        return (_float(value[0], element, source, field, False),
                _float(value[1], element, source, field, False))
    v = _float(value, element, source, field, False)
    return v, v


def parse_limits(mapping, element, source=None, base=None):
    """
    Read a ``limits`` mapping.

    Parameters
    ----------
    mapping : mapping
        Keys among lower, upper [rad or m], velocity, acceleration, effort.
    element : str
        Joint named in error messages.
    source : str, optional
        File named in error messages.
    base : JointLimits, optional
        Values to keep for keys that are absent.

    Returns
    -------
    JointLimits
        Merged limits.

    """
    _check_keys(mapping, _LIMIT_KEYS, element, source, 'limits')
    values = {k: _float(v, element, source, f'limits.{k}') for k, v in mapping.items()}
    return replace(base or JointLimits(), **values)


def parse_actuator(mapping, element, source=None, base=None):
    """
    Read an ``actuator`` mapping.

    Parameters
    ----------
    mapping : mapping
        Keys among gear_ratio, motor_inertia [kg m^2, motor side], armature
        [kg m^2, link side], torque_constant [N m/A], current_limit [A].
    element : str
        Joint named in error messages.
    source : str, optional
        File named in error messages.
    base : Actuator, optional
        Values to keep for keys that are absent.

    Returns
    -------
    Actuator
        Merged actuator; when ``armature`` is absent but the gear ratio or
        the motor inertia is given, ``armature = gear_ratio^2 motor_inertia``.

    """
    _check_keys(mapping, _ACTUATOR_KEYS, element, source, 'actuator')
    values = {k: _float(v, element, source, f'actuator.{k}') for k, v in mapping.items()}
    act = replace(base or Actuator(), **values)
    if 'armature' not in values and ('gear_ratio' in values or 'motor_inertia' in values):
        act = replace(act, armature=act.gear_ratio ** 2 * act.motor_inertia)
    return act


def parse_friction(mapping, element, source=None, base=None):
    """
    Read a ``friction`` mapping.

    Parameters
    ----------
    mapping : mapping
        Keys among coulomb, viscous, static (one value or [positive,
        negative]), stribeck_velocity, smoothing_velocity, bearing,
        transmission (see the module docstring).
    element : str
        Joint named in error messages.
    source : str, optional
        File named in error messages.
    base : Friction, optional
        Values to keep for keys that are absent.

    Returns
    -------
    Friction
        Merged friction parameters.

    """
    _check_keys(mapping, _FRICTION_KEYS, element, source, 'friction')
    values = {}
    for key in ('coulomb', 'viscous', 'static'):
        if key in mapping:
            pos, neg = _pair(mapping[key], element, source, f'friction.{key}')
            values[f'{key}_pos'], values[f'{key}_neg'] = pos, neg
    for key in ('stribeck_velocity', 'smoothing_velocity'):
        if key in mapping:
            values[key] = _float(mapping[key], element, source, f'friction.{key}', False)
    if 'bearing' in mapping:
        b = mapping['bearing']
        if b is None:
            values['bearing'] = None
        else:
            _check_keys(b, _BEARING_KEYS, element, source, 'friction.bearing')
            kw = {k: _float(v, element, source, f'friction.bearing.{k}', False)
                  for k, v in b.items() if k != 'kind'}
            if 'kind' in b:
                kw['kind'] = str(b['kind'])
            values['bearing'] = BearingFriction(**kw)
    if 'transmission' in mapping:
        t = mapping['transmission']
        if t is None:
            values['transmission'] = None
        else:
            _check_keys(t, _TRANSMISSION_KEYS, element, source, 'friction.transmission')
            kw = {}
            for k in ('breakaway', 'rated_torque'):
                if k in t:
                    kw[k] = _float(t[k], element, source, f'friction.transmission.{k}', False)
            for k in ('load', 'efficiency'):
                if k in t:
                    seq = t[k] if isinstance(t[k], (list, tuple)) else [t[k]]
                    kw[k] = tuple(_float(v, element, source, f'friction.transmission.{k}',
                                         False) for v in seq)
            values['transmission'] = TransmissionFriction(**kw)
    return replace(base or Friction(), **values)


def load_params_file(path):
    """
    Read a parameter YAML file.

    Parameters
    ----------
    path : str or os.PathLike
        File.

    Returns
    -------
    dict
        The parsed mapping.

    Raises
    ------
    DescriptionParseError
        If the file is missing or is not valid YAML.
    ParameterError
        If the top level is not a mapping.

    """
    import yaml
    path = os.fspath(path)
    try:
        with open(path, 'r', encoding='utf-8') as fh:
            data = yaml.safe_load(fh)
    except OSError as exc:
        raise DescriptionParseError(f'cannot read file: {exc.strerror}', path) from exc
    except yaml.YAMLError as exc:
        raise DescriptionParseError(f'invalid YAML: {" ".join(str(exc).split())}',
                                    path) from exc
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise ParameterError('top level must be a mapping', path, None, None, type(data).__name__)
    return data


def apply_params(model, params, source=None):
    """
    Merge actuator, friction and limit data onto a model by joint name.

    Parameters
    ----------
    model : RobotModel
        Model to update.
    params : mapping, str or os.PathLike
        Parameter mapping or YAML file.
    source : str, optional
        Name of the parameters' origin for error messages.

    Returns
    -------
    RobotModel
        A new model.

    Raises
    ------
    ParameterError
        On unknown joint names, unknown keys or bad values (the message
        names the file, joint, field and value).

    """
    if not isinstance(params, Mapping):
        source = os.fspath(params)
        params = load_params_file(params)
    _check_keys(params, ('robot', 'gravity', 'joints'), None, source, 'top level')
    joints = list(model.joints)
    entries = params.get('joints') or {}
    if not isinstance(entries, Mapping):
        raise ParameterError('joints must be a mapping of joint names', source, None, 'joints')
    for name, entry in entries.items():
        if name not in model.joint_names:
            raise ParameterError(f'unknown joint (the model has: {", ".join(model.joint_names)})',
                                 source, f'joint {name!r}')
        element = f'joint {name!r}'
        entry = entry or {}
        _check_keys(entry, ('limits', 'actuator', 'friction'), element, source, 'joint entry')
        i = model.joint_index(name)
        j = joints[i]
        joints[i] = j.with_changes(
            limits=parse_limits(entry.get('limits', {}), element, source, j.limits),
            actuator=parse_actuator(entry.get('actuator', {}), element, source, j.actuator),
            friction=parse_friction(entry.get('friction', {}), element, source, j.friction))
        check_joint_params(joints[i], source, ParameterError)
    if 'gravity' in params:
        g = params['gravity']
        if not isinstance(g, (list, tuple)) or len(g) != 3:
            raise ParameterError('gravity must be 3 numbers', source, None, 'gravity', g)
        gravity = [_float(v, None, source, 'gravity', False) for v in g]
        return model.replace(joints=tuple(joints), gravity=gravity)
    return model.replace_joints(joints)


def model_params(model):
    """
    Parameter mapping (the YAML layout) of every joint of a model.

    Parameters
    ----------
    model : RobotModel
        The model.

    Returns
    -------
    dict
        ``{'robot': name, 'gravity': [...], 'joints': {name: {...}}}`` with
        plain Python values; infinite limits and NaN values are left out.

    """
    joints = {}
    for j in model.joints:
        limits = {k: v for k, v in dataclass_to_dict(j.limits).items() if math.isfinite(v)}
        actuator = {k: v for k, v in dataclass_to_dict(j.actuator).items()
                    if math.isfinite(v)}
        f = j.friction
        friction = {
            'coulomb': [f.coulomb_pos, f.coulomb_neg],
            'viscous': [f.viscous_pos, f.viscous_neg],
            'stribeck_velocity': f.stribeck_velocity,
            'smoothing_velocity': f.smoothing_velocity,
        }
        if f.has_stribeck:
            friction['static'] = [f.static_pos, f.static_neg]
        if f.bearing is not None:
            friction['bearing'] = dataclass_to_dict(f.bearing)
        if f.transmission is not None:
            friction['transmission'] = dataclass_to_dict(f.transmission)
        joints[j.name] = {'limits': limits, 'actuator': actuator, 'friction': friction}
    return {'robot': model.name, 'gravity': [float(g) for g in model.gravity], 'joints': joints}
