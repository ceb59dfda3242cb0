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

"""The control loop's trajectory sampler against the Trajectory value it mirrors."""

import numpy as np
import pytest
from robodyn_ros.control.reference import ReferenceSampler
from robodyn_ros.errors import InputError
from robodyn_ros.planning.trajectory import SampledTrajectory


@pytest.mark.parametrize('derivatives', [True, False])
def test_matches_sampled_trajectory_everywhere(derivatives):
    """Same values as SampledTrajectory at random, increasing, knot and outside times."""
    rng = np.random.default_rng(0)
    t = np.cumsum(rng.uniform(0.005, 0.02, 40))
    q = np.cumsum(rng.normal(0, 0.01, (40, 3)), axis=0)
    qd = rng.normal(0, 0.5, (40, 3)) if derivatives else None
    qdd = rng.normal(0, 5.0, (40, 3)) if derivatives else None
    names = ['a', 'b', 'c']
    ref = SampledTrajectory(names, t - t[0], q, qd, qdd)
    fast = ReferenceSampler(t, q, qd, qdd)
    span = t[-1] - t[0]
    times = np.concatenate([np.sort(rng.uniform(-0.1, span + 0.1, 200)), t - t[0],
                            rng.uniform(0, span, 50), [span, 0.0]])
    for when in times:
        expected = ref.sample(when)
        got = fast.sample(when)
        for a, b in zip(got, expected):
            assert np.allclose(a, b, atol=1e-9, rtol=1e-9), when
    assert np.allclose(fast.reference(span / 2).q, ref.sample(span / 2)[0])


def test_single_point_and_errors():
    """One point holds it; bad inputs are refused."""
    hold = ReferenceSampler([0.3], [[1.0, 2.0]])
    q, qd, qdd = hold.sample(5.0)
    assert q.tolist() == [1.0, 2.0] and not qd.any() and not qdd.any()
    with pytest.raises(InputError):
        ReferenceSampler([0.0, 0.0], [[1.0], [2.0]])
    with pytest.raises(InputError):
        ReferenceSampler([0.0, 1.0], [[1.0], [np.nan]])
    with pytest.raises(InputError):
        ReferenceSampler([0.0, 1.0], [[1.0]])
    with pytest.raises(InputError):
        hold.sample(np.nan)
