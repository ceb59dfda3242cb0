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
The ``trajectory_planner`` node: goals in, dense planned trajectories out.

Subscribes ``joint_states`` (best effort, newest only, taken when a goal or a
stop request arrives, see :mod:`.sampled`) and ``planner/goal``
(trajectory_msgs/JointTrajectory, one or more waypoints, optional
``time_from_start``); publishes ``planned_trajectory`` (dense
JointTrajectory with positions, velocities, accelerations and, when asked,
feed-forward efforts; reliable, transient local, depth 1) and ``diagnostics``;
serves ``planner/stop`` (std_srvs/Trigger) with a smooth stop. A plan starts
from the state of the plan in force when one is running (continuous
reference; header stamp = the time the goal arrived), otherwise from the
measured positions at rest (header stamp = the time the plan is sent, so
that no part of it is skipped however long planning took). A bad goal is
rejected with a logged reason and a diagnostics entry; the previous plan
stays in force. All planning happens in :mod:`robodyn_ros.planning`; the
parameters and the planner's records made from them are in
:mod:`.trajectory_planner_params`.

**Responsiveness.** Goals are taken as serialized bytes: the executor only
reads their number of waypoints (a goal above ``max_waypoints`` is refused
there, before it is deserialized) and hands them to a planning thread, so
``planner/stop`` is answered at once at any time. A stop cancels the planning
in progress (its result is dropped; the plan in force is the one stopped), and
a newer goal replaces an older one still being planned. A goal whose times
end after ``max_duration``, or whose planned motion would, is refused
before anything is sampled.
"""

import struct
import threading

import numpy as np
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from rclpy.serialization import deserialize_message
from sensor_msgs.msg import JointState
from std_srvs.srv import Trigger
from trajectory_msgs.msg import JointTrajectory

from .conversions import trajectory_arrays
from .diagnostics import Diagnostics, ERROR, OK, WARN
from .dynamics_cdr import read_start
from .dynamics_client import DynamicsClient, RemoteEffortProvider
from .joint_state_reader import JointStateReader
from .model_source import load_model
from .params import declare, ParameterValidationError
from .runner import run_node
from .sampled import SampledTopic
from .trajectory_cdr import encode_trajectory, read_trajectory
from .trajectory_planner_params import (parameter_specs, planned_payload, planner_config,
                                        planning_limits)
from ..errors import RobodynError
from ..planning.efforts import ModelEffortProvider
from ..planning.errors import PlanningCancelled
from ..planning.planner import Planner

_STAMP = struct.Struct('<iI')
#: QoS of joint_states: the newest sample only.
STATE_QOS = QoSProfile(depth=1, reliability=ReliabilityPolicy.BEST_EFFORT)
#: QoS of planned_trajectory: late joiners get the plan in force.
PLAN_QOS = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                      durability=DurabilityPolicy.TRANSIENT_LOCAL)


class TrajectoryPlannerNode(Node):
    """
    Plan joint trajectories for goals and publish them densely sampled.

    Parameters
    ----------
    **kwargs
        Passed to ``rclpy.node.Node`` (context, parameter overrides, ...).

    """

    def __init__(self, **kwargs):
        super().__init__('trajectory_planner', **kwargs)
        self._values = declare(self, parameter_specs(), on_changes=self._on_change)
        self._model = load_model(self, self._values)
        names = self._values['joints'] or self._model.joint_names
        for name in names:
            if name not in self._model.joint_names:
                raise ParameterValidationError(
                    f'parameter joints: {name!r} is not a joint of {self._model.name!r} '
                    f'({", ".join(self._model.joint_names)})')
        self._names = list(names)
        self._state_reader = JointStateReader(self._names)
        self._full_reader = JointStateReader(self._model.joint_names)
        self._measured = None
        self._measured_full = None
        self._current = None
        self._dyn_client = None
        self._lock = threading.RLock()                  # plan in force, states, generation
        self._generation = 0
        self._job = None                                # goal being planned
        self._next = None                               # goal waiting for the thread
        self._wake = threading.Condition(self._lock)
        self._running = True
        try:
            self._planner = self._build(self._values)
        except (RobodynError, ValueError) as exc:
            raise ParameterValidationError(f'invalid planner parameters: {exc}') from None
        self._diag = Diagnostics(self, hardware_id=self._model.name)
        self._pub = self.create_publisher(JointTrajectory, 'planned_trajectory', PLAN_QOS)
        # joint_states is only needed when a goal arrives: taken then, newest only
        self._states = SampledTopic(self, JointState, 'joint_states', STATE_QOS)
        self.create_subscription(JointTrajectory, 'planner/goal', self._on_goal, 10, raw=True)
        self.create_service(Trigger, 'planner/stop', self._on_stop)
        self._thread = threading.Thread(target=self._plan_loop, daemon=True,
                                        name='trajectory_planner_planning')
        self._thread.start()
        self._diag.update(OK, 'ready: waiting for goals', self._status_values())
        self.get_logger().info(
            f'planning {len(self._names)} joints of {self._model.name!r} with profile '
            f'{self._values["profile"]!r}; limits {self._planner.limits!r}')

    # ------------------------------------------------------------------ configuration
    def _build(self, values):
        model, names = self._model, self._names
        limits = planning_limits(model, names, values)
        config = planner_config(values)
        payload = planned_payload(model, values)
        if values['use_dynamics_service']:
            if self._dyn_client is None:
                self._dyn_client = DynamicsClient(self.context, self.get_namespace())
            provider = RemoteEffortProvider(self._dyn_client, model, names, payload,
                                            values['friction'], self._measured_full,
                                            values['dynamics_service_timeout'])
        else:
            provider = ModelEffortProvider(model, names, payload, friction=values['friction'],
                                           fixed_positions=self._measured_full)
        return Planner(limits, config, provider)

    def destroy_node(self):
        """Stop the planning thread, close the dynamics-service client, destroy the node."""
        thread = getattr(self, '_thread', None)
        if thread is not None:
            with self._lock:
                self._running = False
                self._cancel_all()
                self._wake.notify_all()
            thread.join(timeout=10.0)
        client = getattr(self, '_dyn_client', None)
        if client is not None:
            self._dyn_client = None
            client.close()
        states = getattr(self, '_states', None)
        if states is not None:
            self._states = None
            states.destroy()
        super().destroy_node()

    def _on_change(self, changes):
        values = dict(self._values)
        values.update(changes)
        names = ', '.join(changes)
        try:
            planner = self._build(values)
        except (RobodynError, ValueError) as exc:
            raise ValueError(f'{names}: {exc}') from None
        self._values = values
        self._planner = planner
        for name, value in changes.items():
            self.get_logger().info(f'parameter {name} = {value!r}')

    # ------------------------------------------------------------------ inputs
    def _on_joint_state(self, msg):
        try:
            q = self._state_reader.read(msg).position
        except ValueError as exc:
            self._diag.update(WARN, f'joint_states ignored: {exc}', self._status_values())
            return
        if not np.all(np.isfinite(q)):
            self._diag.update(WARN, 'joint_states ignored: non-finite position',
                              self._status_values())
            return
        self._measured = q
        if len(self._names) == self._model.n:
            return
        try:
            # Joints that are not planned: their positions enter the efforts.
            full = self._full_reader.read(msg).position
            if np.all(np.isfinite(full)):
                self._measured_full = full
        except ValueError:
            pass

    def _now(self):
        return self.get_clock().now()

    def _start_state(self, now):
        """Planned state when a plan is running, else the measured positions at rest."""
        if self._current is not None:
            plan, start = self._current
            t = (now - start).nanoseconds * 1e-9
            if t < plan.duration:
                return plan.trajectory.sample(max(t, 0.0)), True
        if self._measured is not None:
            zeros = np.zeros(len(self._names))
            return (self._measured.copy(), zeros, zeros.copy()), False
        if self._current is not None:
            plan = self._current[0]
            return plan.trajectory.sample(plan.duration), False
        raise RobodynError('no joint_states received yet: the start state is unknown')

    def _poll_states(self):
        with self._lock:
            newest = self._states.latest()
            if newest is not None:
                self._on_joint_state(newest[0])

    @property
    def planning(self):
        """Return True while a goal is being planned or waits for the planning thread."""
        with self._lock:
            return self._job is not None or self._next is not None

    def _cancel_all(self):
        """Cancel the goal being planned and drop the waiting one (lock held)."""
        self._generation += 1
        if self._job is not None:
            self._job['cancelled'] = True
        self._next = None

    def _on_goal(self, data):
        try:
            _, _, _, _, count, _ = read_start(data)
        except ValueError as exc:
            self._reject(f'goal rejected: unreadable goal ({exc})')
            return
        if count == 0:
            self._reject('goal rejected: goal has no points')
            return
        limit = self._values['max_waypoints']
        if count > limit:
            self._reject(f'goal rejected: {count} waypoints, more than max_waypoints = {limit} '
                         '(not read)')
            return
        with self._lock:
            if self._job is not None or self._next is not None:
                self.get_logger().info('a newer goal replaces the one being planned')
            self._cancel_all()
            self._next = {'data': data, 'generation': self._generation, 'cancelled': False,
                          'arrived': self._now()}
            self._wake.notify()
        # Heard and queued: a client can tell a slow plan from a goal lost in transit.
        self._diag.update(OK, f'planning a goal of {count} waypoints', self._status_values())

    def _plan_loop(self):
        while True:
            with self._lock:
                self._wake.wait_for(lambda: self._next is not None or not self._running)
                if not self._running:
                    return
                job, self._next = self._next, None
                self._job = job
            try:
                self._plan_goal(job)
            except Exception as exc:  # never let the thread die on a bad goal
                self._reject(f'goal rejected: {type(exc).__name__}: {exc}')
            finally:
                with self._lock:
                    self._job = None

    def _plan_goal(self, job):
        self._poll_states()
        now = job['arrived']
        try:
            # Read from the bytes (no GIL-holding conversion of every point); a goal whose
            # points differ in their arrays is left to rclpy.
            arrays = read_trajectory(job['data'], self._names)
            if arrays is None:
                arrays = trajectory_arrays(deserialize_message(job['data'], JointTrajectory),
                                           self._names)
            if len(arrays['times']) == 0:
                raise ValueError('goal has no points')
            if arrays['positions'] is None:
                raise ValueError('goal points have no positions')
            durations = _durations(arrays['times'])
            with self._lock:
                (q0, qd0, qdd0), moving = self._start_state(now)
                planner, measured_full = self._planner, self._measured_full
            if measured_full is not None and len(self._names) < self._model.n:
                # Joints that are not planned hold their measured positions.
                planner = planner.with_effort_provider(
                    planner.effort_provider.with_fixed_positions(measured_full))
            plan = planner.plan(q0, arrays['positions'], durations, qd0, qdd0,
                                cancel=lambda: job['cancelled'])
        except PlanningCancelled:
            self.get_logger().info('planning cancelled (stop or newer goal); the plan in '
                                   'force stays')
            return
        except (RobodynError, ValueError) as exc:
            if not job['cancelled']:
                self._reject(f'goal rejected: {exc}')
            return
        # From rest the plan starts when it is sent, not when asked for (restamped).
        self._publish(plan, now, 'goal accepted', job=job, restamp=not moving)

    def _on_stop(self, request, response):
        with self._lock:
            cancelled = self.planning
            self._cancel_all()
        if cancelled:
            self.get_logger().info('stop: the planning in progress is cancelled')
        self._poll_states()
        now = self._now()
        try:
            with self._lock:
                (q, qd, qdd), moving = self._start_state(now)
                planner = self._planner
            # The stop's efforts are computed here: never wait for the dynamics service.
            local = getattr(planner.effort_provider, 'local', None)
            if local is not None:
                planner = planner.with_effort_provider(local)
            plan = planner.stop(q, qd, qdd)
        except (RobodynError, ValueError) as exc:
            response.success = False
            response.message = f'cannot stop: {exc}'
            self._diag.update(ERROR, response.message, self._status_values())
            self.get_logger().error(response.message)
            return response
        self._publish(plan, now, 'stopping' if moving else 'holding position')
        response.success = True
        response.message = (f'stopping within {plan.duration:.3f} s' if moving
                            else 'not moving: holding the current position')
        return response

    # ------------------------------------------------------------------ outputs
    def _reject(self, reason):
        self.get_logger().error(reason)
        in_force = 'a previous plan stays in force' if self._current else 'no plan in force'
        self._diag.update(WARN, reason, dict(self._status_values(), kept=in_force))

    def _publish(self, plan, now, what, job=None, restamp=False):
        """
        Send a plan and make it the plan in force.

        The message is written outside the lock (in serialized form, see
        :mod:`.trajectory_cdr`); under the lock a goal's plan is sent only if
        no stop or newer goal came meanwhile, so the plan in force is always
        the latest decision.
        """
        effort = plan.efforts if self._values['publish_efforts'] else None
        sec, nanosec = divmod(now.nanoseconds, 1_000_000_000)
        data = encode_trajectory(sec, nanosec, '', self._names, plan.times, plan.positions,
                                 plan.velocities, plan.accelerations, effort)
        with self._lock:
            if job is not None and (job['cancelled'] or job['generation'] != self._generation):
                self.get_logger().info('plan dropped: a stop or a newer goal came meanwhile')
                return
            if restamp:
                now = self._now()
                sec, nanosec = divmod(now.nanoseconds, 1_000_000_000)
                data = _STAMP.pack(sec, nanosec).join((data[:4], data[12:]))
            self._current = (plan, now)
            self._pub.publish(data)
        scaling = plan.scaling
        text = (f'{what}: {plan.profile} plan of {plan.duration:.3f} s, {len(plan.times)} '
                f'points, planned in {plan.planning_time * 1e3:.1f} ms')
        if getattr(scaling, 'check', None) is not None:
            text += (f'; {self._values["time_parameterization"]} timing, peak torque ratio '
                     f'{float(np.max(scaling.check.torque)):.3f}')
        elif scaling is not None:
            text += (f'; torque ratio {scaling.peak_ratio_before:.3f} -> '
                     f'{scaling.peak_ratio_after:.3f} (time x {scaling.factor:.3f})')
        self.get_logger().info(text)
        self._diag.update(OK, text, self._status_values(plan))

    def _status_values(self, plan=None):
        values = {'profile': self._values['profile'], 'joints': ' '.join(self._names)}
        source = getattr(self._planner.effort_provider, 'last_source', None)
        if source is not None:
            values['efforts_from'] = source
        if plan is not None:
            values.update(duration_s=f'{plan.duration:.4f}', points=len(plan.times),
                          planning_time_ms=f'{plan.planning_time * 1e3:.2f}')
            check = getattr(plan.scaling, 'check', None)
            if check is not None:  # time-optimal (and smoothed) timing
                torque = check.torque
                values.update(time_parameterization=self._values['time_parameterization'],
                              torque_ratio_after=f'{float(np.max(torque)):.4f}',
                              velocity_ratio=f'{float(np.max(check.velocity)):.4f}',
                              acceleration_ratio=f'{float(np.max(check.acceleration)):.4f}',
                              limiting_joint=self._names[int(np.argmax(torque))])
            elif plan.scaling is not None:
                values.update(time_scale=f'{plan.scaling.factor:.4f}',
                              torque_ratio_before=f'{plan.scaling.peak_ratio_before:.4f}',
                              torque_ratio_after=f'{plan.scaling.peak_ratio_after:.4f}',
                              limiting_joint=plan.scaling.limiting_joint)
        return values


def _durations(times):
    """Segment times from time_from_start: None when all zero, else strictly increasing."""
    if np.all(times == 0.0):
        return None
    if times[0] <= 0.0 or np.any(np.diff(times) <= 0.0):
        raise ValueError('time_from_start must be all zero (let the planner choose) or '
                         f'strictly increasing from above zero, got {times.tolist()}')
    return np.diff(np.concatenate([[0.0], times]))


def main(args=None):
    """
    Run the trajectory_planner node.

    Parameters
    ----------
    args : list of str, optional
        Command-line arguments (ROS arguments included).

    Returns
    -------
    int
        Exit code.

    """
    return run_node(TrajectoryPlannerNode, args)


if __name__ == '__main__':
    import sys
    sys.exit(main())
