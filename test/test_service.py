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

"""The service's computing core: schemes, chunks, fingerprints, closing."""

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from robodyn_ros.dynamics import inverse_dynamics
from robodyn_ros.errors import InputError
from robodyn_ros.model import load_robot
from robodyn_ros.parallel.service import EffortSolver, model_fingerprint, SCHEMES, split_rows
from robodyn_ros.planning.efforts import Payload


def _states(model, count, seed):
    rng = np.random.default_rng(seed)
    q = np.array([model.random_configuration(rng) for _ in range(count)])
    return q, rng.uniform(-2, 2, (count, model.n)), rng.uniform(-5, 5, (count, model.n))


@pytest.mark.parametrize('scheme', SCHEMES)
def test_every_scheme_is_exact_and_thread_safe(scheme):
    """Each scheme equals the serial RNE (1e-12), also with 4 callers at once."""
    model = load_robot('stanford')  # no friction: every scheme applies
    solver = EffortSolver(model, 2, scheme)
    try:
        batches = [_states(model, 300, s) for s in range(4)]
        with ThreadPoolExecutor(4) as pool:
            results = list(pool.map(lambda b: solver.compute(*b), batches))
        for b, tau in zip(batches, results):
            ref = inverse_dynamics(model, *b)
            assert np.max(np.abs(tau - ref)) < 1e-12 * max(1, np.abs(ref).max())
    finally:
        solver.close()
        solver.close()


def test_rows_refuses_friction_and_closed_solvers_refuse():
    """The rows scheme refuses a model with friction; a closed solver says it is closed."""
    model = load_robot('puma560')
    with pytest.raises(InputError, match='friction'):
        EffortSolver(model, 2, 'rows')
    solver = EffortSolver(model, 2, 'rows', friction=False)
    q, qd, qdd = _states(model, 5, 1)
    assert np.allclose(solver.compute(q, qd, qdd),
                       inverse_dynamics(model, q, qd, qdd, friction=False), atol=1e-12)
    solver.close()
    with pytest.raises(InputError, match='closed'):
        solver.compute(q, qd, qdd)
    with pytest.raises(InputError):
        EffortSolver(model, 2, 'magic')
    with pytest.raises(InputError):
        EffortSolver(model, 0, 'threads')


def test_split_rows():
    """Chunks cover all rows once, at most `parts`, none below `min_rows` unless unavoidable."""
    for count, parts, min_rows in ((1000, 2, 100), (150, 4, 100), (5, 3, 1), (7, 10, 1),
                                   (99, 3, 40)):
        chunks = split_rows(count, parts, min_rows)
        assert chunks[0][0] == 0 and chunks[-1][1] == count
        assert all(a < b for a, b in chunks)
        assert all(b1 == a2 for (_, b1), (a2, _) in zip(chunks, chunks[1:]))
        assert len(chunks) <= parts
        if len(chunks) > 1:
            assert min(b - a for a, b in chunks) >= min_rows
    assert split_rows(0, 3) == []


def test_fingerprint_tells_models_apart():
    """Equal for equal models, different with a payload, other gravity or another robot."""
    model = load_robot('puma560')
    assert model_fingerprint(model) == model_fingerprint(load_robot('puma560'))
    others = [Payload(1.0).apply(model), model.with_gravity([0.0, 0.0, -9.7]),
              load_robot('stanford')]
    assert len({model_fingerprint(m) for m in others + [model]}) == 4
