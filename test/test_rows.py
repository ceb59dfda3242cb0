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

"""Seed 003's row partition on real threads: exact M and Q, figures per worker."""

import numpy as np
import pytest
from robodyn_ros.dynamics import inverse_dynamics, mass_matrix
from robodyn_ros.errors import InputError
from robodyn_ros.model import load_robot
from robodyn_ros.parallel.rows import configuration, configurations, RowPartition


def _states(model, count, seed):
    rng = np.random.default_rng(seed)
    q = np.array([model.random_configuration(rng) for _ in range(count)])
    return q, rng.uniform(-2, 2, (count, model.n)), rng.uniform(-5, 5, (count, model.n))


@pytest.fixture(scope='module')
def ma3000():
    model = load_robot('ma3000')
    with RowPartition(model) as rp:
        yield model, rp


@pytest.mark.parametrize('mode', ['sample', 'batch'])
def test_every_configuration_is_exact(ma3000, mode):
    """M qdd + Q from the pieces equals the serial RNE to 1e-12, for each configuration."""
    model, rp = ma3000
    q, qd, qdd = _states(model, 25, 1)
    ref = inverse_dynamics(model, q, qd, qdd, friction=False)
    for name in configurations(model.n):
        run = rp.run(name, q, qd, mode, repeat=1)
        if name.startswith('row_split'):
            i = int(name[9:])
            tau_i = np.einsum('nj,nj->n', run.mass[:, i], qdd) + run.bias[:, i]
            assert np.max(np.abs(tau_i - ref[:, i])) < 1e-12 * max(1, np.abs(ref).max())
            continue
        assert np.allclose(run.mass, np.transpose(run.mass, (0, 2, 1)), atol=1e-14)
        tau = np.einsum('nij,nj->ni', run.mass, qdd) + run.bias
        assert np.max(np.abs(tau - ref)) < 1e-12 * max(1, np.abs(ref).max()), name
        assert np.allclose(run.mass, mass_matrix(model, q), atol=1e-12)
        assert len(run.busy) == len(run.workers) and run.wall > 0 and run.serial > 0


def test_figures_of_a_run(ma3000):
    """Speed-up, efficiency, busy fractions and the modelled figures are consistent."""
    model, rp = ma3000
    q, qd, _ = _states(model, 20, 2)
    run = rp.run('rows', q, qd, 'batch', repeat=1)
    assert np.isclose(run.speedup, run.serial / run.wall)
    assert np.isclose(run.efficiency, run.speedup / 3)
    assert all(0.0 <= b <= 1.0 + 1e-6 for b in run.busy_fraction)
    assert max(run.modelled_busy_fraction) == 1.0
    # The waist row is the heaviest, the last the lightest (seed 003: 96 % vs 22 % busy).
    assert run.ops[0] > run.ops[1] > run.ops[2]
    assert run.modelled_speedup == run.serial_ops / run.ops[0] > 1.0


def test_row_pieces_cost_falls_down_the_arm():
    """PUMA 560: the operations of row i do not grow with i (the thesis's imbalance)."""
    model = load_robot('puma560')
    with RowPartition(model) as rp:
        workers, reference = configuration(model.n, 'rows')
        q, qd, _ = _states(model, 4, 3)
        run = rp.run('rows', q, qd, 'sample', repeat=1)
        assert list(run.ops) == sorted(run.ops, reverse=True)
        assert run.serial_ops < sum(run.ops)  # rows repeat shared intermediates


def test_numpy_fallback_matches():
    """Without C (numpy evaluation of the same graph) the pieces are the same."""
    model = load_robot('ma3000')
    q, qd, qdd = _states(model, 5, 4)
    with RowPartition(model, backend='numpy') as rp:
        assert rp.kernels.backend == 'numpy'
        run = rp.run('elements_symmetric', q, qd, 'batch', repeat=1)
    tau = np.einsum('nij,nj->ni', run.mass, qdd) + run.bias
    assert np.allclose(tau, inverse_dynamics(model, q, qd, qdd, friction=False), atol=1e-12)


def test_bad_configuration_and_input(ma3000):
    """Unknown configurations, modes and NaN states are refused."""
    model, rp = ma3000
    with pytest.raises(InputError):
        configuration(3, 'columns')
    with pytest.raises(InputError):
        configuration(3, 'row_split3')
    q, qd, _ = _states(model, 3, 5)
    with pytest.raises(InputError):
        rp.run('rows', q, qd, 'stream')
    q[0, 0] = np.nan
    with pytest.raises(InputError):
        rp.run('rows', q, qd)
