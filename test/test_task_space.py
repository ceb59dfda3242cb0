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

"""Task-space (resolved-acceleration) computed torque (seed 001 §9.4.3)."""

import numpy as np
import pytest
from robodyn_ros.control.base import Mode
from robodyn_ros.control.task_space import TaskReference, TaskSpaceComputedTorque
from robodyn_ros.errors import InputError
from robodyn_ros.friction.models import without_friction
from robodyn_ros.model import load_robot
from robodyn_ros.sim.plant import Plant
from robodyn_ros.sim.runner import simulate


def _still(position, rotation=None):
    return TaskReference(np.asarray(position, dtype=float), np.zeros(3), np.zeros(3), rotation)


def test_position_error_is_critically_damped():
    """Seed 001 claim 29: X'' = w, so the task error follows e0 (1 + w t) exp(-w t)."""
    model = without_friction(load_robot('ma3000'))
    q0 = np.radians([10.0, -60.0, 40.0])
    ctl = TaskSpaceComputedTorque(model, 1e-3, omega=15.0, orientation=False,
                                  torque_limit=np.inf)
    p0 = model.frame_pose(q0, ctl.frame)[:3, 3]
    e0 = np.array([0.02, -0.01, 0.015])
    plant = Plant(model, q0=q0, dt=5e-4, friction=False)
    res = simulate(plant, ctl, lambda t: _still(p0 + e0), 0.4)
    p = np.array([model.frame_pose(q, ctl.frame)[:3, 3] for q in res.q])
    t = res.times[:, None]
    analytic = e0 * (1.0 + 15.0 * t) * np.exp(-15.0 * t)
    assert np.abs((p0 + e0 - p) - analytic).max() < 0.03 * np.abs(e0).max()


def test_pose_error_decays_on_a_six_joint_arm():
    """6-D task on the PUMA 560 (orientation as a rotation vector): the error decays."""
    model = without_friction(load_robot('puma560'))
    q0 = np.array([0.2, -0.6, 0.5, 0.3, 0.6, -0.2])
    ctl = TaskSpaceComputedTorque(model, 2e-3, omega=10.0, torque_limit=np.inf)
    goal = model.frame_pose(q0 + np.array([0.05, -0.05, 0.05, -0.05, 0.05, 0.05]), ctl.frame)
    ref = _still(goal[:3, 3], goal[:3, :3])
    plant = Plant(model, q0=q0, dt=1e-3, friction=False)
    res = simulate(plant, ctl, lambda t: ref, 0.6)
    start = np.abs(ctl.task_error(res.q[0], ref)).max()
    end = np.abs(ctl.task_error(res.q[-1], ref)).max()
    assert start > 1e-2 and end < 0.03 * start


def test_invalid_task_references_give_the_hold():
    """Missing rotation, NaN position or no reference: gravity hold."""
    model = load_robot('ma3000')
    full = TaskSpaceComputedTorque(model, 1e-3, omega=10.0)
    q = np.radians([0.0, -60.0, 30.0])
    for ref in (None, _still([np.nan, 0.0, 0.0], np.eye(3)), _still([0.1, 0.0, 0.3]),
                _still([0.1, 0.0, 0.3], np.full((3, 3), np.nan))):
        _, st = full.step(0.0, q, np.zeros(3), ref)
        assert st.mode == Mode.HOLD
    with pytest.raises(InputError):
        TaskSpaceComputedTorque(model, 1e-3)
    with pytest.raises(InputError):
        TaskSpaceComputedTorque(model, 1e-3, omega=1.0, damping=-1.0)
