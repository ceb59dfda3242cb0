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
Settings of the planning pipeline: profiles, time parameterizations, sizes (no rclpy).

:class:`PlannerConfig` is the record a :class:`~.planner.Planner` is built
with; every field is checked when it is made (:class:`InputError` naming the
field). :data:`PROFILES` and :data:`TIME_PARAMETERIZATIONS` are the choices
the ``trajectory_planner`` node offers as parameters; :data:`OPTIMAL_PROFILES`
are the profiles whose paths the time-optimal parameterization takes.
"""

from dataclasses import dataclass
import math

from .profiles import KINDS
from ..errors import InputError

#: Every profile the planner offers.
PROFILES = KINDS + ('spline', 'ruckig', 'three_five_three', 'quintic_linear_quintic')

#: Time parameterizations the planner offers (see :mod:`.time_optimal`).
TIME_PARAMETERIZATIONS = ('uniform', 'optimal', 'optimal_smooth')

#: Profiles whose paths the time-optimal parameterization takes: their joint
#: velocities vanish only at the ends. The stop-and-go profiles stop at every
#: waypoint (q' = 0 inside the path), where the path speed is unbounded and the
#: motion between grid points is not resolved; they keep the uniform scaling.
OPTIMAL_PROFILES = ('spline',)


@dataclass(frozen=True)
class PlannerConfig:
    """
    Settings of the planning pipeline.

    Attributes
    ----------
    profile : str
        One of :data:`PROFILES`.
    time_scaling : bool
        Slow the plan down where the torques would exceed the effort limits.
    effort_reserve : float
        Share of each effort limit kept free for feedback (0 to 0.9).
    sample_period : float
        Spacing of the dense samples [s].
    compute_efforts : bool
        Add feed-forward efforts to the dense samples.
    scaling_samples : int
        Samples of the time-scaling check grid.
    time_parameterization : str
        How the path is timed when no segment times are given: ``'uniform'``
        (Hollerbach's uniform stretch), ``'optimal'`` (time-optimal under
        velocity, acceleration and torque limits, :mod:`.time_optimal`) or
        ``'optimal_smooth'`` (the same with continuous acceleration and
        the jerk within its limits, :mod:`.smoothing`). Only the ``'spline'`` profile and Cartesian
        lines use it (see :data:`OPTIMAL_PROFILES`); the others are timed
        uniformly.
    optimal_grid : int
        Grid points of the time-optimal parameterization.
    max_waypoints : int
        Most waypoints of one goal; more are refused (:class:`TooLargeError`
        naming ``max_waypoints``). Planning costs time and memory linear in
        the waypoints.
    max_duration : float
        Longest motion [s]; a goal with given times beyond it is refused
        before planning, a planned motion beyond it before it is sampled
        (:class:`TooLargeError` naming ``max_duration``). A plan therefore
        never has more than :attr:`max_samples` samples.

    """

    profile: str = 'spline'
    time_scaling: bool = True
    effort_reserve: float = 0.0
    sample_period: float = 0.01
    compute_efforts: bool = True
    scaling_samples: int = 120
    time_parameterization: str = 'optimal_smooth'
    optimal_grid: int = 400
    max_waypoints: int = 10_000
    max_duration: float = 600.0

    @property
    def max_samples(self):
        """Most samples of a plan: ``max_duration / sample_period`` + 2 (int)."""
        return int(math.floor(self.max_duration / self.sample_period)) + 2

    def __post_init__(self):
        if self.profile not in PROFILES:
            raise InputError('profile', f'unknown profile {self.profile!r}; one of '
                                        f'{", ".join(PROFILES)}')
        if not (0.0 <= self.effort_reserve <= 0.9):
            raise InputError('effort_reserve', f'must be in [0, 0.9], got '
                                               f'{self.effort_reserve}')
        if not (math.isfinite(self.sample_period) and 0.0 < self.sample_period <= 1.0):
            raise InputError('sample_period', f'must be in (0, 1] s, got {self.sample_period}')
        if int(self.scaling_samples) < 2:
            raise InputError('scaling_samples', f'must be >= 2, got {self.scaling_samples}')
        if self.time_parameterization not in TIME_PARAMETERIZATIONS:
            raise InputError('time_parameterization',
                             f'unknown {self.time_parameterization!r}; one of '
                             f'{", ".join(TIME_PARAMETERIZATIONS)}')
        if int(self.optimal_grid) < 2:
            raise InputError('optimal_grid', f'must be >= 2, got {self.optimal_grid}')
        if int(self.max_waypoints) < 1:
            raise InputError('max_waypoints', f'must be >= 1, got {self.max_waypoints}')
        if not (math.isfinite(self.max_duration) and self.max_duration > 0.0):
            raise InputError('max_duration', f'must be finite and > 0 s, got '
                                             f'{self.max_duration}')
