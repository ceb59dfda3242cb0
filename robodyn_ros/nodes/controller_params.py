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

"""Parameters of the ``controller`` node (descriptors, ranges, which may change at run time)."""

from rclpy.parameter import Parameter

from .model_source import model_parameters
from .params import ParamSpec
from ..control.factory import LAWS

DOUBLES = Parameter.Type.DOUBLE_ARRAY


def parameter_specs():
    """
    Parameters of the controller node.

    Returns
    -------
    list of ParamSpec
        Model source, law, rate, gains, limits, safety and output options.

    """
    specs = model_parameters('')
    specs += [
        ParamSpec('law', 'computed_torque', 'Control law', choices=LAWS, read_only=True),
        ParamSpec('rate', 1000.0, 'Control rate [Hz]', low=1.0, high=10000.0, read_only=True),
        ParamSpec('joints', None, 'Controlled joints in order (default: the model joints)',
                  kind=Parameter.Type.STRING_ARRAY, read_only=True),
        ParamSpec('omega', 20.0, 'Closed-loop natural frequency for gains from poles [rad/s]',
                  low=0.1, high=1000.0, read_only=True),
        ParamSpec('zeta', 1.0, 'Damping ratio for gains from poles', low=0.1, high=10.0,
                  read_only=True),
        ParamSpec('form', 'tracking', 'Computed-torque form',
                  choices=('tracking', 'regulation', 'predictive'), read_only=True),
        ParamSpec('kp', None, 'Proportional gains per joint (empty: from omega) [1/s^2 for '
                  'model-based laws, N m/rad for PID]', kind=DOUBLES, low=0.0),
        ParamSpec('kd', None, 'Derivative gains per joint (empty: from omega)', kind=DOUBLES,
                  low=0.0),
        ParamSpec('ki', None, 'Integral gains per joint (empty: 0, PID: triple pole)',
                  kind=DOUBLES, low=0.0),
        ParamSpec('lam', None, 'Sliding-surface slope per joint (empty: omega) [1/s]',
                  kind=DOUBLES, low=0.0),
        ParamSpec('gain', None, 'Sliding-mode switching gain per joint (empty: omega^2) '
                  '[rad/s^2]', kind=DOUBLES, low=0.0),
        ParamSpec('boundary', None, 'Sliding-mode boundary layer per joint (empty: 0.05) '
                  '[rad/s]', kind=DOUBLES, low=0.0),
        ParamSpec('torque_limit', None, 'Torque limits per joint (empty: model effort limits) '
                  '[N m]', kind=DOUBLES, low=0.0, read_only=True),
        ParamSpec('payload_frame', '', 'Frame of the estimated payload (empty: end effector)',
                  read_only=True),
        ParamSpec('initial_mass', 0.0, 'Initial payload estimate [kg]', low=0.0, high=1000.0,
                  read_only=True),
        ParamSpec('forgetting', 0.98, 'RLS forgetting factor', low=0.5, high=1.0,
                  read_only=True),
        ParamSpec('estimator_joints', None, 'Joints (0-based indices) whose torque equations '
                  'feed the payload estimator (empty: joint 0, the waist, as in seed 003; '
                  'joints carrying gravity load estimate faster and steadier)',
                  kind=Parameter.Type.INTEGER_ARRAY, low=0, read_only=True),
        ParamSpec('relay_fraction', 0.05, 'MBVSST relay amplitude / torque limit', low=0.0,
                  high=1.0, read_only=True),
        ParamSpec('model_friction', True, "Include the joints' friction models in the law's "
                  'dynamics. Set false behind a friction-compensating hardware interface '
                  "(robodyn's hardware_interface with friction_compensation: true), or the "
                  'friction is counted twice', read_only=True),
        ParamSpec('backend', 'auto', 'Dynamics backend', choices=('auto', 'codegen', 'numpy'),
                  read_only=True),
        ParamSpec('state_timeout', 0.05, 'Age after which joint_states is stale [s]',
                  low=1e-4, high=10.0),
        ParamSpec('plausibility_margin', 0.1, 'A measured position farther than this outside '
                  'its joint limits, or a jump larger than the velocity limit allows plus this, '
                  'is implausible: the controller stops commanding [rad or m]', low=1e-4,
                  high=10.0, read_only=True),
        ParamSpec('plausibility_speed_factor', 1.5, 'Multiple of the velocity limit a '
                  'measured velocity or jump may reach and still be believed', low=1.0,
                  high=100.0, read_only=True),
        ParamSpec('velocity_source', 'message', 'Velocity from joint_states or by filtered '
                  'differences of its positions', choices=('message', 'difference'),
                  read_only=True),
        ParamSpec('velocity_cutoff', 100.0, 'Cut-off of the filtered difference [Hz]',
                  low=0.1, high=5000.0, read_only=True),
        ParamSpec('effort_controller', '', 'Empty: publish joint_commands '
                  '(sensor_msgs/JointState effort); a ros2_control forward command controller '
                  'name: publish <name>/commands (std_msgs/Float64MultiArray)', read_only=True),
        ParamSpec('idle_reference', 'hold_position', 'Reference before any trajectory',
                  choices=('hold_position', 'none'), read_only=True),
        ParamSpec('status_decimation', 10, 'Publish error and estimates every N cycles',
                  low=1, high=100000),
        ParamSpec('loop', 'thread', 'Control loop driver: a dedicated thread sleeping to '
                  'absolute deadlines (steadier at high rates) or an rclpy timer',
                  choices=('thread', 'timer'), read_only=True),
        ParamSpec('autostart', True, 'Configure and activate at start-up', read_only=True),
        ParamSpec('timing_log', '', 'Write loop timing statistics (JSON) to this file at '
                  'shutdown (empty: none)', read_only=True),
    ]
    return specs
