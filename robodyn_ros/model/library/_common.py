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
Helpers shared by the library robot modules.

Every library robot is built from a Denavit-Hartenberg table with
:func:`robodyn_ros.model.dh.model_from_dh`, with gravity (0, 0, -9.81) m/s^2
in the base frame (z up).
"""

import math

import numpy as np

from ..dh import model_from_dh

#: Gravity of every library model: base z axis up [m/s^2].
LIBRARY_GRAVITY = (0.0, 0.0, -9.81)

#: Sentence about gravity that every ``SOURCE`` carries.
GRAVITY_NOTE = ('Gravity is (0, 0, -9.81) m/s^2 in the base frame (base z axis up), as for '
                'every library model.')


def deg(value):
    """
    Convert degrees to radians.

    Parameters
    ----------
    value : float
        Angle [deg].

    Returns
    -------
    float
        Angle [rad].

    """
    return math.radians(value)


def inertia_about_com(mass, com, inertia_origin):
    """
    Move an inertia tensor from the body-frame origin to the centre of mass.

    Uses ``I_c = I_o - m (|r|^2 E - r r^T)`` (parallel-axis theorem).

    Parameters
    ----------
    mass : float
        Mass [kg].
    com : array_like
        Centre of mass in the body frame, (3,) [m].
    inertia_origin : array_like
        Inertia about the body-frame origin, body axes: 3x3 or 3 principal
        values [kg m^2].

    Returns
    -------
    numpy.ndarray
        Inertia about the centre of mass, body axes, (3, 3) [kg m^2].

    """
    r = np.asarray(com, dtype=float)
    i_o = np.asarray(inertia_origin, dtype=float)
    if i_o.shape == (3,):
        i_o = np.diag(i_o)
    return i_o - mass * (np.dot(r, r) * np.eye(3) - np.outer(r, r))


def limits(lower, upper, velocity, acceleration, effort, angular=True):
    """
    Build a ``limits`` mapping for a DH row.

    Parameters
    ----------
    lower, upper : float
        Position range [deg when ``angular``, else m].
    velocity : float
        Speed limit [rad/s or m/s].
    acceleration : float
        Acceleration limit [rad/s^2 or m/s^2].
    effort : float
        Torque or force limit [N m or N].
    angular : bool
        True for a revolute joint (``lower`` and ``upper`` in degrees).

    Returns
    -------
    dict
        Keys lower, upper [rad or m], velocity, acceleration, effort.

    """
    scale = math.radians(1.0) if angular else 1.0
    return {'lower': lower * scale, 'upper': upper * scale, 'velocity': float(velocity),
            'acceleration': float(acceleration), 'effort': float(effort)}


def build_model(key, rows, convention, strict=False):
    """
    Build a library robot from its DH rows.

    Parameters
    ----------
    key : str
        Library name (also the robot name).
    rows : sequence of mapping
        DH rows as accepted by :func:`robodyn_ros.model.dh.model_from_dh`.
    convention : {'standard', 'modified'}
        DH convention of the rows.
    strict : bool
        Refuse bodies that break a rule of physical consistency.

    Returns
    -------
    RobotModel
        The validated model, gravity :data:`LIBRARY_GRAVITY` (its warnings
        are issued by :func:`robodyn_ros.model.library.load`).

    """
    return model_from_dh(rows, convention=convention, gravity=LIBRARY_GRAVITY, name=key,
                         source=f'robodyn_ros library: {key}', strict=strict)
