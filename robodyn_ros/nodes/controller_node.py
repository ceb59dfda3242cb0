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
The ``controller`` node: a control law of :mod:`robodyn_ros.control` at a fixed rate.

A lifecycle node. Configure loads the model and builds the law; activate
starts the control timer; deactivate releases the command stream once (the
hardware interface then holds the arm) and stops.
With ``autostart`` (default) it configures and activates itself, and exits
with code 1 when that configure fails for a reason no later configure can
fix (a bad read-only parameter such as an unknown ``robot``).

Inputs: ``joint_states`` (sensor_msgs/JointState, best effort, depth 1; taken by
the control loop itself at each step, newest sample only, through
:mod:`.sampled`, so a fast publisher costs no executor callbacks) and
``planned_trajectory`` (trajectory_msgs/JointTrajectory, dense with
positions, velocities and accelerations, reliable + transient local), which
the node samples itself at its own rate (start time: the header stamp, or
the arrival time when the stamp is zero).

Outputs: torques as sensor_msgs/JointState (effort) on ``joint_commands``
(``effort_controller`` empty, the default) or as std_msgs/Float64MultiArray on
``<effort_controller>/commands`` (ros2_control's forward command controller,
one value per joint in joint order); ``~/tracking_error``
(JointState: position = ``q_ref - q``, effort = torque),
``~/payload_estimate`` (std_msgs/Float64, laws with load estimation) and
``~/estimates`` (Float64MultiArray, every estimate, labelled) every
``status_decimation`` cycles; ``diagnostics``.

