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

"""Seed 001 chapter 8 time laws: peaks, minimum times, synchronisation, properties."""

import math

from hypothesis import given, settings, strategies as st
import numpy as np
import pytest
from robodyn_ros.errors import InputError
from robodyn_ros.planning.errors import LimitError
from robodyn_ros.planning.polynomials import derivative, polyval
from robodyn_ros.planning.profiles import (CONTINUITY, KINDS, MIN_DURATION, minimum_time,
                                           normalized_profile, synchronise, TINY_MOVE)

SQ3 = math.sqrt(3.0)


def _dense(profile, count=200001):
    t = np.linspace(0.0, profile.duration, count)
    return (t,) + profile.evaluate(t)


@pytest.mark.parametrize('kind, vel, acc', [('cubic', 0.975, 1.95), ('quintic', 1.21875, 1.87639),
                                            ('bang_bang', 1.3, 1.3)])
def test_polynomial_peaks_seed_table(kind, vel, acc):
    """D = 1.3, t_f = 2: peaks of the digest table and of eqs. 8.8-8.9, 8.13, 8.17."""
    d, tf = 1.3, 2.0
    formula = {'cubic': (1.5 * d / tf, 6 * d / tf ** 2),
               'quintic': (15 * d / (8 * tf), 10 * d / (SQ3 * tf ** 2)),
               'bang_bang': (2 * d / tf, 4 * d / tf ** 2)}[kind]
    p = normalized_profile(kind, tf)
    _, r, rd, rdd = _dense(p)
    assert np.max(np.abs(rd)) * d == pytest.approx(vel, abs=1e-6)
    assert np.max(np.abs(rdd)) * d == pytest.approx(acc, abs=1e-5)
    assert (np.max(np.abs(rd)) * d, np.max(np.abs(rdd)) * d) == pytest.approx(formula, rel=1e-6)
    assert p.peak_velocity * d == pytest.approx(formula[0])
    assert p.peak_acceleration * d == pytest.approx(formula[1])
    assert r[0] == 0.0 and r[-1] == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize('kind', KINDS)
def test_boundary_conditions(kind):
    """r(0) = 0, r(t_f) = 1; zero end velocities (all but linear), zero end accelerations (C2)."""
    p = normalized_profile(kind, 1.7)
    r, rd, rdd = p.evaluate(np.array([0.0, 1.7]))
    assert r[0] == pytest.approx(0.0, abs=1e-15) and r[1] == pytest.approx(1.0, abs=1e-14)
    if kind != 'linear':
        assert np.allclose(rd, 0.0, atol=1e-14)
    if CONTINUITY[kind] >= 2:
        assert np.allclose(rdd, 0.0, atol=1e-12)


def test_minimum_time_table_8_1():
    """Table 8.1 and eq. 8.22 with the short-move rule 8.35, computed independently."""
    rng = np.random.default_rng(5)
    d = rng.uniform(-3.0, 3.0, 200)
    kv = rng.uniform(0.2, 3.0, 200)
    ka = rng.uniform(0.5, 10.0, 200)
    a = np.abs(d)
    expect = {
        'linear': a / kv,
        'cubic': np.maximum(3 * a / (2 * kv), np.sqrt(6 * a / ka)),
        'quintic': np.maximum(15 * a / (8 * kv), np.sqrt(10 * a / (SQ3 * ka))),
        'bang_bang': np.maximum(2 * a / kv, 2 * np.sqrt(a / ka)),
        'trapezoid': np.where(a > kv ** 2 / ka, kv / ka + a / kv, 2 * np.sqrt(a / ka)),
        'trapezoid_c2': np.where(a > 1.5 * kv ** 2 / ka, 1.5 * kv / ka + a / kv,
                                 np.sqrt(6 * a / ka)),
    }
    for kind, t in expect.items():
        assert np.allclose(minimum_time(kind, d, kv, ka), t, rtol=1e-12), kind
    assert minimum_time('quintic', [0.0], [1.0], [1.0])[0] == 0.0


@pytest.mark.parametrize('kind', KINDS)
def test_minimum_time_saturates_one_limit_exactly(kind):
    """A joint alone at its minimum time reaches one limit and breaks none (claim 20)."""
    rng = np.random.default_rng(6)
    for _ in range(5):
        d, kv, ka = rng.uniform(0.1, 3.0), rng.uniform(0.3, 3.0), rng.uniform(0.5, 10.0)
        sync = synchronise(kind, [d], [kv], [ka])
        _, _, rd, rdd = _dense(sync.profile, 40001)
        rv = np.max(np.abs(rd)) * d / kv
        ra = np.max(np.abs(rdd)) * d / ka
        assert rv <= 1.0 + 1e-9
        if kind == 'linear':
            assert rv == pytest.approx(1.0)
            continue
        assert ra <= 1.0 + 1e-6
        assert max(rv, ra) == pytest.approx(1.0, abs=2e-4)


