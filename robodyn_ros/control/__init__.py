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
Control laws (no rclpy): one interface, ``tau, status = controller.step(t, q, qd, reference)``.

See ``docs/control.md``. Every law derives from :class:`Controller`; the
safe outputs, saturation and input checks live there. The computed-torque
laws also give impedance set-points for a board that closes the PD itself
(``controller.impedance_step``, :mod:`.split_form`).
"""

from .base import Controller, ControlStatus, JointReference, Mode, StepOutput
from .computed_torque import ComputedTorque
from .computed_torque_lme import ComputedTorqueLME
from .factory import apply_gain, apply_gains, LAWS, make_controller
from .filtered_difference import FilteredDifference
from .filters import StateVariableFilter
from .gains import ct_gains, max_joint_inertia, PidGains, triple_pole_pid
from .mbvsst import MBVSST
from .model_dynamics import ModelDynamics
from .parameter_model import BaseParameterModel
from .payload import PayloadEstimator
from .payload_model import PayloadModel
from .payload_settings import PayloadEstimatorSettings
from .pid import PDGravity, PID
from .rls import RecursiveLeastSquares
from .self_tuning import ParameterEstimatorSettings, SelfTuningComputedTorque
from .sliding_mode import SlidingMode, switching_gain
from .slotine_li import SlotineLi
from .split_form import ImpedanceSetpoint
from .task_space import TaskReference, TaskSpaceComputedTorque
from .vsst import SelfTunerSettings, SelfTuningRelay, VariableStructureSelfTuner

__all__ = ['BaseParameterModel', 'ComputedTorque', 'ComputedTorqueLME', 'ControlStatus',
           'Controller', 'FilteredDifference', 'ImpedanceSetpoint', 'JointReference', 'LAWS',
           'MBVSST', 'Mode', 'ModelDynamics', 'PDGravity', 'PID', 'ParameterEstimatorSettings',
           'PayloadEstimator', 'PayloadEstimatorSettings', 'PayloadModel', 'PidGains',
           'RecursiveLeastSquares', 'SelfTunerSettings', 'SelfTuningComputedTorque',
           'SelfTuningRelay', 'SlidingMode', 'SlotineLi', 'StateVariableFilter', 'StepOutput',
           'TaskReference', 'TaskSpaceComputedTorque', 'VariableStructureSelfTuner',
           'apply_gain', 'apply_gains', 'ct_gains', 'make_controller', 'max_joint_inertia',
           'switching_gain', 'triple_pole_pid']
