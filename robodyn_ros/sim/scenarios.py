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
Named closed-loop experiments (``robodyn sim SCENARIO``).

Each scenario builds the plant (the true robot), one or more controllers
(with their own, possibly wrong, models) and a reference, runs them with
:func:`~robodyn_ros.sim.runner.simulate` and reports per-joint errors and
torques plus its own checks (e.g. the paper's numbers side by side). The
experiments of seeds 001, 002 and 003 are in
:mod:`robodyn_ros.reproductions.closed_loop`, those
about the laws in :mod:`.scenarios_laws`, those on the demo's loop in
:mod:`.scenarios_demo`; their results are recorded in
``docs/results.md``.
"""

from .scenario_base import ScenarioResult
from .scenarios_demo import demo_laws, mbvsst_study, payload_rest
from .scenarios_laws import boundary_layer, puma_ct_vs_pid, safe_outputs, self_tuning
from ..errors import InputError
from ..reproductions.closed_loop import (ct_perfect, KANADE_PAPER, kanade_period, MA3000_FRICTION,
                                         mirab, MIRAB_RATE)


def mirab_353(quick=False):
    """Seed 003 on the MA3000: 3-5-3 motion, the thesis's simulation conditions."""
    return mirab('353', quick=quick)


def mirab_square(quick=False):
    """Seed 003 on the MA3000: 4.9 s square wave, the thesis's simulation conditions."""
    return mirab('square', quick=quick)


def mirab_353_experiment(quick=False):
    """Seed 003 on the MA3000: 3-5-3 motion with unmodelled friction and 12-bit sensing."""
    return mirab('353', quick=quick, conditions='experiment')


def slotine_li(quick=False):
    """Slotine-Li adaptive control from a model with 30 % wrong inertial parameters."""
    return self_tuning(law='slotine_li', quick=quick)


SCENARIOS = {
    'ct_perfect': ct_perfect,
    'kanade_period': kanade_period,
    'mirab_353': mirab_353,
    'mirab_square': mirab_square,
    'mirab_353_experiment': mirab_353_experiment,
    'boundary_layer': boundary_layer,
    'puma_ct_vs_pid': puma_ct_vs_pid,
    'self_tuning': self_tuning,
    'slotine_li': slotine_li,
    'safe_outputs': safe_outputs,
    'demo_laws': demo_laws,
    'mbvsst_study': mbvsst_study,
    'payload_rest': payload_rest,
}


def run_scenario(name, quick=False):
    """
    Run a named scenario.

    Parameters
    ----------
    name : str
        One of :data:`SCENARIOS`.
    quick : bool
        Shorter runs (for smoke tests).

    Returns
    -------
    ScenarioResult
        The runs and the report lines.

    """
    if name not in SCENARIOS:
        raise InputError('scenario', f'unknown {name!r}; known: {", ".join(SCENARIOS)}')
    return SCENARIOS[name](quick=quick)


__all__ = ['KANADE_PAPER', 'MA3000_FRICTION', 'MIRAB_RATE', 'SCENARIOS', 'ScenarioResult',
           'boundary_layer', 'ct_perfect', 'demo_laws', 'kanade_period', 'mbvsst_study',
           'mirab', 'payload_rest', 'puma_ct_vs_pid', 'run_scenario', 'safe_outputs',
           'self_tuning']
