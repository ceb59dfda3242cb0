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


@lru_cache(maxsize=None)
def load(name):
    """
    Build a library robot.

    Parameters
    ----------
    name : str
        Library name.

    Returns
    -------
    RobotModel
        The model (cached; models are immutable).

    Raises
    ------
    UnknownRobotError
        If ``name`` is not in the library.

    """
    return _module(name).build()


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
