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
from rclpy.qos import QoSProfile, ReliabilityPolicy
from sensor_msgs.msg import JointState
from std_srvs.srv import Trigger

from .cia402_params import cia402_driver
from .diagnostics import Diagnostics, ERROR, OK, WARN
from .gil_free_publisher import GilFreePublisher
from .hardware_interface_params import node_parameter_specs, RUNTIME  # noqa: I101
from .joint_state_cdr import JointStateEncoder
from .joint_state_reader import JointStateError, JointStateReader
from .model_source import load_model
from .output_thread import OutputThread
from .params import declare
from .realtime_params import helper_setup, loop_thread_setup
from .runner import run_node
from .sampled import SampledTopic
from ..errors import RobodynError
from ..friction.compensation import with_friction
from ..hardware.board.transports import open_transport
from ..hardware.errors import CommandRejected
from ..hardware.interface import HardwareInterface
from ..hardware.settings import DriverSettings, InterfaceSettings
from ..realtime.hygiene import setup_process, thaw_garbage

NODE_NAME = 'hardware_interface'
#: joint_commands: every message is taken at each board cycle; the depth keeps a second
#: publisher's flood from pushing the claim holder's messages out between two cycles.
COMMAND_QOS = QoSProfile(depth=50, reliability=ReliabilityPolicy.BEST_EFFORT)
_LEVELS = {'ok': OK, 'warn': WARN, 'error': ERROR}


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
        self._state_writer = None
        self._state_enc = None
        self._state_sample = None
        self._output = None
        self._cmd_reader = None
        self._model = None
        self._sources = {}
        self._cmd_sub = None
        self._diag_timer = None
        self.hygiene = []
        self._frozen = False           # holds a garbage-collector freeze (setup_process)
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
        """Hand the cycle's sample to the output thread (the I/O thread's listener)."""
        self._state_sample = sample
        output = self._output
        if output is not None:
            output.wake('joint_states')

    def _write_joint_state(self):
        """Publish the newest sample on ``joint_states`` (output thread)."""
        sample, writer = self._state_sample, self._state_writer
        if sample is None or writer is None or not self.context.ok():
            return  # shutting down: the link side still switches the outputs off
        enc = self._state_enc  # written serialized from a template (joint_state_cdr)
        if enc is None or enc.names != tuple(self._names):
            enc = self._state_enc = JointStateEncoder(
                self._names, fields=('position', 'velocity', 'effort'))
        # Stamped when the report arrived, however late this thread runs.
        age = time.monotonic() - sample.host_time
        stamp = self.get_clock().now().nanoseconds - (int(age * 1e9) if 0.0 < age < 1.0 else 0)
        writer.publish(enc.encode(stamp, sample.position, sample.velocity, sample.effort))

    def _start_output(self):
        """
        Start the thread that publishes for the I/O thread (at configure).

        The I/O thread makes no middleware call: a write can block for a
        third of a second (:mod:`.gil_free_publisher`), longer than the
        board's watchdog.
        """
        self._output = OutputThread(f'{self.NODE_NAME}_outputs', self._on_output_error)
        self._output.register('joint_states', self._write_joint_state)
        self._output.start()

    def _on_output_error(self, exc):
        if self.context.ok():
            self.get_logger().warning(f'publishing failed: {type(exc).__name__}: {exc}',
                                      throttle_duration_sec=1.0)

    def _deferred(self, job):
        """Run a report in the output thread when one runs (else here, now)."""
        output = self._output
        if output is not None and output.running:
            output.post(job)
        else:
            job()

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
        self._frozen = True
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
        """Log every change of the fault reaction's state (the I/O thread's listener)."""
        values = self._hw.health().values if self._hw is not None else None
        self._deferred(lambda: self._report_transition(transition, values))

    def _report_transition(self, transition, values):
        """Log a transition with its cause and publish it (output thread)."""
        if not self.context.ok():
            return
        if transition.target.value in ('running', 'armed', 'disabled', 'unconfigured'):
            self.get_logger().info(f'drive state {transition}')
            level = OK
        else:
            self.get_logger().warning(f'drive state {transition}')
            level = ERROR
        # Every transition is a diagnostics message of its own, with its cause.
        self._diag.update(level, f'drive {transition}', values)

    def _on_health(self, health):
        """Publish a changed health (any thread; from the I/O thread, deferred)."""
        def report():
            if self.context.ok():  # keep the last statistics; the periodic refresh renews them
                self._diag.update(_LEVELS[health.level], health.message, health.values or None)
        self._deferred(report)

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
        if self._output is not None:      # runs what is queued; no publisher is used after
            self._output.stop()
            self._output = None
        self._teardown_commands()
        if self._state_pub is not None:
            self._state_writer = None
            self.destroy_publisher(self._state_pub)
            self._state_pub = None
        if self._diag_timer is not None:
            self.destroy_timer(self._diag_timer)
            self._diag_timer = None
        if self._frozen:               # the I/O loop has stopped: objects back to the collector
            self._frozen = False
            thaw_garbage()

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
            self._start_output()           # after the process set-up: its priority
            cia402 = v[self.BACKEND_PARAMETER] == 'cia402'
            backend = cia402_driver(model, v) if cia402 else None
            transport = None if cia402 else open_transport(
                v['transport'], v['device'], v['baud_rate'], v['address'], v['port'])
            self._names = tuple(model.joint_names)
            self._state_pub = self.create_publisher(JointState, 'joint_states', 10)
            self._state_writer = GilFreePublisher(self._state_pub)
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
