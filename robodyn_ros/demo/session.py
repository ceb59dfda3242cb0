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
``robodyn demo``: the simulated robot end to end, as separate processes over DDS.

Phases: start the simulated board and the nodes; configure the hardware
interface and the controllers; for each control law, activate its
controller, then the hardware interface, send the goal, record until the
motion has ended and settled, brake (hardware interface inactive) and
deactivate the controller; stop everything; write the report, the plots
and the recording. Any part that fails ends the run with its name, a clean
shutdown of the others and a non-zero exit. What one law did is evaluated
from the run's log into a :class:`~.law_run.LawRun` (:mod:`.law_run`).
"""

import datetime
import json
import os
import signal
import sys
import time
import warnings

from .graph import (controller_name, DYNAMICS, HARDWARE, hardware_node, law_node, LOOP,
                    node_commands, PLANNER, plant_command, plant_part, plant_text)
from .law_run import evaluate_law, LawRun
from .processes import PartFailed, ProcessGroup
from .recording import McapRecorder
from .store import RunLog
from ..control.warm import warm_law_models
from ..errors import RobodynError
from ..ros_env import apply_ros_env_defaults

#: A goal the planner has not acknowledged (planning, planned or refused) after
#: this long is sent again [s] (DDS can drop a goal sent as the planner appears).
GOAL_HEARD = 3.0


class Progress:
    """Print one line per phase with the elapsed time."""

    def __init__(self, stream=None):
        self.t0 = time.monotonic()
        self.stream = stream or sys.stdout

    def __call__(self, text):
        """Print ``text`` with the elapsed time."""
        print(f'[{time.monotonic() - self.t0:6.1f} s] {text}', file=self.stream, flush=True)


def output_folder(cfg):
    """Return the output folder (created), default ``demo_output/<date-time>``."""
    path = cfg.out or os.path.join(
        'demo_output', datetime.datetime.now().strftime('%Y%m%d-%H%M%S'))
    os.makedirs(os.path.join(path, 'logs'), exist_ok=True)
    return os.path.abspath(path)


def demo_environment(cfg):
    """
    Return the children's environment: loopback DDS and the demo's domain.

    Parameters
    ----------
    cfg : DemoConfig
        The options (``domain_id``: -1 keeps ``ROS_DOMAIN_ID`` when set,
        otherwise picks one from the process id so that two demos on one
        machine do not meet).

    Returns
    -------
    dict
        The environment.

    """
    env = apply_ros_env_defaults(dict(os.environ))
    if cfg.domain_id >= 0:
        env['ROS_DOMAIN_ID'] = str(cfg.domain_id)
    elif not env.get('ROS_DOMAIN_ID'):
        env['ROS_DOMAIN_ID'] = str(10 + os.getpid() % 90)
    env['PYTHONUNBUFFERED'] = '1'
    env['ROBODYN_DEMO_RUN'] = f'{os.getpid()}-{time.time_ns()}'  # tags the demo's children
    return env


class DemoSession:
    """
    One run of the demo.

    Parameters
    ----------
    cfg : DemoConfig
        The options (checked).
    model : RobotModel
        The robot as the nodes load it (joint names, limits).
    progress : callable
        Receives one line per phase.

    """

    def __init__(self, cfg, model, progress):
        self.cfg = cfg
        self.model = model
        self.progress = progress
        self.out = output_folder(cfg)
        self.env = demo_environment(cfg)
        self.group = ProcessGroup(os.path.join(self.out, 'logs'), self.env)
        self.log = RunLog()
        self.recorder = None
        self.probe = None
        self.runs = []
        self.home = None

    # ------------------------------------------------------------------ start-up
    def start(self):
        """Start the board and the nodes and bring the hardware interface up."""
        cfg = self.cfg
        self.progress(f'starting the simulated {plant_text(cfg)}')
        name, drives = plant_part(cfg), cfg.hardware == 'cia402'
        board = self._start_part(name, plant_command(cfg))
        self._warm_laws()       # while the board starts (another process, the other core)
        self.group.wait_until(lambda: board.json_line('ready') is not None, 30.0,
                              f'the {"drives" if drives else "board"} to serve', name)
        port = board.json_line('ready')['can_port' if drives else 'port']
        parts = node_commands(cfg, port, os.path.join(self.out, 'logs'), model=self.model)
        where = f'drives on udp_multicast port {port}' if drives else f'board on UDP port {port}'
        self.progress(f'starting {", ".join(n for n, _ in parts)} ({where})')
        for name, argv in parts:
            self._start_part(name, argv)
        self._start_probe()
        probe, log = self.probe, self.log
        timeout = cfg.start_timeout
        for name in self.lifecycle_nodes():
            self.group.wait_until(lambda n=name: probe.lifecycle_available(n), timeout,
                                  'its lifecycle services', name)
        self.group.wait_until(lambda: log.dynamics_info is not None, timeout,
                              'its dynamics/info description', DYNAMICS)
        self.group.wait_until(lambda: probe.goal_subscribers() > 0, timeout,
                              'its planner/goal subscription', PLANNER)
        hardware = hardware_node(cfg)
        noun = 'drives' if cfg.hardware == 'cia402' else 'board'
        self.progress(f'configuring {hardware} (identify and configure the {noun})')
        self.transition(hardware, 'configure')
        self.group.wait_until(lambda: log.state_count() > 10, 10.0, 'joint_states',
                              hardware)
        if cfg.mode == 'graph':
            for law in cfg.controllers:
                self.progress(f'configuring {controller_name(law)}')
                self.transition(controller_name(law), 'configure')
        self.home = log.states()['q'][-1].copy()

    def _warm_laws(self):
        """Compile the laws' steps here, once, so that no node's configure waits for it."""
        began = time.monotonic()
        warm_law_models(self.model)
        took = time.monotonic() - began
        if took > 2.0:
            self.progress(f'compiled the control laws and their dynamics once ({took:.0f} s; '
                          'cached from now on)')

    def lifecycle_nodes(self):
        """Return the lifecycle nodes of the graph, the board's first (list of str)."""
        if self.cfg.mode == 'one-process':
            return [LOOP]
        return [HARDWARE] + [controller_name(law) for law in self.cfg.controllers]

    def _start_part(self, name, argv):
        part = self.group.start(name, argv)
        with open(os.path.join(self.out, 'run.json'), 'w', encoding='utf-8') as fh:
            json.dump({'tag': self.env['ROBODYN_DEMO_RUN'],
                       'domain_id': int(self.env['ROS_DOMAIN_ID']),
                       'pids': self.group.pids()}, fh)
        return part

    def _start_probe(self):
        from ..nodes.demo_probe import start_probe
        if self.cfg.soak <= 0.0 and self.cfg.record:  # a soak would fill the disk
            self.recorder = McapRecorder(os.path.join(self.out, 'recording.mcap'), metadata={
                'robodyn_demo': {'robot': self.cfg.robot, 'payload_kg': self.cfg.payload,
                                 'rate_hz': self.cfg.rate,
                                 'controllers': ' '.join(self.cfg.controllers)}})
        os.environ.update({k: self.env[k] for k in ('ROS_DOMAIN_ID',
                                                    'ROS_AUTOMATIC_DISCOVERY_RANGE')})
        laws = sorted({law_node(self.cfg, law) for law in self.cfg.controllers})
        self.probe = start_probe(self.model.joint_names, laws, self.log, self.recorder)

    def transition(self, node, transition, timeout=30.0):
        """
        Drive a lifecycle transition of a part and check its answer.

        Parameters
        ----------
        node : str
            Node name.
        transition : str
            ``'configure'``, ``'activate'``, ``'deactivate'`` or ``'cleanup'``.
        timeout : float
            Longest wait for the answer [s].

        Raises
        ------
        PartFailed
            When a part died, the node did not answer or refused.

        """
        self.group.check()
        answer = self.probe.change_state(node, transition, timeout)
        if answer is None:
            self.group.check()
            state = self.probe.get_state(node, 2.0)
            where = (f'it answers get_state: {state}' if state is not None else
                     'it does not answer get_state either; its log has the stacks of its threads')
            if state is None:
                self.group.dump_stacks(node)
            raise PartFailed(node, f'no answer to {transition} within {timeout:g} s ({where})',
                             os.path.join(self.out, 'logs', f'{node}.log'))
        if not answer:
            raise PartFailed(node, f'refused to {transition}',
                             os.path.join(self.out, 'logs', f'{node}.log'))

    def request_plan(self, waypoints, timeout=20.0):
        """
        Send a goal and wait for its plan; a goal the planner did not hear is sent again.

        A goal published right after the planner's subscription was matched
        can be dropped in DDS (the reader side not yet matched): when the
        planner has neither planned nor said ``planning a goal`` within
        :data:`GOAL_HEARD` seconds, or refused it for want of joint states,
        the goal goes again. Any other refusal fails at once.

        Parameters
        ----------
        waypoints : numpy.ndarray
            (K, n) goal [rad or m].
        timeout : float
            Longest wait for the plan [s].

        Returns
        -------
        Plan
            The first plan published after the goal was sent.

        Raises
        ------
        PartFailed
            When the planner refused the goal or no plan came in time.

        """
        log, probe = self.log, self.probe
        t_goal = sent = time.time()
        probe.send_goal(waypoints)

        def planned():
            nonlocal sent
            if log.plans_after(t_goal):
                return True
            heard = [m for t, _, m in log.diagnostic_history('/' + PLANNER) if t >= sent]
            refused = [m for m in heard if m.startswith('goal rejected')]
            if refused and not any('no joint_states received yet' in m for m in refused):
                raise PartFailed(PLANNER, refused[0])
            if refused or (time.time() - sent > GOAL_HEARD and not any(
                    m.startswith('planning a goal') for m in heard)):
                sent = time.time()
                probe.send_goal(waypoints)
            return False

        self.group.wait_until(planned, timeout, 'a planned trajectory', PLANNER)
        return log.plans_after(t_goal)[0]

    # ------------------------------------------------------------------ one law
    def run_law(self, law, waypoints, window=None, watcher=None):
        """
        Run the goal under one law and return what happened.

        Parameters
        ----------
        law : str
            Control law (its controller must be configured).
        waypoints : numpy.ndarray
            (K, n) goal [rad or m].
        window : float, optional
            Record only this long from the plan's start [s] (default: to
            the plan's end plus settling).
        watcher : object, optional
            Told ``watcher.tracking(plan)`` when the motion starts and
            ``watcher.done()`` when the recorded window has ended (a
            benchmark's probes).

        Returns
        -------
        LawRun
            Errors, rates and estimates of the run.

        """
        name = law_node(self.cfg, law)
        hardware = hardware_node(self.cfg)
        log, group = self.log, self.group
        if self.cfg.mode == 'one-process':
            self.progress(f'{law}: activating {name} with {law} (armed: the brakes open on '
                          'its first commands)')
            answer = self.probe.set_parameters_atomically(name, {'law': law})
            if not answer or not answer[0]:
                raise PartFailed(name, f'refused law {law}: {answer}')
            t_act = time.time()
            self.transition(name, 'activate')
            group.wait_until(lambda: any('-> running' in m for t, _, m in
                                         log.diagnostic_history('/' + name) if t >= t_act),
                             10.0, 'the outputs to follow the law', name)
        else:
            self.progress(f'{law}: activating {name}, then releasing the brakes')
            t_act = time.time()
            self.transition(name, 'activate')
            group.wait_until(lambda: len(log.commands(t_act)) > 5, 10.0, 'joint_commands',
                             name)
            self.transition(HARDWARE, 'activate')
        time.sleep(0.3)
        # Frames lost from here on count for this law: not those lost at a configure or a
        # switch, with the outputs off (the latest diagnostics came after the activation).
        lost0 = log.counter('/' + hardware, 'lost_frames')
        self.progress(f'{law}: sending a {len(waypoints)}-waypoint goal')
        plan = self.request_plan(waypoints, 60.0)  # a loaded machine
        end = plan.end + self.cfg.settle
        if window is not None:
            end = min(end, plan.stamp + window)
        self.progress(f'{law}: tracking a {plan.times[-1]:.2f} s plan'
                      + (f' for {end - plan.stamp:.1f} s' if window is not None else ''))
        if watcher is not None:
            watcher.tracking(plan)
        cpu0, wall0 = group.cpu_seconds(include_self='demo'), time.monotonic()
        group.wait_until(lambda: time.time() > end + 0.1, end - time.time() + 30.0,
                         'the motion to end', name)
        cpu1, wall = group.cpu_seconds(include_self='demo'), time.monotonic() - wall0
        if watcher is not None:
            watcher.done()
        cpu = {k: 100.0 * (cpu1[k] - cpu0[k]) / wall for k in cpu1 if k in cpu0}
        time.sleep(1.5)  # one more diagnostics period of the hardware interface
        run = evaluate_law(self.log, self.cfg, law, plan, end, lost0)
        if self.cfg.mode == 'one-process':
            self.progress(f'{law}: braking ({name} inactive)')
            self.transition(name, 'deactivate')
        else:
            self.progress(f'{law}: braking (hardware_interface inactive), deactivating {name}')
            self.transition(HARDWARE, 'deactivate')
            self.transition(name, 'deactivate')
        run.cpu = cpu
        return run

    # ------------------------------------------------------------------ shutdown
    def stop(self):
        """Stop the probe and every part; read the controllers' timing logs."""
        if self.probe is not None:
            from ..nodes.demo_probe import stop_probe
            try:
                stop_probe(self.probe)
            except Exception:  # shutting down anyway; the parts must still go
                pass
            self.probe = None
        codes = self.group.stop()
        if self.recorder is not None:
            self.recorder.close()
        for run in self.runs:
            if self.cfg.mode == 'one-process':
                continue      # the loop's timing per law came from its diagnostics
            path = os.path.join(self.out, 'logs', f'{controller_name(run.law)}_timing.json')
            try:
                with open(path, encoding='utf-8') as fh:
                    run.timing = json.load(fh)
            except (OSError, ValueError):
                run.timing = {}
        return codes


