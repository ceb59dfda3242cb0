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

"""Reference motions of the seed experiments."""

import math

import numpy as np
import pytest
from robodyn_ros.errors import InputError
from robodyn_ros.sim.references import (concatenate, cosine_excursion, hermite_quintic,
                                        repeated, rest_to_rest, square_wave,
                                        three_five_three)

NAMES = ['a', 'b']


def test_seed003_three_five_three():
    """Through 0, 5, 25, 30 degrees at 2, 7, 9 s; at rest at both ends; C2 at the joins."""
    start = np.array([0.1, -1.0])
    traj = three_five_three(start, np.radians([0, 5, 25, 30]), [2.0, 5.0, 2.0], NAMES)
    for t, w in ((0.0, 0.0), (2.0, 5.0), (7.0, 25.0), (9.0, 30.0)):
        assert np.allclose(traj.sample(t)[0], start + math.radians(w))
    assert traj.starts_at_rest and traj.ends_at_rest
    for t in (2.0, 7.0):
        before, after = traj.sample(t - 1e-7), traj.sample(t + 1e-7)
        assert np.allclose(before[1], after[1], atol=1e-5)
        assert np.allclose(before[2], after[2], atol=1e-4)
    # Seed 003 (digest): peak speed 8.70 deg/s, middle segment reverses (-1.41 deg/s).
    _, _, qd, _ = traj.dense(0.001)
    assert np.degrees(qd[:, 0]).max() == pytest.approx(8.70, abs=0.01)
    assert np.degrees(qd[:, 0]).min() == pytest.approx(-1.41, abs=0.01)
    with pytest.raises(InputError):
        three_five_three(start, [0.0, 1.0], [1.0, 1.0, 1.0], NAMES)


def test_square_wave_cosine_and_rest_to_rest():
    """Square levels, the cosine's peak speed, rest-to-rest boundary states."""
    sq = square_wave([0.0, 1.0], 0.5, 4.9, 7.4, NAMES)
    assert np.allclose(sq.sample(1.0)[0], [0.5, 1.5]) and np.allclose(sq.sample(3.0)[0],
                                                                      [0.0, 1.0])
    cos = cosine_excursion(np.zeros(2), 1, math.pi / 2, 8.0, NAMES)
    _, q, qd, _ = cos.dense(1e-4)
    assert np.abs(qd[:, 1]).max() == pytest.approx(8.0, rel=1e-4)
    assert q[:, 1].max() == pytest.approx(math.pi / 2, rel=1e-6) and np.all(q[:, 0] == 0.0)
    rr = rest_to_rest([0.0, 0.0], [1.0, -2.0], 2.0, NAMES)
    assert rr.starts_at_rest and rr.ends_at_rest
    assert np.allclose(rr.sample(1.0)[0], [0.5, -1.0])
    with pytest.raises(InputError):
        square_wave([0.0], 1.0, 0.0, 1.0, ['a'])
    with pytest.raises(InputError):
        cosine_excursion(np.zeros(2), 0, 0.0, 1.0, NAMES)


def test_hermite_concatenate_and_repeat():
    """Quintic Hermite meets its six conditions; joined pieces keep their timing."""
    c = hermite_quintic(np.array([1.0]), np.array([2.0]), np.array([3.0]), np.array([4.0]),
                        np.array([-1.0]), np.array([0.5]), 1.5)[0]
    poly = np.polynomial.Polynomial(c)
    assert poly(0.0) == pytest.approx(1.0) and poly.deriv()(0.0) == pytest.approx(2.0)
    assert poly.deriv(2)(0.0) == pytest.approx(3.0) and poly(1.5) == pytest.approx(4.0)
    assert poly.deriv()(1.5) == pytest.approx(-1.0) and poly.deriv(2)(1.5) == pytest.approx(0.5)
    one = concatenate([rest_to_rest([0.0, 0.0], [1.0, 1.0], 1.0, NAMES),
                       rest_to_rest([1.0, 1.0], [0.0, 0.0], 1.0, NAMES)])
    three = repeated(one, 3)
    assert three.duration == pytest.approx(6.0)
    assert np.allclose(three.sample(4.5)[0], one.sample(0.5)[0])
    with pytest.raises(InputError):
        repeated(one, 0)
