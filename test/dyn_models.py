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

"""Test models for the dynamics tests: random but physical arms, chains and trees."""

import os

import numpy as np
from robodyn_ros.model import load_robot, RobotModel
from robodyn_ros.model.transforms import rpy_to_matrix

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data')


def random_inertia(rng, mass):
    """Inertia of a randomly sized and oriented box [kg m^2]."""
    a, b, c = rng.uniform(0.05, 0.4, 3)
    box = mass / 12.0 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b])
    r = rpy_to_matrix(rng.uniform(-np.pi, np.pi, 3))
    return r @ box @ r.T


def random_dh_model(seed, joints='RRPRRR', convention='modified', friction=True,
                    stribeck=False, gravity=(0.0, 0.0, -9.81)):
    """Build a random serial arm with full inertia tensors, armature and friction."""
    rng = np.random.default_rng(seed)
    rows = []
    for kind in joints:
        mass = rng.uniform(0.5, 5.0)
        row = {'a': rng.uniform(-0.4, 0.4), 'alpha': rng.uniform(-np.pi, np.pi),
               'd': rng.uniform(-0.3, 0.3), 'theta': rng.uniform(-np.pi, np.pi),
               'joint': kind, 'mass': mass, 'com': rng.uniform(-0.1, 0.1, 3),
               'inertia': random_inertia(rng, mass),
               'armature': rng.uniform(0.0, 0.5)}
        if kind == 'P':
            row['limits'] = {'lower': 0.1, 'upper': 0.8}
        if friction:
            row['coulomb'] = list(rng.uniform(0.0, 2.0, 2))
            row['viscous'] = list(rng.uniform(0.0, 1.0, 2))
            if stribeck:
                row['static'] = [row['coulomb'][0] * 1.5, row['coulomb'][1] * 1.3]
                row['stribeck_velocity'] = 0.2
        rows.append(row)
    return RobotModel.from_dh(rows, convention=convention, gravity=gravity,
                              name=f'random_{joints}_{seed}')


def without_friction(model):
    """Return the same model with all friction removed."""
    from robodyn_ros.model.joint import Friction
    return model.replace_joints([j.with_changes(friction=Friction()) for j in model.joints])


def example_models():
    """Named models covering chains, a tree, prismatic and continuous joints."""
    return {
        'ur5': load_robot('ur5'),
        'panda': load_robot('panda'),
        'two_link': RobotModel.from_urdf(os.path.join(DATA, 'two_link.urdf'),
                                         params=os.path.join(DATA, 'good_params.yaml')),
        'continuous': RobotModel.from_urdf(os.path.join(DATA, 'two_link.urdf.xacro')),
        'dh_modified_rrprrr': random_dh_model(1, stribeck=True),
        'dh_standard_prr': random_dh_model(2, joints='PRR', convention='standard'),
    }
