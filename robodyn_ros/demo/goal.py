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
The demo's goal: a multi-waypoint tour inside the joint limits of any robot.

The tour is a planning concept (:mod:`robodyn_ros.planning.tour`), which the
simulated demo loop plans too; the demo's names for it stay here.
"""

from ..planning.tour import LIMIT_MARGIN, PATTERN, PRISMATIC_AMPLITUDE, REVOLUTE_AMPLITUDE
from ..planning.tour import tour_waypoints as demo_waypoints

__all__ = ['demo_waypoints', 'LIMIT_MARGIN', 'PATTERN', 'PRISMATIC_AMPLITUDE',
           'REVOLUTE_AMPLITUDE']
