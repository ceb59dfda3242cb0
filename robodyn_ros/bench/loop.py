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
``robodyn bench loop``: the control loop on the simulated board, timed end to end.

Starts the demo's graph (the simulated board on UDP 127.0.0.1, the planner,
and either the one-process ``control_loop`` node or the two-node
``hardware_interface`` + ``controller`` graph), sends a goal that lasts at
least the requested time and records for that long. It reports:

* the board's missed cycles: cycles run with the outputs on that began
  without a new set-point since the previous one (the simulated firmware
  counts them), as a fraction of the cycles the host could answer; cycles
  the simulated board ran back to back to catch up after it was not
  scheduled (a real board's timer does not fall behind) are counted apart;
* the host's period between state reports (one process) or the controller's
  loop period (two nodes), p50/p99/max;
* the host cycle time p50/p99: a report's arrival to its current frame sent
  (one process: the loop's own timing since activation; two nodes: the
  hardware interface's report-to-frame time, the controller's compute
  reported beside it);
* the CPU share of every process [% of one core];
* the tracking error per joint from ``joint_states`` against the plan.

``--stall-ms`` stops the process that runs the law (SIGSTOP, then SIGCONT)
for that long once per ``--stall-period``: a host that stalls, as a page
fault storm or a starved scheduler would make it.

``--board-mode impedance`` (one process only; a law with a split form):
the loop sends the law's impedance set-points and the simulated board
closes their PD at ``--inner-rate`` between frames, so a stalled host leaves
the board on the reference line, with the model terms of the last frame,
until its watchdog (the demo's: 0.1 s).
"""

from dataclasses import dataclass, field
import math
import os
import signal
import tempfile
import threading
import time

import numpy as np

from ..errors import InputError

MODES = ('one-process', 'graph')
BOARD_MODES = ('current', 'impedance')
#: The simulated board's impedance-mode inner rate of the benchmark [Hz].
INNER_RATE = 4000.0


@dataclass
class LoopBenchOptions:
    """
    What ``robodyn bench loop`` runs.

    Attributes
    ----------
    rate : float
        Board cycle rate [Hz].
    seconds : float
        Recorded time [s].
    mode : str
        ``'one-process'`` or ``'graph'``.
    law : str
        Control law.
    robot : str
        Robot name or description file.
    board_mode : str
        How the host commands the board: ``'current'`` or ``'impedance'``
        (one process; a law with a split form).
    inner_rate : float
        The simulated board's impedance-mode PD and plant sub-step rate
        [Hz] (impedance mode; a whole number of sub-steps per cycle).
    stall_ms : float
        Host stall length [ms] (0: none).
    stall_period : float
        Time between stalls [s].
    payload : float
        Payload on the simulated arm, unknown to the model [kg].
    joint_states_decimation : int
        Publish ``joint_states`` every N-th cycle (one process; the graph's
        controller needs every cycle).
    loop_parameters : dict
        Extra parameters of the node that drives the board (e.g.
        ``rt_priority``).

    """

    rate: float = 1000.0
    seconds: float = 60.0
    mode: str = 'one-process'
    law: str = 'mbvsst'
    robot: str = 'puma560'
    board_mode: str = 'current'
    inner_rate: float = INNER_RATE
    stall_ms: float = 0.0
    stall_period: float = 1.0
    payload: float = 2.0
    joint_states_decimation: int = 1
    loop_parameters: dict = field(default_factory=dict)

    def check(self):
        """
        Validate the options.

        Raises
        ------
        InputError
            Naming the option.

        """
        if self.mode not in MODES:
            raise InputError('--mode', f'one of {", ".join(MODES)}, got {self.mode!r}')
        if self.board_mode not in BOARD_MODES:
            raise InputError('--board-mode', f'one of {", ".join(BOARD_MODES)}, got '
                                             f'{self.board_mode!r}')
        if self.board_mode == 'impedance':
            self._check_impedance()
        if not 1 <= self.joint_states_decimation <= 1000 or (
                self.mode == 'graph' and self.joint_states_decimation != 1):
            raise InputError('--joint-states-decimation', 'a whole number in [1, 1000], 1 '
                             'with the graph (its controller reads every state), got '
                             f'{self.joint_states_decimation}')
        if not (math.isfinite(self.seconds) and 1.0 <= self.seconds <= 3600.0):
            raise InputError('--seconds', f'must be in [1, 3600] s, got {self.seconds}')
        if not (math.isfinite(self.stall_ms) and 0.0 <= self.stall_ms <= 500.0):
            raise InputError('--stall-ms', f'must be in [0, 500] ms, got {self.stall_ms}')
        if not (math.isfinite(self.stall_period)
                and self.stall_period >= max(0.1, 2e-3 * self.stall_ms)):
            raise InputError('--stall-period', 'must be at least 0.1 s and twice the stall')

    def _check_impedance(self):
        from ..control.factory import law_class
        if self.mode != 'one-process':
            raise InputError('--board-mode', 'impedance needs --mode one-process (the '
                                             'two-node graph sends currents)')
        if not law_class(self.law).has_split_form:
            raise InputError('--board-mode', f'impedance needs a law with a split form '
                                             f'(computed_torque, computed_torque_lme, mbvsst), '
                                             f'not {self.law!r}')
        if not (math.isfinite(self.inner_rate) and self.rate <= self.inner_rate <= 100000.0):
            raise InputError('--inner-rate', f'must be in [{self.rate:g}, 100000] Hz, got '
                                             f'{self.inner_rate}')


class Staller:
    """
    Stop a process for a while, periodically (SIGSTOP, then SIGCONT).

    Parameters
    ----------
    pid : int
        The process.
    stall : float
        Length of each stop [s].
    period : float
        Time from one stop to the next [s].

    """

    def __init__(self, pid, stall, period):
        self.pid, self.stall, self.period = pid, stall, period
        self.count = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name='staller', daemon=True)

    def start(self):
        """Start stalling (the first stop one period from now)."""
        self._thread.start()

    def stop(self):
        """Stop stalling; the process is left running."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5.0)

    def _run(self):
        next_at = time.monotonic() + self.period
        while not self._stop.wait(max(0.0, next_at - time.monotonic())):
            try:
                os.kill(self.pid, signal.SIGSTOP)
                try:
                    time.sleep(self.stall)
                finally:
                    os.kill(self.pid, signal.SIGCONT)
            except ProcessLookupError:
                return
            self.count += 1
            next_at += self.period


class BoardWatcher:
    """
    The board's cycle counters over the recorded window, and the stalls in it.

    Parameters
    ----------
    control_port : int
        The simulated board's control channel.
    staller : Staller or None
        Started when the motion starts, stopped when the window ends.

    """

    def __init__(self, control_port, staller=None):
        self.port = control_port
        self.staller = staller
        self.before = self.after = None

    def _counters(self):
        from ..sim.board.faults import control_request
        st = control_request(self.port, {'cmd': 'state'}, timeout=2.0)
        return (st.get('enabled_cycles', 0), st.get('missed_cycles', 0),
                st.get('catch_up_cycles', 0))

    def tracking(self, plan):
        """Read the counters and start the stalls (the motion starts)."""
        self.before = self._counters()
        if self.staller is not None:
            self.staller.start()

    def done(self):
        """Stop the stalls and read the counters (the window ended)."""
        if self.staller is not None:
            self.staller.stop()
        self.after = self._counters()

    def missed(self):
        """Return ``(missed, catch-up, all cycles with the outputs on)`` in the window."""
        if self.before is None or self.after is None:
            return 0, 0, 0
        d = [a - b for a, b in zip(self.after, self.before)]
        return d[1], d[2], d[0]


def goal(model, home, seconds):
    """
    Return waypoints whose plan lasts at least ``seconds`` (the demo's tour, repeated).

    Parameters
    ----------
    model : RobotModel
        The robot.
    home : numpy.ndarray
        Start configuration.
    seconds : float
        Least duration wanted [s].

    Returns
    -------
    numpy.ndarray
        (K, n) waypoints.

    """
    from ..planning.tour import tour_waypoints
    tour = tour_waypoints(model, home)
    # A tour leg takes at least about 0.75 s at the demo's speed: enough legs for the time.
    legs = int(math.ceil(seconds / 0.75)) + 1
    return np.tile(tour, (int(math.ceil(legs / len(tour))), 1))


def _number(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return math.nan


def _result(opts, run, cycles, stalls, load):
    """Collect the benchmark's figures from a demo run."""
    t = run.timing
    hw = run.hardware
    missed, catch_up, enabled = cycles
    answerable = enabled - catch_up
    to_deg = 180.0 / math.pi
    out = {
        'mode': opts.mode, 'law': opts.law, 'robot': opts.robot, 'rate_hz': opts.rate,
        'board_mode': opts.board_mode,
        'joint_states_hz': opts.rate / opts.joint_states_decimation,
        'inner_rate_hz': opts.inner_rate if opts.board_mode == 'impedance' else None,
        'seconds': run.end - run.start,
        'stall_ms': opts.stall_ms, 'stalls': stalls,
        'missed_cycles': int(missed), 'enabled_cycles': int(enabled),
        'catch_up_cycles': int(catch_up),
        'missed_fraction': missed / answerable if answerable > 0 else math.nan,
        'catch_up_fraction': catch_up / enabled if enabled else math.nan,
        'period_p50_ms': _number(t.get('period_p50_ms')),
        'period_p99_ms': _number(t.get('period_p99_ms')),
        'period_max_ms': _number(t.get('period_max_ms')),
        'law_p99_us': _number(t.get('law_p99_us')),
        'cpu': {k: round(v, 1) for k, v in sorted(run.cpu.items())},
        'rms_deg': [x * to_deg for x in run.errors.rms],
        'max_deg': [x * to_deg for x in run.errors.max_abs],
        'lost_frames': int(run.lost_frames),
        'drive_state': hw.get('drive_state', ''),
        'drive_state_cause': hw.get('drive_state_cause', ''),
        'load_average': load,
    }
    if opts.mode == 'one-process':
        out['host_cycle_p50_us'] = _number(t.get('compute_p50_us'))
        out['host_cycle_p99_us'] = _number(t.get('compute_p99_us'))
    else:
        out['host_cycle_p50_us'] = _number(hw.get('cycle_time_p50_us'))
        out['host_cycle_p99_us'] = _number(hw.get('cycle_time_p99_us'))
        out['controller_compute_p99_us'] = _number(t.get('compute_p99_us'))
    return out


def run(opts, progress=None):
    """
    Run the benchmark once.

    Parameters
    ----------
    opts : LoopBenchOptions
        What to run (checked here).
    progress : callable, optional
        Receives one line per phase.

    Returns
    -------
    dict
        The figures (see the module docstring); JSON-ready.

    Raises
    ------
    PartFailed, RobodynError
        When a part of the graph failed (every part is stopped first).

    """
    from ..demo.config import DemoConfig
    from ..demo.graph import law_node
    from ..demo.session import DemoSession
    from ..model import load_robot
    opts.check()
    hardware, board = dict(opts.loop_parameters), []
    if opts.joint_states_decimation != 1:
        hardware['joint_states_decimation'] = int(opts.joint_states_decimation)
    if opts.board_mode == 'impedance':
        hardware['board_mode'] = 'impedance'
        board = ['--inner-rate', f'{opts.inner_rate:g}']
    cfg = DemoConfig(robot=opts.robot, controllers=[opts.law], rate=opts.rate, mode=opts.mode,
                     payload=opts.payload, settle=0.0, board_control=True, record=False,
                     out=tempfile.mkdtemp(prefix='robodyn_bench_loop_'),
                     hardware_parameters=hardware, board_arguments=board)
    cfg.check()
    model = load_robot(opts.robot)
    session = DemoSession(cfg, model, progress or (lambda line: None))
    load0 = os.getloadavg()[0]
    try:
        session.start()
        from ..demo.graph import BOARD
        port = session.group.find(BOARD).json_line('ready')['control_port']
        staller = None
        if opts.stall_ms > 0.0:
            pid = session.group.find(law_node(cfg, opts.law)).pid
            staller = Staller(pid, opts.stall_ms * 1e-3, opts.stall_period)
        watcher = BoardWatcher(port, staller)
        result = session.run_law(opts.law, goal(model, session.home, opts.seconds),
                                 window=opts.seconds, watcher=watcher)
        session.runs.append(result)   # stop() reads a graph controller's timing log into it
    finally:
        codes = session.stop()
    if opts.mode == 'graph' and not result.timing:
        from ..demo.processes import PartFailed
        name = law_node(cfg, opts.law)
        raise PartFailed(name, f'no timing log at its exit (exit code {codes.get(name)})',
                         session.group.find(name).log)
    return _result(opts, result, watcher.missed(), staller.count if staller else 0,
                   [load0, os.getloadavg()[0]])


def format_result(res, title=None):
    """
    Return the figures as a text table.

    Parameters
    ----------
    res : dict
        From :func:`run`.
    title : str, optional
        First line (default: mode, law, robot and rate).

    Returns
    -------
    str
        The table.

    """
    inner = (f' (inner {res["inner_rate_hz"]:g} Hz)' if res.get('inner_rate_hz') else '')
    lines = [title or (f'{res["mode"]} loop: {res["law"]} on {res["robot"]} at '
                       f'{res["rate_hz"]:g} Hz, {res["board_mode"]} mode{inner}, '
                       f'joint_states at {res["joint_states_hz"]:g} Hz, '
                       f'{res["seconds"]:.1f} s'
                       + (f', {res["stalls"]} stalls of {res["stall_ms"]:g} ms'
                          if res['stalls'] else '')
                       + f' (load average {res["load_average"][0]:.2f} -> '
                         f'{res["load_average"][1]:.2f})')]
    if res['drive_state'] != 'running':
        lines.append(f'  NOTE: the drive ended {res["drive_state"]} '
                     f'({res["drive_state_cause"]}): the figures cover a failed run')
    lines.append(f'  missed cycles           {res["missed_cycles"]} of '
                 f'{res["enabled_cycles"] - res["catch_up_cycles"]} '
                 f'({100.0 * res["missed_fraction"]:.3f} %)')
    lines.append(f'  board catch-up cycles   {res["catch_up_cycles"]} '
                 f'({100.0 * res["catch_up_fraction"]:.3f} %: the simulated board fell '
                 'behind; not counted as missed)')
    lines.append(f'  period p50 / p99 / max  {res["period_p50_ms"]:.3f} / '
                 f'{res["period_p99_ms"]:.3f} / {res["period_max_ms"]:.3f} ms')
    lines.append(f'  host cycle p50 / p99    {res["host_cycle_p50_us"]:.0f} / '
                 f'{res["host_cycle_p99_us"]:.0f} us (law p99 {res["law_p99_us"]:.0f} us)')
    if 'controller_compute_p99_us' in res:
        lines.append(f'  controller compute p99  {res["controller_compute_p99_us"]:.0f} us')
    cpu = ', '.join(f'{k} {v:.0f}' for k, v in res['cpu'].items())
    lines.append(f'  CPU [% of a core]       {cpu}')
    lines.append('  tracking RMS [deg]      ' + ' '.join(f'{x:.3f}' for x in res['rms_deg']))
    lines.append('  tracking max [deg]      ' + ' '.join(f'{x:.3f}' for x in res['max_deg']))
    return '\n'.join(lines)
