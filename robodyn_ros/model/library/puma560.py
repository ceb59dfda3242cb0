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
PUMA 560: Armstrong-Khatib-Burdick parameters in modified DH (seed 004).

Geometry and inertial data are the AKB 1986 set as used by seed 004
(Tables 2.1, 2.5, 2.6), with the corrections listed in :data:`CORRECTIONS`.
Gear ratios, motor constants and velocity-dependent friction are external
(Corke and Armstrong-Helouvry's "consensus" data as quoted in the seed 004
digest); load-dependent friction is seed 004's Table 3.4.
"""

import math

from ._common import build_model, GRAVITY_NOTE, limits

KEY = 'puma560'
CONVENTION = 'modified'

SOURCE = (
    'PUMA 560, Armstrong, Khatib and Burdick (1986) parameters as printed in seed 004 '
    '(C. Dhanaraj, M.Eng. thesis, Memorial University of Newfoundland, 1990): modified DH '
    'Table 2.1, centres of mass Table 2.5, inertias and link-side rotor inertias Table 2.6, '
    'bearing and transmission friction Table 3.4 (after Armstrong 1988). External data, not '
    'in seed 004: gear ratios, viscous and asymmetric Coulomb friction from the Corke and '
    'Armstrong-Helouvry (1994) consensus set (Robotics Toolbox mdl_puma560) as quoted in the '
    'seed 004 digest section 4.2 item 6, referred to the joint side. ' + GRAVITY_NOTE)

# Modified DH (seed 004 Table 2.1): alpha_{i-1} [rad], a_{i-1} [m], d_i [m]; theta_i = q_i.
GEOMETRY = (
    (0.0, 0.0, 0.0),
    (-math.pi / 2, 0.0, 0.2435),
    (0.0, 0.4318, -0.0934),
    (math.pi / 2, -0.0203, 0.4331),
    (-math.pi / 2, 0.0, 0.0),
    (math.pi / 2, 0.0, 0.0),
)

#: Link masses [kg]; link 1 has none in AKB (and Corke: m1 = 0), see CORRECTIONS.
MASS = (0.0, 17.40, 4.80, 0.82, 0.34, 0.09)
#: Centres of mass in the link frames [m] (Table 2.5, CoM2 with AKB's + sign).
COM = ((0.0, 0.0, 0.0), (0.068, 0.006, -0.016), (0.0, -0.070, 0.014), (0.0, 0.0, -0.019),
       (0.0, 0.0, 0.0), (0.0, 0.0, 0.032))
#: Table 2.6 as printed: principal inertias about the CoM [kg m^2] (link 1: Izz only).
PRINTED_INERTIA = ((math.nan, math.nan, 0.35), (0.130, 0.524, 0.539), (0.066, 0.0125, 0.086),
                   (0.0018, 0.0018, 0.0013), (0.0030, 0.0030, 0.0040),
                   (0.0015, 0.0015, 0.0004))
#: Principal inertias about the CoM used by the model [kg m^2]: the published AKB values
#: (link 1 massless with Izz only; link 3 as printed, breaking the triangle inequality) and
#: the AKB link 5 and 6 values (see CORRECTIONS).
INERTIA = ((0.0, 0.0, 0.35), (0.130, 0.524, 0.539), (0.066, 0.0125, 0.086),
           (0.0018, 0.0018, 0.0013), (0.3e-3, 0.3e-3, 0.4e-3), (0.15e-3, 0.15e-3, 0.04e-3))
#: Physical bodies for simulators that need them (the Gazebo variant of the description):
#: body index -> (mass [kg], principal inertias about the CoM [kg m^2]); see CORRECTIONS.
SIMULATOR_INERTIA = {0: (10.0, (0.20, 0.20, 0.35)), 2: (4.80, (0.076, 0.0125, 0.086))}
#: AKB link-side rotor inertia I_motor (Table 2.6) [kg m^2], used as armature.
ROTOR_INERTIA = (1.14, 4.71, 0.83, 0.20, 0.179, 0.193)

#: Consensus gear ratios G = motor speed / joint speed (external).
GEAR_RATIO = (-62.6111, 107.815, -53.7063, 76.0364, 71.923, 76.686)
#: Consensus motor-side viscous friction [N m s/rad] (external).
MOTOR_VISCOUS = (1.48e-3, 0.817e-3, 1.38e-3, 71.2e-6, 82.6e-6, 36.7e-6)
#: Consensus motor-side Coulomb friction magnitudes (positive, negative) [N m] (external).
MOTOR_COULOMB = ((0.395, 0.435), (0.126, 0.071), (0.132, 0.105), (11.2e-3, 16.9e-3),
                 (9.26e-3, 14.5e-3), (3.96e-3, 10.5e-3))
#: Motor torque constants [N m/A] (chosen, see CORRECTIONS).
TORQUE_CONSTANT = (0.189, 0.219, 0.202, 0.075, 0.066, 0.066)
#: Amplifier current limits [A] (chosen).
CURRENT_LIMIT = (8.0, 8.0, 8.0, 4.0, 4.0, 4.0)
#: Static friction over Coulomb friction, and Stribeck velocity [rad/s] (chosen).
STATIC_RATIO = 1.25
STRIBECK_VELOCITY = 0.01

#: Seed 004 Table 3.4 (joints 1-3): mu, journal radius [m], breakaway and maximum torque [N m].
TABLE_3_4 = {'mu': (0.1, 0.1, 0.1), 'radius': (0.10, 0.08, 0.07),
             'breakaway': (6.3, 5.5, 2.6), 'max_torque': (97.6, 186.4, 89.4)}
#: Bearing span d of Eq. 3.3 [m] (chosen: the journal diameter).
BEARING_SPAN = (0.20, 0.16, 0.14)
#: Efficiency curve of the transmission, eta(tau_out / rated torque) (designed, joints 1-3).
EFFICIENCY_LOAD = (0.0, 0.0076, 0.0307, 0.0856, 0.2, 0.4, 0.7, 1.0)
EFFICIENCY = (0.30, 0.346, 0.454, 0.562, 0.68, 0.76, 0.80, 0.82)

#: Position limits [deg] (Corke's mdl_puma560 qlim).
POSITION_LIMITS = ((-160.0, 160.0), (-225.0, 45.0), (-45.0, 225.0), (-110.0, 170.0),
                   (-100.0, 100.0), (-266.0, 266.0))
#: Assumed maximum motor speed [rad/s] (2000 rpm) giving the joint velocity limits.
MOTOR_SPEED_LIMIT = 2000.0 * 2.0 * math.pi / 60.0
#: Acceleration limits [rad/s^2] (chosen, see CORRECTIONS).
ACCELERATION_LIMIT = (9.0, 9.0, 30.0, 50.0, 50.0, 50.0)
#: Effort limits [N m]: Table 3.4 for joints 1-3, |G| K_t I_max for the wrist.
EFFORT_LIMIT = (97.6, 186.4, 89.4, 22.8, 19.0, 20.2)

CORRECTIONS = (
    'Link 5 and 6 inertias: Table 2.6 prints them 10x too large (0.0030/0.0030/0.0040 and '
    '0.0015/0.0015/0.0004 kg m^2); the AKB values 0.3e-3/0.3e-3/0.4e-3 and '
    "0.15e-3/0.15e-3/0.04e-3 kg m^2 are used, as in the thesis's own REDUCE input.",
    'Centre of mass of link 2: (+0.068, 0.006, -0.016) m as in Table 2.5 and AKB; the '
    "thesis code's (-0.068, 0, 0) has the wrong sign and drops the y and z components.",
    'Centre of mass of link 4: (0, 0, -0.019) m as in Table 2.5 (the REDUCE listing prints 0 '
    'but its generated code used -0.019).',
    "Inertias are taken about the centre of mass (AKB); the thesis code's origin-referenced "
    'tensors (which double-count the parallel-axis terms) are not used.',
    'Link 3 inertia: the published AKB principal moments (0.066, 0.0125, 0.086) kg m^2 '
    '(Table 2.6; Corke and Armstrong-Helouvry 1994 give the same set in standard-DH axes) '
    'are used as published, although they break the triangle inequality (0.066 + 0.0125 < '
    '0.086), so no rigid body has them; loading the model gives a warning saying so '
    '(strict loading refuses it). Ixx3 enters the dynamics only through M(1,1) (and the '
    "velocity terms derived from it). (Corke's mdl_puma560akb has Izz3 = 0.066, which the "
    'digest reads as a typo.) Until issue 19, Ixx3 was raised to 0.076 kg m^2 to pass the '
    'check; the Gazebo variant of the description still uses 0.076 kg m^2 (sdformat refuses '
    'an inertia that breaks the triangle inequality), which adds 0.01 cos^2 terms to M(1,1) '
    'in Gazebo only.',
    'Link 1 has no mass in AKB (Corke sets m1 = 0): the model keeps it massless with the '
    'published Izz1 = 0.35 kg m^2, the only link-1 parameter that affects the joint torques '
    '(with the base fixed). A massless body with inertia is not physical, so loading gives '
    'a warning; Gazebo needs a mass on every link, and its description variant gives link 1 '
    'the compact column the model used before issue 19 (10 kg on the joint-1 axis at the '
    'frame origin, Ixx1 = Iyy1 = 0.20 kg m^2), which leaves the torques unchanged.',
    'Rotor inertia: the AKB link-side I_motor (1.14, 4.71, 0.83, 0.20, 0.179, 0.193 kg m^2) '
    'is the joint armature (adds I_a qdd_i to tau_i only). The thesis instead adds I_motor to '
    'the link Izz, which also changes off-diagonal terms of M(q) and the gyroscopic torques; '
    'armature is the physically right model for a geared rotor. motor_inertia is I_motor/G^2 '
    "(2.91e-4, 4.05e-4, 2.88e-4, 3.46e-5, 3.46e-5, 3.28e-5 kg m^2, close to AKB's J_m); "
    'the consensus J_m (200e-6 and 33e-6 kg m^2) is not used.',
    'Gear ratios (external, consensus): G = -62.6111, 107.815, -53.7063, 76.0364, 71.923, '
    '76.686; the sign is the motor direction.',
    'Viscous friction (external, consensus) referred to the joint side: motor-side B times '
    'G^2 (joint speed times |G| is motor speed, motor torque times |G| is joint torque): '
    '5.802, 9.497, 3.980, 0.4116, 0.4273, 0.2158 N m s/rad, symmetric.',
    'Coulomb friction (external, consensus) referred to the joint side: motor-side Tc '
    'magnitudes times |G|; Tc(1) is used for positive and Tc(2) for negative joint velocity, '
    'as the Robotics Toolbox applies them. Joint 1: 24.73/27.24, 2: 13.58/7.655, '
    '3: 7.089/5.639, 4: 0.8516/1.285, 5: 0.6660/1.043, 6: 0.3037/0.8052 N m.',
    'Stribeck term (chosen; no source gives it): total static level 1.25 x the measured '
    'Coulomb level in each direction, Stribeck velocity 0.01 rad/s for every joint.',
    'Bearing friction, joints 1-3 (seed 004 Table 3.4): journal bearings, mu = 0.1, radius '
    '0.10/0.08/0.07 m. The span d of Eq. 3.3 is not given; it is taken as the journal '
    'diameter (0.20, 0.16, 0.14 m).',
    'Transmission friction, joints 1-3 (seed 004 Table 3.4): breakaway 6.3/5.5/2.6 N m and '
    'the maximum torques 97.6/186.4/89.4 N m as rated torque. The efficiency curve (Fig. '
    '3.4, harmonic drive after Dudley) is lost; the model uses one monotone, concave curve '
    'eta(load) through (0, 0.30), (0.0076, 0.346), (0.0307, 0.454), (0.0856, 0.562), '
    '(0.2, 0.68), (0.4, 0.76), (0.7, 0.80), (1.0, 0.82), linear in between. Its 2nd-4th '
    "points are the digest's efficiencies inferred from Table 3.5 (joint 3 at 0.76 %, "
    'joint 1 at 3.07 % and joint 2 at 8.56 % of rated torque), so Table 3.5 is reproduced; '
    'the rest is a design choice (poor efficiency at low load, about 0.8 near rated torque).',
    'Joints 4-6 have no bearing or transmission friction records: seed 004 models only '
    'joints 1-3, and the wrist keeps the velocity-dependent consensus friction only.',
    'The consensus Coulomb levels (about 25/14/7 N m on joints 1-3) were measured on the '
    'whole drive and so include the transmission break-away torque of Table 3.4 '
    '(6.3/5.5/2.6 N m). To count it once, the velocity-friction Coulomb and static levels '
    'of joints 1-3 are the measured levels minus the break-away torque (joint 1: '
    "18.43/20.94, 2: 8.081/2.155, 3: 4.489/3.039 N m Coulomb); at zero load the model's "
    'friction equals the measured one, and the efficiency losses grow with the load.',
    'Torque constants (chosen, plausible): 0.189, 0.219, 0.202, 0.075, 0.066, 0.066 N m/A, '
    'of the order of the consensus motor constants; not verified against a source here.',
    'Current limits (chosen): 8 A for joints 1-3, 4 A for joints 4-6; |G| K_t 8 A is within '
    '3 % of the joint 1-3 torque limits.',
    'Effort limits: 97.6, 186.4, 89.4 N m for joints 1-3 (Table 3.4 maximum torques); wrist '
    '22.8, 19.0, 20.2 N m = |G| K_t 4 A (chosen).',
    "Position limits (Corke's mdl_puma560 qlim, Unimation ranges, with the same zero pose as "
    'this table: upper arm horizontal, forearm up): [-160, 160], [-225, 45], [-45, 225], '
    '[-110, 170], [-100, 100], [-266, 266] deg.',
    'Velocity limits (chosen): an assumed 2000 rpm motor speed limit divided by |G|: 3.35, '
    '1.94, 3.90, 2.75, 2.91, 2.73 rad/s.',
    'Acceleration limits (chosen): 9, 9, 30, 50, 50, 50 rad/s^2: half of (effort limit - '
    'largest gravity torque) / largest diagonal inertia (armature included) over the joint '
    'ranges, rounded down to one significant digit.',
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
    for i, (alpha, a, d) in enumerate(GEOMETRY):
        g = GEAR_RATIO[i]
        row = {
            'a': a, 'alpha': alpha, 'd': d, 'theta': 0.0, 'joint': 'R',
            'mass': MASS[i], 'com': COM[i], 'inertia': INERTIA[i],
            'actuator': {'gear_ratio': g, 'motor_inertia': ROTOR_INERTIA[i] / g ** 2,
                         'armature': ROTOR_INERTIA[i],
                         'torque_constant': TORQUE_CONSTANT[i],
                         'current_limit': CURRENT_LIMIT[i]},
            'limits': limits(*POSITION_LIMITS[i], round(MOTOR_SPEED_LIMIT / abs(g), 2),
                             ACCELERATION_LIMIT[i], EFFORT_LIMIT[i]),
        }
        measured = [abs(g) * c for c in MOTOR_COULOMB[i]]
        # The transmission's break-away torque is part of the measured Coulomb level.
        breakaway = TABLE_3_4['breakaway'][i] if i < 3 else 0.0
        friction = {'viscous': MOTOR_VISCOUS[i] * g ** 2,
                    'coulomb': [c - breakaway for c in measured],
                    'static': [STATIC_RATIO * c - breakaway for c in measured],
                    'stribeck_velocity': STRIBECK_VELOCITY}
        if i < 3:
            friction['bearing'] = {'mu': TABLE_3_4['mu'][i], 'radius': TABLE_3_4['radius'][i],
                                   'span': BEARING_SPAN[i], 'kind': 'journal'}
            friction['transmission'] = {'breakaway': TABLE_3_4['breakaway'][i],
                                        'rated_torque': TABLE_3_4['max_torque'][i],
                                        'load': EFFICIENCY_LOAD, 'efficiency': EFFICIENCY}
        row['friction'] = friction
        out.append(row)
    return out


def build(strict=False):
    """
    Build the PUMA 560 model.

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
