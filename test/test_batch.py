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

"""Batch partitioning over threads: exact results, shapes, concurrency, bad input."""

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from robodyn_ros.dynamics import forward_dynamics, inverse_dynamics, mass_matrix
from robodyn_ros.errors import InputError
from robodyn_ros.model import load_robot
from robodyn_ros.parallel.batch import (parallel_forward_dynamics, parallel_inverse_dynamics,
                                        parallel_mass_matrix)


def _states(model, count, seed):
    rng = np.random.default_rng(seed)
    q = np.array([model.random_configuration(rng) for _ in range(count)])
    return q, rng.uniform(-2, 2, (count, model.n)), rng.uniform(-5, 5, (count, model.n))


@pytest.mark.parametrize('robot', ['puma560', 'stanford', 'ur5', 'panda'])
@pytest.mark.parametrize('threads', [1, 2, 3])
def test_exact_against_serial(robot, threads):
    """Inverse dynamics (friction on/off) and mass matrices to 1e-12; forward dynamics inverts."""
    model = load_robot(robot)
    q, qd, qdd = _states(model, 4100, threads)
    ref = inverse_dynamics(model, q, qd, qdd)
    tau = parallel_inverse_dynamics(model, q, qd, qdd, threads=threads)
    scale = max(1.0, np.abs(ref).max())
    assert np.max(np.abs(tau - ref)) < 1e-12 * scale
    rigid = parallel_inverse_dynamics(model, q, qd, qdd, threads=threads, friction=False)
    assert np.max(np.abs(rigid - inverse_dynamics(model, q, qd, qdd, friction=False))) < (
        1e-12 * scale)
    mass = parallel_mass_matrix(model, q[:300], threads=threads)
    assert np.max(np.abs(mass - mass_matrix(model, q[:300]))) < 1e-12 * max(1, np.abs(mass).max())
    acc = parallel_forward_dynamics(model, q[:300], qd[:300], rigid[:300], threads=threads,
                                    friction=False)
    assert np.allclose(acc, qdd[:300], rtol=1e-9, atol=1e-9)
    assert np.allclose(acc, forward_dynamics(model, q[:300], qd[:300], rigid[:300],
                                             friction=False), atol=1e-9)
    acc = parallel_forward_dynamics(model, q[:300], qd[:300], tau[:300], threads=threads)
    assert np.allclose(acc, qdd[:300], rtol=1e-9, atol=1e-9)


def test_shapes():
    """One state in gives one state out; an empty batch gives an empty result."""
    model = load_robot('puma560')
    q, qd, qdd = _states(model, 1, 0)
    assert parallel_inverse_dynamics(model, q[0], qd[0], qdd[0], threads=2).shape == (6,)
    assert parallel_mass_matrix(model, q[0], threads=2).shape == (6, 6)
    assert parallel_forward_dynamics(model, q[0], qd[0], qdd[0], 2).shape == (6,)
    empty = np.zeros((0, 6))
    assert parallel_inverse_dynamics(model, empty, empty, empty, threads=2).shape == (0, 6)


def test_concurrent_callers_share_the_pools():
    """Many callers at once on the same pool all get their own exact answers."""
    model = load_robot('ur5')
    batches = [_states(model, 3000, s) for s in range(6)]
    with ThreadPoolExecutor(6) as pool:
        results = list(pool.map(lambda b: parallel_inverse_dynamics(model, *b, threads=2),
                                batches))
    for b, tau in zip(batches, results):
        assert np.allclose(tau, inverse_dynamics(model, *b), atol=1e-10)


def test_bad_input():
    """NaN, mismatched shapes, wrong joint counts and bad thread counts give InputError."""
    model = load_robot('puma560')
    q, qd, qdd = _states(model, 10, 1)
    bad = q.copy()
    bad[4, 3] = np.nan
    with pytest.raises(InputError, match='row 4'):
        parallel_inverse_dynamics(model, bad, qd, qdd, threads=2)
    with pytest.raises(InputError):
        parallel_inverse_dynamics(model, q, qd[:5], qdd, threads=2)
    with pytest.raises(InputError):
        parallel_mass_matrix(model, q[:, :5])
    with pytest.raises(InputError, match='tau'):
        parallel_forward_dynamics(model, q, qd, qdd[:, :4])
    for threads in (0, -1, 1.5, True):
        with pytest.raises(InputError):
            parallel_inverse_dynamics(model, q, qd, qdd, threads=threads)


@pytest.mark.parametrize('threads', [1, 2])
def test_bad_entry_found_in_any_piece(threads):
    """A NaN or inf deep in a large batch is named by row, for every batch function."""
    model = load_robot('puma560')
    q, qd, qdd = _states(model, 20_000, 2)
    for row, joint, value in ((0, 0, np.nan), (19_999, 5, np.inf), (12_345, 2, -np.inf)):
        bad = qdd.copy()
        bad[row, joint] = value
        with pytest.raises(InputError, match=f'qdd: row {row}, joint {joint}'):
            parallel_inverse_dynamics(model, q, qd, bad, threads=threads)
        badq = q.copy()
        badq[row, joint] = value
        with pytest.raises(InputError, match=f'row {row}, joint {joint}'):
            parallel_mass_matrix(model, badq, threads=threads)
        with pytest.raises(InputError, match=f'tau: row {row}, joint {joint}'):
            parallel_forward_dynamics(model, q, qd, bad, threads=threads)


def test_finite_values_whose_sum_overflows_pass():
    """Huge but finite inputs (their sum overflows) are not mistaken for NaN or inf."""
    model = load_robot('puma560')
    q, qd, qdd = _states(model, 4000, 3)
    qdd[:, 0] = 1e305  # 4,000 of them sum past the largest double; each torque stays finite
    with np.errstate(over='ignore'):      # the overflow is the point: no warning for it
        assert not np.isfinite(qdd.sum())
    tau = parallel_inverse_dynamics(model, q, qd, qdd, threads=2, friction=False)
    ref = inverse_dynamics(model, q, qd, qdd, friction=False)
    assert np.all(np.isfinite(tau))
    assert np.allclose(tau, ref, rtol=1e-9, atol=0.0)
