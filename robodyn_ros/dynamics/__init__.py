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
Dynamics of a :class:`~robodyn_ros.model.RobotModel` (no rclpy).

Our own recursive Newton-Euler inverse dynamics with gravity, rotor inertia,
every friction model of the model and an end-effector wrench; the friction
alone and the torque of a point-mass payload; mass matrix,
gravity, bias forces, Coriolis matrix (Christoffel form), forward dynamics
(articulated-body algorithm or solve with M), the regressor and the base
parameters. Every function takes one state ``(n,)`` or a batch ``(N, n)`` and
returns the same leading shape. Units: rad, rad/s, rad/s^2, N m for revolute
joints; m, m/s, m/s^2, N for prismatic ones.
"""

from .base_params import base_parameters, BaseParameters
from .coriolis import coriolis_matrix
from .forward import forward_dynamics, ForwardDynamicsError
from .mass_matrix import bias_forces, gravity_torques, mass_matrix
from .point_mass import point_mass_torque
from .regressor import parameter_names, parameter_vector, regressor
from .rne import inverse_dynamics, joint_friction, rne, RneResult

__all__ = ['BaseParameters', 'ForwardDynamicsError', 'RneResult', 'base_parameters',
           'bias_forces', 'coriolis_matrix', 'forward_dynamics', 'gravity_torques',
           'inverse_dynamics', 'joint_friction', 'mass_matrix', 'parameter_names',
           'parameter_vector', 'point_mass_torque', 'regressor', 'rne']
