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

"""The controller interface: checked inputs, safe outputs, saturation, recovery."""

from control_models import pin_gravity, two_link
import numpy as np
import pytest
from robodyn_ros.control.base import (check_period, Controller, ControlStatus, JointReference,
                                      Mode, per_joint)
from robodyn_ros.control.pid import PID
from robodyn_ros.errors import InputError
from robodyn_ros.planning.point_to_point import point_to_point


class _Constant(Controller):
    """A law that returns a fixed torque (or NaN) and counts restarts."""

    law = 'constant'

    def __init__(self, model, torque, **kwargs):
        super().__init__(model, 1e-3, **kwargs)
        self.torque = np.asarray(torque, dtype=float)
        self.restarts = 0
        self.applied = []

    def _compute(self, t, q, qd, ref):
        return self.torque.copy()

    def _on_restart(self, t, q, qd):
        self.restarts += 1

    def _applied(self, tau, saturated):
        self.applied.append((tau.copy(), saturated.copy()))


def test_per_joint_and_period_checks():
    """Scalars broadcast; wrong lengths, NaN, infinities and bad bounds are refused."""
    assert per_joint(2.0, 3, 'k').tolist() == [2.0, 2.0, 2.0]
    assert per_joint([1, 2], 2, 'k').tolist() == [1.0, 2.0]
    for bad in ([1.0, 2.0, 3.0], np.nan, 'x', [np.inf, 1.0]):
        with pytest.raises(InputError):
            per_joint(bad, 2, 'k')
    assert per_joint(np.inf, 2, 'k', allow_inf=True).tolist() == [np.inf, np.inf]
    with pytest.raises(InputError, match='joint 1'):
        per_joint([1.0, -1.0], 2, 'k', low=0.0)
    with pytest.raises(InputError):
        per_joint(0.0, 2, 'k', low=0.0, strict=True)
    assert check_period(0.001) == 0.001
    for bad in (0.0, -1.0, np.nan, np.inf, 'a'):
        with pytest.raises(InputError):
            check_period(bad)


def test_invalid_state_gives_zero_torque_and_recovers():
    """NaN, infinity, wrong length or missing state: zero torque; then normal again."""
    model = two_link()
    ctl = _Constant(model, [1.0, -2.0])
    ref = JointReference.hold([0.1, 0.2])
    tau, st = ctl.step(0.0, [0.1, 0.2], [0.0, 0.0], ref)
    assert st.mode == Mode.OK and tau.tolist() == [1.0, -2.0] and ctl.restarts == 1
    for q, qd in (([np.nan, 0.2], [0, 0]), ([0.1, 0.2], [np.inf, 0]), ([0.1], [0, 0]),
                  (None, [0, 0]), ([0.1, 0.2], None), ('ab', [0, 0])):
        tau, st = ctl.step(0.0, q, qd, ref)
        assert st.mode == Mode.ZERO and not st.ok and np.all(tau == 0.0)
        assert 'invalid state' in st.message and st.error is None
    tau, st = ctl.step(0.0, [0.1, 0.2], [0.0, 0.0], ref)
    assert st.mode == Mode.OK and ctl.restarts == 2


def test_missing_or_invalid_reference_gives_gravity_hold():
    """The hold torque is g(q) - D qd (gravity from Pinocchio, independent)."""
    model = two_link()
    ctl = _Constant(model, [1.0, 1.0], hold_damping=[3.0, 2.0])
    q, qd = np.array([0.4, -0.7]), np.array([0.5, -1.0])
    expected = pin_gravity(model, q) - np.array([3.0, 2.0]) * qd
    for ref in (None, JointReference(np.array([np.nan, 0.0]), np.zeros(2), np.zeros(2)),
                JointReference(np.zeros(3), np.zeros(3), np.zeros(3)),
                JointReference(np.zeros(2), None, np.zeros(2))):
        tau, st = ctl.step(0.0, q, qd, ref)
        assert st.mode == Mode.HOLD and 'reference' in st.message
        assert np.allclose(tau, expected, atol=1e-9)
    assert ctl.last_mode == Mode.HOLD and np.allclose(ctl.last_torque, expected)


def test_non_finite_law_output_gives_hold_and_restart():
    """A law that returns NaN never reaches the output."""
    model = two_link()
    ctl = _Constant(model, [np.nan, 0.0])
    q = np.array([0.2, 0.3])
    tau, st = ctl.step(0.0, q, np.zeros(2), JointReference.hold(q))
    assert st.mode == Mode.HOLD and 'non-finite' in st.message and np.isfinite(tau).all()
    ctl.torque = np.array([1.0, 1.0])
    ctl.step(0.0, q, np.zeros(2), JointReference.hold(q))
    assert ctl.restarts == 2


def test_saturation_clips_and_reports():
    """Torques are clipped to the limits, flagged, and the law learns the applied value."""
    model = two_link()
    ctl = _Constant(model, [100.0, -5.0], torque_limit=[10.0, 20.0])
    tau, st = ctl.step(0.0, [0.0, 0.0], [0.0, 0.0], JointReference.hold([0.0, 0.0]))
    assert tau.tolist() == [10.0, -5.0] and st.mode == Mode.SATURATED
    assert st.saturated.tolist() == [True, False]
    applied, sat = ctl.applied[-1]
    assert applied.tolist() == [10.0, -5.0] and sat.tolist() == [True, False]
    default = _Constant(model, [100.0, -100.0])
    tau, _ = default.step(0.0, [0.0, 0.0], [0.0, 0.0], JointReference.hold([0.0, 0.0]))
    assert tau.tolist() == [40.0, -20.0]  # the URDF effort limits
    with pytest.raises(InputError):
        _Constant(model, [0, 0], torque_limit=[0.0, 1.0])


def test_fault_and_status():
    """fault() gives zeros with the reason; the status reports the tracking error."""
    model = two_link()
    ctl = _Constant(model, [1.0, 1.0])
    tau, st = ctl.fault('stale state')
    assert np.all(tau == 0.0) and st.mode == Mode.ZERO and st.message == 'stale state'
    ref = JointReference(np.array([0.5, 0.5]), np.zeros(2), np.zeros(2))
    _, st = ctl.step(0.0, [0.2, 0.1], [0, 0], ref)
    assert np.allclose(st.error, [0.3, 0.4]) and st.ok
    assert isinstance(st, ControlStatus) and Mode.HOLD.is_safe_output


def test_reference_from_trajectory_and_integral_restart():
    """A reference samples a trajectory; a PID integral restarts after a fault."""
    model = two_link()
    traj = point_to_point([0.0, 0.0], [1.0, -1.0], 'quintic', duration=2.0,
                          joint_names=model.joint_names)
    ref = JointReference.from_trajectory(traj, 1.0)
    assert np.allclose(ref.q, [0.5, -0.5]) and ref.qd[0] > 0
    pid = PID(model, 0.01, 10.0, 1.0, 5.0)
    for _ in range(5):
        pid.step(0.0, [0.0, 0.0], [0.0, 0.0], JointReference.hold([0.1, 0.1]))
    assert np.all(pid.integral > 0)
    pid.fault('gap')
    pid.step(0.0, [0.0, 0.0], [0.0, 0.0], JointReference.hold([0.1, 0.1]))
    assert np.allclose(pid.integral, 0.01 * 0.1)
