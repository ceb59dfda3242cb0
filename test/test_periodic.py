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

"""Periodic reference motions: square wave, cosine excursion, out and back, repetition."""

import math

import numpy as np
import pytest
from robodyn_ros.errors import InputError
from robodyn_ros.planning.errors import PlanningError
from robodyn_ros.planning.periodic import cosine_excursion, out_and_back, repeated, square_wave
from robodyn_ros.planning.point_to_point import point_to_point

NAMES = ['a', 'b']


def test_square_wave_levels():
    """High for the first half period, low for the second, cut at the duration."""
    sq = square_wave([0.0, 1.0], 0.5, 4.9, 7.4, NAMES)
    assert np.allclose(sq.breaks, [0.0, 2.45, 4.9, 7.35, 7.4], rtol=0.0, atol=1e-12)
    assert np.allclose(sq.sample(1.0)[0], [0.5, 1.5])
    assert np.allclose(sq.sample(3.0)[0], [0.0, 1.0])
    assert np.allclose(sq.sample(7.38)[0], [0.0, 1.0])
    _, qd, qdd = sq.sample(np.linspace(0.0, 7.4, 101))
    assert not np.any(qd) and not np.any(qdd)
    with pytest.raises(InputError):
        square_wave([0.0], 1.0, 0.0, 1.0, ['a'])


def test_cosine_excursion_against_its_formula():
    """The pieces reproduce start + A (1 - cos w t) / 2 with peak speed v (w = 2 v / A)."""
    amp, speed = math.pi / 2, 8.0
    cos = cosine_excursion(np.array([0.3, -0.2]), 1, amp, speed, NAMES, repeats=2)
    w = 2.0 * speed / amp
    assert cos.duration == pytest.approx(2 * 2 * math.pi / w)
    t = np.linspace(0.0, cos.duration, 4001)
    q, qd, qdd = cos.sample(t)
    assert np.allclose(q[:, 1], -0.2 + amp * (1 - np.cos(w * t)) / 2, atol=1e-10)
    assert np.allclose(qd[:, 1], amp * w * np.sin(w * t) / 2, atol=1e-7)
    assert np.allclose(qdd[:, 1], amp * w * w * np.cos(w * t) / 2, atol=1e-4)
    assert np.all(q[:, 0] == 0.3) and not np.any(qd[:, 0])
    assert np.abs(qd[:, 1]).max() == pytest.approx(speed, rel=1e-4)
    with pytest.raises(InputError):
        cosine_excursion(np.zeros(2), 0, 0.0, 1.0, NAMES)


def test_out_and_back_is_two_quintics():
    """Each half is the quintic point-to-point move; at rest at both ends and at the turn."""
    traj = out_and_back([0.1, 0.2], [1.0, -2.0], 3.0, NAMES)
    assert traj.breaks.tolist() == [0.0, 1.5, 3.0]
    out = point_to_point([0.1, 0.2], [1.1, -1.8], 'quintic', duration=1.5, joint_names=NAMES)
    t = np.linspace(0.0, 1.5, 301)
    for a, b in zip(traj.sample(t), out.sample(t)):
        assert np.allclose(a, b, atol=1e-12)
    for a, b in zip(traj.sample(3.0 - t), out.sample(t)):
        assert np.allclose(a[0], b[0], atol=1e-12)
    assert traj.starts_at_rest and traj.ends_at_rest
    assert np.allclose(traj.sample(1.5)[1], 0.0)


def test_repeated_keeps_the_timing_and_checks_the_cycle():
    """Cycles follow each other; a motion that does not end where it starts is refused."""
    one = out_and_back([0.0, 0.0], [1.0, 1.0], 2.0, NAMES)
    three = repeated(one, 3)
    assert three.duration == pytest.approx(6.0)
    t = np.linspace(0.0, 2.0, 41)
    for k in range(3):
        assert np.allclose(three.sample(t + 2.0 * k)[0], one.sample(t)[0], atol=1e-12)
    with pytest.raises(InputError):
        repeated(one, 0)
    with pytest.raises(PlanningError, match='starts'):
        repeated(point_to_point([0.0, 0.0], [1.0, 1.0], 'quintic', duration=1.0,
                                joint_names=NAMES), 2)
