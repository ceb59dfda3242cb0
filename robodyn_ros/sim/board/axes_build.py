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
Build the simulated robot from the board's options: its true model and its axes.

:func:`true_model` loads the robot with its payload; :func:`build_axes`
makes its power stage, transmission, sensors and plant. Shared by the
simulated board (:mod:`.simulator`) and the simulated CiA 402 drive set
(:mod:`robodyn_ros.sim.cia402.drive_set`).
"""

import numpy as np

from .axes import PlantSettings, SensorSettings, SimAxes, without_load_friction
from ...errors import InputError, RobodynError
from ...hardware.scaling import axis_parameters
from ...model import load_robot

#: Amplifier rating used when the model gives no current or effort limit [A].
FALLBACK_MAX_CURRENT = 100.0


def _per_axis(values, n, name):
    arr = np.asarray(values, dtype=float).reshape(-1)
    if arr.size == 1:
        return np.full(n, arr[0])
    if arr.size != n:
        raise InputError(name, f'expected one value or {n} values, got {arr.size}')
    return arr


def build_axes(config, model, rng):
    """
    Build the power stage, transmission, sensors and plant of a simulated robot.

    Shared by the simulated board and the simulated CiA 402 drive set.

    Parameters
    ----------
    config : SimBoardConfig
        The plant options (rate, encoders, efficiency, backlash, noise,
        brakes, friction, q0).
    model : RobotModel
        The true model (with its payload).
    rng : numpy.random.Generator
        Noise source.

    Returns
    -------
    tuple
        ``(axes, rating)``: the :class:`SimAxes` (its ``model`` without the
        load-dependent friction unless ``config.load_friction``) and the
        amplifier rating per axis [A].

    """
    n = model.n
    plant_model = model if config.load_friction else without_load_friction(model)
    eff = _per_axis(config.efficiency, n, 'efficiency')
    counts = _per_axis(config.encoder_counts, n, 'encoder_counts').astype(np.int64)
    q0 = (model.home_configuration() if not config.q0
          else model.check_configuration(config.q0, 'q0'))
    plant = PlantSettings(current_time_constant=config.current_time_constant,
                          efficiency=eff, backlash=_per_axis(config.backlash, n, 'backlash'),
                          backlash_speed=config.backlash_speed, brakes=config.brakes,
                          friction_smoothing=config.friction_smoothing)
    sensors = SensorSettings(encoder_counts=counts, encoder_noise=config.encoder_noise,
                             current_noise=config.current_noise)
    axes = SimAxes(plant_model, 1.0 / config.rate, plant, sensors, q0, rng, config.substeps)
    if config.max_current:
        rating = _per_axis(config.max_current, n, 'max_current')
    else:
        limit = axis_parameters(plant_model, eff).current_limit
        rating = np.where(np.isfinite(limit), limit, FALLBACK_MAX_CURRENT)
    return axes, rating


def true_model(config):
    """
    Load the simulated robot's true model, with its payload.

    Parameters
    ----------
    config : SimBoardConfig
        ``robot``, ``params`` and the payload options.

    Returns
    -------
    RobotModel
        The plant's model.

    Raises
    ------
    InputError
        For a payload frame the robot does not have.

    """
    model = load_robot(config.robot, params=config.params or None)
    if config.payload_mass > 0.0:
        frame = config.payload_frame or model.end_effector
        try:
            model.frame(frame)
        except RobodynError as exc:
            raise InputError('payload_frame', f'{frame!r} is not a frame of '
                             f'{model.name}: {exc}') from None
        model = model.with_payload(config.payload_mass, config.payload_com, frame=frame)
    return model
