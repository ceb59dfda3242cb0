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
Staubli RX-90: Khalil's modified DH geometry with estimated inertial data.

The geometry is the one recovered from seed 001 (Khalil's lecture notes); the
document has no numerical parameters, so D3 = RL4 = 0.45 m and every inertial,
rotor and friction value here is an estimate that follows the "symmetric
links" structure of the seed's customized model (see :data:`CORRECTIONS`).
"""

import math

from ._common import build_model, GRAVITY_NOTE, inertia_about_com, limits

KEY = 'rx90'
CONVENTION = 'modified'

#: Khalil's D3 and RL4 [m] (usual RX-90 values, not in the document).
D3 = 0.45
RL4 = 0.45

SOURCE = (
    'Staubli RX-90, geometry from seed 001 (W. Khalil, "Modeling and Control of Manipulators, '
    'Part II: Dynamics and Control", Ecole Centrale de Nantes lecture notes, HAL '
    'cel-02130022): modified DH of Khalil-Kleinfinger recovered in the digest section 1.1, '
    'with D3 = RL4 = 0.45 m (usual RX-90 values; the document gives none). The document has '
    'no inertial, rotor or friction values: all of them are estimates chosen here, following '
    'the "symmetric links" structure of the digest section 1.8 exactly. ' + GRAVITY_NOTE)

# Khalil MDH: alpha_j [rad], d_j [m], r_j [m]; theta_j = q_j.
GEOMETRY = (
    (0.0, 0.0, 0.0),
    (math.pi / 2, 0.0, 0.0),
    (0.0, D3, 0.0),
    (-math.pi / 2, 0.0, RL4),
    (math.pi / 2, 0.0, 0.0),
    (-math.pi / 2, 0.0, 0.0),
)

#: Link masses [kg] (estimates).
MASS = (20.0, 12.0, 6.0, 7.0, 1.5, 0.5)
#: Centres of mass [m]: link 2 free, 3 along y, 4 along z, 5 along y, 6 along z (estimates).
COM = ((0.0, 0.0, -0.15), (0.22, 0.006, 0.03), (0.0, 0.02, 0.0), (0.0, 0.0, -0.20),
       (0.0, 0.02, 0.0), (0.0, 0.0, 0.03))
#: Diagonal inertia about the link-frame ORIGIN, (XX, YY, ZZ) [kg m^2] (estimates).
INERTIA_AT_ORIGIN = ((0.85, 0.85, 0.35), (0.10, 0.88, 0.88), (0.0524, 0.03, 0.0524),
                     (0.40, 0.40, 0.02), (0.0056, 0.003, 0.0056), (0.00125, 0.00125, 0.0005))
#: Link-side rotor inertia Ia [kg m^2] (estimates).
ROTOR_INERTIA = (3.0, 3.0, 1.2, 0.25, 0.25, 0.15)
#: Coulomb [N m] and viscous [N m s/rad] friction (estimates, symmetric).
COULOMB = (7.0, 8.5, 4.5, 1.5, 1.5, 1.0)
VISCOUS = (8.0, 8.0, 3.5, 1.2, 1.2, 0.8)

#: Controller ranges about the Staubli zero [deg] and their MDH offsets [deg].
CONTROLLER_RANGE = ((-160.0, 160.0), (-137.5, 137.5), (-142.5, 142.5), (-270.0, 270.0),
                    (-105.0, 120.0), (-270.0, 270.0))
ZERO_OFFSET = (0.0, 90.0, -90.0, 0.0, 0.0, 0.0)
#: Velocity limits [deg/s] (RX-90 specification as recalled; estimates).
VELOCITY_LIMIT_DEG = (236.0, 200.0, 286.0, 401.0, 320.0, 580.0)
#: Acceleration [rad/s^2] and effort [N m] limits (estimates).
ACCELERATION_LIMIT = (10.0, 10.0, 20.0, 40.0, 40.0, 60.0)
EFFORT_LIMIT = (250.0, 400.0, 200.0, 50.0, 50.0, 30.0)

CORRECTIONS = (
    'Geometry: Khalil-Kleinfinger modified DH as recovered in the seed 001 digest (alpha = '
    '0, +90, 0, -90, +90, -90 deg; d3 = D3; r4 = RL4; all other d and r zero; theta = q); in '
    "the model's modified-DH rows Khalil's (alpha_j, d_j, r_j) are (alpha_{i-1}, a_{i-1}, "
    'd_i).',
    'D3 = RL4 = 0.45 m: the usual RX-90 lengths; the document (and its missing Example 3.1) '
    'gives no values.',
    'Inertial parameters are estimates (no RX-90 values are in the document): masses 20, 12, '
    '6, 7, 1.5, 0.5 kg, chosen for a 6 kg-payload arm of this size.',
    'Structure ("symmetric links" of digest section 1.8, used by the customized model of the '
    'Appendix, 160 mult / 113 add): every tensor is diagonal about the link-frame origin '
    '(XX, YY, ZZ only); first moments only MX2, MY2, MZ2 (link 2), MY3, MZ4, MY5, MZ6. '
    'Link 1 has its centre of mass on its z axis (MZ1 only), which has no effect. Centres of '
    'mass: link 2 (0.22, 0.006, 0.03) m, link 3 y = 0.02, link 4 z = -0.20 (the forearm lies '
    'between the elbow and the wrist centre O4), link 5 y = 0.02 (towards the flange), '
    'link 6 z = 0.03 m.',
    'Inertia about the origin (XX, YY, ZZ) [kg m^2]: link 1 (0.85, 0.85, 0.35), 2 (0.10, '
    '0.88, 0.88), 3 (0.0524, 0.03, 0.0524), 4 (0.40, 0.40, 0.02), 5 (0.0056, 0.003, '
    '0.0056), 6 (0.00125, 0.00125, 0.0005); converted to the centre of mass for the model '
    '(for a centre of mass on an axis the tensor stays diagonal; link 2 gets products of '
    'inertia m x y, m x z, m y z about its centre of mass). Every resulting tensor is '
    'positive definite and meets the triangle inequality.',
    'Rotor inertia (armature, link side, estimates): 3.0, 3.0, 1.2, 0.25, 0.25, 0.15 kg m^2 '
    '(Ia1 and Ia2 group into ZZ1R and ZZR2). Gear ratios, motor inertias and torque constants '
    'are unknown and left at their defaults (1, 0, unknown).',
    'Friction (estimates, eq. 7.27, symmetric): Coulomb 7.0, 8.5, 4.5, 1.5, 1.5, 1.0 N m; '
    'viscous 8.0, 8.0, 3.5, 1.2, 1.2, 0.8 N m s/rad; no Stribeck term.',
    'Position limits: the RX-90 controller ranges (+-160, +-137.5, +-142.5, +-270, -105/+120, '
    '+-270 deg, as recalled from the specification) about the Staubli zero (arm straight up), '
    'which is q = (0, 90, -90, 0, 0, 0) deg in this MDH table (q = 0 has the upper arm '
    'horizontal and the forearm vertical); the same sense of rotation is assumed. Model '
    'ranges: [-160, 160], [-47.5, 227.5], [-232.5, 52.5], [-270, 270], [-105, 120], '
    '[-270, 270] deg.',
    'Velocity limits (RX-90 specification as recalled, estimates): 236, 200, 286, 401, 320, '
    '580 deg/s. Acceleration limits 10, 10, 20, 40, 40, 60 rad/s^2 and effort limits 250, '
    '400, 200, 50, 50, 30 N m are estimates; the efforts are at least 1.5 x (largest diagonal '
    'inertia x acceleration limit + largest gravity torque) over the joint ranges.',
)


def rows():
    """
    DH rows of the model (modified convention).

    Returns
    -------
    list of dict
        One row per link, as accepted by
        :func:`robodyn_ros.model.dh.model_from_dh`.

    """
    out = []
    for i, (alpha, d, r) in enumerate(GEOMETRY):
        lo, hi = (v + ZERO_OFFSET[i] for v in CONTROLLER_RANGE[i])
        out.append({
            'a': d, 'alpha': alpha, 'd': r, 'theta': 0.0, 'joint': 'R',
            'mass': MASS[i], 'com': COM[i],
            'inertia': inertia_about_com(MASS[i], COM[i], INERTIA_AT_ORIGIN[i]),
            'armature': ROTOR_INERTIA[i], 'coulomb': COULOMB[i], 'viscous': VISCOUS[i],
            'limits': limits(lo, hi, math.radians(VELOCITY_LIMIT_DEG[i]),
                             ACCELERATION_LIMIT[i], EFFORT_LIMIT[i]),
        })
    return out


def build(strict=False):
    """
    Build the Staubli RX-90 model.

    Parameters
    ----------
    strict : bool
        Refuse parameters that break a rule of physical consistency.

    Returns
    -------
    RobotModel
        Six revolute joints, modified DH, gravity (0, 0, -9.81) m/s^2.

    """
    return build_model(KEY, rows(), CONVENTION, strict)