def test_synchronised_trapezoid_seed_example():
    """k_v = [2, 1.5, 3], k_a = [4, 6, 5], D = [1, -2.5, 0.7] (digest 2.5)."""
    kv, ka, d = np.array([2.0, 1.5, 3.0]), np.array([4.0, 6.0, 5.0]), np.array([1.0, -2.5, 0.7])
    sync = synchronise('trapezoid', d, kv, ka)
    assert sync.duration == pytest.approx(1.91667, abs=1e-5)
    assert sync.accel_time == pytest.approx(0.25)
    assert np.allclose(sync.velocity_ratio, [0.3, 1.0, 0.14])
    assert np.allclose(sync.acceleration_ratio, [0.6, 1.0, 0.336])
    # Eqs. 8.32-8.34 with joint 1 as the reference, written out independently.
    lam1 = min(1.0, *(kv[j] * abs(d[0]) / (kv[0] * abs(d[j])) for j in (1, 2)))
    ups1 = min(1.0, *(ka[j] * abs(d[0]) / (ka[0] * abs(d[j])) for j in (1, 2)))
    tau = lam1 * kv[0] / (ups1 * ka[0])
    assert sync.accel_time == pytest.approx(tau)
    assert sync.duration == pytest.approx(tau + abs(d[0]) / (lam1 * kv[0]))
    # Individual times: eq. 8.22 gives 0.8333 for joint 3 (digest), but |D3| = 0.7 is below
    # k_v^2 / k_a = 1.8, so the short-move rule 8.35 applies: 2 sqrt(0.7 / 5).
    assert np.allclose(sync.joint_times, [1.0, 1.916667, 2 * math.sqrt(0.7 / 5)], atol=1e-6)
    assert kv[2] / ka[2] + abs(d[2]) / kv[2] == pytest.approx(0.8333, abs=1e-4)
    # Peaks of q_j = D_j r(t) equal lambda_j k_vj and upsilon_j k_aj.
    _, _, rd, rdd = _dense(sync.profile)
    assert np.allclose(np.max(np.abs(rd)) * np.abs(d) / kv, sync.velocity_ratio, atol=1e-9)
    assert np.allclose(np.max(np.abs(rdd)) * np.abs(d) / ka, sync.acceleration_ratio, atol=1e-9)


def test_c2_trapezoid_seed_example():
    """Same example, continuous acceleration: tau = 0.375, t_f = 2.04167 (eqs. 8.41, 8.45)."""
    kv, ka, d = np.array([2.0, 1.5, 3.0]), np.array([4.0, 6.0, 5.0]), np.array([1.0, -2.5, 0.7])
    sync = synchronise('trapezoid_c2', d, kv, ka)
    assert sync.accel_time == pytest.approx(0.375)
    assert sync.duration == pytest.approx(2.04167, abs=1e-5)
    assert sync.accel_time == pytest.approx(1.5 * 0.25)
    t, r, rd, rdd = _dense(sync.profile)
    assert np.allclose(np.max(np.abs(rd)) * np.abs(d) / kv, sync.velocity_ratio, atol=1e-9)
    assert np.allclose(np.max(np.abs(rdd)) * np.abs(d) / ka, sync.acceleration_ratio, atol=1e-7)
    # Eq. 8.44: distance while accelerating (3/4) (lambda k_v)^2 / (upsilon k_a).
    lam, ups = sync.velocity_ratio, sync.acceleration_ratio
    r_tau = sync.profile.evaluate(sync.accel_time)[0]
    assert np.allclose(r_tau * np.abs(d), 0.75 * (lam * kv) ** 2 / (ups * ka))
    # Peak acceleration at tau / 2 (eq. 8.40).
    assert t[np.argmax(rdd)] == pytest.approx(sync.accel_time / 2, abs=1e-4)


def test_short_moves():
    """Short trapezoids become triangles: k_v replaced by sqrt(|D| k_a), (2/3 |D| k_a)^(1/2)."""
    sync = synchronise('trapezoid', [0.5], [2.0], [4.0])
    assert sync.accel_time == pytest.approx(sync.duration / 2)
    assert sync.velocity_ratio[0] == pytest.approx(math.sqrt(0.5 * 4.0) / 2.0)
    assert sync.acceleration_ratio[0] == pytest.approx(1.0)
    sync = synchronise('trapezoid_c2', [0.5], [2.0], [4.0])
    assert sync.velocity_ratio[0] == pytest.approx(math.sqrt(2 / 3 * 0.5 * 4.0) / 2.0)
    assert sync.accel_time == pytest.approx(sync.duration / 2)


