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
experiments of seeds 001, 002 and 003 are in :mod:`.scenarios_seeds`, those
about the laws in :mod:`.scenarios_laws`; their results are recorded in
``docs/results.md``.
"""

from .scenario_base import ScenarioResult
from .scenarios_laws import boundary_layer, puma_ct_vs_pid, safe_outputs, self_tuning
from .scenarios_seeds import ct_perfect, KANADE_PAPER, kanade_period, MA3000_FRICTION, mirab, \
    MIRAB_RATE
from ..errors import InputError

SCENARIOS = {
    'ct_perfect': ct_perfect,
    'kanade_period': kanade_period,
    'mirab_353': lambda quick=False: mirab('353', quick=quick),
    'mirab_square': lambda quick=False: mirab('square', quick=quick),
    'mirab_353_experiment': lambda quick=False: mirab('353', quick=quick,
                                                      conditions='experiment'),
    'boundary_layer': boundary_layer,
    'puma_ct_vs_pid': puma_ct_vs_pid,
    'self_tuning': self_tuning,
    'slotine_li': lambda quick=False: self_tuning(law='slotine_li', quick=quick),
    'safe_outputs': safe_outputs,
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
           'boundary_layer', 'ct_perfect', 'kanade_period', 'mirab', 'puma_ct_vs_pid',
           'run_scenario', 'safe_outputs', 'self_tuning']
