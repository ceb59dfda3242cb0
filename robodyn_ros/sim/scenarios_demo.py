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
Scenarios on the demo's loop (:mod:`.demo_loop`): the seed 003 laws on the PUMA 560 at 1 kHz.

``demo_laws`` runs CT, CT+LME and MBVSST as the demo configures them;
``mbvsst_study`` varies one factor at a time (outer-loop gains, relay,
estimator joints, filter, forgetting, missed reports); ``payload_rest``
holds the arm at rest after the motion with the estimate's freeze on and
off. The results are recorded in ``docs/results.md`` §8.
"""

from dataclasses import replace

import numpy as np

from .demo_loop import DemoLoop, DemoWorld
from .scenario_base import ScenarioResult
from ..control.computed_torque_lme import ComputedTorqueLME
from ..control.filters import SEED003_REALTIME
from ..control.mbvsst import MBVSST
from ..control.payload import PayloadEstimatorSettings, SEED003_ESTIMATOR

#: Laws of the demo's comparison, in report order.
DEMO_LAWS = (('CT', 'computed_torque'), ('CT+LME', 'computed_torque_lme'),
             ('MBVSST', 'mbvsst'))


def _world(quick):
    return DemoWorld(DemoLoop(short=quick))


def _row(fig):
    mass = '' if not np.isfinite(fig.payload_moving) else f'{fig.payload_moving:7.3f}'
    return (f'  {fig.label:50s} ' + ' '.join(f'{x:6.3f}' for x in fig.rms)
            + f'  {fig.rms.mean():6.3f}   ' + ' '.join(f'{x:5.2f}' for x in fig.max_abs)
            + f'   {mass:>7s}')


def _header(n):
    return ('  run' + ' ' * 48 + ' '.join(f'  rms{j + 1}' for j in range(n)) + '    mean   '
            + ' '.join(f' max{j + 1}' for j in range(n)) + '   payload')


def _record(result, world, res, host):
    fig = world.figures(res, host)
    result.runs.append(res)
    result.limits[res.label] = host.torque_limit
    result.checks.setdefault('runs', {})[res.label] = {
        'rms_deg': fig.rms.tolist(), 'max_deg': fig.max_abs.tolist(),
        'payload_moving': fig.payload_moving, 'payload_end': fig.payload_end,
        'payload_rest': fig.payload_rest, 'frozen_rest': fig.frozen_rest,
        'frozen_moving': fig.frozen_moving, 'missed': fig.missed}
    result.lines.append(_row(fig))
    return fig


def _intro(result, world):
    s = world.setup
    goal = 'one excursion' if s.short else 'the demo tour'
    result.lines.append(
        f'{world.model.name}, {s.rate:g} Hz, {s.payload:g} kg at the end effector unknown to '
        f'the model; plan of {world.duration:.2f} s ({goal}) + {s.settle:g} s settling; '
        f'estimator joints {world.estimator_joints}')
    result.lines.append('tracking error over the plan and the settling time [deg]; payload: '
                        'median estimate while moving [kg]')
    result.lines.append(_header(world.model.n))


def demo_laws(quick=False):
    """
    CT, CT+LME and MBVSST on the demo's loop, each with its own defaults, as the demo runs them.

    Parameters
    ----------
    quick : bool
        One excursion instead of the tour.

    Returns
    -------
    ScenarioResult
        ``checks['runs'][label]``: per-joint RMS and max error [deg] and the
        payload figures [kg].

    """
    world = _world(quick)
    result = ScenarioResult('demo_laws', 'The demo deterministic: CT, CT+LME and MBVSST '
                                         '(their defaults) on the simulated board, PUMA 560')
    _intro(result, world)
    for label, law in DEMO_LAWS:
        res, host = world.run(world.controller(law), label)
        _record(result, world, res, host)
    return result


def _estimator(world, **changes):
    return PayloadEstimatorSettings(joints=tuple(world.estimator_joints), **changes)


def _study_rows(world):
    """Return ``(factor, label, build, missed)`` of the study; ``build()`` makes the law."""
    n, h, m = world.model.n, 1.0 / world.setup.rate, world.law_model
    law = world.controller
    seed_filter = _estimator(world, filter_coefficients=SEED003_REALTIME)
    demo_seed = replace(SEED003_ESTIMATOR, joints=tuple(world.estimator_joints))
    rows = [
        ('defaults', 'CT (omega 20)', lambda: law('computed_torque'), 0.0),
        ('defaults', 'CT+LME (1600/80)', lambda: law('computed_torque_lme'), 0.0),
        ('defaults', 'MBVSST (1600/80, relay 5 %)', lambda: law('mbvsst'), 0.0),
        ('gains', 'CT 1600/80', lambda: law('computed_torque', {'kp': [1600.0] * n,
                                                                'kd': [80.0] * n}), 0.0),
        ('gains', 'CT+LME omega 20 (its old default)',
         lambda: law('computed_torque_lme', {'omega': 20.0}), 0.0),
        ('gains', 'MBVSST omega 20', lambda: law('mbvsst', {'omega': 20.0}), 0.0),
    ]
    for f in (0.0, 0.01, 0.02, 0.1):
        rows.append(('relay', f'MBVSST relay {100 * f:g} %',
                     lambda f=f: law('mbvsst', {'relay_fraction': f}), 0.0))
    for b in (0.5, 2.0):
        rows.append(('relay', f'MBVSST boundary layer {b:g}',
                     lambda b=b: law('mbvsst', {'vsst_boundary': b}), 0.0))
    rows += [
        ('joints', 'MBVSST estimator on the waist (seed)',
         lambda: law('mbvsst', {'estimator_joints': [0]}), 0.0),
        ('joints', 'MBVSST estimator on every joint',
         lambda: law('mbvsst', {'estimator_joints': list(range(n))}), 0.0),
        ('filter', 'MBVSST filter (0.1 s + 1)^2 (seed)',
         lambda: MBVSST(m, h, estimator=seed_filter), 0.0),
        ('filter', 'MBVSST filter (0.05 s + 1)^2',
         lambda: MBVSST(m, h, estimator=_estimator(
             world, filter_coefficients=(0.0025, 0.1, 1.0))), 0.0),
        ('forgetting', 'MBVSST forgetting 0.98 per sample (seed)',
         lambda: law('mbvsst', {'forgetting': 0.98}), 0.0),
        ('seed estimator', 'MBVSST, seed estimator on the demo joints',
         lambda: MBVSST(m, h, estimator=demo_seed), 0.0),
        ('seed estimator', 'CT+LME, seed estimator on the demo joints',
         lambda: ComputedTorqueLME(m, h, estimator=demo_seed), 0.0),
    ]
    for label, build in (('CT (omega 20)', lambda: law('computed_torque')),
                         ('CT+LME (1600/80)', lambda: law('computed_torque_lme')),
                         ('MBVSST (1600/80, relay 5 %)', lambda: law('mbvsst')),
                         ('MBVSST relay 1 %', lambda: law('mbvsst', {'relay_fraction': 0.01})),
                         ('MBVSST, seed estimator on the demo joints',
                          lambda: MBVSST(m, h, estimator=demo_seed))):
        rows.append(('missed reports', f'{label}, 30 % missed', build, 0.3))
    return rows


def mbvsst_study(quick=False):
    """
    Why MBVSST tracks as it does on the demo's loop: one factor at a time.

    Factors: the outer-loop gains (MBVSST's seed gains 1600/80 against CT's
    omega 20), the relay amplitude and boundary layer, the estimating
    joints, the estimator's filter and forgetting, and a host that misses
    30 % of the board's reports.

    Parameters
    ----------
    quick : bool
        One excursion instead of the tour.

    Returns
    -------
    ScenarioResult
        ``checks['runs'][label]`` per run (errors [deg], payload [kg]).

    """
    world = _world(quick)
    result = ScenarioResult('mbvsst_study', 'MBVSST on the demo loop, one factor at a time '
                                            '(PUMA 560, 1 kHz, 2 kg unknown payload)')
    _intro(result, world)
    factor = None
    for group, label, build, missed in _study_rows(world):
        if group != factor:
            factor = group
            result.lines.append(f' {group}:')
        res, host = world.run(build(), label, missed=missed)
        _record(result, world, res, host)
    return result


def payload_rest(quick=False, rest=3.0):
    """
    Compare the payload estimate at rest after the motion, held (the default) and not held.

    Parameters
    ----------
    quick : bool
        One excursion instead of the tour.
    rest : float
        Time at rest after the settling time [s].

    Returns
    -------
    ScenarioResult
        ``checks['rest'][label]``: estimate at the plan's end, at the end of
        the rest, its extremes at rest [kg], and whether it was held.

    """
    world = _world(quick)
    result = ScenarioResult('payload_rest', 'The payload estimate at rest after the motion: '
                                            'held while not exciting, and not held')
    result.lines.append(f'{world.setup.payload:g} kg true; plan {world.duration:.2f} s, then '
                        f'{world.setup.settle + rest:g} s at rest')
    result.lines.append('  run                                 moving    end of plan   at rest '
                        '(end)   range at rest        held')
    rest_checks = {}
    for name, law in (('CT+LME', 'computed_torque_lme'), ('MBVSST', 'mbvsst')):
        for freeze in (None, 0.0):
            opts = {} if freeze is None else {'freeze_threshold': freeze}
            label = f'{name}, ' + ('held at rest (default)' if freeze is None else 'never held')
            res, host = world.run(world.controller(law, opts), label, rest=rest)
            result.runs.append(res)
            result.limits[label] = host.torque_limit
            fig = world.figures(res, host)
            mass = res.estimates['payload_mass'][res.times > world.duration + 0.1]
            rest_checks[label] = {'moving': fig.payload_moving, 'end': fig.payload_end,
                                  'rest': fig.payload_rest, 'rest_min': float(mass.min()),
                                  'rest_max': float(mass.max()), 'held': fig.frozen_rest}
            result.lines.append(f'  {label:34s} {fig.payload_moving:7.3f}   {fig.payload_end:9.3f}'
                                f'   {fig.payload_rest:10.3f}   {mass.min():7.3f} - '
                                f'{mass.max():6.3f}   {"yes" if fig.frozen_rest else "no"}')
    result.checks['rest'] = rest_checks
    return result
