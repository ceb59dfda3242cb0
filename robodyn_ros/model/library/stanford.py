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
Stanford (JPL/Scheinman) arm: seed 000's reconstructed parameter set.

Standard DH (Paul's assignment) with d2 = 0.16 m and a prismatic joint 3,
Paul's (1981) masses, centres of mass and principal inertias; the inertias
are given about the link-frame origin and converted to the centre of mass.
"""

import math

from ._common import build_model, GRAVITY_NOTE, inertia_about_com, limits

KEY = 'stanford'
CONVENTION = 'standard'

SOURCE = (
    'Stanford (JPL/Scheinman) arm, parameter set reconstructed in the seed 000 digest section 2 '
    '(PhD thesis "Distributed Architecture and Fast Parallel Algorithms in Realtime Robot '
    'Control"; data after Paul 1981 Tables 6.5/6.6 and Bejczy 1974), which reproduces the '
    "thesis's numerical D(q), H and G examples (digest section 3.1). Joint limits from "
    "Corke's mdl_stanford as quoted in the digest. " + GRAVITY_NOTE + " The thesis's "
    'G(q) corresponds to gravity (0, 0, +9.806) m/s^2 in this base frame (see CORRECTIONS).')

# Standard DH: theta [rad], d [m], a [m], alpha [rad], joint type.
GEOMETRY = (
    (0.0, 0.0, 0.0, -math.pi / 2, 'R'),
    (0.0, 0.16, 0.0, math.pi / 2, 'R'),
    (0.0, 0.0, 0.0, 0.0, 'P'),
    (0.0, 0.0, 0.0, -math.pi / 2, 'R'),
    (0.0, 0.0, 0.0, math.pi / 2, 'R'),
    (0.0, 0.0, 0.0, 0.0, 'R'),
)

#: Link masses [kg] (Paul 1981).
MASS = (9.29, 5.01, 4.25, 1.08, 0.63, 0.51)
#: Centres of mass in each link's own (distal) DH frame [m].
COM = ((0.0, 0.0175, -0.1105), (0.0, -0.1054, 0.0), (0.0, 0.0, -0.6447),
       (0.0, 0.0092, -0.0054), (0.0, 0.0, 0.0566), (0.0, 0.0, 0.1554))
#: Principal inertias about the link-frame ORIGIN, link axes [kg m^2].
INERTIA_AT_ORIGIN = ((0.276, 0.255, 0.071), (0.108, 0.018, 0.100), (2.51, 2.51, 0.006),
                     (0.002, 0.001, 0.001), (0.003, 0.003, 0.0004), (0.013, 0.013, 0.0003))

#: Gravity that reproduces the thesis's G(q) in this base frame [m/s^2].
THESIS_GRAVITY = (0.0, 0.0, 9.806)

#: Position limits: [deg] for revolute joints, [m] for joint 3 (Corke).
POSITION_LIMITS = ((-170.0, 170.0), (-170.0, 170.0), (0.305, 1.27), (-170.0, 170.0),
                   (-90.0, 90.0), (-170.0, 170.0))
#: Velocity [rad/s, m/s], acceleration [rad/s^2, m/s^2] and effort [N m, N] limits (chosen).
VELOCITY_LIMIT = (2.0, 2.0, 1.0, 3.0, 3.0, 3.0)
ACCELERATION_LIMIT = (8.0, 8.0, 4.0, 12.0, 12.0, 15.0)
EFFORT_LIMIT = (100.0, 160.0, 150.0, 20.0, 20.0, 10.0)

CORRECTIONS = (
    "Geometry: the thesis prints no DH table; the digest's reconstruction is used: standard "
    "DH, alpha = -90, +90, 0, -90, +90, 0 deg, d2 = 0.16 m (fits the thesis better than Paul's "
    '0.154 m), all a = 0, d1 = d6 = 0, theta offsets 0.',
    'Joint 3 is prismatic with d3 = q3: q3 is the full extension of the boom, from the joint-2 '
    'axis to frame 3 (no constant offset).',
    "Centres of mass in the link frames as reconstructed in the digest (Corke's "
    'mdl_stanford has several of them scaled by 10, e.g. -1.054 and -6.447); link 5 at '
    '(0, 0, 0.0566) m.',
    "Inertias: Paul's principal values are about the link-frame origin (pseudo-inertia "
    'convention), so each is converted to the centre of mass with I_c = I_o - m(|r|^2 E - '
    "r r^T); link 5 uses (0.003, 0.003, 0.0004) kg m^2 as the thesis's numbers require "
    '(Paul and Corke list (0.003, 0.0004, 0)).',
    "No rotor inertia (armature 0): the thesis's D(6,6) = 0.00030 = Izz6 excludes it. "
    "Corke's mdl_stanford lists Jm = 0.953, 2.193, 0.782, 0.106, 0.097, 0.020 with G = 1 "
    '(gear ratios unknown); these are not used.',
    'No friction: the thesis models none.',
    'Gravity: the library model uses (0, 0, -9.81) m/s^2 (z up). The thesis writes the base '
    'acceleration as a(0) = g = (0, 0, -9.806), which in a z-up frame is gravity pointing '
    'up: its G(q) is reproduced with the gravity vector (0, 0, +9.806) m/s^2 '
    '(THESIS_GRAVITY); with physical gravity G(q) flips sign.',
    'Position limits (Corke): +-170 deg, joint 5 +-90 deg, q3 in [0.305, 1.27] m (12-50 in).',
    'Velocity and acceleration limits (chosen; no source): 2, 2 rad/s, 1 m/s, 3, 3, 3 rad/s '
    'and 8, 8 rad/s^2, 4 m/s^2, 12, 12, 15 rad/s^2; the velocity and acceleration peaks of '
    "the thesis's Trajectory 1 run in 2 s stay within them, those of the 1 s run do not.",
    'Effort limits (chosen): 100, 160 N m, 150 N, 20, 20, 10 N m, at least 1.5 x (largest '
    'diagonal inertia x acceleration limit + largest gravity torque) over the joint ranges.',
)


def rows():
    """
    DH rows of the model (standard convention).

    Returns
    -------
    list of dict
        One row per link, as accepted by
        :func:`robodyn_ros.model.dh.model_from_dh`.

    """
    out = []
    for i, (theta, d, a, alpha, kind) in enumerate(GEOMETRY):
        lim = limits(*POSITION_LIMITS[i], VELOCITY_LIMIT[i], ACCELERATION_LIMIT[i],
                     EFFORT_LIMIT[i], angular=kind == 'R')
        out.append({'a': a, 'alpha': alpha, 'd': d, 'theta': theta, 'joint': kind,
                    'mass': MASS[i], 'com': COM[i],
                    'inertia': inertia_about_com(MASS[i], COM[i], INERTIA_AT_ORIGIN[i]),
                    'limits': lim})
    return out


def build(strict=False):
    """
    Build the Stanford arm model.

    Parameters
    ----------
    strict : bool
        Refuse parameters that break a rule of physical consistency.

    Returns
    -------
    RobotModel
        Joints R R P R R R, standard DH, gravity (0, 0, -9.81) m/s^2.

    """
    return build_model(KEY, rows(), CONVENTION, strict)
