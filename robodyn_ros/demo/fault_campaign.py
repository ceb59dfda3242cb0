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
``robodyn faults``: every failure of the safety table, injected into the running graph.

The campaign starts the demo's graph (simulated board, or simulated CiA 402
drives, with its control channel, hardware interface, planner, one
controller), holds a gravity-loaded pose, and runs the cases of
:mod:`.fault_cases` (with the drives' own of :mod:`.fault_cases_drives` on
CiA 402) one after the other: each injects one failure, watches the arm's true state from the
board (:mod:`.truth`) and the hardware interface's transitions, and then
brings the graph back (reset, restart) for the next. A case passes when
the arm moved less than :data:`DRIFT_LIMIT_DEG` on every joint, no joint
moved faster than :data:`VELOCITY_LIMIT_RATIO` times the plan's peak
after a recovery, nothing unexpected died, and its own checks hold (no
foreign or damaged frame acted on, no silent re-enable). The table is
printed and written to ``faults.json``.
"""

from dataclasses import asdict, dataclass, field
import json
import math
import os
import time

import numpy as np

from .graph import controller_name, HARDWARE, plant_part
from .processes import PartFailed
from .session import DemoSession
from .truth import TruthSampler

#: Largest joint drift a case may show [deg].
DRIFT_LIMIT_DEG = 0.5
#: Largest joint speed after a recovery, over the plan's peak.
VELOCITY_LIMIT_RATIO = 1.2


def _target(text):
    """Return the state a transition text ``a -> b: cause`` goes to."""
    return text.split('->', 1)[1].split(':', 1)[0].strip() if '->' in text else ''


@dataclass
class CaseResult:
    """
    One case of the campaign.

    Attributes
    ----------
    name : str
        Case id.
    what : str
        What was injected.
    reaction : str
        What the graph did (the hardware interface's transitions, refusals).
    time_to_safe : float
        From the injection to the safe state (hold or brakes) [s]; NaN when
        the case needs none (the failure was refused).
    drift_deg : list of float
        Largest displacement of each joint from where it was [deg].
    velocity_ratio : float
        Largest joint speed after the recovery over the plan's peak (NaN
        when the case has no motion).
    failures : list of str
        Why it failed (empty: passed).
    drift_limited : bool
        Whether the drift limit applies (False: the drift is reported only,
        for a case where the arm was moving when the failure struck).

    """

    name: str
    what: str
    reaction: str = ''
    time_to_safe: float = math.nan
    drift_deg: list = field(default_factory=list)
    velocity_ratio: float = math.nan
    failures: list = field(default_factory=list)
    drift_limited: bool = True

    @property
    def passed(self):
        """Whether every limit and check held (bool)."""
        return not self.failures


class FaultCampaign:
    """
    The graph under test and the measurements the cases share.

    Parameters
    ----------
    cfg : DemoConfig
        Graph options (the board's control channel is opened).
    model : RobotModel
        The robot.
    progress : callable
        One line per phase.
    short : bool
        Shorter observation windows and hold time (the form CI runs).

    """

    def __init__(self, cfg, model, progress, short=False):
        cfg.board_control = True
        cfg.controllers = cfg.controllers[:1]
        cfg.mode = 'graph'   # the cases kill and restart the controller and the interface
        self.short = short
        self.hold_time = 1.0 if short else 2.0
        cfg.hardware_parameters = {'hold_time': self.hold_time, **cfg.hardware_parameters}
        self.session = DemoSession(cfg, model, progress)
        self.model = model
        self.law = cfg.controllers[0]
        self.controller = controller_name(self.law)
        self.progress = progress
        self.truth = None
        self.rogue = None
        self.results = []

    # ------------------------------------------------------------------ graph
    @property
    def log(self):
        """Give the probe's record of the graph (RunLog)."""
        return self.session.log

    @property
    def board_info(self):
        """Give the simulated hardware's ready line (dict): the board's or the drive set's."""
        return self.session.group.find(plant_part(self.session.cfg)).json_line('ready')

    def start(self):
        """Start the graph, the truth sampler and the rogue node; arm the outputs."""
        s = self.session
        s.start()
        self.truth = TruthSampler(self.board_info['control_port'])
        self.truth.start()
        from ..nodes.fault_peers import RoguePublisher
        self.rogue = RoguePublisher(self.model.joint_names)
        self.activate_controller()
        s.transition(HARDWARE, 'activate')
        self.wait_running()

    def stop(self):
        """Stop everything (best effort)."""
        if self.truth is not None:
            self.truth.stop()
        if self.rogue is not None:
            try:
                self.rogue.destroy_node()
            except Exception:  # noqa: B902 - shutting down
                pass
        self.session.stop()

    def activate_controller(self):
        """Activate the controller and wait for its commands."""
        t = time.time()
        self.session.transition(self.controller, 'activate')
        self.session.group.wait_until(lambda: len(self.log.commands(t)) > 5, 20.0,
                                      'joint_commands', self.controller)

    def drive_state(self):
        """Give the interface's fault-reaction state: the target of its last transition."""
        steps = self.transitions(-math.inf)
        return _target(steps[-1][1]) if steps else ''

    def transitions(self, since):
        """
        List the hardware interface's transitions since a time.

        Parameters
        ----------
        since : float
            Time [s, epoch].

        Returns
        -------
        list of tuple
            ``(time, text)`` of each ``drive <from> -> <to>: <cause>``.

        Notes
        -----
        The node's diagnostics status is republished periodically, and its
        last transition with it until the status changes: a transition text
        equal to the one before it is such a copy (a real transition starts
        where the one before it ended, so it never repeats it), counted once,
        at its first arrival.

        """
        steps, last = [], None
        for t, _, m in self.log.diagnostic_history('/' + HARDWARE):
            if m.startswith('drive '):
                if m != last and t >= since:
                    steps.append((t, m[len('drive '):]))
                last = m
        return steps

    def wait_running(self, timeout=20.0):
        """Wait until the outputs follow the controller again and the arm is still."""
        group = self.session.group

        def steady():
            last = self.truth.latest() if self.truth else None
            return (self.drive_state() == 'running' and last is not None and last['enabled']
                    and float(np.max(np.abs(last['qd']))) < 0.02)

        try:
            group.wait_until(steady, timeout, 'the outputs to run again, the arm still',
                             HARDWARE)
        except PartFailed as exc:
            last = self.truth.latest() if self.truth else None
            speed = float(np.max(np.abs(last['qd']))) if last else math.nan
            raise PartFailed(HARDWARE, f'{exc.reason}: drive state {self.drive_state()!r}, '
                             f'outputs {"on" if last and last["enabled"] else "off"}, '
                             f'largest joint speed {speed:.3g}', exc.log) from None

    def settle(self):
        """Start a case with the outputs running; give the state a case left off ('' if on)."""
        left = self.drive_state()
        if left not in ('stopped', 'fault'):
            left = ''
        else:
            self.reset_fault()
        self.wait_running()
        return left

    def reset_fault(self):
        """Call ``hardware_interface/reset_fault`` (the explicit re-arm)."""
        answer = self.session.probe.trigger(f'{HARDWARE}/reset_fault')
        return answer

    def restart(self, name, *extra):
        """Start a killed part again with its command line (log ``<name>.restart.log``)."""
        return self.session.group.start(name, self._argv[name] + list(extra),
                                        f'{name}.restart.log')

    def restart_controller(self):
        """Restart the killed controller; it configures and activates itself."""
        t = time.time()
        self.restart(self.controller, '-p', 'autostart:=true')
        self.session.group.wait_until(lambda: len(self.log.commands(t)) > 5, 90.0,
                                      'joint_commands from the restarted controller',
                                      self.controller)

    def transition_retry(self, node, transition, total=90.0):
        """
        Drive a lifecycle transition of a freshly restarted node.

        Its predecessor's services may still be known to DDS discovery for a
        while after SIGKILL, so a request can go to the dead one; the probe
        asks again while the new node is idle where the transition starts
        (never a second time once it was delivered).
        """
        self.session.transition(node, transition, timeout=total)

    def kill(self, name):
        """Kill a part with SIGKILL; remember its command line for :meth:`restart`."""
        part = self.session.group.kill(name)
        self._argv = getattr(self, '_argv', {})
        self._argv[name] = part.argv
        return part

    # ------------------------------------------------------------------ measures
    def here(self):
        """Return the arm's true position now, (n,) [rad or m], and the time [s, epoch]."""
        deadline = time.monotonic() + 5.0
        last = self.truth.latest()
        while last is None and time.monotonic() < deadline:
            time.sleep(0.02)
            last = self.truth.latest()
        return last['q'], time.time()

    def drift(self, q0, start, end=np.inf):
        """
        Largest displacement of each joint from ``q0`` in a window [deg].

        Parameters
        ----------
        q0 : numpy.ndarray
            Reference position (n,).
        start, end : float
            Window [s, epoch].

        Returns
        -------
        list of float
            Per joint [deg].

        """
        w = self.truth.window(start, end)
        if w['q'].size == 0:
            return [math.nan] * self.model.n
        return np.degrees(np.max(np.abs(w['q'] - q0), axis=0)).tolist()

    def first_safe(self, since, states=('holding', 'stopped', 'fault', 'armed', 'disabled')):
        """Seconds from ``since`` to the first transition into a safe state (NaN: none)."""
        for t, text in self.transitions(since):
            if _target(text) in states:
                return t - since
        return math.nan

    def reaction(self, since):
        """Describe the transitions since a time in one line."""
        steps = [text.split(':', 1)[0].strip() for _, text in self.transitions(since)]
        return ', '.join(steps) if steps else 'no transition'

    def judge(self, result):
        """Add the drift and velocity limits to a result's failures."""
        bad = [j for j, d in enumerate(result.drift_deg) if not d < DRIFT_LIMIT_DEG]
        if bad and result.drift_limited:
            worst = max(result.drift_deg[j] for j in bad)
            result.failures.append(f'drift {worst:.3f} deg >= {DRIFT_LIMIT_DEG} deg on '
                                   f'joint(s) {", ".join(str(j + 1) for j in bad)}')
        if not math.isnan(result.velocity_ratio) and result.velocity_ratio > VELOCITY_LIMIT_RATIO:
            result.failures.append(f'speed {result.velocity_ratio:.2f} x the plan peak after '
                                   f'the recovery (limit {VELOCITY_LIMIT_RATIO})')
        try:
            self.session.group.check()
        except Exception as exc:  # noqa: B902 - a part died: the case fails, the run goes on
            result.failures.append(f'a part died: {exc}')
        return result


def table(results):
    """
    Format the campaign's results as a table.

    Parameters
    ----------
    results : list of CaseResult
        The cases.

    Returns
    -------
    str
        One row per case: case, reaction, time to safe state, max drift,
        speed against the plan, pass/fail (with the reasons below).

    """
    name_w = max([4] + [len(r.name) for r in results])
    lines = [f'{"case":<{name_w}}  {"reaction":<52} {"safe [s]":>8} {"drift [deg]":>11} '
             f'{"v/plan":>6}  result']
    for r in results:
        drift = max(r.drift_deg) if r.drift_deg else math.nan
        reaction = r.reaction if len(r.reaction) <= 52 else r.reaction[:49] + '...'
        verdict = ('pass' if r.drift_limited else 'pass (drift reported)') if r.passed \
            else 'FAIL'
        lines.append(f'{r.name:<{name_w}}  {reaction:<52} {r.time_to_safe:>8.3f} '
                     f'{drift:>11.3f} {r.velocity_ratio:>6.2f}  {verdict}')
        lines += [f'{"":<{name_w}}    - {f}' for f in r.failures]
    passed = sum(r.passed for r in results)
    lines.append(f'{passed} of {len(results)} cases passed (limits: drift < {DRIFT_LIMIT_DEG} '
                 f'deg on every joint with the arm at rest, speed <= {VELOCITY_LIMIT_RATIO} x the '
                 'plan peak after a recovery; a failure in a motion: the drift is reported)')
    return '\n'.join(lines)


def write_results(results, folder):
    """
    Write ``faults.json`` (every case with its numbers) and ``faults.txt`` (the table).

    Parameters
    ----------
    results : list of CaseResult
        The cases.
    folder : str
        Output folder.

    Returns
    -------
    str
        The JSON file's path.

    """
    path = os.path.join(folder, 'faults.json')
    data = {'cases': [dict(asdict(r), passed=r.passed) for r in results],
            'drift_limit_deg': DRIFT_LIMIT_DEG, 'velocity_limit_ratio': VELOCITY_LIMIT_RATIO,
            'passed': all(r.passed for r in results)}
    with open(path, 'w', encoding='utf-8') as fh:
        json.dump(data, fh, indent=2, default=lambda x: None)
    with open(os.path.join(folder, 'faults.txt'), 'w', encoding='utf-8') as fh:
        fh.write(table(results) + '\n')
    return path


def run_campaign(cfg, short=False, names=None, progress=None):
    """
    Run the fault campaign and write its results.

    Parameters
    ----------
    cfg : DemoConfig
        Graph options (checked here; one controller is used).
    short : bool
        The short form (shorter windows, 1 s hold).
    names : sequence of str, optional
        Run only these cases (default all, in order).
    progress : callable, optional
        One line per phase.

    Returns
    -------
    int
        0 when every case passed, 1 otherwise (or when a part failed to start).

    """
    import signal
    import sys

    from .fault_cases_drives import cases_for
    from .session import Progress
    from ..errors import InputError as RobodynInputError, RobodynError
    from ..model import load_robot
    from ..ros_env import use_restartable_transport
    cfg.check()
    progress = progress or Progress()
    if use_restartable_transport():    # the campaign kills nodes and starts them again
        progress('DDS data over UDP only: Fast DDS shared memory can leave a node restarted '
                 'after SIGKILL without data (eProsima/Fast-DDS#5053)')
    model = load_robot(cfg.robot)
    campaign = FaultCampaign(cfg, model, progress, short)
    progress(f'output folder: {campaign.session.out}')
    cases = cases_for(cfg.hardware)
    unknown = sorted(set(names or ()) - {case.__name__ for case in cases})
    if unknown:
        raise RobodynInputError('--cases', f'not a case on {cfg.hardware}: {", ".join(unknown)}')
    chosen = [case for case in cases if not names or case.__name__ in names]
    results, failure, previous = [], None, {}

    def interrupt(signum, frame):
        raise PartFailed('faults', f'interrupted by signal {signum}')

    for sig in (signal.SIGINT, signal.SIGTERM):
        previous[sig] = signal.signal(sig, interrupt)
    try:
        campaign.start()
        for case in chosen:
            progress(f'case {case.__name__}: {case.__doc__.splitlines()[0]}')
            try:
                left = campaign.settle()
                if left and results:
                    results[-1].failures.append(f'left the outputs {left}; reset before the '
                                                'next case')
                result = case(campaign)
            except (PartFailed, RobodynError, TimeoutError, OSError) as exc:
                result = CaseResult(case.__name__, case.__doc__.splitlines()[0],
                                    failures=[f'{type(exc).__name__}: {exc}'])
                results.append(campaign.judge(result))
                failure = exc
                break
            results.append(campaign.judge(result))
            drift = max(result.drift_deg) if result.drift_deg else math.nan
            progress(f'  {"pass" if result.passed else "FAIL"}: {result.reaction}; drift '
                     f'{drift:.3f} deg; safe in {result.time_to_safe:.3f} s')
    except (PartFailed, RobodynError) as exc:
        failure = exc
    finally:
        progress('stopping every part')
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        campaign.stop()
    print(table(results))
    path = write_results(results, campaign.session.out)
    print(f'results: {path}')
    if failure is not None:
        print(f'robodyn faults: stopped early: {failure}', file=sys.stderr)
        return 1
    return 0 if all(r.passed for r in results) and len(results) == len(chosen) else 1
