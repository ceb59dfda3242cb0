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
Trajectory planning (no rclpy): the Trajectory value and the planners built on it.

* :mod:`.profiles`, :mod:`.point_to_point`: seed 001's point-to-point laws
  (linear, cubic, quintic, bang-bang, trapezoid, C2 trapezoid) with minimum
  times and homothetic synchronisation;
* :mod:`.multi_segment`: seed 003's 3-5-3 and seed 000's
  quintic-linear-quintic paths, stop-and-go chains;
* :mod:`.periodic`: the closed-loop experiments' square wave, cosine
  excursion, out-and-back moves and repeated cycles;
* :mod:`.via_points`: the minimum-jerk spline through via points;
* :mod:`.jerk_limited`: time-optimal jerk-limited motion with ruckig;
* :mod:`.cartesian`, :mod:`.ik`: straight lines in task space;
* :mod:`.time_scaling`, :mod:`.efforts` (with :mod:`robodyn_ros.friction.probes`):
  torque-limited time scaling (Hollerbach) and feed-forward efforts;
* :mod:`.time_optimal`, :mod:`.reachability`, :mod:`.path_dynamics`,
  :mod:`.path_checks`, :mod:`.path_trajectory`, :mod:`.smoothing`:
  time-optimal motion along a path under torque limits (reachability
  analysis, friction and payload included) and its jerk-limited variant;
* :mod:`.planner`, :mod:`.planner_config`: the pipeline the
  ``trajectory_planner`` node runs and its settings.
"""

from .cartesian import cartesian_line, CartesianLimits, CartesianLineTrajectory
from .efforts import ModelEffortProvider, Payload
from .errors import (InfeasibleError, LimitError, PlanningError, RuckigError,
                     SingularityError, StaticTorqueError, UnreachablePoseError)
from .ik import IkSolution, solve_ik
from .jerk_limited import jerk_limited, smooth_stop
from .limits import estimate_acceleration_limits, PlanningLimits
from .multi_segment import concatenate, quintic_linear_quintic, stop_and_go, three_five_three
from .path_trajectory import PathParameterizedTrajectory, SmoothedPathTrajectory
from .planner import Plan, Planner
from .planner_config import PlannerConfig, PROFILES
from .point_to_point import point_to_point, PointToPointTrajectory
from .profiles import KINDS, minimum_time, normalized_profile, Synchronisation, synchronise
from .smoothing import smooth_time_optimal, SmoothResult
from .time_optimal import time_optimal, TimeOptimalResult, TimeOptimalSettings
from .time_scaling import TimeScaledTrajectory, TimeScalingResult, torque_limited_scaling
from .trajectory import PiecewisePolynomialTrajectory, SampledTrajectory, Trajectory
from .via_points import via_points, ViaPointTrajectory

__all__ = [
    'CartesianLimits', 'CartesianLineTrajectory', 'IkSolution', 'PathParameterizedTrajectory',
    'SmoothedPathTrajectory', 'SmoothResult', 'StaticTorqueError', 'TimeOptimalResult',
    'TimeOptimalSettings',
    'smooth_time_optimal', 'time_optimal', 'InfeasibleError', 'KINDS', 'LimitError',
    'ModelEffortProvider', 'Payload', 'PiecewisePolynomialTrajectory', 'Plan', 'Planner',
    'PlannerConfig', 'PlanningError', 'PlanningLimits', 'PointToPointTrajectory', 'PROFILES',
    'RuckigError', 'SampledTrajectory', 'SingularityError', 'Synchronisation',
    'TimeScaledTrajectory', 'TimeScalingResult', 'Trajectory', 'UnreachablePoseError',
    'ViaPointTrajectory', 'cartesian_line', 'concatenate', 'estimate_acceleration_limits',
    'jerk_limited', 'minimum_time', 'normalized_profile', 'point_to_point',
    'quintic_linear_quintic', 'smooth_stop', 'solve_ik', 'stop_and_go', 'synchronise',
    'three_five_three', 'torque_limited_scaling', 'via_points',
]
