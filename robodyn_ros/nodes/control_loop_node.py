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
The ``control_loop`` node: board, control law and friction compensation in one loop.

The controller-manager pattern of ros2_control in one process: for every
state report of the board, the hardware interface's I/O thread runs the
control law on it (the same :class:`~robodyn_ros.control.control_cycle.ControlCycle`
and law objects as the ``controller`` node, their compiled sample), adds
friction compensation and sends the current frame — no DDS in the cycle.
It is the ``hardware_interface`` node (same parameters, lifecycle, fault
reaction, ``~/reset_fault``) whose command source is the law instead of
``joint_commands``, plus the law's parameters (``law``, gains, estimator,
``state_timeout``, plausibility, ``idle_reference``, ``status_decimation``).

DDS carries only what is not in the loop: ``planned_trajectory`` in;
``joint_states`` (every ``joint_states_decimation``-th report),
``~/tracking_error``, ``~/payload_estimate``, ``~/estimates`` and
``diagnostics`` out, published from a thread of their own that never makes
the loop wait (it takes the newest values when it runs).

Switching the law (``law`` is a run-time parameter here) builds the new law
outside the loop; at the next cycle boundary the old law releases its
command stream (the interface holds the arm) and the new one takes the
claim after its first three commands.

``board_mode`` (``current`` or ``impedance``, fixed while active): in
impedance mode the loop runs the law's split form and sends impedance
set-points (the board closes the PD at its inner rate between frames, so a
late frame is a late model correction, not a missing feedback); the hold is
an impedance set-point too. Only the computed-torque laws have a split form
(``computed_torque``, ``computed_torque_lme``, ``mbvsst``): another law is
refused with impedance mode, and impedance mode with another law.

Timing since activation (``diagnostics`` values and ``timing_log`` at exit):
the period between state reports as they arrive, the host's cycle from a
report's arrival to its current frame sent (``compute_*``) and the law's
share of it (``law_*``).

