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
Every way to obtain a :class:`RobotModel`: a URDF or xacro, a library robot, any of them by name.

The Denavit-Hartenberg constructor is :func:`robodyn_ros.model.dh.model_from_dh`
(``RobotModel.from_dh``); parameter files are merged by
:func:`robodyn_ros.model.params.apply_params`.
"""

import os
import warnings

from . import library
from .example_robots import example_urdf, EXAMPLE_URDFS
from .params import apply_params
from .urdf_reader import read_urdf
from ..errors import ModelWarning, UnknownRobotError


def emit_warnings(model, stacklevel=3):
    """
    Issue each of a model's warnings as a :class:`~robodyn_ros.errors.ModelWarning`.

    Parameters
    ----------
    model : RobotModel
        A freshly loaded model.
    stacklevel : int
        Passed to :func:`warnings.warn`.

    Returns
    -------
    RobotModel
        The same model.

    """
    for text in model.warnings:
        warnings.warn(text, ModelWarning, stacklevel=stacklevel)
    return model


def model_from_urdf(path_or_xml, params=None, xacro_args=None, strict=False):
    """
    Build a model from a URDF (or xacro) file or string.

    Parameters
    ----------
    path_or_xml : str or os.PathLike
        File path (``.urdf``, ``.xacro``) or the XML text itself.
    params : str, os.PathLike or dict, optional
        Actuator, friction and limit data merged by joint name
        (see ``config/robot_params.schema.yaml``).
    xacro_args : dict, optional
        xacro arguments (``name:=value``) for ``.xacro`` files.
    strict : bool
        Refuse what otherwise loads with a :class:`~robodyn_ros.errors.ModelWarning`
        (physically inconsistent bodies, ignored malformed elements, ...).

    Returns
    -------
    RobotModel
        The model; ``model.warnings`` lists what it was accepted with (each
        also issued as a ModelWarning).

    Raises
    ------
    ModelError
        If the description is unreadable or invalid.

    """
    model = read_urdf(path_or_xml, xacro_args=xacro_args, strict=strict)
    if params is not None:
        model = apply_params(model, params)
    return emit_warnings(model)


def load_robot(name_or_path, params=None, xacro_args=None, strict=False):
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
    strict : bool
        Refuse physically inconsistent bodies and the other causes of a
        :class:`~robodyn_ros.errors.ModelWarning` (the library ``puma560``,
        with the published AKB inertias, is then refused).

    Returns
    -------
    RobotModel
        The model (``model.warnings`` lists what it was accepted with).

    Raises
    ------
    UnknownRobotError
        If the name is neither a library robot nor an existing file.
    ModelError
        If the description is invalid.

    """
    key = os.fspath(name_or_path)
    if key in library.names():
        model = library.load(key, strict=strict)
        if params is not None:
            model = apply_params(model, params)
        return model
    if os.path.isfile(key):
        return model_from_urdf(key, params=params, xacro_args=xacro_args, strict=strict)
    if key in EXAMPLE_URDFS:
        return model_from_urdf(example_urdf(key), params=params, strict=strict)
    raise UnknownRobotError(key, library.names() + list(EXAMPLE_URDFS))
