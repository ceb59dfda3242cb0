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
What every closed-loop scenario shares: the result record and the run helper.

A scenario builds the plant (the true robot), its controllers and a
reference, runs each controller with :func:`run` (which calls
:func:`~robodyn_ros.sim.runner.simulate`) and collects the runs, its report
lines and named numbers in a :class:`ScenarioResult`.
"""

from dataclasses import dataclass, field

from .plant import Plant
from .runner import simulate
from ..dynamics import mass_matrix


@dataclass
class ScenarioResult:
    """
    Outcome of a scenario.

    Attributes
    ----------
    name : str
        Scenario name.
    title : str
        One-line description.
    runs : list of SimResult
        The closed-loop runs.
    lines : list of str
        Scenario-specific report lines (checks, paper numbers).
    checks : dict
        Named numbers the tests and docs use.
    limits : dict
        Torque limit per run label (for the saturation statistics).

    """

    name: str
    title: str
    runs: list = field(default_factory=list)
    lines: list = field(default_factory=list)
    checks: dict = field(default_factory=dict)
    limits: dict = field(default_factory=dict)


def run(result, plant_model, q0, controller, reference, duration, label, plant_dt=None,
        **kwargs):
    """
    Simulate one controller on a fresh plant and add the run to a result.

    Parameters
    ----------
    result : ScenarioResult
        Where the run is recorded (with the controller's torque limit).
    plant_model : RobotModel
        The true robot.
    q0 : array_like
        Initial position [rad or m].
    controller : Controller
        The controller.
    reference : Trajectory or callable
        Desired motion.
    duration : float
        Length [s].
    label : str
        Name of the run.
    plant_dt : float, optional
        Plant sub-step [s]; default a quarter of the control period.
    **kwargs
        Passed to :func:`~robodyn_ros.sim.runner.simulate` (sensor, faults).

    Returns
    -------
    SimResult
        The run.

    """
    plant = Plant(plant_model, q0=q0, dt=plant_dt or controller.period / 4.0)
    res = simulate(plant, controller, reference, duration, label=label, **kwargs)
    result.runs.append(res)
    result.limits[label] = controller.torque_limit
    return res


def mass_at_mid(model):
    """
    Mass matrix halfway from the clamped zero to the middle of the ranges.

    That is, at ``model.home_configuration(0.5)``, the scenarios' start.

    Parameters
    ----------
    model : RobotModel
        The robot.

    Returns
    -------
    numpy.ndarray
        (n, n) [kg m^2].

    """
    return mass_matrix(model, model.home_configuration(0.5))
