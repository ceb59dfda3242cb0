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
TecQuipment MA3000, first three joints (waist, shoulder, elbow), seed 003.

Standard DH of Table 3.1 and the CAD (CAM-X) mass properties of Tables
3.2-3.4, with the centre-of-mass convention resolved and the inertia
inconsistencies corrected as listed in :data:`CORRECTIONS`.
"""

import math

import numpy as np

from ._common import build_model, GRAVITY_NOTE, limits
from ..transforms import rot_x

KEY = 'ma3000'
CONVENTION = 'standard'

SOURCE = (
    'TecQuipment MA3000 (joints 1-3: waist, shoulder, elbow), seed 003 (H. Mirab, '
    '"Model-Based Robot Control and Multiprocessor Implementation", PhD thesis, University of '
    'Glasgow, 1990): standard DH Table 3.1, CAD (Ferranti CAM-X) mass properties Tables '
    '3.2-3.4, joint ranges (Table 3.1) and speed limits (Ch. 7.5). ' + GRAVITY_NOTE)

# Standard DH (Table 3.1): theta offset [rad], d [m], a [m], alpha [rad].
GEOMETRY = (
    (0.0, 0.3045, 0.105, -math.pi / 2),
    (0.0, 0.0, 0.402, 0.0),
    (0.0, 0.0, 0.3525, 0.0),
)

#: Tables 3.2-3.4 as printed: mass [kg], centre of mass [m], principal inertias [kg m^2].
PRINTED = {
    'waist': {'mass': 29.5438, 'com': (32.2461e-3, -57.1215e-3, 211.881e-3),
              'inertia': (4.80973e-1, 5.53040e-1, 2.24603e-1)},
    'shoulder': {'mass': 2.84745, 'com': (190.587e-3, -1.32364e-3, 27.5711e-3),
                 'inertia': (7.34089e-2, 7.94399e-1, 8.75983e-1)},
    'elbow': {'mass': 5.38446, 'com': (18.6629e-3, -0.439201e-3, -86.6715e-3),
              'inertia': (1.35227e-3, 1.43033e-2, 2.03530e-2)},
}
LINKS = ('waist', 'shoulder', 'elbow')

#: Corrected CAD data (see CORRECTIONS): shoulder mass x10, shoulder and elbow Ixx.
MASS = (29.5438, 28.4745, 5.38446)
CAD_INERTIA = ((4.80973e-1, 5.53040e-1, 2.24603e-1), (0.085, 7.94399e-1, 8.75983e-1),
               (1.35227e-2, 1.43033e-2, 2.03530e-2))

#: Potentiometer ("absolute") range [deg], the absolute angle of the DH reference pose
#: [deg] and the DH angle of that pose [deg]: theta = abs - reference + dh_angle.
ABSOLUTE_RANGE = (0.0, 270.0)
ABSOLUTE_REFERENCE = (135.0, 140.0, 140.0)
DH_AT_REFERENCE = (0.0, -90.0, 0.0)
#: Speed limits [deg/s] (Ch. 7.5).
SPEED_LIMIT_DEG = (22.5, 22.5, 45.0)
#: Acceleration [rad/s^2] and effort [N m] limits (chosen).
ACCELERATION_LIMIT = (1.5, 1.5, 3.0)
EFFORT_LIMIT = (40.0, 160.0, 40.0)

CORRECTIONS = (
    'Table 3.1 header: the column printed as theta (deg) holds alpha_i; the rows are alpha = '
    '-90, 0, 0 deg, a = 0.105, 0.402, 0.3525 m, d = 0.3045, 0, 0 m, theta offsets 0.',
    'Centre-of-mass convention: the CAD offsets are measured from the proximal joint, not '
    'from the distal DH frame (read from the distal frame the shoulder centre of mass would '
    'lie 0.593 m from its joint, beyond the 0.402 m link). The CAD frame of link i is taken '
    'at the proximal joint with z along the joint-i axis and x along x_i (for the shoulder '
    'and elbow, DH frame i moved back by a_i: s_i = s_cad - (a_i, 0, 0)); for the waist it is '
    'the base frame turned by theta_1 (z vertical, origin on the base plane). In DH frame i: '
    's_i = Rx(alpha_i)^T (s_cad - (a_i, 0, d_i)), I_i = Rx(alpha_i)^T I_cad Rx(alpha_i).',
    'Waist frame choice: with z_cad vertical the waist centre of mass is 0.212 m above the '
    'base, 3.2 cm ahead of and 5.7 cm beside the axis, and its smallest moment (0.2246 kg '
    'm^2) is about the vertical, as for a tall turret; reading the waist data in DH-frame-1 '
    'axes instead would put a 29.5 kg centre of mass 0.21 m sideways above shoulder height. '
    'Waist data otherwise as printed.',
    'Shoulder mass: 2.84745 kg with Izz = 0.876 kg m^2 about the centre of mass needs a '
    'radius of gyration of 0.55 m on a 0.402 m link, which is impossible. The mass is taken '
    'as 28.4745 kg (a misplaced decimal point in "2847.45 x 10^-3"), which gives a radius of '
    'gyration of 0.175 m and keeps all three printed moments; the alternative (printed mass, '
    'moments / 10) changes three printed values instead of one.',
    'Shoulder inertia: the printed moments (0.0734, 0.7944, 0.8760) kg m^2 break the '
    "triangle inequality (0.0734 + 0.7944 < 0.8760). The smallest moment, about the link's "
    'long axis, is raised from 0.0734089 to 0.085 kg m^2 (Ixx + Iyy - Izz = 0.0034 kg m^2); '
    'Iyy and Izz, which govern the shoulder dynamics, are kept.',
    'Elbow inertia: the printed moments (0.00135, 0.0143, 0.0204) kg m^2 break the triangle '
    'inequality (0.00135 + 0.0143 < 0.0204). Ixx is read with exponent -2 instead of -3 '
    '(1.35227e-2 kg m^2), which keeps the printed digits and satisfies it.',
    'Principal axes: as the thesis states, the CAD principal axes are parallel to the link '
    "axes, so every tensor is diagonal in its CAD frame (the waist's becomes diag(Ixx, Izz, "
    'Iyy) in DH frame 1).',
    'Joint ranges: 0-270 deg on the potentiometer ("absolute") scale for every joint; the '
    'thesis gives only that shoulder and elbow upright is absolute 140 deg. Mapping chosen: '
    'theta = absolute - reference + theta_ref with the same sense of rotation assumed; waist '
    'reference 135 deg at theta1 = 0 (range centred, no reference is given), shoulder '
    'upright (theta2 = -90 deg) at 140 deg, elbow straight (theta3 = 0) at 140 deg. DH '
    'ranges: [-135, 135], [-230, 40], [-140, 130] deg.',
    'Speed limits 22.5, 22.5, 45 deg/s (Ch. 7.5).',
    'Acceleration limits (chosen): 1.5, 1.5, 3.0 rad/s^2, the speed limit reached in about '
    '0.25 s.',
    'Effort limits (chosen): 40, 160, 40 N m: above the largest static torques with the 5 kg '
    'load of the load-mass experiments at full reach (about 113 and 18 N m for the shoulder '
    'and elbow) and enough to accelerate the loaded waist at its limit.',
    'No actuator data: gear ratios (gearboxes plus belts), motor inertias and resistances '
    'are not printed and the two back-EMF constant sets conflict (6.92/1.684 against '
    '0.01/0.17/0.009, units unclear), so gear ratio 1, no rotor inertia and unknown torque '
    'constants are kept; with the large reductions of this arm a real rotor inertia would '
    'dominate, and should be identified rather than guessed.',
    'No friction: the thesis identifies none (the Canudas asymmetric Coulomb plus viscous '
    'model is recommended but not fitted).',
)


def cad_to_dh(i, com_cad, inertia_cad):
    """
    Express CAD mass data of link ``i`` in its standard DH frame.

    Parameters
    ----------
    i : int
        Link index (0 = waist).
    com_cad : array_like
        Centre of mass in the CAD frame at the proximal joint, (3,) [m].
    inertia_cad : array_like
        Principal inertias about the centre of mass, CAD axes, (3,) [kg m^2].

    Returns
    -------
    tuple of numpy.ndarray
        Centre of mass (3,) [m] and inertia about it (3, 3) [kg m^2], DH frame i.

    """
    _, d, a, alpha = GEOMETRY[i]
    r = rot_x(alpha)
    com = r.T @ (np.asarray(com_cad, dtype=float) - np.array([a, 0.0, d]))
    inertia = r.T @ np.diag(inertia_cad) @ r
    return com, inertia


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
        com, inertia = cad_to_dh(i, PRINTED[LINKS[i]]['com'], CAD_INERTIA[i])
        shift = DH_AT_REFERENCE[i] - ABSOLUTE_REFERENCE[i]
        out.append({
            'a': a, 'alpha': alpha, 'd': d, 'theta': theta, 'joint': 'R',
            'name': f'joint{i + 1}', 'link': LINKS[i],
            'mass': MASS[i], 'com': com, 'inertia': inertia,
            'limits': limits(ABSOLUTE_RANGE[0] + shift, ABSOLUTE_RANGE[1] + shift,
                             math.radians(SPEED_LIMIT_DEG[i]),
                             ACCELERATION_LIMIT[i], EFFORT_LIMIT[i]),
        })
    return out


def build(strict=False):
    """
    Build the MA3000 (joints 1-3) model.

    Parameters
    ----------
    strict : bool
        Refuse parameters that break a rule of physical consistency.

    Returns
    -------
    RobotModel
        Three revolute joints, standard DH, gravity (0, 0, -9.81) m/s^2.

    """
    return build_model(KEY, rows(), CONVENTION, strict)
