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

"""Seed 003's 3-5-3 path, seed 000's Trajectory 1, chaining and stop-and-go."""

import numpy as np
import pytest
from robodyn_ros.errors import InputError
from robodyn_ros.planning.errors import PlanningError
from robodyn_ros.planning.limits import PlanningLimits
from robodyn_ros.planning.multi_segment import (concatenate, quintic_linear_quintic,
                                                stop_and_go, three_five_three)
from robodyn_ros.planning.point_to_point import point_to_point
from robodyn_ros.planning.polynomials import derivative, polyval

# Seed 000, Sec. 2.2.5: joint knots (deg; q3 in m) and the digest's coefficients.
KNOTS = np.array([[-74.96, 100.11, .57, 30.20, 73.75, 1.15],
                  [-55.06, 108.74, .31, 29.38, 56.67, 8.77],
                  [-1.93, 108.74, .31, 1.46, 41.28, 85.71],
                  [43.11, 100.11, .57, -23.43, 59.24, 153.45]])
SEG1 = np.array([[-17.83528, 35.24443, -12.37487], [31.45044, -33.6969, 9.62768],
                 [-0.94752, 1.0152, -0.29006], [44.49466, -56.15195, 17.25472],
                 [-36.07143, 33.97413, -9.0392], [-103.08066, 133.8097, -41.56936]])
SEG3 = np.array([[28.60423, -46.78259, 15.67148], [-31.45044, 33.6969, -9.62768],
                 [0.94752, -1.0152, 0.29006], [-19.48251, 29.35322, -9.59794],
                 [104.7121, -107.5177, 30.05165], [50.59038, -77.57011, 25.50091]])
# Digest peaks (rad/s, rad/s^2; joint 3 in m/s, m/s^2) as printed.
PEAKS = {
    8: ('.419 .101 .174 .230 .262 .627', '.333 .111 .191 .275 .387 .691'),
    4: ('.838 .202 .348 .460 .523 1.254', '1.334 .444 .766 1.101 1.548 2.766'),
    2: ('1.677 .403 .696 .921 1.047 2.509', '5.33 1.77 3.06 4.41 6.19 11.06'),
    1: ('3.353 .807 1.393 1.842 2.093 5.017', '21.3 7.10 12.25 17.6 24.7 44.2'),
}
TO_SI = np.array([np.pi / 180, np.pi / 180, 1.0, np.pi / 180, np.pi / 180, np.pi / 180])


def _jumps(traj, order):
    c, h = traj.coefficients, np.diff(traj.breaks)
    out = []
    for _ in range(order + 1):
        out.append(max(np.max(np.abs(polyval(c[s], h[s]) - polyval(c[s + 1], 0.0)))
                       for s in range(len(h) - 1)))
        c = derivative(c)
    return out


def test_three_five_three_seed_numbers():
    """Points 0/5/25/30 deg, segments 2/5/2 s: the digest's knot states, peaks and grid."""
    traj = three_five_three([0.0, 5.0, 25.0, 30.0], [2.0, 5.0, 2.0])
    assert traj.breaks.tolist() == [0.0, 2.0, 7.0, 9.0]
    q, qd, qdd = traj.sample(np.array([0.0, 2.0, 7.0, 9.0]))
    assert np.allclose(q[:, 0], [0, 5, 25, 30])
    assert np.allclose(qd[:, 0], [0.0, 7.5, 7.5, 0.0])
    assert np.allclose(qdd[:, 0], [0.0, 7.5, -7.5, 0.0])
    quintic = traj.coefficients[1, 0] * 5.0 ** np.arange(6)
    assert np.allclose(quintic[1:], [37.5, 93.75, -550.0, 731.25, -292.5])
    times, q, qd, qdd = traj.dense(0.01)
    assert len(times[:-1]) == 900
    k = np.argmax(qd[:, 0])
    assert qd[k, 0] == pytest.approx(8.70, abs=0.005) and times[k] == pytest.approx(2.34)
    mid = (times > 2) & (times < 7)
    k = np.argmin(np.where(mid, qd[:, 0], np.inf))
    assert qd[k, 0] == pytest.approx(-1.41, abs=0.005) and times[k] == pytest.approx(4.5)
    assert np.max(np.abs(qdd)) == pytest.approx(7.5)
    assert max(_jumps(traj, 2)) < 1e-9


