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

"""Small models and helpers for the controller tests."""

import functools
import os

import numpy as np
from robodyn_ros.friction.models import without_friction
from robodyn_ros.model import RobotModel

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data')


@functools.lru_cache(maxsize=None)
def two_link():
    """Two-link arm of test/data (gravity in the plane of motion, joint friction)."""
    return RobotModel.from_urdf(os.path.join(DATA, 'two_link.urdf'))


@functools.lru_cache(maxsize=None)
def two_link_frictionless():
    """Build the two-link arm without friction."""
    return without_friction(two_link())


def bridge(model):
    """Pinocchio bridge of a model (cached on the model)."""
    from robodyn_ros.pinocchio_bridge import PinocchioBridge
    return model.derived('test_pinocchio_bridge', PinocchioBridge)


def pin_mass_matrix(model, q):
    """Mass matrix from Pinocchio's CRBA (an independent source), armature included."""
    import pinocchio as pin
    b = bridge(model)
    m = b.from_matrix(pin.crba(b.pin_model, b.pin_data, b.q(np.asarray(q, dtype=float))))
    return np.triu(m) + np.triu(m, 1).T


def pin_gravity(model, q):
    """Gravity torque from Pinocchio."""
    import pinocchio as pin
    b = bridge(model)
    return b.from_v(pin.computeGeneralizedGravity(b.pin_model, b.pin_data,
                                                  b.q(np.asarray(q, dtype=float))))
