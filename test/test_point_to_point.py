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

"""Point-to-point joint motions: synchronised start and stop, exact ends, bad input."""

import math

import numpy as np
import pytest
from robodyn_ros.errors import InputError, RobodynError
from robodyn_ros.model import load_robot
from robodyn_ros.planning.errors import LimitError
from robodyn_ros.planning.limits import PlanningLimits
from robodyn_ros.planning.point_to_point import point_to_point
from robodyn_ros.planning.profiles import KINDS


@pytest.fixture(scope='module')
def puma():
    """PUMA 560 and its limits."""
    model = load_robot('puma560')
    return model, PlanningLimits.from_model(model)


@pytest.mark.parametrize('kind', KINDS)
def test_all_joints_share_one_law(kind, puma):
    """q_j(t) = q_j^i + r(t) D_j for every joint; ends exact; limits held and reached."""
    model, lim = puma
    start = np.array([0.1, -0.5, 0.4, 0.2, -0.3, 0.6])
    goal = np.array([-0.8, -1.2, 1.6, 0.2, 0.9, -1.0])
    traj = point_to_point(start, goal, kind, lim)
    assert traj.joint_names == tuple(model.joint_names) and traj.kind == kind
    t = np.linspace(0.0, traj.duration, 4001)
    q, qd, qdd = traj.sample(t)
    d = goal - start
    moving = d != 0.0
    r = (q[:, moving] - start[moving]) / d[moving]
    assert np.allclose(r, r[:, :1], atol=1e-12)
    assert np.array_equal(traj.sample(traj.duration)[0], goal)
    assert np.array_equal(traj.sample(0.0)[0], start)
    assert np.allclose(q[:, ~moving], start[~moving])
    assert not traj.check_limits(lim.lower, lim.upper, lim.velocity,
                                 None if kind == 'linear' else lim.acceleration)
    peak = max(traj.synchronisation.velocity_ratio.max(),
               traj.synchronisation.acceleration_ratio.max())
    assert peak == pytest.approx(1.0)


def test_given_duration_is_used(puma):
    """A longer duration is honoured; the shape of a trapezoid is stretched, not changed."""
    _, lim = puma
    fast = point_to_point(np.zeros(6), np.full(6, 0.5), 'trapezoid', lim)
    slow = point_to_point(np.zeros(6), np.full(6, 0.5), 'trapezoid', lim,
                          duration=2 * fast.duration)
    assert slow.duration == pytest.approx(2 * fast.duration)
    t = np.linspace(0, fast.duration, 101)
    qf, vf, af = fast.sample(t)
    qs, vs, as_ = slow.sample(2 * t)
    assert np.allclose(qs, qf) and np.allclose(vs, vf / 2) and np.allclose(as_, af / 4)


def test_without_limits_needs_duration():
    """Without limits a duration is required; with one any motion is fine."""
    traj = point_to_point([0.0, 1.0], [1.0, -1.0], 'cubic', duration=2.0)
    assert traj.joint_names == ('j0', 'j1')
    q, qd, qdd = traj.sample(1.0)
    assert np.allclose(q, [0.5, 0.0]) and np.allclose(qd, [0.75, -1.5])
    with pytest.raises(LimitError, match='needs a finite limit or a duration'):
        point_to_point([0.0], [1.0], 'trapezoid')


def test_zero_motion():
    """No displacement gives a zero-length motion that holds the start."""
    lim = PlanningLimits(['a'], velocity=1.0, acceleration=1.0)
    traj = point_to_point([0.3], [0.3], 'quintic', lim)
    assert traj.duration == 0.0
    assert traj.sample(0.5)[0].tolist() == [0.3]


def test_bad_input_is_named(puma):
    """NaN, wrong lengths, limits <= 0, goals outside the range, too short durations."""
    model, lim = puma
    z = np.zeros(6)
    with pytest.raises(InputError, match="goal: joint 'joint3' is nan"):
        point_to_point(z, [0, 0, math.nan, 0, 0, 0], 'quintic', lim)
    with pytest.raises(InputError, match='start: expected 6 values'):
        point_to_point(z[:5], z, 'quintic', lim)
    with pytest.raises(InputError, match='unknown profile'):
        point_to_point(z, z, 'spline', lim)
    with pytest.raises(LimitError) as info:
        point_to_point(z, [0, 0, 0, 0, 0, 5.0], 'quintic', lim)
    assert (info.value.joint, info.value.value, info.value.bound) == \
        ('joint6', 5.0, model.upper_limits[5])
    with pytest.raises(LimitError) as info:
        point_to_point(z, [0, -4.0, 0, 0, 0, 0], 'quintic', lim)
    assert info.value.joint == 'joint2' and 'below the lower limit' in str(info.value)
    with pytest.raises(LimitError) as info:
        point_to_point(z, np.full(6, 0.5), 'quintic',
                       lim.with_values(velocity=[1, 1, 0, 1, 1, 1]))
    assert info.value.joint == 'joint3' and 'velocity limit 0 must be > 0' in str(info.value)
    with pytest.raises(LimitError) as info:
        point_to_point(z, np.full(6, 0.5), 'bang_bang', lim, duration=0.1)
    assert 'shorter than the minimum' in str(info.value) and info.value.value == 0.1
    with pytest.raises(InputError, match='limits: has 6 joints'):
        point_to_point(z[:3], z[:3], 'quintic', lim, joint_names=['a', 'b', 'c'])
    assert issubclass(LimitError, RobodynError)
