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

Plain Python and numpy (no rclpy). The record is :mod:`.robot_model`, with
its methods by concern in :mod:`.joint_space`, :mod:`.kinematics` and
:mod:`.variants`; its parts are :mod:`.joint`, :mod:`.inertial` and
:mod:`.frame`, its validation :mod:`.checks`. Models come from
:mod:`.constructors` (URDF or xacro via :mod:`.urdf_reader`, any of them by
name), :mod:`.dh`, :mod:`.params` (parameter files) and :mod:`.library`;
:mod:`.urdf_writer` and :mod:`.summary` write them out. Typical use::

    from robodyn_ros.model import load_robot
    model = load_robot('puma560')              # library robot
    model = load_robot('/path/to/arm.urdf')    # any URDF or xacro
    T = model.frame_pose(q, model.link_names[-1])
"""

from .constructors import load_robot
from .frame import Frame
from .inertial import Inertial
from .joint import (Actuator, BearingFriction, Friction, Joint, JointLimits, Mimic,
                    TransmissionFriction)
from .robot_model import DEFAULT_GRAVITY, RobotModel

__all__ = ['Actuator', 'BearingFriction', 'DEFAULT_GRAVITY', 'Frame', 'Friction', 'Inertial',
           'Joint', 'JointLimits', 'Mimic', 'RobotModel', 'TransmissionFriction', 'load_robot']
