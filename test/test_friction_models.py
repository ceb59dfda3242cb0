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

"""Load-dependent friction of seed 004: bearings, transmissions, Table 3.5."""

import os

from dyn_models import DATA
import numpy as np
import pytest
from robodyn_ros.dynamics import inverse_dynamics, rne
from robodyn_ros.dynamics.crosscheck import random_states
from robodyn_ros.dynamics.tables import tables
from robodyn_ros.friction.models import bearing_torque, smooth_sign, transmission_input
from robodyn_ros.model import RobotModel


def test_journal_without_moment_is_mu_r_normal_load():
    """With no bending moment the journal formula is mu r |F_N| (seed 004 eq. 3.2)."""
    f = np.array([3.0, -4.0, 7.0])
    m = np.array([0.0, 0.0, 2.0])
    assert bearing_torque('journal', 0.1, 0.05, 0.2, f, m) == pytest.approx(0.1 * 0.05 * 5.0)
    assert bearing_torque('journal', 0.1, 0.05, 0.0, f, m) == pytest.approx(0.1 * 0.05 * 5.0)


def test_journal_with_moment_matches_two_bearing_statics():
    """The journal formula equals mu r (|F1| + |F2|) for bearings at z = +-d/2."""
    rng = np.random.default_rng(0)
    for _ in range(100):
        f, m = rng.normal(0, 50, 3), rng.normal(0, 10, 3)
        d = rng.uniform(0.02, 0.3)
        # Solve F1 + F2 = f_xy and (d/2) z x (F1 - F2) = m_xy for the two radial loads.
        diff = np.array([2 * m[1] / d, -2 * m[0] / d])
        f1 = (f[:2] + diff) / 2
        f2 = (f[:2] - diff) / 2
        moment = d / 2 * np.cross([0, 0, 1], np.append(f1 - f2, 0))
        assert np.allclose(moment[:2], m[:2])
        expected = 0.08 * 0.04 * (np.linalg.norm(f1) + np.linalg.norm(f2))
        assert bearing_torque('journal', 0.08, 0.04, d, f, m) == pytest.approx(expected)


def test_thrust_and_linear_bearings():
    """Thrust: mu r |f_z| (eq. 3.5); linear guide: mu times the four load components (eq. 3.4)."""
    f, m = np.array([1.0, 2.0, -6.0]), np.array([0.3, -0.2, 9.0])
    assert bearing_torque('thrust', 0.2, 0.1, 0.0, f, m) == pytest.approx(0.2 * 0.1 * 6.0)
    d = 0.1
    expected = 0.2 / d * (abs(0.05 * 1 + 0.2) + abs(0.05 * 2 - 0.3) + abs(0.05 * 1 - 0.2)
                          + abs(0.05 * 2 + 0.3))
    assert bearing_torque('linear', 0.2, 0.0, d, f, m) == pytest.approx(expected)


@pytest.mark.parametrize('tau_out, velocity, expected', [
    (10.0, 1.0, 10.0 / 0.5 + 2.0),     # case 1: driving forwards
    (-10.0, -1.0, -10.0 / 0.5 - 2.0),  # case 2: driving backwards
    (10.0, -1.0, 10.0 * 0.5 - 2.0),    # case 3: braking
    (-10.0, 1.0, -10.0 * 0.5 + 2.0),   # case 4: braking
])
def test_transmission_quadrants(tau_out, velocity, expected):
    """The four cases of seed 004 Table 3.2 away from zero velocity."""
    load, eta = np.array([0.0, 1.0]), np.array([0.5, 0.5])
    s = smooth_sign(np.array(velocity), np.array(1e-4))
    assert transmission_input(2.0, 100.0, load, eta, np.array(tau_out), s) == pytest.approx(
        expected, rel=1e-9)


