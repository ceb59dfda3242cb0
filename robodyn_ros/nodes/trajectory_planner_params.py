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
Parameters of the ``trajectory_planner`` node and the planning records made from them.

:func:`parameter_specs` declares the node's parameters (model source,
joints, profile, limits, time scaling, payload, output);
:func:`planning_limits`, :func:`planner_config` and :func:`planned_payload`
turn their values into the :class:`~robodyn_ros.planning.limits.PlanningLimits`,
:class:`~robodyn_ros.planning.planner_config.PlannerConfig` and
:class:`~robodyn_ros.planning.efforts.Payload` of a planner. The node builds
its planner from them at start and on every parameter change (where a
:class:`ValueError` or :class:`~robodyn_ros.errors.RobodynError` refuses
the change).
"""

import math

import numpy as np
from rclpy.parameter import Parameter

from .model_source import model_parameters
from .params import ParamSpec
from ..planning.efforts import Payload
from ..planning.limits import estimate_acceleration_limits, PlanningLimits
from ..planning.planner_config import PlannerConfig, PROFILES, TIME_PARAMETERIZATIONS

#: Constraint text of the limit arrays (checked by :func:`_positive_array`).
_POSITIVE = 'one value or one per joint, each > 0'


def _positive_array(name, length=None):
    def check(value):
        if value is None:
            return None
        if len(value) == 0:
            return f'{name} must not be empty (leave it unset to use the model)'
        if length is not None and len(value) != length:
            return f'{name} needs {length} values, got {len(value)}'
        bad = [v for v in value if not (math.isfinite(v) and v > 0.0)]
        if bad:
            return f'{name} values must be finite and > 0, got {bad[0]}'
        return None
    return check


def _com_check(value):
    if len(value) != 3:
        return f'payload_com needs 3 values [m], got {len(value)}'
    return None


def parameter_specs():
    """
    Parameters of the node.

    Returns
    -------
    list of ParamSpec
        Model source, joints, profile, limits, time scaling, payload, output.

    """
    darr = Parameter.Type.DOUBLE_ARRAY
    return model_parameters() + [
        ParamSpec('joints', None, 'Planned joints, in goal order (unset: every model joint)',
                  kind=Parameter.Type.STRING_ARRAY, read_only=True,
                  constraints='joints of the model'),
        ParamSpec('profile', 'spline', 'Profile: point-to-point kinds stop at each waypoint; '
                  'spline and ruckig pass through and may start moving',
                  choices=PROFILES),
        ParamSpec('max_velocity', None, 'Joint speed limits [rad/s or m/s], one value or one '
                  'per joint (unset: the model)', kind=darr,
                  check=_positive_array('max_velocity'), constraints=_POSITIVE),
        ParamSpec('max_acceleration', None, 'Joint acceleration limits [rad/s^2 or m/s^2] '
                  '(unset: the model, else effort / max inertia)', kind=darr,
                  check=_positive_array('max_acceleration'), constraints=_POSITIVE),
        ParamSpec('max_jerk', None, 'Joint jerk limits [rad/s^3 or m/s^3] (unset: 10 x the '
                  'acceleration limit per second)', kind=darr,
                  check=_positive_array('max_jerk'), constraints=_POSITIVE),
        ParamSpec('effort_limits', None, 'Joint effort limits [N m or N] (unset: the model)',
                  kind=darr, check=_positive_array('effort_limits'), constraints=_POSITIVE),
        ParamSpec('velocity_scale', 1.0, 'Factor on the velocity limits', low=0.01, high=1.0),
        ParamSpec('acceleration_scale', 1.0, 'Factor on the acceleration and jerk limits',
                  low=0.01, high=1.0),
        ParamSpec('time_scaling', True, 'Slow plans down so that the inverse-dynamics torques '
                  'stay within the effort limits (Hollerbach)'),
        ParamSpec('time_parameterization', 'optimal_smooth', 'Timing of spline plans and '
                  'Cartesian lines without given times: uniform (Hollerbach stretch), optimal '
                  '(time-optimal under velocity, acceleration and torque limits, friction and '
                  'payload included) or optimal_smooth (the same with continuous '
                  'acceleration and the jerk within its limits)',
                  choices=TIME_PARAMETERIZATIONS),
        ParamSpec('effort_reserve', 0.0, 'Share of each effort limit kept free for feedback',
                  low=0.0, high=0.9),
        ParamSpec('friction', True, 'Include joint friction in the efforts'),
        ParamSpec('payload_mass', 0.0, 'Payload mass [kg]', low=0.0, high=1000.0),
        ParamSpec('payload_com', [0.0, 0.0, 0.0], 'Payload centre of mass in payload_frame [m]',
                  check=_com_check, constraints='3 values'),
        ParamSpec('payload_frame', '', 'Frame carrying the payload (empty: the last link)',
                  constraints='a frame of the model'),
        ParamSpec('publish_efforts', True, 'Add feed-forward efforts to planned_trajectory'),
        ParamSpec('sample_period', 0.01, 'Spacing of the planned_trajectory points [s]',
                  low=0.001, high=1.0),
        ParamSpec('max_waypoints', 10_000, 'Most waypoints of a goal; larger goals are refused '
                  'before they are read', low=1, high=1_000_000),
        ParamSpec('max_duration', 600.0, 'Longest planned motion [s]; longer goals are refused '
                  '(a plan has at most max_duration / sample_period + 2 points)', low=0.1,
                  high=86_400.0),
        ParamSpec('use_dynamics_service', True, 'Compute efforts with the parallel_dynamics '
                  'service when it runs with the same model (else in-process)'),
        ParamSpec('dynamics_service_timeout', 1.0, 'Longest wait for the service [s]; then '
                  'the efforts are computed in-process', low=0.01, high=60.0),
    ]


def planning_limits(model, names, values):
    """
    Make the limits of the planned joints from the parameter values.

    Parameters
    ----------
    model : RobotModel
        The robot.
    names : sequence of str
        Planned joints, in goal order.
    values : dict
        Parameter values (``max_velocity``, ``max_acceleration``,
        ``max_jerk``, ``effort_limits``: unset, one value or one per joint;
        ``velocity_scale``, ``acceleration_scale``).

    Returns
    -------
    PlanningLimits
        The limits: the model's where a parameter is unset; an unset
        acceleration limit the model lacks is estimated from effort and
        inertia [rad/s^2 or m/s^2].

    Raises
    ------
    ValueError
        A limit with neither 1 nor one value per joint.

    """
    acc = values.get('max_acceleration')
    if acc is None:
        acc = np.asarray(model.acceleration_limits)[[model.joint_index(j) for j in names]]
        if not np.all(np.isfinite(acc)):
            estimate = estimate_acceleration_limits(model, names)
            acc = np.where(np.isfinite(acc), acc, estimate)
    return PlanningLimits.from_model(
        model, names, velocity=_one_or_all(values.get('max_velocity'), names),
        acceleration=_one_or_all(acc, names), jerk=_one_or_all(values.get('max_jerk'), names),
        effort=_one_or_all(values.get('effort_limits'), names),
        velocity_scale=values['velocity_scale'],
        acceleration_scale=values['acceleration_scale'])


def planner_config(values):
    """
    Make the settings of the planning pipeline from the parameter values.

    Parameters
    ----------
    values : dict
        Parameter values (``profile``, ``time_scaling``, ``effort_reserve``,
        ``sample_period`` [s], ``time_parameterization``, ``max_waypoints``,
        ``max_duration`` [s]).

    Returns
    -------
    PlannerConfig
        The settings, feed-forward efforts always computed.

    """
    return PlannerConfig(profile=values['profile'], time_scaling=values['time_scaling'],
                         effort_reserve=values['effort_reserve'],
                         sample_period=values['sample_period'], compute_efforts=True,
                         time_parameterization=values['time_parameterization'],
                         max_waypoints=values['max_waypoints'],
                         max_duration=values['max_duration'])


def planned_payload(model, values):
    """
    Make the payload the planned efforts carry from the parameter values.

    Parameters
    ----------
    model : RobotModel
        The robot (its frames).
    values : dict
        Parameter values (``payload_mass`` [kg], ``payload_com`` [m],
        ``payload_frame``: empty for the last link).

    Returns
    -------
    Payload
        The payload.

    Raises
    ------
    RobodynError
        ``payload_frame`` names no frame of the model.

    """
    frame = values['payload_frame'] or None
    payload = Payload(values['payload_mass'], tuple(values['payload_com']), None, frame)
    if frame is not None:
        model.frame(frame)
    return payload


def _one_or_all(value, names):
    if value is None:
        return None
    arr = np.asarray(value, dtype=float)
    if arr.size == 1:
        return float(arr.reshape(-1)[0])
    if arr.size != len(names):
        raise ValueError(f'expected 1 or {len(names)} values, got {arr.size}')
    return arr
