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

"""Attached frames: the link-by-link recursion in body and DH frames equals the RNE."""

import numpy as np
import pytest
from robodyn_ros.dynamics.rne import rne
from robodyn_ros.errors import InputError
from robodyn_ros.model import load_robot
from robodyn_ros.parallel.linkframes import link_frames
from robodyn_ros.parallel.prediction import exact


def _states(model, count, seed):
    rng = np.random.default_rng(seed)
    q = np.array([model.random_configuration(rng) for _ in range(count)])
    return q, rng.uniform(-2, 2, (count, model.n)), rng.uniform(-5, 5, (count, model.n))


@pytest.mark.parametrize('robot,kind', [('stanford', 'dh'), ('stanford', 'body'),
                                        ('ma3000', 'dh'), ('puma560', 'body'),
                                        ('ur5', 'body'), ('panda', 'body')])
def test_recursion_matches_rne(robot, kind):
    """Rigid-body torques of the attached-frame recursion equal the body-frame RNE."""
    model = load_robot(robot)
    q, qd, qdd = _states(model, 30, 4)
    res = exact(link_frames(model, kind), q, qd, qdd)
    ref = rne(model, q, qd, qdd).tau
    assert np.max(np.abs(res.tau - ref)) <= 1e-12 * max(1.0, np.max(np.abs(ref)))


def test_dh_frames_are_luh_walker_paul():
    """In DH frames the joint point is the previous frame's origin: r_in = 0, r_out = p*."""
    model = load_robot('stanford')
    fr = link_frames(model, 'dh')
    q, _, _ = _states(model, 5, 1)
    rot, r_in, r_out = fr.transforms(q)
    assert np.allclose(r_in, 0.0, atol=1e-15)
    # p* of link 2 (d2 = 0.16, alpha2 = +90 deg) in frame 2: (0, 0.16 sin, 0.16 cos).
    assert np.allclose(r_out[:, 1], [0.0, 0.16, 0.0], atol=1e-12)
    # Prismatic joint 3: p* = (0, 0, q3) in frame 3.
    assert np.allclose(r_out[:, 2, 2], q[:, 2]) and np.allclose(r_out[:, 2, :2], 0.0)
    # Rotations are proper and match the DH transforms.
    for i in range(model.n):
        assert np.allclose(np.linalg.det(rot[:, i]), 1.0)


def test_body_frames_have_no_outer_offset():
    """Body frames: the joint point is the frame origin, r_in is the joint placement."""
    model = load_robot('ur5')
    fr = link_frames(model, 'body')
    q, _, _ = _states(model, 4, 2)
    _, r_in, r_out = fr.transforms(q)
    assert np.allclose(r_out, 0.0)
    assert np.allclose(r_in[:, 1], model.joints[1].translation)


def test_dh_needs_a_standard_dh_model():
    """Modified-DH and URDF models refuse 'dh' frames; unknown kinds are refused."""
    with pytest.raises(InputError, match='standard DH'):
        link_frames(load_robot('puma560'), 'dh')
    with pytest.raises(InputError, match='standard DH'):
        link_frames(load_robot('ur5'), 'dh')
    with pytest.raises(InputError):
        link_frames(load_robot('stanford'), 'lwp')
