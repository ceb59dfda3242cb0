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


"""Parameters of the ``hardware_interface`` node (and of the one-process loop's hardware)."""

from rclpy.parameter import Parameter

from .cia402_params import cia402_parameter_specs, positive_list
from .model_source import model_parameters
from .params import ParamSpec
from .realtime_params import realtime_parameter_specs
from ..hardware.settings import MAX_COMMAND_TIMEOUT, MAX_HOLD_TIME

#: Parameters that change InterfaceSettings at run time.
RUNTIME = ('friction_compensation', 'friction_band', 'friction_scale', 'load_friction',
           'load_friction_period', 'command_timeout', 'hold_time', 'hold_bandwidth',
           'limit_margin', 'auto_recover', 'reconnect_period')


def parameter_specs():
    """
    Parameters of the node (besides the model source).

    Returns
    -------
    list of ParamSpec
        Specs with descriptions, units and ranges.

    """
    return [
        ParamSpec('friction_params', '', 'Friction YAML (robodyn identify friction output) '
                  'replacing the model friction for compensation; empty: the model friction',
                  read_only=True),
        ParamSpec('backend', 'board', "The hardware: board (the package's motor driver "
                  'board, transport/device/port) or cia402 (CANopen CiA 402 drives, one per '
                  'joint, can_* and node_ids; see docs/drives.md)', choices=('board', 'cia402'),
                  read_only=True),
        ParamSpec('transport', 'serial', 'Link to the board', choices=('serial', 'udp'),
                  read_only=True),
        ParamSpec('device', '', 'Serial device, or the pty link of the simulated board',
                  read_only=True),
        ParamSpec('baud_rate', 1000000, 'Serial speed [bit/s]', low=1200, high=20000000,
                  read_only=True),
        ParamSpec('address', '127.0.0.1', 'Board IP address (udp)', read_only=True),
        ParamSpec('port', 5005, 'Board UDP port (udp)', low=1, high=65535, read_only=True),
        ParamSpec('watchdog_period', 0.05, "Board watchdog period; with cia402 the drives' "
                  'RPDO timeout (RPDO1 event timer) [s]', low=0.002, high=10.0, read_only=True),
        *cia402_parameter_specs(),
        ParamSpec('connect_timeout', 1.0, 'Identify timeout at configure [s]', low=0.01,
                  high=60.0, read_only=True),
        ParamSpec('encoder_counts', None, 'Expected encoder counts per motor revolution (one '
                  'or one per joint; unset: accept what the board reports)',
                  kind=Parameter.Type.INTEGER_ARRAY, read_only=True,
                  check=positive_list('encoder_counts'), constraints='each > 0'),
        ParamSpec('transmission_efficiency', None, 'Constant transmission efficiency in (0, 1] '
                  '(one or one per joint; unset: 1)', kind=Parameter.Type.DOUBLE_ARRAY,
                  read_only=True, check=positive_list('transmission_efficiency'),
                  constraints='each > 0'),
        ParamSpec('velocity_filter_bandwidth', 30.0, 'State-variable filter natural frequency '
                  '[Hz]', low=0.1, high=5000.0, read_only=True),
        ParamSpec('velocity_filter_damping', 1.0, 'State-variable filter damping ratio',
                  low=0.05, high=10.0, read_only=True),
        ParamSpec('friction_compensation', True, 'Add the model friction to the command'),
        ParamSpec('friction_band', 0.02, 'Zero-velocity band of the compensation [rad/s]',
                  low=1e-6, high=10.0),
        ParamSpec('friction_scale', 1.0, 'Compensation gain', low=0.0, high=1.5),
        ParamSpec('load_friction', False, 'Compensate the load-dependent (seed 004) friction '
                  'from the RNE joint reactions'),
        ParamSpec('load_friction_period', 0.02, 'Refresh period of the load-dependent term '
                  '[s] (0: every cycle)', low=0.0, high=10.0),
        ParamSpec('dynamics_backend', 'auto', 'Dynamics for the load-dependent friction: auto '
                  '(compiled kernels when available, else numpy) or numpy',
                  choices=('auto', 'numpy'), read_only=True),
        ParamSpec('command_timeout', 0.02, 'A joint_commands stream silent for longer than '
                  'this has stopped: the interface holds the arm where it is [s] (cannot be '
                  'raised while active)', low=0.001, high=MAX_COMMAND_TIMEOUT),
        ParamSpec('hold_time', 2.0, 'How long the interface holds on its own before it '
                  'brakes and switches the outputs off [s] (cannot be raised while active)',
                  low=0.05, high=MAX_HOLD_TIME),
        ParamSpec('hold_bandwidth', 40.0, 'Natural frequency of the hold (gravity '
                  'compensation plus a PD scaled by the joint inertia) [rad/s]', low=1.0,
                  high=500.0),
        ParamSpec('limit_margin', 0.05, 'Width of the joint-limit torque ramp [rad or m]',
                  low=0.0, high=1.0),
        ParamSpec('auto_recover', False, 'After a board fault or a lost link whose cause is '
                  'gone, switch the outputs on again by itself and hold the arm where it is '
                  '(never the last command); false: outputs stay off until ~/reset_fault or a '
                  'deactivate/activate'),
        ParamSpec('reconnect_period', 0.5, 'Time between reconnection and recovery attempts '
                  '[s]', low=0.05, high=60.0),
        ParamSpec('diagnostics_period', 1.0, 'Diagnostics republish period [s]', low=0.05,
                  high=60.0, read_only=True),
    ]


def node_parameter_specs():
    """Return every parameter the node declares (ParamSpec list): model, board, real time."""
    return model_parameters() + parameter_specs() + realtime_parameter_specs()