Safe outputs (see :mod:`robodyn_ros.control.base`): zero torque when
``joint_states`` is older than ``state_timeout``, has a NaN or lacks a
joint, and on deactivation; gravity hold when the law cannot run on a valid
state. Each gives a diagnostics ERROR; the node recovers by itself when
data return. Before any trajectory arrives the node holds the position it
measured first (``idle_reference: hold_position``) or gives the gravity hold
(``idle_reference: none``).
"""

import math
import threading
import time

import numpy as np
from rclpy.lifecycle import Node as LifecycleNode
from rclpy.lifecycle import TransitionCallbackReturn
from rclpy.qos import DurabilityPolicy, qos_profile_system_default, QoSProfile, ReliabilityPolicy
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray
from trajectory_msgs.msg import JointTrajectory

from .controller_params import parameter_specs
from .conversions import to_seconds, trajectory_arrays
from .diagnostics import Diagnostics, ERROR, OK, WARN
from .gil_free_publisher import GilFreePublisher
from .joint_state_cdr import Float64ArrayEncoder, JointStateEncoder
from .joint_state_reader import JointStateError, JointStateReader
from .law_status import LawStatus
from .model_source import load_model
from .params import declare
from .realtime_params import helper_setup, loop_thread_setup
from .runner import run_node
from .sampled import SampledTopic
from ..control.base import Mode
from ..control.control_cycle import ControlCycle
from ..control.factory import apply_gains, law_class, LIVE_GAINS, make_controller
from ..control.reference import ReferenceSampler
from ..control.state_check import StatePlausibility
from ..errors import RobodynError
from ..friction.models import without_friction
from ..realtime import freeze_garbage, LoopTiming, PeriodicLoop, thaw_garbage

TRAJECTORY_QOS = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                            reliability=ReliabilityPolicy.RELIABLE)
#: joint_states: best effort, only the newest sample matters.
STATE_QOS = QoSProfile(depth=1, reliability=ReliabilityPolicy.BEST_EFFORT)
_LIVE = sorted({g for gains in LIVE_GAINS.values() for g in gains})


class ControllerNode(LifecycleNode):
    """
    Lifecycle node running one control law (see the module docstring).

    Parameters
    ----------
    **kwargs
        Passed to ``rclpy.lifecycle.Node`` (e.g. ``parameter_overrides``,
        ``context``).

    """

    def __init__(self, **kwargs):
        super().__init__('controller', **kwargs)
        self.controller = None
        self.model = None
        self.timing = None
        self._timer = None
        self._loop = None
        self._reader = None
        self._subs = []
        self._states = None
        self._pubs = []
        self._pub_js = self._pub_fc = None
        self._js_writer = self._fc_writer = None
        self._status = None
        self._lock = threading.Lock()
        self._active = False
        self.cycle = None
        self._reset_inputs()
        self.values = {}
        self.values = declare(self, parameter_specs(), on_changes=self._on_parameter)
        self.diag = Diagnostics(self)
        self.diag.update(WARN, 'unconfigured')
        self._configure_error = None
        if self.values['autostart']:
            if self.trigger_configure() == TransitionCallbackReturn.SUCCESS:
                self.trigger_activate()
            elif not isinstance(self._configure_error, (TimeoutError, type(None))):
                # The cause is in read-only parameters (robot, law, rate, ...): no later
                # configure can succeed, so the process ends, as the planner's does.
                raise RuntimeError(f'configure failed: {self._configure_error}')

    # ------------------------------------------------------------------ parameters
    def _on_parameter(self, changes):
        """Apply a parameter set all at once: every gain is checked before any changes."""
        gains = {k: list(v) for k, v in changes.items() if k in _LIVE and v}
        if gains and self.controller is not None:
            try:
                apply_gains(self.controller, gains)
            except RobodynError as exc:
                raise ValueError(str(exc)) from None
        if 'state_timeout' in changes and self.cycle is not None:
            self.cycle.state_timeout = float(changes['state_timeout'])
        self.values.update(changes)

    def _options(self):
        """Give the law's options from the parameters (unset ones left out)."""
        v = self.values
        opts = {k: v.get(k) for k in law_class(v['law']).option_names()}
        return {k: (x if isinstance(x, (str, bool, int, float)) else list(x))
                for k, x in opts.items() if x is not None}

    def _reset_inputs(self):
        self._cycle = 0
        self._state_sources = {}
        if getattr(self, 'cycle', None) is not None:
            self.cycle.reset()

    # ------------------------------------------------------------------ lifecycle
    def on_configure(self, state):
        """Load the model, build the law, create topics (lifecycle callback)."""
        try:
            if self.model is None:
                self.model = load_model(self, self.values)
                if not self.values['model_friction']:
                    self.model = without_friction(self.model)
            v = self.values
            names = list(v['joints'] or self.model.joint_names)
            if names != list(self.model.joint_names):
                raise ValueError('joints must list the model joints in model order '
                                 f'({", ".join(self.model.joint_names)})')
            self.joint_names = names
            self.period = 1.0 / float(v['rate'])
            self.controller = make_controller(v['law'], self.model, self.period,
                                              self._options())
        except (RobodynError, ValueError, TimeoutError, OSError) as exc:
            self._configure_error = exc
            self.get_logger().error(f'configure failed: {exc}')
            self.diag.update(ERROR, f'configure failed: {exc}')
            return TransitionCallbackReturn.FAILURE
        cutoff = (min(float(v['velocity_cutoff']), 0.45 * float(v['rate']))
                  if v['velocity_source'] == 'difference' else None)
        self.cycle = ControlCycle(self.controller, self.model, v['state_timeout'],
                                  v['idle_reference'], cutoff, StatePlausibility(
                                      self.model, v['plausibility_margin'],
                                      v['plausibility_speed_factor']))
        # joint_states is taken by the control loop itself, newest first (no callback),
        # serialized: the loop reads the fields it needs from the bytes (joint_state_cdr)
        self._states = SampledTopic(self, JointState, 'joint_states', STATE_QOS, raw=True)
        self._reader = JointStateReader(self.joint_names, required=(
            ('position', 'velocity') if v['velocity_source'] == 'message' else ('position',)))
        self._subs = [
            self.create_subscription(JointTrajectory, 'planned_trajectory',
                                     self._on_trajectory, TRAJECTORY_QOS),
        ]
        self._pub_js = self._pub_fc = None
        if v['effort_controller']:
            self._pub_fc = self.create_lifecycle_publisher(
                Float64MultiArray, f'{v["effort_controller"]}/commands',
                qos_profile_system_default)
        else:
            self._pub_js = self.create_lifecycle_publisher(JointState, 'joint_commands', 1)
        self._status = LawStatus(self, self.joint_names)
        self._pubs = [p for p in (self._pub_js, self._pub_fc) if p is not None]
        # The writes run without the GIL: a blocked one stops only the loop thread itself.
        self._js_writer, self._fc_writer = (None if p is None else GilFreePublisher(p)
                                            for p in (self._pub_js, self._pub_fc))
        # Torque messages are written serialized from templates (joint_state_cdr).
        self._cmd_js = JointStateEncoder(self.joint_names)
        self._cmd_fc = Float64ArrayEncoder(len(self.joint_names))
        self._release_msg = JointStateEncoder(self.joint_names, fields=()).encode(0)
        self.timing = LoopTiming(self.period)
        if v['loop'] == 'thread':   # the executor's threads go ten below the loop's priority
            for line in helper_setup(v):
                self.get_logger().info(f'process: {line}')
        elif v['rt_priority'] or v['cpus'] or v['lock_memory']:
            self.get_logger().warning('rt_priority, cpus and lock_memory apply to loop:=thread '
                                      'only; the timer runs in the executor')
        self.diag.update(WARN, f'configured ({v["law"]}, {self.controller.dynamics.backend} '
                               'dynamics); inactive: no torque output')
        self.get_logger().info(f'configured {self.controller!r} on {self.model.name}, '
                               f'backend {self.controller.dynamics.backend}')
        return TransitionCallbackReturn.SUCCESS

    def on_activate(self, state):
        """Start the control loop (lifecycle callback)."""
        self.controller.fault('activating')
        self.cycle.reset()
        self._active = True
        if self.values['loop'] == 'timer':
            freeze_garbage()                  # released with the timer (_drop_timer)
            self._timer = self.create_timer(self.period, self._timer_step)
        else:
            self._loop = PeriodicLoop(self.period, self._loop_step, name='control_loop',
                                      timing=self.timing, on_error=self._loop_failed,
                                      thread_setup=self._thread_setup)
            self._loop.start()
        self.diag.update(OK, 'active')
        return super().on_activate(state)

    def _thread_setup(self):
        """Apply the real-time options in the loop thread before its first cycle."""
        for line in loop_thread_setup(self.values):
            self.get_logger().info(f'loop thread: {line}')

    def on_deactivate(self, state):
        """Release the command stream once and stop the loop (lifecycle callback)."""
        self._stop_loop('deactivated')
        return super().on_deactivate(state)

    def on_cleanup(self, state):
        """Release topics and the law (lifecycle callback)."""
        self._release()
        self.diag.update(WARN, 'unconfigured')
        return TransitionCallbackReturn.SUCCESS

    def on_shutdown(self, state):
        """Release the command stream, then everything else (lifecycle callback)."""
        if self._looping:
            self._stop_loop('shutting down')
        self._release()
        return TransitionCallbackReturn.SUCCESS

    def on_process_exit(self):
        """
        Stop the loop and write the timing log when the process ends.

        The command stream is released if the ROS context is still valid;
        after Ctrl-C rclpy has already shut it down, and the receiver's own
        timeout treats the silent controller as stale (it holds the arm).
        """
        if self._looping:
            try:
                self._stop_loop('process exit')
            except Exception:  # context already shut down: nothing can be sent
                pass
        path = self.values.get('timing_log')
        if path and self.timing is not None:
            self.timing.write_log(path, rate_hz=1.0 / self.period, law=self.values['law'],
                                  backend=self.controller.dynamics.backend if self.controller
                                  else None)

    def destroy_node(self):
        """Stop the loop thread (or timer) before the node's entities go away."""
        if self._loop is not None:
            self._loop.stop()
        with self._lock:
            self._drop_timer()
        super().destroy_node()

    def _drop_timer(self):
        """Destroy the loop's timer and release its garbage-collector freeze (under the lock)."""
        if self._timer is not None:
            self.destroy_timer(self._timer)
            self._timer = None
            thaw_garbage()

    @property
    def _looping(self):
        return self._timer is not None or self._loop is not None

    def _loop_failed(self, exc):
        """Report a loop that stopped on an exception (loop thread)."""
        if self.context.ok():  # else the node or context was torn down under the loop
            self.get_logger().error(f'control loop stopped: {exc}')

    def _stop_loop(self, reason):
        loop, self._loop = self._loop, None
        if loop is not None:
            loop.stop()
        with self._lock:
            self._active = False
            self._drop_timer()
            if self.controller is not None:
                self.controller.fault(reason)
                self._release_output(q_last=self.cycle.q)
            self.diag.update(ERROR, f'{reason}: command stream released, no output')

    def _release(self):
        for s in self._subs:
            self.destroy_subscription(s)
        if self._states is not None:
            self._states.destroy()
            self._states = None
        for p in self._pubs:
            self.destroy_lifecycle_publisher(p)
        if self._status is not None:
            self._status.destroy()
            self._status = None
        self._subs, self._pubs = [], []
        self._js_writer = self._fc_writer = None
        self.controller = None
        self._reset_inputs()

    # ------------------------------------------------------------------ inputs
    def _poll_states(self, now):
        """Give the cycle this cycle's newest joint state; watch its publishers."""
        taken = self._states.take_all_with_source() if self._states is not None else []
        if not taken:
            return
        for _, _, gid in taken:
            self._state_sources[gid] = now
        window = max(1.0, 5.0 * self.values['state_timeout'])
        for gid in [g for g, seen in self._state_sources.items() if now - seen > window]:
            del self._state_sources[gid]
        data, received, _ = taken[-1]
        if len(self._state_sources) > 1:
            self.cycle.bad_state(f'joint_states from {len(self._state_sources)} publishers at '
                                 'once: the state is ambiguous')
            return
        try:
            sample = self._reader.read(data)
        except JointStateError as exc:  # a bad message is a bad state, not a crash
            self.cycle.bad_state(f'joint_states: {exc}')
            return
        # its age counts from its arrival
        self.cycle.take_state(sample.position, sample.velocity,
                              now - max(0.0, time.time() - received))

    def _on_trajectory(self, msg):
        try:
            arr = trajectory_arrays(msg, self.joint_names)
            if arr['positions'] is None or len(arr['times']) == 0:
                raise ValueError('no positions')
            traj = ReferenceSampler(arr['times'], arr['positions'], arr['velocities'],
                                    arr['accelerations'])
        except (ValueError, RobodynError) as exc:
            self.get_logger().warning(f'planned_trajectory rejected: {exc}')
            self.diag.update(WARN, f'planned_trajectory rejected: {exc}')
            return
        stamp = to_seconds(msg.header.stamp)
        now = self.get_clock().now().nanoseconds * 1e-9
        self.cycle.set_trajectory(traj, (stamp if stamp > 0.0 else now) + arr['times'][0])

    # ------------------------------------------------------------------ loop
    def _loop_step(self):
        """One control cycle (loop thread); returns the law's time [s] or None."""
        with self._lock:
            if self._active:
                return self._cycle_once()
        return None

    def _timer_step(self):
        """One control cycle from the rclpy timer (``loop: timer``), timed here."""
        start = time.monotonic()
        law = self._loop_step()
        self.timing.record(start, time.monotonic(), math.nan if law is None else law)

    def _cycle_once(self):
        start = time.monotonic()
        self._poll_states(start)
        now = self.get_clock().now()
        out = self.cycle.run(start, now.nanoseconds * 1e-9)
        if out.release:
            # The commands stop: one release tells the hardware interface to hold now.
            self._release_output(q_last=None)
        elif out.torque is not None:
            self._publish_torque(out.torque, now)
        self._cycle += 1
        tau = out.torque if out.torque is not None else np.zeros(self.controller.n)
        if self._cycle % self.values['status_decimation'] == 0:
            self._publish_status(out.status, tau, now)
        self._diagnose(out.status)
        return out.law_time

    def _release_output(self, q_last):
        """
        End the command stream.

        On ``joint_commands``: a message with the joint names and no efforts
        (the hardware interface holds the arm at once). On a forward command
        controller, which keeps its last command: the gravity torque at the
        last measured position, or nothing when there is none.
        """
        js, fc, controller = self._js_writer, self._fc_writer, self.controller
        if js is not None:
            js.publish(self._release_msg)
        if fc is not None and q_last is not None and controller is not None:
            hold = controller.gravity_hold_torque(q_last, np.zeros(controller.n))
            fc.publish(self._cmd_fc.encode(hold))

    def _publish_torque(self, tau, now=None):
        js, fc = self._js_writer, self._fc_writer
        if js is not None:
            stamp = (now or self.get_clock().now()).nanoseconds
            js.publish(self._cmd_js.encode(stamp, tau))
        if fc is not None:
            fc.publish(self._cmd_fc.encode(tau))

    def _publish_status(self, status, tau, now):
        self._status.publish(self.controller, status, tau, now.to_msg())

    def _diagnose(self, status):
        mode = status.mode
        if mode == Mode.ZERO:
            level, text = ERROR, f'not commanding: {status.message}'
        elif mode.is_safe_output:
            level, text = ERROR, f'safe output ({mode.value}): {status.message}'
        elif self.cycle.reanchored:
            level, text = WARN, self.cycle.reanchored
        elif mode == Mode.SATURATED:
            level, text = WARN, 'torque saturated'
        else:
            level, text = OK, 'running'
        if level != self.diag.level or text != self.diag.message:
            self.diag.update(level, text, self._diag_values())
            if text == self.cycle.reanchored:
                self.get_logger().warning(text)
                self.cycle.reanchored = ''   # said once
        elif self._cycle % max(1, int(round(1.0 / self.period))) == 0:
            self.diag.update(level, text, self._diag_values(), publish=False)

    def _diag_values(self):
        values = {'law': self.values['law'], 'backend': self.controller.dynamics.backend,
                  'rate_hz': f'{1.0 / self.period:g}'}
        stats = self.timing.stats(window=int(math.ceil(2.0 / self.period)))
        values.update({k: (f'{x:.4g}' if isinstance(x, float) else x) for k, x in stats.items()})
        for key, value in self.controller.estimates().items():
            arr = np.atleast_1d(value)
            if arr.size <= 12:
                values[key] = ' '.join(f'{x:.6g}' for x in arr)
        return values


def main(args=None):
    """Run the controller node."""
    # Two executor threads: a configure requested through the lifecycle service can then
    # wait for robot_description while the other thread delivers it.
    return run_node(lambda: ControllerNode(), args=args, threads=2)


if __name__ == '__main__':
    raise SystemExit(main())