def test_tiny_moves_keep_finite_coefficients():
    """Moves up to TINY_MOVE are steps; short ones last MIN_DURATION; shorter times refused."""
    for kind in KINDS:
        sync = synchronise(kind, [1e-150, TINY_MOVE], [1.0, 1.0], [10.0, 10.0])
        assert sync.duration == 0.0 and sync.profile.evaluate(0.0)[0] == 1.0
    sync = synchronise('linear', [1e-11], [1.0], [1.0])
    assert sync.duration == MIN_DURATION and np.all(np.isfinite(sync.profile.coefficients))
    sync = synchronise('trapezoid', [1e-300, 2e-12], [1.0, 1.0], [1.0, 1.0])
    assert sync.duration >= MIN_DURATION and np.all(np.isfinite(sync.profile.coefficients))
    with pytest.raises(LimitError, match='shortest allowed'):
        synchronise('cubic', [1e-9], [1.0], [1.0], duration=1e-9)


def test_given_duration_and_errors():
    """A longer duration stretches the law; a shorter one names the joint and the minimum."""
    sync = synchronise('trapezoid', [1.0, -2.5], [2.0, 1.5], [4.0, 6.0], duration=3.8333333)
    assert sync.duration == pytest.approx(3.8333333)
    assert np.allclose(sync.velocity_ratio, [0.15, 0.5], atol=1e-6)
    with pytest.raises(LimitError) as info:
        synchronise('quintic', [1.0, -2.5], [2.0, 1.5], [4.0, 6.0], duration=1.0,
                    joint_names=['a', 'b'])
    err = info.value
    assert err.joint == 'b' and err.value == 1.0
    assert err.bound == pytest.approx(15 * 2.5 / (8 * 1.5))
    with pytest.raises(LimitError, match='needs a finite limit or a duration'):
        synchronise('trapezoid', [1.0], [math.inf], [math.inf])
    with pytest.raises(LimitError, match='not finite'):
        synchronise('cubic', [1.0], [math.inf], [math.inf])
    with pytest.raises(InputError, match='unknown profile'):
        synchronise('sine', [1.0], [1.0], [1.0])
    with pytest.raises(InputError, match='duration'):
        synchronise('cubic', [1.0], [1.0], [1.0], duration=math.nan)
    still = synchronise('trapezoid', [0.0, 0.0], [1.0, 1.0], [1.0, 1.0])
    assert still.duration == 0.0 and still.profile.evaluate(0.0)[0] == 1.0


def _one_sided(profile, order):
    """Jumps of the derivatives of r at every break (left end vs right start)."""
    c = profile.coefficients
    h = np.diff(profile.breaks)
    jumps = []
    for k in range(order + 1):
        for s in range(len(h) - 1):
            jumps.append(abs(polyval(c[s], h[s]) - polyval(c[s + 1], 0.0)))
        c = derivative(c)
    return max(jumps, default=0.0)


@settings(max_examples=150, deadline=None)
@given(kind=st.sampled_from(KINDS),
       dist=st.lists(st.floats(-3.0, 3.0), min_size=1, max_size=4),
       kv=st.floats(0.1, 5.0), ka=st.floats(0.2, 20.0), spread=st.floats(0.2, 1.0))
def test_profile_properties(kind, dist, kv, ka, spread):
    """Every law keeps every joint within its limits, is continuous to its order, ends at 1."""
    d = np.array(dist)
    n = d.size
    kvs = kv * np.linspace(spread, 1.0, n)
    kas = ka * np.linspace(1.0, spread, n)
    if not np.any(d):
        return
    sync = synchronise(kind, d, kvs, kas)
    p = sync.profile
    if p.duration == 0.0:
        assert np.all(np.abs(d) <= TINY_MOVE)
        return
    assert p.duration >= MIN_DURATION and np.all(np.isfinite(p.coefficients))
    rate = max(1.0, 1.0 / p.duration)          # size of r' (r'' ~ rate^2)
    t, r, rd, rdd = _dense(p, 20001)
    assert np.all(np.max(np.abs(rd)) * np.abs(d) <= kvs * (1 + 1e-9))
    if kind != 'linear':
        assert np.all(np.max(np.abs(rdd)) * np.abs(d) <= kas * (1 + 1e-6))
        assert np.allclose(rd[[0, -1]], 0.0, atol=1e-12 * rate)
    if p.duration > MIN_DURATION:
        # At least one joint reaches a limit (moves below the floor reach none).
        assert max(sync.velocity_ratio.max(), sync.acceleration_ratio.max()) == \
            pytest.approx(1.0, abs=1e-9)
    assert r[0] == 0.0 and abs(r[-1] - 1.0) <= 1e-12
    assert _one_sided(p, CONTINUITY[kind]) <= 1e-9 * rate ** 2
    if CONTINUITY[kind] >= 2:
        assert np.allclose(rdd[[0, -1]], 0.0, atol=1e-9 * rate ** 2)