def run_demo(cfg, progress=None):
    """
    Run the demo and write its outputs.

    Parameters
    ----------
    cfg : DemoConfig
        The options (checked here).
    progress : callable, optional
        Receives one line per phase (default: print with the elapsed time).

    Returns
    -------
    int
        0 on success, 1 when a part failed.

    """
    from ..model import load_robot
    from .goal import demo_waypoints
    from .report import write_outputs
    cfg.check()
    if cfg.soak > 0.0:  # one law runs the soak; no idle controller next to it
        cfg.controllers = cfg.controllers[:1]
        cfg.mode = 'graph'  # the soak watches each process of the two-node graph
    progress = progress or Progress()
    with warnings.catch_warnings(record=True) as caught:  # shown after the first line
        warnings.simplefilter('always')
        model = load_robot(cfg.robot)  # an unknown robot stops here, before any folder
    session = DemoSession(cfg, model, progress)
    # First line: the DDS domain (to find the graph with ros2 or another process).
    progress(f'ROS_DOMAIN_ID={session.env["ROS_DOMAIN_ID"]}, output folder: {session.out}')
    for w in caught:
        warnings.showwarning(w.message, w.category, w.filename, w.lineno)
    failure = None
    previous = {}

    def interrupt(signum, frame):
        raise PartFailed('demo', f'interrupted by signal {signum}')

    for sig in (signal.SIGINT, signal.SIGTERM):
        previous[sig] = signal.signal(sig, interrupt)
    try:
        if cfg.soak > 0.0:
            from .soak import run_soak
            session.start()
            result = run_soak(session, cfg.soak)
        else:
            session.start()
            waypoints = demo_waypoints(session.model, session.home, short=cfg.short)
            for law in cfg.controllers:
                session.runs.append(session.run_law(law, waypoints))
    except (PartFailed, RobodynError) as exc:
        failure = exc
    finally:
        progress('stopping every part')
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        session.stop()
    if failure is not None:
        print(f'robodyn demo: FAILED: {failure}', file=sys.stderr)
        print(f'robodyn demo: every part was stopped; logs in {session.out}/logs',
              file=sys.stderr)
        return 1
    if cfg.soak > 0.0:
        from .soak import write_soak
        return write_soak(session, result, progress)
    write_outputs(session, progress)
    return 0


__all__ = ['demo_environment', 'DemoSession', 'LawRun', 'output_folder', 'Progress',
           'run_demo']
