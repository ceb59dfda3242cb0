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
Environment defaults for everything that starts ROS.

DDS stays on the loopback interface unless the user chose otherwise
(``ROS_AUTOMATIC_DISCOVERY_RANGE``); no rclpy import here.
"""

import os


def apply_ros_env_defaults(environ=None):
    """
    Set the ROS environment defaults of robodyn_ros where they are unset.

    Parameters
    ----------
    environ : dict, optional
        Environment to update (default ``os.environ``).

    Returns
    -------
    dict
        The environment.

    """
    env = os.environ if environ is None else environ
    env.setdefault('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')
    return env
