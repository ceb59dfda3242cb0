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


"""The compiled piecewise-polynomial evaluation against the NumPy form and NumPy's polynomials."""

import os
import subprocess
import sys

import numpy as np
from numpy.polynomial import polynomial as P
import pytest
from robodyn_ros.planning import piecewise_kernel
from robodyn_ros.planning.trajectory import PiecewisePolynomialTrajectory
from robodyn_ros.planning.via_points import ViaPointTrajectory


def _random(rng, segments, joints, terms):
    lengths = rng.uniform(0.01, 2.0, segments)
    if segments > 2:
        lengths[rng.integers(segments)] = 0.0         # a zero-length segment is allowed
    breaks = np.concatenate([[0.0], np.cumsum(lengths)])
    coeffs = rng.normal(0.0, 3.0, (segments, joints, terms))
    names = [f'j{k}' for k in range(joints)]
    return PiecewisePolynomialTrajectory(names, breaks, coeffs), breaks, coeffs


def _numpy_form(traj, times, jerk=False):
    """Evaluate with the trajectory's NumPy form (what runs without numba)."""
    compiled = piecewise_kernel.COMPILED
    piecewise_kernel.COMPILED = False
    try:
        return traj._evaluate_jerk(times) if jerk else traj._evaluate(times)
    finally:
        piecewise_kernel.COMPILED = compiled


def test_the_kernel_is_compiled_here():
    """Run compiled here: numba is installed in the test environment."""
    assert piecewise_kernel.COMPILED


@pytest.mark.parametrize('terms', [1, 2, 3, 4, 6, 8])
def test_same_bits_as_the_numpy_form(terms):
    """Positions to jerks, at breaks, inside, and beyond both ends: the same bits."""
    rng = np.random.default_rng(terms)
    for segments in (1, 2, 5, 40):
        traj, breaks, _ = _random(rng, segments, 1 + segments % 7, terms)
        times = np.concatenate([rng.uniform(-0.5, breaks[-1] + 0.5, 500), breaks,
                                np.nextafter(breaks, -np.inf), np.nextafter(breaks, np.inf)])
        for got, want in zip(traj._evaluate(times), _numpy_form(traj, times)):
            np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(traj._evaluate_jerk(times),
                                      _numpy_form(traj, times, jerk=True))


def test_derivatives_match_numpy_polynomials():
    """Positions to jerks against numpy.polynomial on the segment each time falls in."""
    rng = np.random.default_rng(3)
    traj, breaks, coeffs = _random(rng, 6, 3, 7)
    times = np.sort(rng.uniform(0.0, breaks[-1], 300))
    seg = np.clip(np.searchsorted(breaks, times, side='right') - 1, 0, len(breaks) - 2)
    got = list(traj._evaluate(times)) + [traj._evaluate_jerk(times)]
    for order in range(4):
        for j in range(3):
            want = [P.polyval(t - breaks[s], P.polyder(coeffs[s, j], order))
                    for t, s in zip(times, seg)]
            np.testing.assert_allclose(got[order][:, j], want, rtol=1e-12, atol=1e-9)
    # Tables of other lengths padded together: each as evaluated alone.
    short = coeffs[:, :, :3]
    both = piecewise_kernel.evaluate(breaks, piecewise_kernel.stack(coeffs, short), times)
    alone = piecewise_kernel.evaluate(breaks, piecewise_kernel.stack(short), times)
    np.testing.assert_array_equal(both[1], alone[0])


def test_no_times_and_sampling_rules_are_kept():
    """An empty time array, the end hold of via-point motions, the public sample()."""
    rng = np.random.default_rng(5)
    traj, breaks, _ = _random(rng, 3, 2, 6)
    q, qd, qdd = traj._evaluate(np.zeros(0))
    assert q.shape == qd.shape == qdd.shape == (0, 2)
    points = np.array([[0.0, 0.0], [0.5, -0.2], [1.0, 0.3]])
    zeros = np.zeros_like(points)
    via = ViaPointTrajectory(['a', 'b'], points, np.array([1.0, 1.5]), zeros, zeros)
    q, qd, qdd = via.sample(np.array([-1.0, 0.0, 1.0, 1.7, 2.5, 9.0]))
    np.testing.assert_array_equal(q[[0, 1]], points[[0, 0]])
    np.testing.assert_allclose(q[2], points[1], atol=1e-12)
    np.testing.assert_array_equal(q[[4, 5]], points[[2, 2]])
    assert not qd[[0, 4, 5]].any() and not qdd[[0, 5]].any()
    assert np.all(qd[3] != 0.0)                # inside a segment it moves


def test_without_numba_the_numpy_form_gives_the_same_samples():
    """ROBODYN_NO_NUMBA=1: not compiled, and a via-point motion samples to the same bytes."""
    script = ('import hashlib, numpy as np\n'
              'from robodyn_ros.planning import piecewise_kernel\n'
              'from robodyn_ros.planning.via_points import ViaPointTrajectory\n'
              'rng = np.random.default_rng(2)\n'
              'p = rng.normal(0, 1, (5, 6)); v = rng.normal(0, 1, (5, 6))\n'
              'a = rng.normal(0, 1, (5, 6))\n'
              't = ViaPointTrajectory(list("abcdef"), p, rng.uniform(0.2, 1, 4), v, a)\n'
              'x = np.linspace(-0.1, t.duration + 0.1, 5001)\n'
              'h = hashlib.sha256(b"".join(y.tobytes() for y in (*t.sample(x), t.jerk(x))))\n'
              'print(piecewise_kernel.COMPILED, h.hexdigest())\n')
    answers = []
    for flag in ('1', ''):
        env = {k: v for k, v in os.environ.items() if k != 'ROBODYN_NO_NUMBA'}
        if flag:
            env['ROBODYN_NO_NUMBA'] = flag
        out = subprocess.run([sys.executable, '-W', 'ignore', '-c', script],
                             capture_output=True, text=True, timeout=120, env=env)
        assert out.returncode == 0, out.stderr
        answers.append(out.stdout.split())
    assert [a[0] for a in answers] == ['False', 'True'], answers
    assert answers[0][1] == answers[1][1], answers