Real-time options of the loop thread: ``rt_priority`` (SCHED_FIFO), ``cpus``
(affinity), ``lock_memory`` (mlockall); see :mod:`robodyn_ros.realtime.hygiene`.
"""

from dataclasses import replace
import math
import sys
import time

import numpy as np
from rclpy.serialization import deserialize_message
from trajectory_msgs.msg import JointTrajectory

from .controller_node import TRAJECTORY_QOS
from .controller_params import parameter_specs as law_parameter_specs
from .conversions import trajectory_arrays
from .diagnostics import WARN
from .dynamics_cdr import read_header
from .hardware_interface_node import HardwareInterfaceNode
from .hardware_interface_node import node_parameter_specs as board_parameter_specs
from .law_status import LawStatus
from .params import ParamSpec
from .runner import run_node
from .trajectory_cdr import read_trajectory
from ..control.base import JointReference
from ..control.control_cycle import ControlCycle
from ..control.factory import apply_gains, law_class, LIVE_GAINS, make_controller
from ..control.reference import ReferenceSampler
from ..control.state_check import StatePlausibility
from ..errors import RobodynError
from ..friction.models import without_friction
from ..hardware.settings import BOARD_MODES
from ..realtime import LoopTiming

#: Law parameters the one-process loop does not take (the board sets the rate).
_NOT_HERE = ('rate', 'joints', 'effort_controller', 'loop', 'velocity_source',
             'velocity_cutoff')
_LIVE = sorted({g for gains in LIVE_GAINS.values() for g in gains})


def loop_parameter_specs():
    """
    Parameters of the one-process loop besides the board's and the law's.

    Returns
    -------
    list of ParamSpec
        Output rates (the real-time options are the board's:
        :func:`~.realtime_params.realtime_parameter_specs`).

    """
    return [
        ParamSpec('joint_states_decimation', 1, 'Publish joint_states every N-th board '
                  'report (1: every report)', low=1, high=1000),
        ParamSpec('board_mode', 'current', 'How the loop commands the board: current '
                  '(currents every cycle) or impedance (the split form of the law as impedance '
                  'set-points, the board closes the PD at its inner rate between frames; '
                  'computed_torque, computed_torque_lme and mbvsst)',
                  choices=BOARD_MODES, constraints='cannot change while active'),
    ]


def node_parameter_specs():
    """
    Every parameter the node declares: the board's, the law's and the loop's.

    Returns
    -------
    list of ParamSpec
        The hardware interface's parameters
        (:func:`~.hardware_interface_node.node_parameter_specs`), the
        controller's law, safety and output parameters except those the
        board decides (``rate``, ``joints``, ...), then
        :func:`loop_parameter_specs`.

    """
    # The hardware interface's, its 'backend' (board or cia402) named 'hardware' here: the
    # law has a dynamics 'backend' of its own.
    board = [replace(s, name='hardware') if s.name == 'backend' else s
             for s in board_parameter_specs()]
    names = {s.name for s in board}
    law = [s for s in law_parameter_specs() if s.name not in names and s.name not in _NOT_HERE]
    # The law can change at run time here (between cycles, under the hold); friction
    # is compensated by the loop at the board rate, so the law's model leaves it out.
    # Like the hardware interface, the loop waits for its lifecycle transitions (the
    # launch files or an operator drive them): autostart is off unless asked for.
    law = [replace(s, read_only=False) if s.name == 'law' else
           replace(s, default=False) if s.name in ('model_friction', 'autostart')
           else s for s in law]
    return board + law + loop_parameter_specs()


class ControlLoopNode(HardwareInterfaceNode):
    """The board, the law and friction compensation in one loop (see the module docstring)."""

    #: The hardware's parameter here (the law's dynamics ``backend`` keeps its name).
    BACKEND_PARAMETER = 'hardware'

    NODE_NAME = 'control_loop'

    def __init__(self, **kwargs):
        self.controller = None
        self.cycle = None
        self._pending = None
        self._source = None
        self._status = None
        self._traj_sub = None
        self._out = None
        self._law_ran = False
        self._count = 0
        self._published = 0
        self._period = None
        self._law_model = None
        self.timing = None
        super().__init__(**kwargs)
        if self._values['autostart']:
            from rclpy.lifecycle import TransitionCallbackReturn
            if self.trigger_configure() == TransitionCallbackReturn.SUCCESS:
                self.trigger_activate()

    # ------------------------------------------------------------------ parameters
    def _parameter_specs(self):
        """Return every parameter of the node (ParamSpec list)."""
        return node_parameter_specs()

    def _settings(self):
        driver, runtime = super()._settings()
        return driver, replace(runtime, board_mode=self._values['board_mode'])

    def _on_parameter(self, changes):
        hardware = {k: v for k, v in changes.items() if k not in _LIVE and k != 'law'}
        pending = None
        if 'board_mode' in changes and self._hw is not None:
            now = self._hw.settings
            try:      # refused while active, before anything else is applied
                replace(now, board_mode=changes['board_mode']).check(
                    now if self._hw.state == 'active' else None)
            except RobodynError as exc:
                raise ValueError(str(exc)) from None
        if ('law' in changes or 'board_mode' in changes) and self.controller is not None:
            pending = self._build_law(changes.get('law', self._values['law']),
                                      board_mode=changes.get('board_mode'))  # checked first
        gains = {k: list(v) for k, v in changes.items() if k in _LIVE and v}
        if gains and self.controller is not None:
            try:      # every value of the set is checked before anything is applied
                for name, value in gains.items():
                    self.controller.check_gain(name, value)
            except RobodynError as exc:
                raise ValueError(str(exc)) from None
        super()._on_parameter(hardware)
        if 'board_mode' in hardware and self._hw is not None:
            self._hw.update_settings(board_mode=hardware['board_mode'])
        if gains and self.controller is not None:
            apply_gains(self.controller, gains)
        self._values.update(changes)
        if pending is not None:
            if self._hw is not None and self._hw.state == 'active':
                self._pending = pending       # switched at the next cycle, under the hold
            else:                             # no cycle runs: take it now
                law, self.controller, cycle = pending
                self._adopt(law, cycle)

    # ------------------------------------------------------------------ the law
    def _prepare_commands(self, model):
        """
        Build the law once and step it before the link opens (at configure).

        The first build imports the law, generates and loads its dynamics
        kernels and the first step loads its compiled code: tenths of a
        second holding the GIL, which the I/O thread would lose once the
        board (or the bus) streams. The real law is built after the
        hardware's identify, for its cycle, from what is loaded now.
        """
        v = self._values
        self._law_model = model if v['model_friction'] else without_friction(model)
        period = v['sync_period'] if v[self.BACKEND_PARAMETER] == 'cia402' else 0.001
        _, controller, _ = self._build_law(v['law'], period)
        q = np.asarray(model.home_configuration(), dtype=float)
        controller.reset()
        for k in range(2):
            controller.step(k * period, q, np.zeros(model.n), JointReference.hold(q))

    def _build_law(self, law, period=None, board_mode=None):
        v = dict(self._values)
        v['law'] = law
        mode = board_mode or v['board_mode']
        model = self._law_model
        try:   # the law's own options (unset ones take the law's defaults)
            opts = {k: v.get(k) for k in law_class(law).option_names() if v.get(k) is not None}
            opts = {k: (x if isinstance(x, (str, bool, int, float)) else list(x))
                    for k, x in opts.items()}
            controller = make_controller(law, model, period or self._period, opts)
        except RobodynError as exc:
            raise ValueError(f'law {law!r}: {exc}') from None
        try:   # impedance mode: the law's split form (refused for a law without one)
            cycle = ControlCycle(controller, model, v['state_timeout'], v['idle_reference'],
                                 None, StatePlausibility(model, v['plausibility_margin'],
                                                         v['plausibility_speed_factor']),
                                 split=mode == 'impedance')
        except RobodynError as exc:
            raise ValueError(f'board_mode {mode}: {exc}') from None
        return law, controller, cycle

    def _adopt(self, law, cycle):
        """Take a new cycle while no cycle runs (the trajectory carries over)."""
        if self.cycle is not None:
            cycle.trajectory, cycle.trajectory_start = (self.cycle.trajectory,
                                                        self.cycle.trajectory_start)
        self.cycle, self._source = cycle, f'law {law}'

    def _setup_commands(self):
        """Run the law in the I/O loop (at configure; the outputs are off)."""
        self._period = self._hw.driver.identity.cycle_period
        law, self.controller, self.cycle = self._build_law(self._values['law'])
        self._source = f'law {law}'
        self._status = LawStatus(self, self._names)
        # Raw: rclpy's conversion of a dense plan (2,000 points) holds the GIL for about
        # 50 ms, a gap in the board loop; read_trajectory reads the bytes in under 1 ms.
        self._traj_sub = self.create_subscription(JointTrajectory, 'planned_trajectory',
                                                  self._on_trajectory, TRAJECTORY_QOS, raw=True)
        self._hw.command_source = self._law_commands
        # The output thread (started at configure) publishes joint_states and the status.
        self._published = 0
        self._output.register('joint_states', self._publish_outputs)

    def _teardown_commands(self):
        if self._traj_sub is not None:
            self.destroy_subscription(self._traj_sub)
            self._traj_sub = None
        if self._status is not None:
            self._status.destroy()
            self._status = None

    def _law_commands(self, sample):
        """Run the law on this cycle's sample (the I/O thread's command source)."""
        self._law_ran = True
        return self._law_cycle(sample, time.monotonic())

    def _law_cycle(self, sample, now):
        if self._pending is not None:     # a new law: the old one releases, the hold covers
            law, self.controller, cycle = self._pending
            self._pending = None
            cycle.trajectory, cycle.trajectory_start = (self.cycle.trajectory,
                                                        self.cycle.trajectory_start)
            old, self.cycle, self._source = self._source, cycle, f'law {law}'
            return [(None, now, old)]
        cycle = self.cycle
        cycle.take_state(sample.position, sample.velocity, now)
        # The law's time is the board's: a report the loop missed still counts as a period.
        out = cycle.run(now, time.time(), sample.board_time_us * 1e-6)
        self._out = out
        if out.release:
            return [(None, now, self._source)]
        command = out.command
        if command is None:
            return []
        return [(command, now, self._source)]

    def _publish_sample(self, sample):
        """Time the cycle; hand the sample to the output thread (it never waits for DDS)."""
        if self._law_ran and self.timing is not None:
            # The host's cycle: the report's arrival to the current frame sent (the
            # I/O thread calls this listener after the frame went out).
            out = self._out
            self.timing.record(sample.host_time, time.monotonic(),
                               out.law_time if out is not None else math.nan)
        self._law_ran = False
        self._count += 1
        if self._count % self._values['joint_states_decimation'] == 0:
            super()._publish_sample(sample)     # the output thread publishes it

    def _publish_outputs(self):
        """Publish joint_states and the law's status from the newest values (output thread)."""
        sample, out, status = self._state_sample, self._out, self._status
        if sample is None or not self.context.ok():
            return
        self._write_joint_state()
        self._published += 1
        decimation = max(1, self._values['status_decimation']
                         // self._values['joint_states_decimation'])
        if (self._published % decimation == 0 and self.controller is not None
                and out is not None and status is not None):
            tau = out.torque if out.torque is not None else sample.effort * 0.0
            status.publish(self.controller, out.status, tau, self.get_clock().now().to_msg())

    def _on_trajectory(self, data):
        try:
            arr = read_trajectory(data, self._names)
            if arr is None:      # points with different arrays: rclpy reads it
                msg = deserialize_message(data, JointTrajectory)
                arr = trajectory_arrays(msg, self._names)
            sec, nanosec = read_header(data)[:2]
            if arr['positions'] is None or len(arr['times']) == 0:
                raise ValueError('no positions')
            traj = ReferenceSampler(arr['times'], arr['positions'], arr['velocities'],
                                    arr['accelerations'])
        except (ValueError, RobodynError) as exc:
            self.get_logger().warning(f'planned_trajectory rejected: {exc}')
            self._diag.update(WARN, f'planned_trajectory rejected: {exc}')
            return
        stamp = sec + 1e-9 * nanosec
        start = (stamp if stamp > 0.0 else time.time()) + arr['times'][0]
        self.cycle.set_trajectory(traj, start)

    def on_activate(self, state):
        """Arm the outputs; the loop's timing restarts (lifecycle callback)."""
        self.timing = LoopTiming(self._period)
        self.cycle.reset()
        return super().on_activate(state)

    def _extra_values(self):
        """Add the law, the loop's timing since activation and the estimates."""
        values = {'law': self._values['law']}
        timing = self.timing
        if timing is not None:
            values.update({k: (f'{x:.4g}' if isinstance(x, float) else x)
                           for k, x in timing.stats().items()})
        if self.controller is not None:
            for key, value in self.controller.estimates().items():
                arr = np.atleast_1d(value)
                if arr.size <= 12:
                    values[key] = ' '.join(f'{x:.6g}' for x in arr)
        return values

    def on_process_exit(self):
        """Write the timing log (``timing_log``), then switch the outputs off."""
        path = self._values.get('timing_log')
        if path and self.timing is not None:
            self.timing.write_log(path, rate_hz=1.0 / self._period, law=self._values['law'])
        super().on_process_exit()


def main(args=None):
    """Run the control_loop node."""
    return run_node(ControlLoopNode, args=args, threads=2)


if __name__ == '__main__':
    sys.exit(main())
