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
Library of the seeds' robots.

Each robot lives in its own module with a ``build()`` function returning a
:class:`~robodyn_ros.model.RobotModel`, a ``SOURCE`` string (where the data
come from) and a ``CORRECTIONS`` tuple (every change made to the source data,
with its reason). The shipped ``urdf/<name>.urdf`` and
``config/<name>_params.yaml`` are generated from these modules
(``scripts/generate_library_files.py``, or ``robodyn model NAME --urdf OUT
--params-out OUT`` for one robot) and a test checks that they agree.
"""

from functools import lru_cache
import importlib

# Library name -> module name.
_REGISTRY = {
    'puma560': 'puma560',
    'cmu_dd_arm2': 'cmu_dd_arm2',
    'ma3000': 'ma3000',
    'rx90': 'rx90',
    'stanford': 'stanford',
}


def names():
    """
    Names of the library robots.

    Returns
    -------
    list of str
        Library names, e.g. ``'puma560'``.

    """
    return list(_REGISTRY)


def _module(name):
    from ...errors import UnknownRobotError
    if name not in _REGISTRY:
        raise UnknownRobotError(name, names())
    return importlib.import_module(f'{__name__}.{_REGISTRY[name]}')


def load(name, strict=False):
    """
    Build a library robot.

    Parameters
    ----------
    name : str
        Library name.
    strict : bool
        Refuse published parameters that break a rule of physical
        consistency (``puma560``); otherwise they load with a warning.

    Returns
    -------
    RobotModel
        The model (cached; models are immutable); its warnings are issued
        once per process.

    Raises
    ------
    UnknownRobotError
        If ``name`` is not in the library.

    """
    return _load(name, bool(strict))


@lru_cache(maxsize=None)
def _load(name, strict):
    from ..constructors import emit_warnings
    return emit_warnings(_module(name).build(strict=strict), stacklevel=4)


def source(name):
    """
    Where a library robot's data come from.

    Parameters
    ----------
    name : str
        Library name.

    Returns
    -------
    str
        Citation and remarks.

    """
    return _module(name).SOURCE


def corrections(name):
    """
    Every change made to a library robot's source data, with its reason.

    Parameters
    ----------
    name : str
        Library name.

    Returns
    -------
    tuple of str
        One entry per correction or choice.

    """
    return tuple(_module(name).CORRECTIONS)


def simulator_inertials(name):
    """
    Physical bodies for simulators that refuse a library robot's published ones.

    Gazebo (sdformat) drops a massless link with everything below it and
    refuses an inertia that breaks the triangle inequality; a robot module
    whose published data do that defines ``SIMULATOR_INERTIA`` (body index ->
    mass [kg] and principal moments about the centre of mass [kg m^2]), and
    its ``CORRECTIONS`` say why the dynamics stay the same or how they differ.

    Parameters
    ----------
    name : str
        Library name.

    Returns
    -------
    dict
        Link name -> ``(mass, moments, com)`` with the model's centre of mass
        [m] (empty when the published bodies are physical).

    """
    model = load(name)
    out = {}
    for index, (mass, moments) in getattr(_module(name), 'SIMULATOR_INERTIA', {}).items():
        body = model.inertials[index]
        out[model.joints[index].link] = (float(mass), tuple(float(v) for v in moments),
                                         tuple(float(c) for c in body.com))
    return out