def test_three_five_three_general_boundaries():
    """Given start and end states are met, for several joints at once; C2 at the knots."""
    pts = np.array([[0.0, 1.0], [0.3, 0.8], [0.9, -0.2], [1.0, -0.5]])
    traj = three_five_three(pts, [0.5, 1.5, 0.7], ['a', 'b'], start_velocity=[0.2, -0.1],
                            start_acceleration=[0.5, 0.0], end_velocity=[0.1, 0.0],
                            end_acceleration=[-0.3, 0.2])
    q, qd, qdd = traj._evaluate(np.array([0.0, traj.duration]))
    assert np.allclose(q, pts[[0, 3]]) and np.allclose(qd, [[0.2, -0.1], [0.1, 0.0]])
    assert np.allclose(qdd, [[0.5, 0.0], [-0.3, 0.2]])
    assert np.allclose(traj.sample(traj.breaks[1:3])[0], pts[1:3])
    assert max(_jumps(traj, 2)) < 1e-9
    with pytest.raises(InputError, match='segment 1 lasts 0'):
        three_five_three(pts, [0.5, 0.0, 0.7])
    with pytest.raises(InputError, match='expected 4 points'):
        three_five_three(pts[:3], [1, 1, 1])
    with pytest.raises(InputError, match='is nan'):
        three_five_three([0, np.nan, 1, 2], [1, 1, 1])


def test_trajectory_one_knots_and_coefficients():
    """Seed 000's Trajectory 1 (4 s): knots hit, quintic coefficients as reconstructed."""
    traj = quintic_linear_quintic(KNOTS, [0.0, 1.4, 2.6, 4.0])
    assert np.allclose(traj.sample(np.array([0.0, 1.4, 2.6, 4.0]))[0], KNOTS)
    c = traj.coefficients
    assert np.allclose(c[0, :, 3:], SEG1, atol=1e-5)
    assert np.allclose(c[2, :, 3:], SEG3, atol=1e-5)
    assert np.allclose(c[1, :, 1], [44.275, 0, 0, -23.26667, -12.825, 64.11667], atol=1e-5)
    assert np.allclose(c[1, :, 2:], 0.0)
    assert max(_jumps(traj, 2)) < 1e-9
    q, qd, qdd = traj.sample(np.array([0.0, 4.0]))
    assert np.allclose(qd, 0.0) and np.allclose(qdd, 0.0)


@pytest.mark.parametrize('total', sorted(PEAKS))
def test_trajectory_one_peaks(total):
    """Peak speed and acceleration for T = 8, 4, 2, 1 s (via times 0.35 T, 0.65 T)."""
    traj = quintic_linear_quintic(KNOTS * TO_SI, [0.0, 0.35 * total, 0.65 * total, total])
    _, _, qd, qdd = traj.dense(total / 40000)
    for text, got in zip(PEAKS[total], (np.abs(qd).max(axis=0), np.abs(qdd).max(axis=0))):
        for printed, value in zip(text.split(), got):
            # The digest rounds some entries and truncates others (3.35379 -> 3.353,
            # 2.50878 -> 2.509): one unit of the last printed digit.
            decimals = len(printed.split('.')[1])
            assert value == pytest.approx(float(printed), abs=10.0 ** -decimals + 1e-9)


def test_concatenate_and_stop_and_go():
    """Chained moves stop at every waypoint; mismatched pieces are refused."""
    lim = PlanningLimits(['a', 'b'], velocity=[1.0, 2.0], acceleration=[2.0, 2.0])
    pts = np.array([[0.0, 0.0], [0.5, -1.0], [0.5, 0.3], [-0.2, 0.3]])
    traj = stop_and_go(pts, 'trapezoid_c2', lim)
    times = [0.0]
    for k in range(3):
        times.append(times[-1] + point_to_point(pts[k], pts[k + 1], 'trapezoid_c2',
                                                lim).duration)
    assert traj.duration == pytest.approx(times[-1])
    q, qd, qdd = traj.sample(np.array(times))
    assert np.allclose(q, pts) and np.allclose(qd, 0.0, atol=1e-12)
    assert not traj.check_limits(velocity=lim.velocity, acceleration=lim.acceleration)
    timed = stop_and_go(pts, 'quintic', lim, durations=[2.0, 2.0, 3.0])
    assert timed.duration == pytest.approx(7.0)
    a = point_to_point([0.0, 0.0], [1.0, 1.0], 'cubic', duration=1.0)
    b = point_to_point([1.0, 1.0], [0.0, 2.0], 'quintic', duration=1.0)
    joined = concatenate([a, b])
    assert joined.coefficients.shape == (2, 2, 6)
    assert np.allclose(joined.sample(1.5)[0], b.sample(0.5)[0])
    with pytest.raises(PlanningError, match='starts'):
        concatenate([a, a])
    other = point_to_point([1.0], [0.0], 'cubic', duration=1.0)
    with pytest.raises(PlanningError, match='has joints'):
        concatenate([a, other])
