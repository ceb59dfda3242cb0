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
Parameters of the ``controller`` node (descriptors, ranges, which may change at run time).

The control-law parameters are generated from the law classes
(:mod:`robodyn_ros.control.factory`) and the option catalogue
(:mod:`robodyn_ros.control.options`): one parameter per option of some law,
declared without a value, so that an unset parameter takes the running
law's own default; it may change at run time when it is a live gain of some
law (the running law refuses the others).
"""

from rclpy.parameter import Parameter

from .model_source import model_parameters
from .params import ParamSpec
from .realtime_params import realtime_parameter_specs
from ..control.factory import LAWS, LIVE_OPTIONS, OPTION_NAMES
from ..control.options import CATALOGUE

DOUBLES = Parameter.Type.DOUBLE_ARRAY

_KINDS = {'double': Parameter.Type.DOUBLE, 'doubles': DOUBLES,
          'integers': Parameter.Type.INTEGER_ARRAY, 'string': Parameter.Type.STRING,
          'bool': Parameter.Type.BOOL}


def law_parameter_specs():
    """
    Parameters of the control laws' options.

    Returns
    -------
    list of ParamSpec
        One per option of some law, unset by default.

    """
    specs = []
    for name in OPTION_NAMES:
        opt = CATALOGUE[name]
        specs.append(ParamSpec(name, None, opt.description, kind=_KINDS[opt.kind], low=opt.low,
                               high=opt.high, choices=opt.choices,
                               read_only=name not in LIVE_OPTIONS))
    return specs


def parameter_specs():
    """
    Parameters of the controller node.

    Returns
    -------
    list of ParamSpec
        Model source, law, rate, the laws' options, safety and output options.

    """
    specs = model_parameters('')
    specs += [
        ParamSpec('law', 'computed_torque', 'Control law', choices=LAWS, read_only=True),
        ParamSpec('rate', 1000.0, 'Control rate [Hz]', low=1.0, high=10000.0, read_only=True),
        ParamSpec('joints', None, 'Controlled joints in order (default: the model joints)',
                  kind=Parameter.Type.STRING_ARRAY, read_only=True,
                  constraints='the model joints, in model order'),
    ]
    specs += law_parameter_specs()
    specs += [
        ParamSpec('model_friction', True, "Include the joints' friction models in the law's "
                  'dynamics. Set false behind a friction-compensating hardware interface '
                  "(robodyn's hardware_interface with friction_compensation: true), or the "
                  'friction is counted twice', read_only=True),
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
        ParamSpec('velocity_cutoff', 100.0, 'Cut-off of the filtered difference [Hz] (the '
                  'node uses at most 0.45 x rate)', low=0.1, high=5000.0, read_only=True),
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
    ] + realtime_parameter_specs()    # the loop thread's (loop: thread)
    return specs
