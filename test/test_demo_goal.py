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

"""The demo's goal stays inside every robot's limits and returns home."""

import numpy as np
import pytest
from robodyn_ros.demo.goal import demo_waypoints, LIMIT_MARGIN
from robodyn_ros.model import load_robot


@pytest.mark.parametrize('robot', ['puma560', 'stanford', 'rx90', 'ma3000', 'ur5', 'panda'])
@pytest.mark.parametrize('short', [False, True])
def test_waypoints_inside_limits_and_back_home(robot, short):
    """Waypoints keep a margin from the limits, move every joint and end at home."""
    model = load_robot(robot)
    rng = np.random.default_rng(7)
    lo, hi = model.lower_limits, model.upper_limits
    home = np.where(np.isfinite(lo) & np.isfinite(hi), rng.uniform(lo, hi), 0.0)
    pts = demo_waypoints(model, home, short=short)
    assert pts.shape == ((2 if short else 4), model.n)
    span = np.where(np.isfinite(hi - lo), hi - lo, 2 * np.pi)
    inner_lo = np.where(np.isfinite(lo), lo + LIMIT_MARGIN * span - 1e-12, -np.inf)
    inner_hi = np.where(np.isfinite(hi), hi - LIMIT_MARGIN * span + 1e-12, np.inf)
    assert np.all(pts >= inner_lo) and np.all(pts <= inner_hi)
    assert np.allclose(pts[-1], np.clip(home, inner_lo, inner_hi))
    moved = np.abs(pts[0] - pts[-1])
    assert np.all(moved > 0.05 * np.minimum(span, 1.0))


def test_joint_at_a_limit_moves_the_other_way():
    """A home at the upper limit gives an excursion downwards, not none."""
    model = load_robot('puma560')
    home = model.upper_limits.copy()
    pts = demo_waypoints(model, home, short=True)
    assert np.all(pts[0] < pts[-1] + 1e-12)
    assert np.all(np.abs(pts[0] - pts[-1]) > 0.0)
