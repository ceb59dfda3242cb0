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

"""ControlCycle: the decisions around a law, without ROS."""

import numpy as np
from robodyn_ros.control.computed_torque import ComputedTorque
from robodyn_ros.control.control_cycle import ControlCycle
from robodyn_ros.control.reference import ReferenceSampler
from robodyn_ros.model import load_robot

Q = np.radians([10.0, -70.0, 20.0])


def _cycle(**kwargs):
    model = load_robot('ma3000')
    ct = ComputedTorque(model, 0.005, omega=10.0)
    return ControlCycle(ct, model, 0.1, **kwargs), ct


def test_commands_then_one_release_then_silence():
    """A good state gives the law's torque; a stale one one release, then nothing."""
    cycle, ct = _cycle()
    assert cycle.run(0.0, 0.0).torque is None           # no state yet: nothing, no release
    assert cycle.take_state(Q, np.zeros(3), 1.0) == ''
    out = cycle.run(1.01, 0.0)
    fresh = ComputedTorque(ct.model, 0.005, omega=10.0)
    hold, _ = fresh.step(0.0, Q, np.zeros(3), cycle.idle)
    assert np.allclose(out.torque, hold) and not out.release
    stale = cycle.run(1.2, 0.0)
    assert stale.torque is None and stale.release and 'stale' in stale.status.message
    again = cycle.run(1.21, 0.0)
    assert again.torque is None and not again.release


def test_implausible_state_is_refused_and_named():
    """A position far outside the limits is not taken: no command, the reason kept."""
    cycle, _ = _cycle()
    cycle.take_state(Q, np.zeros(3), 0.0)
    assert cycle.run(0.001, 0.0).torque is not None
    problem = cycle.take_state(np.array([Q[0], 1e30, Q[2]]), np.zeros(3), 0.002)
    assert 'implausible joint_states: joint joint2' in problem
    out = cycle.run(0.003, 0.0)
    assert out.torque is None and out.release and 'implausible' in out.status.message


def test_gap_drops_the_trajectory_and_holds_the_measured_position():
    """After more than state_timeout without a state, the trajectory is dropped."""
    cycle, _ = _cycle()
    times = np.array([0.0, 10.0])
    goal = Q + 0.5
    cycle.set_trajectory(ReferenceSampler(times, np.array([Q, goal]), np.zeros((2, 3)),
                                          np.zeros((2, 3))), start=0.0)
    cycle.take_state(Q, np.zeros(3), 0.0)
    cycle.run(0.001, 1.0)
    assert cycle.trajectory is not None
    assert cycle.run(0.5, 1.5).release                # the state stopped
    moved = Q + 0.01
    cycle.take_state(moved, np.zeros(3), 2.0)
    out = cycle.run(2.001, 3.0)
    assert cycle.trajectory is None and np.allclose(cycle.idle.q, moved)
    assert 'trajectory in progress was dropped' in cycle.reanchored
    assert out.torque is not None


def test_without_idle_reference_the_law_gives_its_gravity_hold():
    """idle_reference 'none': the law's HOLD output is sent (a valid state, no reference)."""
    cycle, ct = _cycle(idle_reference='none')
    cycle.take_state(Q, np.zeros(3), 0.0)
    out = cycle.run(0.001, 0.0)
    assert out.status.mode.value == 'hold'
    assert np.allclose(out.torque, ct.gravity_hold_torque(Q, np.zeros(3)))


def test_split_cycle_gives_the_laws_setpoint_and_refuses_a_law_without_one():
    """split=True: the set-point to send, its torque at the sample; a PID is refused by name."""
    import pytest
    from robodyn_ros.control.pid import PID
    from robodyn_ros.errors import InputError
    cycle, ct = _cycle(split=True)
    cycle.take_state(Q, np.full(3, 0.1), 1.0)
    out = cycle.run(1.001, 0.0)
    fresh = ComputedTorque(ct.model, 0.005, omega=10.0)
    sp, _ = fresh.impedance_step(1.001, Q, np.full(3, 0.1), cycle.idle)
    assert out.command is out.setpoint and np.allclose(out.setpoint.kp, sp.kp)
    assert np.allclose(out.setpoint.tau_ff, sp.tau_ff)
    assert np.allclose(out.torque, sp.torque(Q, np.full(3, 0.1)))
    stale = cycle.run(1.2, 0.0)
    assert stale.command is None and stale.release
    model = load_robot('ma3000')
    with pytest.raises(InputError, match="'pid' has no split form"):
        ControlCycle(PID(model, 0.005, 100.0, 10.0), model, 0.1, split=True)


def test_the_law_gets_the_states_time_and_the_time_spent_is_reported():
    """run(law_time=t) steps the law at t (the board's clock), default at now; spent >= 0."""
    cycle, ct = _cycle()
    seen = []
    step = ct.step

    def spy(t, q, qd, ref):
        seen.append(t)
        return step(t, q, qd, ref)

    ct.step = spy
    assert cycle.take_state(Q, np.zeros(3), 1.0) == ''
    out = cycle.run(1.01, 0.0, law_time=0.125)
    cycle.take_state(Q, np.zeros(3), 1.02)
    cycle.run(1.03, 0.0)
    assert seen == [0.125, 1.03]
    assert np.isfinite(out.law_time) and out.law_time >= 0.0
