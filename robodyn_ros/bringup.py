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
The bring-up contract: what the launch files start and the names they share.

Plain data (no rclpy, no launch). The launch files in ``launch/`` spell these
names out literally (they must run without importing this package); the tests
check that both sides agree, that every executable is a console script of
``setup.py`` and that the assets in ``urdf/`` and ``config/`` follow the
choices below.
"""

#: Executables the launch files start: console-script name -> what it is.
NODE_EXECUTABLES = {
    'hardware_interface': 'lifecycle node that drives the motor driver board over serial '
                          '(device, baud_rate) or UDP (address, port), or CiA 402 drives on '
                          'CAN (backend cia402: can_interface, can_channel, node_ids, '
                          'bitrate, sync_period); publishes joint_states, subscribes '
                          'joint_commands',
    'control_loop': 'lifecycle node that runs the board (or the CiA 402 drives: hardware '
                    'cia402) with the control law and friction compensation in one loop (no '
                    'DDS in the cycle); publishes joint_states, subscribes planned_trajectory',
    'controller': 'model-based controller; subscribes joint_states and planned_trajectory, '
                  'publishes joint_commands (sensor_msgs/JointState effort) or '
                  '<effort_controller>/commands (std_msgs/Float64MultiArray)',
    'trajectory_planner': 'subscribes joint_states and planner/goal, publishes '
                          'planned_trajectory; service planner/stop',
    'parallel_dynamics': 'dynamics service: dynamics/request -> dynamics/response',
    'parallel_dynamics_worker': 'worker process of the parallel-dynamics node',
    'robodyn': 'the robodyn command; launch files run "robodyn sim-board", the simulated '
               'motor driver board, or "robodyn sim-drive", simulated CiA 402 drives',
}

#: Parameters the launch files and ``config/<node>.yaml`` set on each node
#: (besides ROS's own ``use_sim_time``); units: rate [Hz], baud_rate [bit/s].
NODE_PARAMETERS = {
    'hardware_interface': ('robot', 'robot_params', 'transport', 'device', 'baud_rate',
                           'address', 'port', 'backend', 'can_interface', 'can_channel',
                           'node_ids', 'bitrate', 'sync_period'),
    'control_loop': ('robot', 'robot_params', 'transport', 'device', 'baud_rate', 'address',
                     'port', 'hardware', 'can_interface', 'can_channel', 'node_ids', 'bitrate',
                     'sync_period', 'law', 'model_friction'),
    'controller': ('robot', 'robot_params', 'rate', 'effort_controller', 'model_friction'),
    'trajectory_planner': ('robot', 'robot_params'),
    'parallel_dynamics': ('robot', 'robot_params'),
    'parallel_dynamics_worker': ('robot', 'robot_params'),
}

#: Values of the launch argument ``loop``: the board and the law in one process
#: (``control_loop``), or the two-node graph (``hardware_interface`` + ``controller``
#: over DDS, for ros2_control and several hosts).
LOOP_MODES = ('one-process', 'graph')
#: ``loop`` of the bring-up files (the component files default to ``'graph'``).
DEFAULT_LOOP = 'one-process'

#: Sub-command of ``robodyn`` that runs the simulated driver board.
SIM_BOARD_COMMAND = ('robodyn', 'sim-board')
#: Sub-command of ``robodyn`` that runs the simulated CiA 402 drives.
SIM_DRIVE_COMMAND = ('robodyn', 'sim-drive')
#: Hardware backends of the hardware interface (its ``backend`` parameter).
BACKENDS = ('board', 'cia402')

#: Values of the xacro argument ``ros2_control`` (which ``<ros2_control>`` tag the URDF gets).
ROS2_CONTROL_VARIANTS = ('none', 'mock', 'gazebo', 'topic')

#: ROS 2 distributions the launch files and assets are written for.
SUPPORTED_DISTROS = ('humble', 'jazzy', 'kilted')

#: Controller names in ``config/<robot>_controllers.yaml``.
JOINT_STATE_BROADCASTER = 'joint_state_broadcaster'
EFFORT_CONTROLLER = 'effort_controller'

#: Controller types: the generic forward command controller exists on every
#: supported distribution (the effort specialization is gone on rolling).
CONTROLLER_TYPES = {
    JOINT_STATE_BROADCASTER: 'joint_state_broadcaster/JointStateBroadcaster',
    EFFORT_CONTROLLER: 'forward_command_controller/ForwardCommandController',
}

#: Topics between robodyn's hardware interface and topic-based ros2_control
#: (relative to the namespace of the graph).
HARDWARE_JOINT_STATES = 'hardware/joint_states'
HARDWARE_JOINT_COMMANDS = 'hardware/joint_commands'

#: Default control-loop rate of the launch files [Hz].
DEFAULT_RATE = 1000
