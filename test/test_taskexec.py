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

"""Scheduled subtasks on real threads give the serial RNE's torques."""

import numpy as np
import pytest
from robodyn_ros.dynamics import inverse_dynamics
from robodyn_ros.dynamics.rne import rne
from robodyn_ros.errors import InputError
from robodyn_ros.model import load_robot
from robodyn_ros.parallel.taskexec import ScheduledDynamics


def _states(model, count, seed):
    rng = np.random.default_rng(seed)
    q = np.array([model.random_configuration(rng) for _ in range(count)])
    return q, rng.uniform(-2, 2, (count, model.n)), rng.uniform(-5, 5, (count, model.n))


@pytest.mark.parametrize('robot', ['puma560', 'stanford', 'ur5', 'panda', 'cmu_dd_arm2'])
@pytest.mark.parametrize('processors,customized', [(1, False), (3, True), (4, False)])
def test_exact_against_serial_rne(robot, processors, customized):
    """Torques (friction on and off) and reactions equal the serial RNE to 1e-12."""
    model = load_robot(robot)
    q, qd, qdd = _states(model, 40, 3)
    with ScheduledDynamics(model, processors, customized) as sd:
        run = sd.run(q, qd, qdd)
        ref = inverse_dynamics(model, q, qd, qdd)
        scale = max(1.0, np.max(np.abs(ref)))
        assert np.max(np.abs(run.tau - ref)) <= 1e-12 * scale
        rigid = rne(model, q, qd, qdd)
        assert np.max(np.abs(run.force - rigid.force)) <= 1e-12 * max(1, np.abs(rigid.force).max())
        assert np.max(np.abs(run.moment - rigid.moment)) <= 1e-12 * max(
            1, np.abs(rigid.moment).max())
        off = sd(q, qd, qdd, friction=False)
        ref_off = inverse_dynamics(model, q, qd, qdd, friction=False)
        assert np.max(np.abs(off - ref_off)) <= 1e-12 * scale
        assert len(run.busy) == processors and run.wall > 0.0


def test_one_state_and_repeated_runs():
    """One state (n,) in, (n,) out; the team is reused across calls."""
    model = load_robot('stanford')
    q, qd, qdd = _states(model, 3, 8)
    with ScheduledDynamics(model, 2) as sd:
        for k in range(3):
            tau = sd(q[k], qd[k], qdd[k])
            assert tau.shape == (model.n,)
            assert np.allclose(tau, inverse_dynamics(model, q[k], qd[k], qdd[k]), atol=1e-12)


def test_bad_input():
    """NaN, wrong lengths and a bad processor count give InputError."""
    model = load_robot('puma560')
    with ScheduledDynamics(model, 2) as sd:
        q, qd, qdd = _states(model, 2, 1)
        q[1, 2] = np.nan
        with pytest.raises(InputError, match='q'):
            sd(q, qd, qdd)
        with pytest.raises(InputError):
            sd(np.zeros(5), np.zeros(5), np.zeros(5))
    with pytest.raises(InputError):
        ScheduledDynamics(model, 0)
