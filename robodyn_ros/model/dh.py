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
Build a serial :class:`RobotModel` from a Denavit-Hartenberg table.

Two conventions are supported:

* ``'standard'`` (distal, Paul): ``T_i = Rz(theta_i) Tz(d_i) Tx(a_i) Rx(alpha_i)``;
  the link's inertial data are given in DH frame ``i`` (at the far end of
  link ``i``), which becomes the named frame ``frame<i>``.
* ``'modified'`` (proximal, Craig / Khalil-Kleinfinger):
  ``T_i = Rx(alpha_{i-1}) Tx(a_{i-1}) Rz(theta_i) Tz(d_i)``; row ``i`` holds
  ``alpha_{i-1}``, ``a_{i-1}``, ``theta_i``, ``d_i`` (as printed in Craig's
  tables) and the link frame is the body frame.

For a revolute joint ``theta`` is the offset added to ``q``; for a prismatic
joint ``d`` is the offset added to ``q``.
"""

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from .frame import Frame
from .inertial import Inertial
from .joint import Joint
from .params import parse_actuator, parse_friction, parse_limits
from .robot_model import DEFAULT_GRAVITY, RobotModel
from .transforms import rot_x, rot_z, snap
from ..errors import ModelError, NonFiniteValueError


@dataclass(frozen=True)
class DHTable:
    """
    A Denavit-Hartenberg table as given to :func:`model_from_dh`.

    Attributes
    ----------
    convention : str
        ``'standard'`` or ``'modified'``.
    rows : tuple of tuple
        ``(a [m], alpha [rad], d [m], theta [rad], 'R' or 'P')`` per link.

    """

    convention: str
    rows: tuple


_REQUIRED = ('a', 'alpha', 'd', 'theta', 'joint', 'mass', 'com', 'inertia')
_OPTIONAL = ('name', 'link', 'armature', 'gear_ratio', 'motor_inertia', 'torque_constant',
             'current_limit', 'viscous', 'coulomb', 'static', 'stribeck_velocity', 'limits',
             'actuator', 'friction')


def inertia_matrix(value, element, source=None):
    """
    Read an inertia tensor given as 3x3, 3 principal values or 6 components.

    Parameters
    ----------
    value : array_like
        3x3 matrix, ``[ixx, iyy, izz]`` or ``[ixx, iyy, izz, ixy, ixz, iyz]``
        [kg m^2].
    element : str
        Name used in error messages.
    source : str, optional
        Origin of the data.

    Returns
    -------
    numpy.ndarray
        Symmetric 3x3 matrix (as given; validation happens in the model).

    """
    try:
        arr = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise ModelError('inertia must be numbers', source, element, 'inertia', value) from None
    if arr.shape == (3, 3):
        return arr
    if arr.shape == (3,):
        return np.diag(arr)
    if arr.shape == (6,):
        ixx, iyy, izz, ixy, ixz, iyz = arr
        return np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
    raise ModelError('inertia must be 3x3, 3 principal values or 6 components', source,
                     element, 'inertia', arr.tolist())


def _number(row, key, element, source):
    try:
        value = float(row[key])
    except (TypeError, ValueError):
        raise ModelError('must be a number', source, element, key, row[key]) from None
    if not np.isfinite(value):
        raise NonFiniteValueError('must be finite', source, element, key, value)
    return value


def model_from_dh(links, convention='standard', gravity=DEFAULT_GRAVITY, name='dh_robot',
                  base_link='base_link', source=None, strict=False):
    """
    Build a serial model from DH rows.

    Parameters
    ----------
    links : sequence of mapping
        One mapping per link with keys ``a`` [m], ``alpha`` [rad], ``d`` [m],
        ``theta`` [rad], ``joint`` (``'R'`` or ``'P'``), ``mass`` [kg],
        ``com`` (3, in the link frame) [m] and ``inertia`` (about the centre
        of mass, link-frame axes) [kg m^2]; optional ``name``, ``link``,
        ``armature``, ``gear_ratio``, ``motor_inertia``, ``torque_constant``,
        ``current_limit``, ``viscous``, ``coulomb``, ``static`` (one value or
        ``[positive, negative]``), ``stribeck_velocity``, ``limits``
        (mapping), ``actuator`` and ``friction`` (mappings as in the
        parameter file).
    convention : {'standard', 'modified'}
        DH convention.
    gravity : array_like
        Gravity in the base frame [m/s^2].
    name : str
        Robot name.
    base_link : str
        Base link name.
    source : str, optional
        Origin of the table, for error messages.
    strict : bool
        Refuse inertials that break a rule of physical consistency (a
        massless link with inertia, the triangle inequality, ...);
        otherwise the model lists them in ``model.warnings``.

    Returns
    -------
    RobotModel
        The model.

    Raises
    ------
    ModelError
        On a missing or unknown key, a bad value or an invalid inertial.

    """
    if convention not in ('standard', 'modified'):
        raise ModelError("convention must be 'standard' or 'modified'", source, None,
                         'convention', convention)
    rows = list(links)
    if not rows:
        raise ModelError('a DH table needs at least one link', source)
    joints, inertials, frames, table = [], [], [], []
    prev_a, prev_alpha = 0.0, 0.0
    for i, row in enumerate(rows):
        element = f'DH row {i + 1}'
        if not isinstance(row, Mapping):
            raise ModelError('each DH row must be a mapping', source, element, None, row)
        missing = [k for k in _REQUIRED if k not in row]
        if missing:
            raise ModelError(f'missing keys: {", ".join(missing)}', source, element)
        unknown = [k for k in row if k not in _REQUIRED + _OPTIONAL]
        if unknown:
            raise ModelError(f'unknown keys: {", ".join(map(str, unknown))} (allowed: '
                             f'{", ".join(_REQUIRED + _OPTIONAL)})', source, element)
        a, alpha, d, theta = (_number(row, k, element, source)
                              for k in ('a', 'alpha', 'd', 'theta'))
        kind = str(row['joint']).upper()
        if kind not in ('R', 'P'):
            raise ModelError("joint must be 'R' or 'P'", source, element, 'joint', row['joint'])
        joint_name = str(row.get('name', f'joint{i + 1}'))
        link_name = str(row.get('link', f'link{i + 1}'))
        element = f'joint {joint_name!r}'
        if convention == 'modified':
            r_place = rot_x(alpha)
            p_place = np.array([a, 0.0, 0.0])
        else:
            r_place = rot_x(prev_alpha)
            p_place = np.array([prev_a, 0.0, 0.0])
        # Constant part of the joint transform: Rz(theta) for P, Tz(d) for R.
        if kind == 'R':
            p_place = p_place + r_place @ np.array([0.0, 0.0, d])
            r_place = r_place @ rot_z(theta)
        else:
            r_place = r_place @ rot_z(theta)
            p_place = p_place + r_place @ np.array([0.0, 0.0, d])
        try:
            com = np.array(row['com'], dtype=float).reshape(3)
        except (TypeError, ValueError):
            raise ModelError('com must be 3 numbers', source, element, 'com',
                             row['com']) from None
        body = Inertial(_number(row, 'mass', element, source), com,
                        inertia_matrix(row['inertia'], element, source))
        if convention == 'standard':
            # Inertial data are in DH frame i = body frame * Tx(a_i) Rx(alpha_i).
            body = body.transformed(rot_x(alpha), np.array([a, 0.0, 0.0]))
            frames.append(Frame(f'frame{i + 1}', i, rot_x(alpha), snap([a, 0.0, 0.0])))
        joints.append(Joint(
            name=joint_name, kind='revolute' if kind == 'R' else 'prismatic', parent=i - 1,
            link=link_name, rotation=snap(r_place), translation=snap(p_place),
            axis=np.array([0.0, 0.0, 1.0]),
            limits=parse_limits(row.get('limits', {}), element, source),
            actuator=parse_actuator(_actuator_fields(row), element, source),
            friction=parse_friction(_friction_fields(row), element, source)))
        inertials.append(body)
        table.append((a, alpha, d, theta, kind))
        prev_a, prev_alpha = a, alpha
    return RobotModel(name, base_link, joints, inertials, frames=frames, gravity=gravity,
                      source=source, dh=DHTable(convention, tuple(table)), strict=strict)


def _actuator_fields(row):
    fields = dict(row.get('actuator', {}))
    for key in ('armature', 'gear_ratio', 'motor_inertia', 'torque_constant', 'current_limit'):
        if key in row:
            fields[key] = row[key]
    return fields


def _friction_fields(row):
    fields = dict(row.get('friction', {}))
    for key in ('viscous', 'coulomb', 'static', 'stribeck_velocity'):
        if key in row:
            fields[key] = row[key]
    return fields
