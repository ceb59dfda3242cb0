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
CMU Direct-Drive Arm II: seed 002's DH rows and repaired inertia table.

Standard DH of Figure 4-1 with link lengths chosen here (the paper gives
none) and Table 4-1's masses, centres of mass and inertia tensors, repaired
to a physically consistent set as listed in :data:`CORRECTIONS`.
"""

import math

from ._common import build_model, GRAVITY_NOTE, limits

KEY = 'cmu_dd_arm2'
CONVENTION = 'standard'

#: Chosen lengths [m] (see CORRECTIONS).
A1, D1, A2, D3, D4 = 0.50, 0.70, 0.40, -0.15, -0.25

SOURCE = (
    'CMU Direct-Drive Arm II, seed 002 (T. Kanade, P. K. Khosla, N. Tanaka, "Real-Time '
    'Control of CMU Direct-Drive Arm II Using Customized Inverse Dynamics", 1984): standard '
    'DH rows of Figure 4-1, inertial parameters of Table 4-1 (repaired), joint velocity and '
    'acceleration limits of Section 5.3. The link lengths a1, d1, a2, d3, d4 are not given '
    'and are chosen here. ' + GRAVITY_NOTE)

# Standard DH (Figure 4-1): theta offset [rad], d [m], a [m], alpha [rad].
GEOMETRY = (
    (0.0, D1, A1, 0.0),
    (0.0, 0.0, A2, math.pi / 2),
    (0.0, D3, 0.0, -math.pi / 2),
    (0.0, D4, 0.0, math.pi / 2),
    (0.0, 0.0, 0.0, math.pi / 2),
    (0.0, 0.0, 0.0, 0.0),
)

#: Link masses [kg] (Table 4-1).
MASS = (19.753, 7.894, 2.801, 1.881, 0.936, 0.269)

#: Table 4-1 as printed, (xx, yy, zz, xy, xz, yz) [kg m^2]; unprinted elements are 0.
PRINTED_INERTIA = (
    (0.135283, 1.225357, 0.033108, 0.0, 0.048943, 1.193645),
    (0.0, 0.264736, -0.000115, -0.027993, -0.001146, 0.286647),
    (0.014622, 0.006615, 0.012432, 0.0, 0.0, 0.001269),
    (0.023775, 0.004055, 0.021652, 0.0, 0.0, 0.003083),
    (0.002018, 0.001049, 0.0, 0.0, 0.001396, -0.000092),
    (0.000426, 0.000421, 0.000047, 0.0, 0.0, 0.0),
)
#: Table 4-1 centres of mass as printed, with the duplicate "s3y = 0.005481" [m].
PRINTED_COM = ((-0.300000, 0.0, 0.100399), (-0.131742, -0.013219, 0.001105),
               (-0.012487, -0.039703, 0.0), (0.0, 0.071645, 0.022866),
               (-0.017932, 0.0, 0.0), (0.008176, 0.0, 0.0))
PRINTED_DUPLICATE_S3Y = 0.005481

#: Repaired inertia tensors about the CoM in DH frame i, (xx, yy, zz, xy, xz, yz) [kg m^2].
J2XX = 0.264736 * 0.135283 / 1.225357
INERTIA = (
    (0.135283, 1.225357, 1.193645, 0.0, 0.048943, 0.033108),
    (J2XX, 0.264736, 0.286647, -0.027993, -0.001146, -0.000115),
    PRINTED_INERTIA[2],
    PRINTED_INERTIA[3],
    (0.002018, 0.001049, 0.001396, 0.0, 0.0, -0.000092),
    PRINTED_INERTIA[5],
)
#: Centres of mass in DH frame i [m] (duplicate s3y read as s5y).
COM = PRINTED_COM[:4] + ((-0.017932, PRINTED_DUPLICATE_S3Y, 0.0),) + PRINTED_COM[5:]

#: Position limits [deg] (chosen).
POSITION_LIMITS = ((-150.0, 150.0), (-150.0, 150.0), (-120.0, 120.0), (-180.0, 180.0),
                   (-120.0, 120.0), (-180.0, 180.0))
#: Velocity [rad/s] and acceleration [rad/s^2] limits (Section 5.3).
VELOCITY_LIMIT = 12.0
ACCELERATION_LIMIT = 10.0
#: Effort limits [N m] (chosen, see CORRECTIONS).
EFFORT_LIMIT = (200.0, 40.0, 15.0, 2.0, 1.0, 0.2)
#: Friction (chosen, small): Coulomb [N m] and viscous [N m s/rad].
COULOMB = (2.0, 0.4, 0.15, 0.02, 0.01, 0.002)
VISCOUS = (0.4, 0.08, 0.03, 0.004, 0.002, 0.0004)

CORRECTIONS = (
    'Lengths (not given in the paper), chosen with a two-point-mass model of each link that '
    'matches the printed mass, centre-of-mass offset s along the link and transverse inertia '
    'I: length = s + I / (m s), rounded to 5 cm: a1 = 0.50 m (from s1x = -0.300 and J1zz), '
    'a2 = 0.40 m (s2x, J2zz), |d3| = 0.15 m (s3y, J3zz), |d4| = 0.25 m (s4y, J4zz). d1 = '
    '0.70 m is a plausible column height; it has no effect on the joint torques.',
    'Signs of d3 and d4: negative, so that links 3 and 4 lie between their joint axes as '
    'their printed centres of mass require (s3y < 0 and s4y > 0 with y3 = -z2 and y4 = z3); '
    'with the base z axis up the forearm then hangs down at theta3 = 0, as in a SCARA.',
    'Gravity: the paper writes the base acceleration as (0, 0, -g), which points the base z '
    'axis down if g = +9.81 m/s^2 and up if g is the signed vertical component (-9.81). The '
    'model takes the base z axis up with gravity (0, 0, -9.81) m/s^2, as a floor-standing '
    'SCARA-type arm; gravity does not load joints 1 and 2.',
    'J1: the printed tensor (J1yz = 1.193645 of the order of J1yy, J1zz = 0.033108) is not '
    'positive definite. The labels of J1yz and J1zz are swapped: Izz = 1.193645, Iyz = '
    '0.033108 kg m^2, which makes link 1 (long along x1) a body with two large transverse '
    'moments and a small one about its long axis.',
    'J2: the printed J2zz = -0.000115 is negative and J2xx is missing. The labels of J2zz and '
    'J2yz are swapped as for J1 (Izz = 0.286647, Iyz = -0.000115 kg m^2), and J2xx is set to '
    "J2yy * J1xx / J1yy = 0.029228 kg m^2 (link 2 given link 1's ratio of axial to "
    'transverse moment).',
    'J5: J5zz is missing, and J5xz = 0.001396 with J5yy = 0.001049 cannot belong to a rigid '
    'body for any J5zz (the triangle inequality needs J5yy >= 2|J5xz|). The value is read as '
    'J5zz = 0.001396 kg m^2 (label error), J5xz = 0.',
    'J3, J4 and J6 are used as printed (they are physical).',
    'Centres of mass as printed, except the duplicate "s3y = 0.005481" listed between s4z '
    'and s5x, which is read as s5y (OCR 3/5 confusion): s5 = (-0.017932, 0.005481, 0) m.',
    'Masses as printed (19.753, 7.894, 2.801, 1.881, 0.936, 0.269 kg; 33.5 kg in all, the '
    'paper says the arm weighs about 70 lb).',
    'Direct drive: gear ratio 1 and no separate rotor inertia (the motor rotors are part of '
    'the links, whose modelled inertias are taken to include them).',
    'Friction (chosen, small, direct-drive brushless motors): Coulomb 2.0, 0.4, 0.15, 0.02, '
    '0.01, 0.002 N m (1 % of the effort limits) and viscous 0.4, 0.08, 0.03, 0.004, 0.002, '
    '0.0004 N m s/rad (0.2 s times the Coulomb level), symmetric, no Stribeck term.',
    'Velocity limit 12 rad/s and acceleration limit 10 rad/s^2 for every joint (Section '
    '5.3).',
    'Position limits (chosen): +-150, +-150, +-120, +-180, +-120, +-180 deg.',
    'Effort limits (chosen): 200, 40, 15, 2, 1, 0.2 N m, at least 1.5 x (largest diagonal '
    'inertia x 10 rad/s^2 + largest gravity torque) over the joint ranges.',
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
    for i, (theta, d, a, alpha) in enumerate(GEOMETRY):
        out.append({
            'a': a, 'alpha': alpha, 'd': d, 'theta': theta, 'joint': 'R',
            'mass': MASS[i], 'com': COM[i], 'inertia': INERTIA[i],
            'coulomb': COULOMB[i], 'viscous': VISCOUS[i],
            'limits': limits(*POSITION_LIMITS[i], VELOCITY_LIMIT, ACCELERATION_LIMIT,
                             EFFORT_LIMIT[i]),
        })
    return out


def build(strict=False):
    """
    Build the CMU DD Arm II model.

    Parameters
    ----------
    strict : bool
        Refuse parameters that break a rule of physical consistency.

    Returns
    -------
    RobotModel
        Six revolute joints, standard DH, gravity (0, 0, -9.81) m/s^2.

    """
    return build_model(KEY, rows(), CONVENTION, strict)
