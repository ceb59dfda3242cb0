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
The ``hardware_interface`` lifecycle node: the robot's hardware as a ROS 2 hardware component.

The hardware: the motor driver board (``backend: board``) or one CiA 402 drive
per joint (``backend: cia402``, docs/drives.md), with the same lifecycle,
fault reaction and friction compensation.

Transitions (as a ros2_control hardware component):

* configure: load the model, open the link, identify the board, check it
  against the model, configure it; ``joint_states`` starts flowing with the
  outputs off; a failure leaves the node unconfigured with the link closed;
* activate: clear a latched fault if its cause is gone and enable the
  outputs (failure: stays inactive, outputs off);
* deactivate: zero the currents and disable;
* cleanup / shutdown: outputs off, close the link;
* any error (an exception in a transition): ErrorProcessing, outputs off,
  link closed, back to unconfigured.

Topics (relative names): ``joint_states`` out (sensor_msgs/JointState,
reliable, depth 10: position, velocity from the state-variable filter,
effort from the measured current), ``joint_commands`` in (sensor_msgs/JointState,
effort field, by name or in model order, best effort depth 1; the I/O loop
takes the newest one at each board cycle, see :mod:`.sampled`),
``diagnostics`` out. The work is done by
:class:`robodyn_ros.hardware.interface.HardwareInterface`.
"""

import sys
import time

from rclpy.lifecycle import Node as LifecycleNode
from rclpy.lifecycle import TransitionCallbackReturn
from rclpy.parameter import Parameter
from rclpy.qos import QoSProfile, ReliabilityPolicy
from sensor_msgs.msg import JointState
from std_srvs.srv import Trigger

from .cia402_params import cia402_driver, cia402_parameter_specs, positive_list
from .diagnostics import Diagnostics, ERROR, OK, WARN
from .joint_state_cdr import JointStateEncoder
from .joint_state_reader import JointStateError, JointStateReader
from .model_source import load_model, model_parameters
from .params import declare, ParamSpec
from .realtime_params import helper_setup, loop_thread_setup, realtime_parameter_specs
from .runner import run_node
from .sampled import SampledTopic
from ..errors import RobodynError
from ..friction.compensation import with_friction
from ..hardware.board.transports import open_transport
from ..hardware.errors import CommandRejected
from ..hardware.interface import HardwareInterface
from ..hardware.settings import (DriverSettings, InterfaceSettings, MAX_COMMAND_TIMEOUT,
                                 MAX_HOLD_TIME)
from ..realtime.hygiene import setup_process

NODE_NAME = 'hardware_interface'
#: joint_commands: every message is taken at each board cycle; the depth keeps a second
#: publisher's flood from pushing the claim holder's messages out between two cycles.
COMMAND_QOS = QoSProfile(depth=50, reliability=ReliabilityPolicy.BEST_EFFORT)
_LEVELS = {'ok': OK, 'warn': WARN, 'error': ERROR}
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


class HardwareInterfaceNode(LifecycleNode):
    """
    Lifecycle node driving one motor driver board.

    The commands come from ``joint_commands``; a subclass may take them from
    elsewhere by overriding :meth:`_setup_commands` and
    :meth:`_teardown_commands` (the one-process ``control_loop`` runs its
    law there).
    """

    #: Node name.
    NODE_NAME = NODE_NAME
    #: The parameter that chooses the hardware (``board`` or ``cia402``); the one-process
    #: control loop calls it ``hardware``, as its law has a ``backend`` of its own.
    BACKEND_PARAMETER = 'backend'

    def __init__(self, **kwargs):
        self._hw = None
        self._names = ()
        self._state_pub = None
        self._state_enc = None
        self._cmd_reader = None
        self._model = None
        self._sources = {}
        self._cmd_sub = None
        self._diag_timer = None
        self.hygiene = []
        super().__init__(self.NODE_NAME, **kwargs)
        self._values = declare(self, self._parameter_specs(), on_changes=self._on_parameter)
        cia402 = self._values[self.BACKEND_PARAMETER] == 'cia402'
        self._diag = Diagnostics(self, hardware_id='cia402_drives' if cia402 else
                                 'motor_driver_board', period=self._values['diagnostics_period'])
        self._diag.update(OK, 'unconfigured')
        self.create_service(Trigger, '~/reset_fault', self._on_reset_fault)

    # ------------------------------------------------------------------ parameters
    def _parameter_specs(self):
        """Return every parameter of the node (ParamSpec list)."""
        return node_parameter_specs()

    def _on_parameter(self, changes):
        """Apply a set of run-time changes to the interface all at once (or none)."""
        runtime = {k: v for k, v in changes.items() if k in RUNTIME}
        if 'reconnect_period' in runtime:
            runtime['recover_period'] = runtime['reconnect_period']
        if runtime and self._hw is not None:
            try:
                self._hw.update_settings(**runtime)
            except RobodynError as exc:
                raise ValueError(str(exc)) from None
        self._values.update(changes)

    def _settings(self):
        v = self._values
        driver = DriverSettings(
            watchdog_period=v['watchdog_period'], connect_timeout=v['connect_timeout'],
            encoder_counts=tuple(v['encoder_counts'] or ()),
            efficiency=tuple(v['transmission_efficiency'] or (1.0,)),
            velocity_bandwidth=v['velocity_filter_bandwidth'],
            velocity_damping=v['velocity_filter_damping'])
        runtime = InterfaceSettings(**{k: v[k] for k in RUNTIME},
                                    recover_period=v['reconnect_period'])
        return driver, runtime

    # ------------------------------------------------------------------ ROS I/O
    def _publish_sample(self, sample):
        pub = self._state_pub
        if pub is None or not self.context.ok():
            return  # shutting down: the link side still switches the outputs off
        enc = self._state_enc  # written serialized from a template (joint_state_cdr)
        if enc is None or enc.names != tuple(self._names):
            enc = self._state_enc = JointStateEncoder(
                self._names, fields=('position', 'velocity', 'effort'))
        pub.publish(enc.encode(self.get_clock().now().nanoseconds, sample.position,
                               sample.velocity, sample.effort))

    def _setup_commands(self):
        """Take the commands from ``joint_commands`` (at configure; the outputs are off)."""
        # joint_commands is taken by the I/O loop at each board cycle (no callback)
        self._cmd_sub = SampledTopic(self, JointState, 'joint_commands', COMMAND_QOS, raw=True)
        self._cmd_reader = JointStateReader(self._names, required=(), allow_extra=False,
                                            allow_unnamed=True)
        self._sources = {}
        self._hw.command_source = self._commands

    def _prepare_commands(self, model):
        """Do the command side's slow set-up before the link opens (nothing here)."""

    def _teardown_commands(self):
        """Undo :meth:`_setup_commands`."""
        if self._cmd_sub is not None:
            self._cmd_sub.destroy()
            self._cmd_sub = None

    def _prepare_process(self):
        """
        GIL hand-over, frozen collector, the other threads' priority: before the link opens.

        A full collection over the node's objects, the executor keeping the
        GIL, or a thread holding it preempted would stop the I/O loop for
        milliseconds (see :mod:`robodyn_ros.realtime.hygiene`).
        """
        self.hygiene = setup_process() + helper_setup(self._values)
        for line in self.hygiene:
            self.get_logger().info(f'process: {line}')

    def _thread_setup(self):
        """Apply the thread's real-time options in the I/O thread before its first cycle."""
        lines = loop_thread_setup(self._values)
        self.hygiene = self.hygiene + lines
        for line in lines:
            self.get_logger().info(f'I/O thread: {line}')

    def _commands(self, sample=None):
        """
        Take every new ``joint_commands`` message (the I/O loop's command source).

        Parameters
        ----------
        sample : JointSample, optional
            The cycle's sample (not needed here).

        Returns
        -------
        list
            Oldest first: ``(torque, stamp, source)`` in model order, with
            ``torque`` None for a release (names, no efforts), or a
            :class:`~robodyn_ros.hardware.errors.CommandRejected`. ``source``
            names the publishing node and its GID.

        """
        out = []
        if self._cmd_sub is None:
            return out
        for data, received, gid in self._cmd_sub.take_all_with_source():
            stamp = time.monotonic() - max(0.0, time.time() - received)
            source = self._source_name(gid)
            try:
                sample = self._cmd_reader.read(data)
            except JointStateError as exc:  # refused, never applied
                out.append(CommandRejected(f'joint_commands from {source}: {exc}', stamp))
                continue
            out.append((sample.effort, stamp, source))
        return out

    def _source_name(self, gid):
        """Name a publisher as ``node (gid ...)`` (looked up once per GID)."""
        if gid is None:
            return 'unknown publisher'
        name = self._sources.get(gid)
        if name is None:
            nodes = {bytes(i.endpoint_gid[:len(gid)]): f'{i.node_namespace.rstrip("/")}/'
                     f'{i.node_name}' for i in self.get_publishers_info_by_topic(
                         self._cmd_sub.topic)}
            name = f'{nodes.get(gid, "unknown node")} (gid {gid.hex()[-8:]})'
            self._sources[gid] = name
        return name

    def _on_reset_fault(self, request, response):
        """``~/reset_fault`` (std_srvs/Trigger): the explicit re-arm after a fault or a stop."""
        hw = self._hw
        if hw is None:
            response.success, response.message = False, 'not configured'
            return response
        try:
            response.message = hw.reset_fault()
            response.success = True
        except RobodynError as exc:
            response.success, response.message = False, str(exc)
        self.get_logger().info(f'reset_fault: {response.message}')
        return response

    def _on_transition(self, transition):
        """Log every change of the fault reaction's state with its cause."""
        if not self.context.ok():
            return
        if transition.target.value in ('running', 'armed', 'disabled', 'unconfigured'):
            self.get_logger().info(f'drive state {transition}')
            level = OK
        else:
            self.get_logger().warning(f'drive state {transition}')
            level = ERROR
        # Every transition is a diagnostics message of its own, with its cause.
        values = self._hw.health().values if self._hw is not None else None
        self._diag.update(level, f'drive {transition}', values)

    def _on_health(self, health):
        if self.context.ok():  # keep the last statistics; the periodic refresh renews them
            self._diag.update(_LEVELS[health.level], health.message, health.values or None)

    def _refresh_diagnostics(self):
        if self._hw is not None:
            h = self._hw.health()
            self._diag.update(_LEVELS[h.level], h.message, {**h.values, **self._extra_values()},
                              publish=False)

    def _extra_values(self):
        """Return diagnostics values a subclass adds to the interface's (dict)."""
        return {}

    def _release(self):
        if self._hw is not None:
            self._hw.outputs_off()
            self._hw.cleanup()
            self._hw = None
        self._teardown_commands()
        if self._state_pub is not None:
            self.destroy_publisher(self._state_pub)
            self._state_pub = None
        if self._diag_timer is not None:
            self.destroy_timer(self._diag_timer)
            self._diag_timer = None

    # ------------------------------------------------------------------ transitions
    def on_configure(self, state):
        """Load the model, connect, identify, check and configure the board."""
        v = self._values
        try:
            model = load_model(self, v)
            friction_model = with_friction(model, v['friction_params']) if (
                v['friction_params']) else model
            driver, runtime = self._settings()
            self._prepare_commands(model)      # heavy work before the hardware streams
            self._prepare_process()
            cia402 = v[self.BACKEND_PARAMETER] == 'cia402'
            backend = cia402_driver(model, v) if cia402 else None
            transport = None if cia402 else open_transport(
                v['transport'], v['device'], v['baud_rate'], v['address'], v['port'])
            self._names = tuple(model.joint_names)
            self._state_pub = self.create_publisher(JointState, 'joint_states', 10)
            self._hw = HardwareInterface(model, transport, driver, runtime, friction_model,
                                         on_sample=self._publish_sample,
                                         on_health=self._on_health,
                                         dynamics_backend=v['dynamics_backend'],
                                         on_transition=self._on_transition,
                                         thread_setup=self._thread_setup, driver=backend)
            self._model = model
            self._hw.configure()
            self._setup_commands()
        except (RobodynError, OSError, TimeoutError, ValueError) as exc:
            self._release()
            message = f'configure failed: {type(exc).__name__}: {exc}'
            self.get_logger().error(message)
            self._diag.update(ERROR, message)
            return TransitionCallbackReturn.FAILURE
        for name in self._hw.driver.axes.unit_torque:
            self.get_logger().warning(f'joint {name!r} has no torque constant: driven as a '
                                      'unit torque axis (1 N m/A)')
        self._diag_timer = self.create_timer(0.25, self._refresh_diagnostics)
        self.get_logger().info(f'{self._hw.driver.describe()}; outputs off')
        self._diag.update(OK, 'configured; outputs off')
        return TransitionCallbackReturn.SUCCESS

    def on_activate(self, state):
        """Enable the board's outputs."""
        try:
            self._hw.activate()
        except (RobodynError, OSError) as exc:
            self._hw.outputs_off()
            message = f'activate failed: {exc}'
            self.get_logger().error(message)
            self._diag.update(ERROR, message)
            return TransitionCallbackReturn.FAILURE
        self.get_logger().info('armed: brakes on until a joint_commands stream arrives')
        self._diag.update(OK, 'active (armed)')
        return super().on_activate(state)

    def on_deactivate(self, state):
        """Zero the currents and disable the outputs."""
        try:
            self._hw.deactivate()
        except (RobodynError, OSError) as exc:
            self.get_logger().error(f'deactivate: board did not confirm: {exc}')
            return TransitionCallbackReturn.ERROR
        self._diag.update(OK, 'inactive; outputs off')
        return super().on_deactivate(state)

    def on_cleanup(self, state):
        """Close the link."""
        self._release()
        self._diag.update(OK, 'unconfigured')
        return TransitionCallbackReturn.SUCCESS

    def on_shutdown(self, state):
        """Switch the outputs off and close the link."""
        self._release()
        return TransitionCallbackReturn.SUCCESS

    def on_error(self, state):
        """Safe state after an error: outputs off, link closed."""
        self._release()
        self.get_logger().error('error processing: outputs off, link closed')
        self._diag.update(ERROR, 'error: outputs off, link closed; configure again')
        return TransitionCallbackReturn.SUCCESS

    def on_process_exit(self):
        """Switch the outputs off at process exit (called by the runner)."""
        self._release()

    def destroy_node(self):
        """Switch the outputs off and stop the I/O thread before the node goes."""
        self._release()
        return super().destroy_node()


def main(args=None):
    """Run the hardware_interface node."""
    # Two executor threads: configure may wait for the latched robot_description topic,
    # whose callback must run while the transition callback blocks.
    return run_node(HardwareInterfaceNode, args=args, threads=2)


if __name__ == '__main__':
    sys.exit(main())
