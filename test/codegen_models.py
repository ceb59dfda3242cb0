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

"""Random test robots for the code-generator tests (trees, chains, friction)."""

import numpy as np

from robodyn_ros.model import (BearingFriction, Friction, Inertial, Joint, RobotModel,
                               TransmissionFriction)
from robodyn_ros.model.joint import Actuator
from robodyn_ros.model.transforms import rpy_to_matrix

AXES = [(0.0, 0.0, 1.0), (0.0, 1.0, 0.0), (1.0, 0.0, 0.0), (0.0, 0.0, -1.0), (0.0, -1.0, 0.0)]


def random_inertial(rng):
    rot = rpy_to_matrix(rng.uniform(-np.pi, np.pi, 3))
    moments = rng.uniform(0.02, 0.03, 3)
    return Inertial(rng.uniform(0.5, 4.0), rng.uniform(-0.1, 0.1, 3), rot @ np.diag(moments)
                    @ rot.T)


def random_friction(rng, prismatic, load=True):
    """Velocity friction always; bearing and transmission sometimes."""
    sym = rng.random() < 0.5
    fc = rng.uniform(0.1, 1.0, 2)
    fv = rng.uniform(0.0, 0.5, 2)
    kw = {'coulomb_pos': fc[0], 'coulomb_neg': fc[0] if sym else fc[1],
          'viscous_pos': fv[0], 'viscous_neg': fv[0] if sym else fv[1],
          'smoothing_velocity': float(rng.choice([0.0, 1e-3, 0.05]))}
    if rng.random() < 0.5:
        kw.update(static_pos=kw['coulomb_pos'] + 0.3, static_neg=kw['coulomb_neg'] + 0.2,
                  stribeck_velocity=0.2)
    if load and rng.random() < 0.7:
        kind = 'linear' if prismatic else str(rng.choice(['journal', 'thrust']))
        span = float(rng.choice([0.0, 0.08])) if kind == 'thrust' else 0.08
        kw['bearing'] = BearingFriction(mu=0.05, radius=0.03, span=span, kind=kind)
    if load and rng.random() < 0.7:
        kw['transmission'] = TransmissionFriction(
            breakaway=0.4, rated_torque=30.0, load=(0.0, 0.1, 0.5, 1.0),
            efficiency=(0.4, 0.6, 0.85, 0.9))
    return Friction(**kw)


def random_tree(rng, n=7, tree=True, generic_axes=True, friction=True, prismatic=0.3):
    """Build a random tree (or chain) with mixed joints, axes, placements and friction."""
    joints, inertials = [], []
    for i in range(n):
        parent = int(rng.integers(-1, i)) if tree and i > 0 else i - 1
        kind = 'prismatic' if rng.random() < prismatic else 'revolute'
        if generic_axes and rng.random() < 0.3:
            axis = rng.normal(size=3)
            axis /= np.linalg.norm(axis)
        else:
            axis = np.array(AXES[int(rng.integers(len(AXES)))])
        if rng.random() < 0.5:
            rot = rpy_to_matrix(rng.choice([-np.pi / 2, 0.0, np.pi / 2, np.pi], 3))
            rot = np.round(rot)
        else:
            rot = rpy_to_matrix(rng.uniform(-np.pi, np.pi, 3))
        trans = rng.uniform(-0.3, 0.3, 3) * (rng.random(3) < 0.7)
        fr = random_friction(rng, kind == 'prismatic') if friction else Friction()
        act = Actuator(armature=float(rng.uniform(0.0, 0.5)))
        joints.append(Joint(name=f'j{i}', kind=kind, parent=parent, link=f'l{i}', rotation=rot,
                            translation=trans, axis=axis, actuator=act, friction=fr))
        inertials.append(random_inertial(rng))
    return RobotModel('random_tree' if tree else 'random_chain', 'base', joints, inertials)


def with_random_friction(model, rng):
    """Give a copy of a model with velocity friction on every joint and bearings/transmissions."""
    joints = [j.with_changes(friction=random_friction(rng, j.is_prismatic))
              for j in model.joints]
    return model.replace_joints(joints)


def random_dh(rng, n=6, convention='standard', prismatic=0.3, friction=True):
    """Build a random DH chain (axis-aligned frames) with mixed joints."""
    rows = []
    for _ in range(n):
        kind = 'P' if rng.random() < prismatic else 'R'
        alpha = float(rng.choice([0.0, np.pi / 2, -np.pi / 2, 0.7]))
        row = {'a': rng.uniform(-0.4, 0.4), 'alpha': alpha, 'd': rng.uniform(-0.3, 0.3),
               'theta': float(rng.choice([0.0, 0.3])), 'joint': kind,
               'mass': rng.uniform(0.5, 4.0), 'com': rng.uniform(-0.1, 0.1, 3),
               'inertia': rng.uniform(0.02, 0.03, 3), 'armature': float(rng.uniform(0.0, 0.3))}
        if friction:
            row.update(viscous=float(rng.uniform(0.0, 0.5)), coulomb=[0.3, 0.2], static=0.5,
                       stribeck_velocity=0.1)
        rows.append(row)
    return RobotModel.from_dh(rows, convention=convention, name=f'random_dh_{convention}')


def random_states(rng, model, count):
    q = rng.uniform(-np.pi, np.pi, (count, model.n))
    qd = rng.uniform(-2.0, 2.0, (count, model.n))
    qdd = rng.uniform(-4.0, 4.0, (count, model.n))
    return q, qd, qdd
