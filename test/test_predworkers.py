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

"""One thread per link: the same numbers as the vectorised simulation, to the bit."""

import numpy as np
import pytest
from robodyn_ros.dynamics.rne import rne
from robodyn_ros.errors import InputError
from robodyn_ros.model import load_robot
from robodyn_ros.parallel.linkframes import link_frames
from robodyn_ros.parallel.prediction import METHODS, simulate
from robodyn_ros.parallel.predworkers import PredictionWorkers
from robodyn_ros.reproductions.stanford_prediction import thesis_model, trajectory


@pytest.mark.parametrize('method', METHODS)
def test_threads_equal_vectorised_on_the_thesis_case(method):
    """Stanford, DH frames, Trajectory 1 in 1 s: identical torques."""
    fr = link_frames(thesis_model(), 'dh')
    s = trajectory(1, 1.0)
    with PredictionWorkers(fr, method) as workers:
        run = workers.run(s.q, s.qd, s.qdd, timed=True)
    assert np.array_equal(run.tau, simulate(fr, s.q, s.qd, s.qdd, method).tau)
    assert run.samples == len(s.t) and len(run.busy) == 6 and min(run.busy) > 0.0


@pytest.mark.parametrize('method', METHODS)
def test_threads_equal_vectorised_on_a_tree(method):
    """Panda (two fingers on one body, prismatic joints), body frames."""
    model = load_robot('panda')
    rng = np.random.default_rng(4)
    q = np.cumsum(rng.normal(0, 0.01, (40, model.n)), 0)
    qd, qdd = rng.normal(0, 1, (40, model.n)), rng.normal(0, 3, (40, model.n))
    with PredictionWorkers(model, method) as workers:
        tau = workers.run(q, qd, qdd).tau
    assert np.array_equal(tau, simulate(model, q, qd, qdd, method).tau)


def test_serial_baseline_is_exact():
    """Method 'exact' runs the recursion sample by sample on one thread: the RNE."""
    model = load_robot('ur5')
    rng = np.random.default_rng(5)
    q, qd, qdd = (rng.normal(size=(30, model.n)) for _ in range(3))
    with PredictionWorkers(model, 'exact') as workers:
        run = workers.run(q, qd, qdd)
    ref = rne(model, q, qd, qdd).tau
    assert np.max(np.abs(run.tau - ref)) < 1e-11 * max(1, np.abs(ref).max())
    assert run.per_sample > 0.0


def test_reuse_and_bad_input():
    """A worker set runs several trajectories; bad methods and NaN are refused."""
    model = load_robot('stanford')
    s = trajectory(2, 1.0)
    with PredictionWorkers(model, 'zero') as workers:
        a = workers.run(s.q, s.qd, s.qdd).tau
        b = workers.run(s.q, s.qd, s.qdd).tau
        assert np.array_equal(a, b)
        bad = s.q.copy()
        bad[5, 0] = np.inf
        with pytest.raises(InputError):
            workers.run(bad, s.qd, s.qdd)
    with pytest.raises(InputError):
        PredictionWorkers(model, 'second')
