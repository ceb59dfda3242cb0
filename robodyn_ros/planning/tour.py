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
A multi-waypoint tour inside the joint limits of any robot (the demo's goal).

Three excursions from home and back (or one, ``short``), each joint moving
by a fixed pattern of signs times its amplitude (:data:`REVOLUTE_AMPLITUDE`
[rad], :data:`PRISMATIC_AMPLITUDE` [m], at most 0.3 of its range), kept
inside the limits by :data:`LIMIT_MARGIN` of the range. ``robodyn demo``
sends it to the planner node; the deterministic demo loop
(:mod:`robodyn_ros.sim.demo_loop`) and the loop benchmark plan it here.
"""

import numpy as np

#: Largest excursion from home [rad] for revolute and [m] for prismatic joints.
REVOLUTE_AMPLITUDE = 0.6
PRISMATIC_AMPLITUDE = 0.1
#: Share of each joint range kept free at both ends.
LIMIT_MARGIN = 0.1
#: Excursion pattern of each waypoint (cycled over the joints), home last.
PATTERN = ((1.0, -0.8, 1.0, -1.0, 1.0, -1.0, 0.8),
           (-0.8, 0.6, -0.7, 1.0, -0.8, 1.0, -0.6),
           (0.4, -0.3, 0.5, -0.5, 0.6, 0.5, 0.4))


def tour_waypoints(model, home, short=False):
    """
    Return the tour's waypoints, ending back at home.

    Parameters
    ----------
    model : RobotModel
        The robot (joint kinds and limits).
    home : array_like
        Start and end configuration, (n,) [rad or m].
    short : bool
        One excursion instead of three.

    Returns
    -------
    numpy.ndarray
        (K, n) waypoints [rad or m], each strictly inside the limits by
        ``LIMIT_MARGIN`` of the range (infinite ranges: ``2 pi``), the last
        one ``home`` (clipped the same way).

    """
    lower, upper = model.lower_limits, model.upper_limits
    span = np.where(np.isfinite(upper - lower), upper - lower, 2.0 * np.pi)
    lo = np.where(np.isfinite(lower), lower + LIMIT_MARGIN * span, -np.inf)
    hi = np.where(np.isfinite(upper), upper - LIMIT_MARGIN * span, np.inf)
    home = np.clip(np.asarray(home, dtype=float), lo, hi)
    amp = np.where(model.is_prismatic, PRISMATIC_AMPLITUDE, REVOLUTE_AMPLITUDE)
    amp = np.minimum(amp, 0.3 * span)
    n = model.n
    rows = PATTERN[:1] if short else PATTERN
    points = []
    for row in rows:
        sign = np.array([row[i % len(row)] for i in range(n)])
        target = home + sign * amp
        # a joint near a limit moves the other way rather than not at all
        flip = (target > hi) | (target < lo)
        target = np.where(flip, home - sign * amp, target)
        points.append(np.clip(target, lo, hi))
    points.append(home)
    return np.array(points)
