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
Locate the URDFs shipped by the ``example-robot-data`` package (UR5, Panda, ...).

The PyPI package installs them under ``<site-packages>/cmeel.prefix/share/
example-robot-data/robots``; a ROS install has them under the package's share
directory. No Python module is needed.
"""

import os
import site
import sys

from ..errors import UnknownRobotError

#: Short names of the example robots used by tests and benchmarks.
EXAMPLE_URDFS = {
    'ur5': 'ur_description/urdf/ur5_robot.urdf',
    'panda': 'panda_description/urdf/panda.urdf',
}


def example_robot_data_dir():
    """
    Folder holding example-robot-data's ``robots`` tree.

    Returns
    -------
    str or None
        The folder, or None when the package is not installed.

    """
    candidates = []
    for base in list(site.getsitepackages()) + [site.getusersitepackages()] + sys.path:
        candidates.append(os.path.join(base, 'cmeel.prefix', 'share', 'example-robot-data',
                                       'robots'))
    prefix = os.environ.get('AMENT_PREFIX_PATH', '')
    for base in filter(None, prefix.split(os.pathsep)):
        candidates.append(os.path.join(base, 'share', 'example-robot-data', 'robots'))
    for path in candidates:
        if os.path.isdir(path):
            return path
    return None


def example_urdf(name):
    """
    Path of an example robot's URDF.

    Parameters
    ----------
    name : str
        Short name (``'ur5'``, ``'panda'``).

    Returns
    -------
    str
        Absolute file path.

    Raises
    ------
    UnknownRobotError
        If the name is unknown or the package is not installed.

    """
    root = example_robot_data_dir()
    if name not in EXAMPLE_URDFS or root is None:
        raise UnknownRobotError(name, EXAMPLE_URDFS)
    return os.path.join(root, EXAMPLE_URDFS[name])
