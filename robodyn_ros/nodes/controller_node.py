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
starts the control timer; deactivate sends zero torque once and stops.
With ``autostart`` (default) it configures and activates itself.

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

from array import array
import gc
import json
import math
import threading
import time

import numpy as np
from rclpy.lifecycle import Node as LifecycleNode
from rclpy.lifecycle import TransitionCallbackReturn
from rclpy.qos import (DurabilityPolicy, qos_profile_system_default,
                       QoSProfile, ReliabilityPolicy)
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64, Float64MultiArray, MultiArrayDimension
from trajectory_msgs.msg import JointTrajectory

from .controller_params import parameter_specs
from .conversions import joint_state_msg, order_index, to_seconds, trajectory_arrays
from .diagnostics import Diagnostics, ERROR, OK, WARN
from .joint_state_cdr import Float64ArrayEncoder, JointStateEncoder, read_joint_state
from .loop_timing import LoopTiming
from .model_source import load_model
from .params import declare
from .runner import run_node
from .sampled import SampledTopic
from ..control.base import JointReference, Mode
from ..control.factory import apply_gain, law_class, LIVE_GAINS, make_controller
from ..control.filters import FilteredDifference
from ..control.reference import ReferenceSampler
from ..errors import RobodynError
from ..sim.mismatch import without_friction

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
        self._thread = None
        self._running = False
        self._wake = threading.Event()
        self._subs = []
        self._states = None
        self._pubs = []
        self._pub_js = self._pub_fc = None
        self._lock = threading.Lock()
        self._active = False
        self._reset_inputs()
        self.values = {}
        self.values = declare(self, parameter_specs(), on_change=self._on_parameter)
        self.diag = Diagnostics(self)
        self.diag.update(WARN, 'unconfigured')
        if self.values['autostart']:
            if self.trigger_configure() == TransitionCallbackReturn.SUCCESS:
                self.trigger_activate()

    # ------------------------------------------------------------------ parameters
    def _on_parameter(self, name, value):
        if name in _LIVE and self.controller is not None and value:
            try:
                apply_gain(self.controller, name, list(value))
            except RobodynError as exc:
                raise ValueError(str(exc)) from None
        self.values[name] = value

    def _options(self):
        """Give the law's options from the parameters (unset ones left out)."""
        v = self.values
        opts = {k: v.get(k) for k in law_class(v['law']).option_names()}
        return {k: (x if isinstance(x, (str, bool, int, float)) else list(x))
                for k, x in opts.items() if x is not None}

    def _reset_inputs(self):
        self._q = None
        self._qd = None
        self._state_time = None
        self._state_problem = 'no joint_states received'
        self._js_names = None
        self._js_index = None
        self._trajectory = None
        self._traj_start = None
        self._idle = None
        self._cycle = 0
        self._diff = None

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
            order_index(self.model.joint_names, names)
            if names != list(self.model.joint_names):
                raise ValueError('joints must list the model joints in model order '
                                 f'({", ".join(self.model.joint_names)})')
            self.joint_names = names
            self.period = 1.0 / float(v['rate'])
            self.controller = make_controller(v['law'], self.model, self.period,
                                              self._options())
        except (RobodynError, ValueError, TimeoutError, OSError) as exc:
            self.get_logger().error(f'configure failed: {exc}')
            self.diag.update(ERROR, f'configure failed: {exc}')
            return TransitionCallbackReturn.FAILURE
        if v['velocity_source'] == 'difference':
            self._diff_cutoff = min(float(v['velocity_cutoff']), 0.45 * float(v['rate']))
        # joint_states is taken by the control loop itself, newest first (no callback),
        # serialized: the loop reads the fields it needs from the bytes (joint_state_cdr)
        self._states = SampledTopic(self, JointState, 'joint_states', STATE_QOS, raw=True)
        self._js_cache = {}
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
        self._pub_err = self.create_lifecycle_publisher(JointState, '~/tracking_error', 10)
        self._pub_mass = self.create_lifecycle_publisher(Float64, '~/payload_estimate', 10)
        self._pub_est = self.create_lifecycle_publisher(Float64MultiArray, '~/estimates', 10)
        self._pubs = [p for p in (self._pub_js, self._pub_fc, self._pub_err, self._pub_mass,
                                  self._pub_est) if p is not None]
        # Torque messages are written serialized from templates (joint_state_cdr).
        self._cmd_js = JointStateEncoder(self.joint_names)
        self._cmd_fc = Float64ArrayEncoder(len(self.joint_names))
        self.timing = LoopTiming(self.period)
        self.diag.update(WARN, f'configured ({v["law"]}, {self.controller.dynamics.backend} '
                               'dynamics); inactive: no torque output')
        self.get_logger().info(f'configured {self.controller!r} on {self.model.name}, '
                               f'backend {self.controller.dynamics.backend}')
        return TransitionCallbackReturn.SUCCESS

    def on_activate(self, state):
        """Start the control loop (lifecycle callback)."""
        self.controller.fault('activating')
        self._idle = None
        self._active = True
        # Everything built so far (model, kernels, rclpy) lives as long as the
        # process: keep it out of the garbage collector's full passes, which
        # otherwise stop the control loop for tens of milliseconds now and then.
        gc.collect()
        gc.freeze()
        if self.values['loop'] == 'timer':
            self._timer = self.create_timer(self.period, self._control_step)
        else:
            self._running = True
            self._wake.clear()
            self._thread = threading.Thread(target=self._run_loop, name='control_loop',
                                            daemon=True)
            self._thread.start()
        self.diag.update(OK, 'active')
        return super().on_activate(state)

    def on_deactivate(self, state):
        """Send zero torque once and stop the loop (lifecycle callback)."""
        self._stop_loop('deactivated')
        return super().on_deactivate(state)

    def on_cleanup(self, state):
        """Release topics and the law (lifecycle callback)."""
        self._release()
        self.diag.update(WARN, 'unconfigured')
        return TransitionCallbackReturn.SUCCESS

    def on_shutdown(self, state):
        """Zero torque, then release everything (lifecycle callback)."""
        if self._looping:
            self._stop_loop('shutting down')
        self._release()
        return TransitionCallbackReturn.SUCCESS

    def on_process_exit(self):
        """
        Stop the loop and write the timing log when the process ends.

        A zero torque is sent if the ROS context is still valid; after Ctrl-C
        rclpy has already shut it down, and the receiver's own watchdog must
        treat the silent controller as stale.
        """
        if self._looping:
            try:
                self._stop_loop('process exit')
            except Exception:  # context already shut down: nothing can be sent
                pass
        path = self.values.get('timing_log')
        if path and self.timing is not None:
            with open(path, 'w', encoding='utf-8') as fh:
                json.dump({'rate_hz': 1.0 / self.period,
                           'law': self.values['law'],
                           'backend': self.controller.dynamics.backend if self.controller
                           else None, **self.timing.stats()}, fh, indent=2)

    def destroy_node(self):
        """Stop the loop thread before the node's entities go away."""
        self._running = False
        self._wake.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2.0)
        super().destroy_node()

    @property
    def _looping(self):
        return self._timer is not None or self._thread is not None

    def _run_loop(self):
        """Run control steps at absolute deadlines until stopped (loop thread)."""
        period = self.period
        deadline = time.monotonic() + period
        while self._running:
            delay = deadline - time.monotonic()
            if delay > 0.0 and self._wake.wait(delay):
                break
            if not self._running:
                break
            try:
                self._control_step()
            except Exception as exc:  # node or context torn down under the loop
                if self._running and self.context.ok():
                    self.get_logger().error(f'control loop stopped: {exc}')
                self._running = False
                break
            deadline += period
            late = time.monotonic() - deadline
            if late > period:   # fell behind: skip the missed periods, keep the phase
                deadline += period * math.ceil(late / period)

    def _stop_loop(self, reason):
        self._running = False
        self._wake.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2.0)
        with self._lock:
            self._active = False
            if self._timer is not None:
                self.destroy_timer(self._timer)
                self._timer = None
            if self.controller is not None:
                tau, _ = self.controller.fault(reason)
                self._publish_torque(tau)
            self.diag.update(ERROR, f'{reason}: zero torque sent, no output')

    def _release(self):
        for s in self._subs:
            self.destroy_subscription(s)
        if self._states is not None:
            self._states.destroy()
            self._states = None
        for p in self._pubs:
            self.destroy_lifecycle_publisher(p)
        self._subs, self._pubs = [], []
        self.controller = None
        self._reset_inputs()

    # ------------------------------------------------------------------ inputs
    def _poll_states(self):
        """Take the newest joint state, if one arrived since the last cycle."""
        newest = self._states.latest() if self._states is not None else None
        if newest is not None:
            data, received = newest
            try:
                msg = read_joint_state(data, self._js_cache)
            except Exception as exc:  # a corrupt message is a bad state, not a crash
                self._state_problem = f'joint_states: unreadable message ({exc})'
                self._q = None
                return
            self._on_joint_states(msg)
            if not self._state_problem:  # its age counts from its arrival
                self._state_time = time.monotonic() - max(0.0, time.time() - received)

    def _on_joint_states(self, msg):
        names = msg.name
        if names != self._js_names:
            try:
                self._js_index = order_index(names, self.joint_names)
            except ValueError as exc:
                self._state_problem = f'joint_states: {exc}'
                self._q = None
                return
            self._js_names = list(names)
        count = len(names)
        if len(msg.position) != count or (len(msg.velocity) != count
                                          and self.values['velocity_source'] == 'message'):
            self._state_problem = (f'joint_states has {len(msg.position)} positions and '
                                   f'{len(msg.velocity)} velocities for {count} names')
            self._q = None
            return
        idx = self._js_index
        self._q = np.frombuffer(msg.position, dtype=float)[idx] if isinstance(
            msg.position, array) else np.asarray(msg.position, dtype=float)[idx]
        if self.values['velocity_source'] == 'message':
            self._qd = np.frombuffer(msg.velocity, dtype=float)[idx] if isinstance(
                msg.velocity, array) else np.asarray(msg.velocity, dtype=float)[idx]
        self._state_time = time.monotonic()
        self._state_problem = ''

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
        offset = arr['times'][0]
        self._traj_start = (stamp if stamp > 0.0 else now) + offset
        self._trajectory = traj

    def _reference(self, q, now):
        if self._trajectory is not None:
            return self._trajectory.reference(now.nanoseconds * 1e-9 - self._traj_start)
        if self.values['idle_reference'] == 'none':
            return None
        if self._idle is None:
            self._idle = JointReference.hold(q)
        return self._idle

    # ------------------------------------------------------------------ loop
    def _control_step(self):
        with self._lock:
            if self._active:
                self._cycle_once()

    def _cycle_once(self):
        self._poll_states()
        start = time.monotonic()
        now = self.get_clock().now()
        ctl = self.controller
        q = self._q
        law_time = math.nan
        if q is None:
            tau, status = ctl.fault(self._state_problem or 'no joint_states')
        elif start - self._state_time > self.values['state_timeout']:
            limit = 1e3 * self.values['state_timeout']
            tau, status = ctl.fault(f'stale joint_states (nothing new for more than '
                                    f'{limit:g} ms)')
        else:
            qd = self._qd
            if self.values['velocity_source'] == 'difference':
                if self._diff is None:
                    self._diff = FilteredDifference(self.period, self._diff_cutoff, ctl.n)
                qd = self._diff.update(q)[1]
            ref = self._reference(q, now) if np.isfinite(q).all() else None
            before = time.monotonic()
            tau, status = ctl.step(start, q, qd, ref)
            law_time = time.monotonic() - before
        self._publish_torque(tau, now)
        self._cycle += 1
        if self._cycle % self.values['status_decimation'] == 0:
            self._publish_status(status, tau, now)
        self._diagnose(status)
        self.timing.record(start, time.monotonic(), law_time)

    def _publish_torque(self, tau, now=None):
        if self._pub_js is not None:
            stamp = (now or self.get_clock().now()).nanoseconds
            self._pub_js.publish(self._cmd_js.encode(stamp, tau))
        if self._pub_fc is not None:
            self._pub_fc.publish(self._cmd_fc.encode(tau))

    def _publish_status(self, status, tau, now):
        stamp = now.to_msg()
        if status.error is not None and status.error.size == self.controller.n:
            self._pub_err.publish(joint_state_msg(self.joint_names, stamp,
                                                  position=status.error, effort=tau))
        est = self.controller.estimates()
        if not est:
            return
        if 'payload_mass' in est:
            self._pub_mass.publish(Float64(data=float(est['payload_mass'])))
        msg = Float64MultiArray()
        for key, value in est.items():
            arr = np.atleast_1d(np.asarray(value, dtype=float))
            msg.layout.dim.append(MultiArrayDimension(label=key, size=arr.size,
                                                      stride=arr.size))
            msg.data.extend(arr.tolist())
        self._pub_est.publish(msg)

    def _diagnose(self, status):
        mode = status.mode
        if mode.is_safe_output:
            level, text = ERROR, f'safe output ({mode.value}): {status.message}'
        elif mode == Mode.SATURATED:
            level, text = WARN, 'torque saturated'
        else:
            level, text = OK, 'running'
        if level != self.diag.level or text != self.diag.message:
            self.diag.update(level, text, self._diag_values())
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
