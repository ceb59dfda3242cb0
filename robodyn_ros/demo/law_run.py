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
What one control law did in the demo: the record and its evaluation from the run's log.

:func:`evaluate_law` reads the recorded window of one law's run from the
probe's log (:class:`~.store.RunLog`): the tracking errors from
``joint_states`` against the plan, the controller's own reported errors,
the payload estimate and whether it was held, the topic rates and the
hardware interface's diagnostics, into a :class:`LawRun`, which the report
and the plots read.
"""

from dataclasses import dataclass, field

import numpy as np

from .graph import hardware_node, law_node
from .metrics import error_stats, moving_median, rate_stats, settle_value, tracking_errors


@dataclass
class LawRun:
    """
    What one control law did on the goal.

    Attributes
    ----------
    law : str
        Control law.
    start, end : float
        Recorded window [s, epoch]: the plan's start to its end plus settling.
    plan_duration : float
        Duration of the planned motion [s].
    errors : ErrorStats
        From joint_states against the plan (computed here).
    reported : ErrorStats
        From the controller's own ``tracking_error`` topic.
    payload : float
        Median payload estimate while the arm moves, from half a second
        after the start to the end of the plan [kg] (NaN for laws without
        one).
    payload_rest : float
        Mean estimate over the last half second, at rest [kg]: the value the
        motion reached when the law holds it there (``payload_held``); an
        estimate that is not held follows Coulomb friction, which then
        carries part of the load, and reads low.
    states : RateStats
        joint_states arrivals in the window.
    commands : RateStats
        joint_commands arrivals in the window.
    hardware : dict
        The hardware interface's diagnostics at the end of the run.
    lost_frames : int
        Board frames lost during the run (hardware interface count).
    timing : dict
        The controller's loop statistics (its timing log).
    cpu : dict
        Share of one core each part used during the run [%] (Linux).
    trace : dict
        Arrays for the plots.
    payload_held : bool or None
        Whether the law held its estimate (no excitation) through the last
        half second (None: it does not report it).
    payload_excitation : float
        Its excitation at the end [N m/kg] (NaN: not reported).

    """

    law: str
    start: float
    end: float
    plan_duration: float
    errors: object
    reported: object
    payload: float
    payload_rest: float
    states: object
    commands: object
    hardware: dict
    lost_frames: int
    timing: dict = field(default_factory=dict)
    cpu: dict = field(default_factory=dict)
    trace: dict = field(default_factory=dict, repr=False)
    payload_held: object = None
    payload_excitation: float = float('nan')


def evaluate_law(log, cfg, law, plan, end, lost0):
    """
    Evaluate one law's run from what the demo's probe logged.

    Parameters
    ----------
    log : RunLog
        The run's log (joint states, estimates, diagnostics, counters).
    cfg : DemoConfig
        The options (the graph's mode: which node ran the law).
    law : str
        Control law.
    plan : object
        The plan the law tracked (``stamp``, ``end`` [s, epoch], ``times``
        [s], its samples).
    end : float
        End of the recorded window [s, epoch].
    lost0 : int
        The hardware interface's lost-frame count before the run.

    Returns
    -------
    LawRun
        Errors, rates, estimates and the plots' arrays (``cpu`` empty).

    """
    st = log.states(plan.stamp, end)
    err = tracking_errors(plan, st['stamp'], st['q'])
    node = law_node(cfg, law)
    t_rep, e_rep = log.reported_errors(node, plan.stamp, end)
    t_m, mass = log.payload_estimates(node, plan.stamp, end)
    t_h, held = log.estimate_series(node, 'payload_frozen', plan.stamp, end)
    _, excitation = log.estimate_series(node, 'payload_excitation', plan.stamp, end)
    hardware = hardware_node(cfg)
    diag = log.diagnostic('/' + hardware)
    values = dict(diag['values']) if diag else {}
    timing = {}
    if cfg.mode == 'one-process':   # the loop's timing since activation
        for key, value in values.items():
            try:
                timing[key] = float(value) if '.' in value or 'e' in value else int(value)
            except (TypeError, ValueError):
                continue
    return LawRun(
        law=law, start=plan.stamp, end=end, plan_duration=float(plan.times[-1]),
        errors=error_stats(err, st['stamp']), reported=error_stats(e_rep, t_rep),
        payload=moving_median(t_m, mass, plan.stamp + 0.5, plan.end),
        payload_rest=settle_value(t_m, mass, 0.5), states=rate_stats(st['received']),
        payload_held=(bool(np.all(held[t_h >= t_h[-1] - 0.5] >= 0.5)) if len(held)
                      else None),
        payload_excitation=float(excitation[-1]) if len(excitation) else float('nan'),
        commands=rate_stats(log.commands(plan.stamp, end)),
        hardware=values, timing=timing,
        lost_frames=log.counter('/' + hardware, 'lost_frames') - lost0,
        trace={'t': st['stamp'] - plan.stamp, 'q': st['q'],
               'q_ref': st['q'] + err if len(err) else err, 'error': err,
               'payload_t': t_m - plan.stamp, 'payload': mass})
