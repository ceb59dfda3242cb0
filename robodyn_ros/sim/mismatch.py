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

"""
Model errors for the closed-loop scenarios: a controller model that differs from the plant.

Friction changes (:func:`robodyn_ros.friction.models.with_joint_friction`,
:func:`~robodyn_ros.friction.models.without_friction`) live with the friction models.

Every change keeps physical bodies physical (positive mass, inertia tensors
positive definite and obeying the triangle inequality; published bodies
that are not, such as two of the PUMA 560's, stay as they were), and both
Pinocchio and our dynamics accept the result.
"""

from dataclasses import replace

import numpy as np

from ..errors import InputError
from ..model import Inertial


def scaled_inertia(model, factor):
    """
    Scale every link's inertia tensor about its centre of mass (mass and centre kept).

    Parameters
    ----------
    model : RobotModel
        The model.
    factor : float
        Scale (> 0), e.g. 1.1 for a 10 % inertia mismatch.

    Returns
    -------
    RobotModel
        The changed model.

    """
    if not factor > 0.0:
        raise InputError('factor', f'must be > 0, got {factor}')
    return model.replace_inertials([Inertial(b.mass, b.com, b.inertia * factor)
                                    for b in model.inertials])


def scaled_inertials(model, factor):
    """
    Scale every link's mass and inertia tensor (centres of mass kept).

    Every inertial parameter (mass, first moment, inertia) is then off by
    the same factor, so ``M_model = factor M`` and the rigid-body torques
    scale alike.

    Parameters
    ----------
    model : RobotModel
        The model.
    factor : float
        Scale (> 0).

    Returns
    -------
    RobotModel
        The changed model.

    """
    if not factor > 0.0:
        raise InputError('factor', f'must be > 0, got {factor}')
    return model.replace_inertials([Inertial(b.mass * factor, b.com, b.inertia * factor)
                                    for b in model.inertials])


def perturbed_inertials(model, fraction, seed=0):
    """
    Change every link's mass, centre-of-mass offset and inertia by +-``fraction``.

    Each of the three is scaled by ``1 + fraction`` or ``1 - fraction``, the
    sign drawn at random per link and per quantity (so the error is not a
    uniform scale, which a computed-torque law would absorb into its gains).
    Rotor inertias are scaled alike.

    Parameters
    ----------
    model : RobotModel
        The model.
    fraction : float
        Relative error in [0, 1).
    seed : int
        Random seed.

    Returns
    -------
    RobotModel
        The changed model.

    """
    if not 0.0 <= fraction < 1.0:
        raise InputError('fraction', f'must be in [0, 1), got {fraction}')
    rng = np.random.default_rng(seed)
    bodies = []
    for b in model.inertials:
        s = 1.0 + fraction * rng.choice([-1.0, 1.0], 3)
        bodies.append(Inertial(b.mass * s[0], b.com * s[1], b.inertia * s[2]))
    joints = []
    for j in model.joints:
        s = 1.0 + fraction * rng.choice([-1.0, 1.0])
        joints.append(j.with_changes(actuator=replace(j.actuator,
                                                      armature=j.actuator.armature * s)))
    return model.replace_inertials(bodies).replace_joints(joints)
