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
Robot model layer: kinematic tree, inertial, actuator and friction data.

Plain Python and numpy (no rclpy). Typical use::

    from robodyn_ros.model import load_robot
    model = load_robot('puma560')              # library robot
    model = load_robot('/path/to/arm.urdf')    # any URDF or xacro
    T = model.frame_pose(q, model.link_names[-1])
"""

import os

from .inertial import Inertial
from .joint import (Actuator, BearingFriction, Friction, Joint, JointLimits, Mimic,
                    TransmissionFriction)
from .robot_model import DEFAULT_GRAVITY, Frame, RobotModel
from ..errors import UnknownRobotError


def load_robot(name_or_path, params=None, xacro_args=None):
    """
    Load a library robot by name, or a URDF/xacro file by path.

    Parameters
    ----------
    name_or_path : str or os.PathLike
        Library name (see :func:`robodyn_ros.model.library.names`), a file,
        or an example-robot-data robot (``'ur5'``, ``'panda'``).
    params : str, os.PathLike or mapping, optional
        Parameter file merged onto a URDF (ignored for library robots,
        which carry their own data, unless given explicitly).
    xacro_args : dict, optional
        Arguments for a xacro file.

    Returns
    -------
    RobotModel
        The model.

    Raises
    ------
    UnknownRobotError
        If the name is neither a library robot nor an existing file.
    ModelError
        If the description is invalid.

    """
    from . import library
    key = os.fspath(name_or_path)
    if key in library.names():
        model = library.load(key)
        if params is not None:
            from .params import apply_params
            model = apply_params(model, params)
        return model
    if os.path.isfile(key):
        return RobotModel.from_urdf(key, params=params, xacro_args=xacro_args)
    from .example_robots import EXAMPLE_URDFS, example_urdf
    if key in EXAMPLE_URDFS:
        return RobotModel.from_urdf(example_urdf(key), params=params)
    raise UnknownRobotError(key, library.names() + list(EXAMPLE_URDFS))


__all__ = ['Actuator', 'BearingFriction', 'DEFAULT_GRAVITY', 'Frame', 'Friction', 'Inertial',
           'Joint', 'JointLimits', 'Mimic', 'RobotModel', 'TransmissionFriction', 'load_robot']
