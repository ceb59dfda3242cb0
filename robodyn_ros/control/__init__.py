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

from ..lazy_names import module_getattr

#: Public name -> module that defines it (imported on first use: a process that
#: needs one filter does not load every law, numba and SciPy with it).
_WHERE = {
    'apply_gain': '.factory', 'apply_gains': '.factory',
    'BaseParameterModel': '.parameter_model', 'ComputedTorque': '.computed_torque',
    'ComputedTorqueLME': '.computed_torque_lme', 'Controller': '.base',
    'ControlStatus': '.base', 'ct_gains': '.gains',
    'FilteredDifference': '.filtered_difference', 'ImpedanceSetpoint': '.split_form',
    'JointReference': '.base', 'LAWS': '.factory', 'make_controller': '.factory',
    'max_joint_inertia': '.gains', 'MBVSST': '.mbvsst', 'Mode': '.base',
    'ModelDynamics': '.model_dynamics', 'ParameterEstimatorSettings': '.self_tuning',
    'PayloadEstimator': '.payload', 'PayloadEstimatorSettings': '.payload_settings',
    'PayloadModel': '.payload_model', 'PDGravity': '.pid', 'PID': '.pid', 'PidGains': '.gains',
    'RecursiveLeastSquares': '.rls', 'SelfTunerSettings': '.vsst',
    'SelfTuningComputedTorque': '.self_tuning', 'SelfTuningRelay': '.vsst',
    'SlidingMode': '.sliding_mode', 'SlotineLi': '.slotine_li',
    'StateVariableFilter': '.filters', 'StepOutput': '.base',
    'switching_gain': '.sliding_mode', 'TaskReference': '.task_space',
    'TaskSpaceComputedTorque': '.task_space', 'triple_pole_pid': '.gains',
    'VariableStructureSelfTuner': '.vsst'
}

__all__ = ['BaseParameterModel', 'ComputedTorque', 'ComputedTorqueLME', 'ControlStatus',
           'Controller', 'FilteredDifference', 'ImpedanceSetpoint', 'JointReference', 'LAWS',
           'MBVSST', 'Mode', 'ModelDynamics', 'PDGravity', 'PID', 'ParameterEstimatorSettings',
           'PayloadEstimator', 'PayloadEstimatorSettings', 'PayloadModel', 'PidGains',
           'RecursiveLeastSquares', 'SelfTunerSettings', 'SelfTuningComputedTorque',
           'SelfTuningRelay', 'SlidingMode', 'SlotineLi', 'StateVariableFilter', 'StepOutput',
           'TaskReference', 'TaskSpaceComputedTorque', 'VariableStructureSelfTuner',
           'apply_gain', 'apply_gains', 'ct_gains', 'make_controller', 'max_joint_inertia',
           'switching_gain', 'triple_pole_pid']

__getattr__ = module_getattr(__name__, _WHERE)