def test_transmission_is_continuous():
    """The input torque is continuous in the output torque and across zero velocity."""
    load, eta = np.array([0.0, 0.1, 1.0]), np.array([0.3, 0.6, 0.9])
    taus = np.linspace(-5, 5, 2001)
    for v in (-1.0, -1e-3, 0.0, 1e-3, 1.0):
        s = smooth_sign(np.full_like(taus, v), np.array(1e-3))
        out = transmission_input(1.5, 50.0, load, eta, taus, s)
        assert np.max(np.abs(np.diff(out))) < 0.05
    vel = np.linspace(-0.01, 0.01, 2001)
    out = transmission_input(1.5, 50.0, load, eta, np.full_like(vel, 3.0),
                             smooth_sign(vel, np.array(1e-3)))
    assert np.max(np.abs(np.diff(out))) < 0.05
    # At rest the policy is the mean of the two directions.
    mid = transmission_input(1.5, 50.0, load, eta, np.array(3.0), np.array(0.0))
    e = np.interp(3.0 / 50.0, load, eta)
    assert mid == pytest.approx(0.5 * (3.0 / e + 1.5) + 0.5 * (3.0 * e - 1.5))


def test_table_3_5_sums():
    """Seed 004 Table 3.5: joint and transmission friction add up as printed."""
    rows = [  # basic, joint friction, total at joint, input torque, eta, tau_B, sign(qd)
        (1.2140, 1.7803, 2.9943, 12.8911, 0.454, 6.3, 1.0),
        (-15.6364, -0.3281, -15.9646, -33.9117, 0.562, 5.5, -1.0),
        (-0.8042, 0.1241, -0.6801, 2.3648, 0.346, 2.6, 1.0),
    ]
    for basic, joint, total, total_input, eta, breakaway, sign in rows:
        assert basic + joint == pytest.approx(total, abs=2e-4)
        tau_in = transmission_input(breakaway, 100.0, np.array([0.0, 1.0]),
                                    np.array([eta, eta]), np.array(total), np.array(sign))
        assert tau_in == pytest.approx(total_input, rel=1e-3)


def test_friction_is_a_post_processor():
    """The reaction wrenches do not depend on friction; friction adds on top (seed 004 §3.1)."""
    m = RobotModel.from_urdf(os.path.join(DATA, 'two_link.urdf'),
                             params=os.path.join(DATA, 'good_params.yaml'))
    q, qd, qdd = random_states(m, 10, seed=41)
    res = rne(m, q, qd, qdd)
    tab = tables(m)
    # Rebuild the total torque by hand from the reactions.
    shoulder = m.joint('shoulder').friction
    b = shoulder.bearing
    s = smooth_sign(qd, tab.smoothing_velocity)
    tau_bearing = s[:, 0] * bearing_torque(b.kind, b.mu, b.radius, b.span, res.force[:, 0],
                                           res.moment[:, 0])
    t = shoulder.transmission
    tau_out = res.tau[:, 0] + tau_bearing
    tau_in = transmission_input(t.breakaway, t.rated_torque, np.array(t.load),
                                np.array(t.efficiency), tau_out, s[:, 0])
    total = inverse_dynamics(m, q, qd, qdd)
    vf = inverse_dynamics(m.replace_joints([j.with_changes(friction=j.friction.__class__(
        coulomb_pos=j.friction.coulomb_pos, coulomb_neg=j.friction.coulomb_neg,
        viscous_pos=j.friction.viscous_pos, viscous_neg=j.friction.viscous_neg,
        static_pos=j.friction.static_pos, static_neg=j.friction.static_neg,
        stribeck_velocity=j.friction.stribeck_velocity)) for j in m.joints]), q, qd, qdd)
    rigid_plus_armature = inverse_dynamics(m, q, qd, qdd, friction=False)
    velocity_part = vf - rigid_plus_armature
    expected = tau_in + tab.armature[0] * qdd[:, 0] + velocity_part[:, 0]
    assert np.allclose(total[:, 0], expected, atol=1e-12)
    assert np.all(np.abs(tau_bearing) > 0)
