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

"""Friction probes: zero crossings of the velocity and the speed of peak friction."""

import numpy as np
from robodyn_ros.dynamics import inverse_dynamics
from robodyn_ros.friction.probes import (friction_peak_speeds, probe_rows, PROBE_SPEEDS,
                                         zero_crossings)
from robodyn_ros.model import load_robot
from robodyn_ros.planning.efforts import ModelEffortProvider
from robodyn_ros.planning.point_to_point import point_to_point


def test_zero_crossings():
    """Rests and sign changes of the velocity are found, with the side of each crossing."""
    t = np.linspace(0.0, 1.0, 6)
    qd = np.array([[0.0, 1.0], [1.0, 1.0], [0.5, 0.0], [-0.5, 0.0], [-1.0, 2.0], [0.0, 2.0]])
    found = zero_crossings(t, qd)
    found = sorted((round(float(a), 9), j, float(s)) for a, j, s in found)
    assert found == [(0.0, 0, 1.0), (0.4, 1, 1.0), (0.5, 0, -1.0), (0.5, 0, 1.0),
                     (0.6, 1, 1.0), (1.0, 0, -1.0)]


def _crossings_one_by_one(times, qd, tiny=1e-12):
    """Walk every pair of consecutive moving samples (the reference for the array form)."""
    out = []
    for j in range(qd.shape[1]):
        v = qd[:, j]
        nz = [i for i in range(v.size) if abs(v[i]) > tiny]
        if not nz:
            continue
        if nz[0] > 0:
            out.append((times[nz[0] - 1], j, np.sign(v[nz[0]])))
        if nz[-1] < v.size - 1:
            out.append((times[nz[-1] + 1], j, np.sign(v[nz[-1]])))
        for a, b in zip(nz[:-1], nz[1:]):
            sa, sb = np.sign(v[a]), np.sign(v[b])
            if b > a + 1:
                out += [(times[a + 1], j, sa), (times[b - 1], j, sb)]
            elif sa != sb:
                t0 = times[a] + (times[b] - times[a]) * abs(v[a]) / (abs(v[a]) + abs(v[b]))
                out += [(t0, j, sa), (t0, j, sb)]
    return out


def test_zero_crossings_equal_a_sample_by_sample_walk():
    """Random velocities with rests, tiny values and sign changes: the same list, in order."""
    rng = np.random.default_rng(11)
    for trial in range(200):
        n, count = 1 + trial % 4, int(rng.integers(1, 60))
        qd = rng.normal(0.0, 1.0, (count, n))
        qd[rng.random((count, n)) < 0.3] = 0.0
        qd[rng.random((count, n)) < 0.05] = 1e-13
        times = np.cumsum(rng.uniform(0.001, 0.1, count))
        assert zero_crossings(times, qd) == _crossings_one_by_one(times, qd)


def test_peak_speed_matches_a_fine_scan_of_the_friction():
    """PUMA 560 (Stribeck): the chosen speed is where the friction of each joint peaks."""
    model = load_robot('puma560')
    q = np.array([0.1, -0.8, 0.9, 0.2, 0.4, 0.0])
    pos, neg = friction_peak_speeds(ModelEffortProvider(model), q)
    fine = np.logspace(-5.0, -1.0, 2001)
    for j in range(model.n):
        qd = np.zeros((fine.size, model.n))
        qd[:, j] = fine
        rows = np.tile(q, (fine.size, 1))
        tau = inverse_dynamics(model, rows, qd, 0 * qd)[:, j]
        rest = inverse_dynamics(model, q, 0 * q, 0 * q)[j]
        best = fine[np.argmax(np.abs(tau - rest))]
        step = PROBE_SPEEDS[1] / PROBE_SPEEDS[0]
        assert best / step <= pos[j] <= best * step
    assert np.all(neg > 0.0)


def test_probe_rows_zero_the_crossing_joint():
    """Probe states sit on the path with the crossing joint's speed replaced by the probe."""
    traj = point_to_point([0.0, 0.0], [1.0, -1.0], 'quintic', duration=2.0)
    times = np.linspace(0.0, 2.0, 11)
    _, qd, _ = traj.sample(times)
    speeds = (np.array([1e-3, 2e-3]), np.array([3e-3, 4e-3]))
    t0, q, v, a, offset = probe_rows(traj, times, qd, speeds)
    assert set(np.round(t0, 9)) == {0.0, 2.0}
    assert np.allclose(q, traj.sample(t0)[0]) and np.allclose(v, 0.0)
    assert sorted(np.abs(offset[offset != 0.0]).tolist()) == [1e-3, 1e-3, 4e-3, 4e-3]
    assert probe_rows(traj, times, np.zeros_like(qd), (np.ones(2), np.ones(2))) is None
