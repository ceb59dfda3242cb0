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

"""The host side of impedance mode without a board: set-point checks, limits, hold, settings."""

from board_helpers import ACTUATORS
import numpy as np
import pytest
from robodyn_ros.control.split_form import ImpedanceSetpoint
from robodyn_ros.errors import InputError
from robodyn_ros.hardware.command import CommandChannel
from robodyn_ros.hardware.current_command import limit_torque
from robodyn_ros.hardware.hold import PositionHold
from robodyn_ros.hardware.impedance_command import ImpedanceCommand
from robodyn_ros.hardware.scaling import axis_parameters, JointScaling
from robodyn_ros.hardware.settings import InterfaceSettings
from robodyn_ros.model import load_robot


def _setpoint(n=3, **change):
    fields = {'q_ref': np.array([0.1, -1.0, 0.3]), 'qd_ref': np.array([0.2, 0.0, -0.1]),
              'kp': np.array([300.0, 400.0, 50.0]), 'kd': np.array([30.0, 40.0, 5.0]),
              'tau_ff': np.array([1.0, 20.0, -2.0])}
    fields.update(change)
    return ImpedanceSetpoint(**fields)


@pytest.mark.parametrize('change, reason', [
    ({'kp': np.array([1.0, -1.0, 0.0])}, 'kp is negative for joint index 1'),
    ({'tau_ff': np.array([0.0, np.nan, 0.0])}, 'tau_ff is not finite for joint index 1'),
    ({'q_ref': np.zeros(2)}, 'q_ref is not 3 values'),
    ({'tau_ff': np.array([0.0, 0.0, 1e4])}, 'feed-forward 10000 exceeds the effort limit'),
])
def test_channel_refuses_a_bad_setpoint_and_keeps_the_last_good_one(change, reason):
    """A set-point is checked like a torque: refused, counted, the last valid one kept."""
    model = load_robot('ma3000', params=ACTUATORS)
    channel = CommandChannel(3, model.effort_limits)
    good = _setpoint()
    assert channel.put(good, 1.0)
    assert not channel.put(_setpoint(**change), 1.001)
    assert reason in channel.last_problem and channel.rejected == 1
    command, state, _ = channel.get(1.002, 0.1)
    assert command is good and state == CommandChannel.FRESH


def test_pipeline_adds_friction_ramps_and_clips_the_feedforward():
    """tau_ff + friction, the joint-limit ramp on it, the effort clip; the PD part untouched."""
    model = load_robot('ma3000', params=ACTUATORS)
    scaling = JointScaling(axis_parameters(model), np.full(3, 4096.0), np.full(3, 100.0))
    pipe = ImpedanceCommand(model, scaling, np.full(3, 100.0))
    upper = model.upper_limits
    q = np.array([0.0, upper[1] - 0.01, 0.3])         # joint 1 within the ramp
    qd = np.array([0.1, 0.0, 0.0])
    effort = model.effort_limits
    sp = _setpoint(tau_ff=np.array([1.0, 20.0, -2.0 * effort[2]]))
    fric = np.array([0.5, 0.5, 0.5])
    res = pipe(q, qd, sp, fric, 0.05)
    expected, at_limit = limit_torque(q, sp.tau_ff + fric, model.lower_limits, upper, 0.05)
    assert at_limit.tolist() == [False, True, False]
    assert res.setpoint.tau_ff[1] == pytest.approx(expected[1]) and expected[1] < 0.25 * 20.5
    assert res.setpoint.tau_ff[2] == -effort[2] and res.effort_limited.tolist() == [
        False, False, True]
    assert res.setpoint.tau_ff[0] == 1.5
    for name in ('q_ref', 'qd_ref', 'kp', 'kd'):
        assert getattr(res.setpoint, name) is getattr(sp, name)
    assert np.allclose(res.torque, res.setpoint.torque(q, qd))
    assert np.array_equal(res.friction, fric) and res.at_limit.tolist() == [False, True, False]


def test_hold_setpoint_is_the_hold_torque_at_the_sample():
    """Impedance hold: q_ref the held position, qd_ref 0, the hold's gains, gravity forward."""
    model = load_robot('ma3000', params=ACTUATORS)
    hold = PositionHold(model, 40.0)
    held = np.array([0.1, -1.1, 0.4])
    hold.start(held)
    q, qd = held + np.array([0.01, -0.02, 0.0]), np.array([0.1, 0.0, -0.2])
    sp = hold.setpoint(q)
    assert np.array_equal(sp.q_ref, held) and np.all(sp.qd_ref == 0.0)
    assert np.array_equal(sp.kp, hold.kp) and np.array_equal(sp.kd, hold.kd)
    assert np.allclose(sp.tau_ff, hold.kernels.gravity(q))
    assert np.allclose(sp.torque(q, qd), hold.torque(q, qd))


def test_board_mode_setting():
    """Two modes; refused names; no change while active (only with the outputs off)."""
    InterfaceSettings(board_mode='impedance').check()
    with pytest.raises(InputError, match='board_mode: must be one of current, impedance, '
                                         "got 'torque'"):
        InterfaceSettings(board_mode='torque').check()
    active = InterfaceSettings()
    with pytest.raises(InputError, match='cannot change while active'):
        InterfaceSettings(board_mode='impedance').check(active)
    InterfaceSettings(board_mode='current').check(active)
