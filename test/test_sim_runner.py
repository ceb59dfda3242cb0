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

"""The closed-loop runner: zero-order hold, sensors, faults, divergence, statistics."""

from control_models import two_link_frictionless
import numpy as np
import pytest
from robodyn_ros.control.base import Controller, JointReference
from robodyn_ros.control.computed_torque import ComputedTorque
from robodyn_ros.errors import InputError
from robodyn_ros.sim.plant import Plant
from robodyn_ros.sim.runner import Fault, Sensor, simulate
from robodyn_ros.sim.stats import SimResult


class _Recorder(Controller):
    """Return a scripted torque and remember what it was shown."""

    law = 'recorder'

    def __init__(self, model, period, torques):
        super().__init__(model, period, torque_limit=np.inf, hold_damping=0.0)
        self.torques = torques
        self.seen = []

    def _compute(self, t, q, qd, ref):
        self.seen.append((t, q.copy(), qd.copy()))
        return self.torques(t)


def test_zero_order_hold_matches_stepping_the_plant_by_hand():
    """The plant sees each torque held for one period, integrated on its own sub-step."""
    model = two_link_frictionless()
    h = 0.01

    def torques(t):
        return np.array([np.sin(5 * t), np.cos(3 * t)])

    res = simulate(Plant(model, q0=[0.1, 0.2], dt=h / 5, friction=False),
                   _Recorder(model, h, torques), lambda t: JointReference.hold([0, 0]), 0.3)
    ref = Plant(model, q0=[0.1, 0.2], dt=h / 5, friction=False)
    for k, t in enumerate(res.times):
        assert np.allclose(res.q[k], ref.q) and np.allclose(res.tau[k], torques(t))
        ref.step(torques(t), h)


def test_sensor_quantisation_delay_and_velocity_estimates():
    """Positions are quantised and delayed; velocities come from the chosen estimator."""
    model = two_link_frictionless()
    h = 0.01
    rec = _Recorder(model, h, lambda t: np.array([0.5, -0.3]))
    res = simulate(Plant(model, q0=[0.1, 0.2], dt=h / 4, friction=False), rec,
                   lambda t: JointReference.hold([0, 0]), 0.5,
                   sensor=Sensor(resolution=1e-3, delay=2))
    for k in range(2, len(res.times)):
        q_seen = rec.seen[k][1]
        assert np.allclose(q_seen, np.round(res.q[k - 2] / 1e-3) * 1e-3)
        assert np.allclose(rec.seen[k][2], res.qd[k - 2])
    weightless = model.with_gravity([0.0, 0.0, 0.0])
    for velocity in ('difference', 'svf'):
        # Free coasting without gravity: slowly varying velocities, which both track.
        rec = _Recorder(weightless, h, lambda t: np.zeros(2))
        res = simulate(Plant(weightless, q0=[0.1, 0.2], qd0=[0.3, 0.0], dt=h / 4,
                             friction=False), rec, lambda t: JointReference.hold([0, 0]), 1.0,
                       sensor=Sensor(velocity=velocity, velocity_cutoff=10.0))
        est = np.array([s[2] for s in rec.seen])
        assert np.abs(est[-1] - res.qd[-1]).max() < 0.05 * np.abs(res.qd[-1]).max()
        assert np.abs(est[-1] - res.qd[-1]).max() > 0.0   # estimated, not copied
    with pytest.raises(InputError):
        Sensor(velocity='radar')
    with pytest.raises(InputError):
        Sensor(delay=0.5)


def test_faults_give_safe_outputs_and_the_loop_recovers():
    """NaN/stale state: zero torque; missing/NaN reference: hold; then normal again."""
    model = two_link_frictionless()
    q0 = np.array([0.3, -0.2])
    ct = ComputedTorque(model, 1e-3, omega=20.0)
    faults = (Fault(0.05, 0.06, 'nan_state'), Fault(0.1, 0.11, 'stale_state'),
              Fault(0.15, 0.17, 'no_reference'), Fault(0.2, 0.21, 'nan_reference'))
    res = simulate(Plant(model, q0=q0, dt=5e-4, friction=False), ct,
                   lambda t: JointReference.hold(q0), 0.5, faults=faults)
    t = res.times
    zero = (res.modes == 'zero')
    hold = (res.modes == 'hold')
    assert np.array_equal(zero, ((t >= 0.05) & (t < 0.06)) | ((t >= 0.1) & (t < 0.11)))
    assert np.array_equal(hold, ((t >= 0.15) & (t < 0.17)) | ((t >= 0.2) & (t < 0.21)))
    assert np.all(res.tau[zero] == 0.0)
    after = np.abs(res.error[t >= 0.21]).max(axis=1)
    assert after[-1] < 1e-3 and after[-1] < 0.1 * after.max()
    with pytest.raises(InputError):
        Fault(0.0, 1.0, 'gremlins')


def test_divergence_stops_the_run():
    """An unstable loop ends with diverged set instead of an exception."""
    model = two_link_frictionless()
    wild = ComputedTorque(model, 0.05, 1e6, 1e4, torque_limit=np.inf)
    res = simulate(Plant(model, q0=[0.3, 0.0], dt=0.01, friction=False), wild,
                   lambda t: JointReference.hold([0.0, 0.0]), 5.0)
    assert res.diverged and len(res.times) < 100 and res.summary()['diverged']


def test_statistics_against_closed_forms():
    """Max/RMS error, torque stats, reversals and high-frequency power of known signals."""
    h = 1e-3
    t = np.arange(2000) * h
    n = 2
    relay = np.where(np.arange(2000) % 2 == 0, 1.0, -1.0)
    tau = np.column_stack([3.0 * np.sin(2 * np.pi * 200.0 * t), relay])
    err = np.column_stack([0.1 * np.sin(2 * np.pi * 5 * t), np.full(2000, -0.2)])
    res = SimResult('x', h, t, np.zeros((2000, n)), np.zeros((2000, n)), err,
                    np.zeros((2000, n)), tau, np.array(['ok'] * 1999 + ['hold']), {})
    assert np.allclose(res.max_error(), [0.1, 0.2], atol=1e-4)
    assert np.allclose(res.rms_error(), [0.1 / np.sqrt(2), 0.2], atol=1e-4)
    assert np.allclose(res.torque_stats(limit=[10.0, 1.0])['saturated'], [0.0, 1.0])
    assert res.reversals()[1] == pytest.approx(1.0 / h, rel=1e-2)
    assert res.reversals()[0] == pytest.approx(400.0, rel=1e-2)
    hf = res.high_frequency_power(100.0)
    assert hf[0] == pytest.approx(4.5, rel=1e-6) and hf[1] == pytest.approx(1.0, rel=1e-3)
    assert res.high_frequency_power(300.0)[0] < 1e-12
    assert res.time_in_mode('hold') == pytest.approx(1 / 2000)
    with pytest.raises(InputError):
        res.max_error(5.0, 6.0)


def test_progress_reports_each_run_start_and_end():
    """Inside progress(), a run reports its start, its progress (interval 0: every check), end."""
    from robodyn_ros.sim.runner import progress
    model = two_link_frictionless()
    reports = []
    with progress(lambda *r: reports.append(r), interval=0.0):
        simulate(Plant(model, dt=0.002, friction=False),
                 _Recorder(model, 0.01, lambda t: np.zeros(2)),
                 lambda t: JointReference.hold([0, 0]), 0.64, label='quiet')
    simulate(Plant(model, dt=0.002, friction=False),
             _Recorder(model, 0.01, lambda t: np.zeros(2)),
             lambda t: JointReference.hold([0, 0]), 0.1)  # outside the block: no reports
    labels = {r[0] for r in reports}
    assert labels == {'quiet'}
    assert reports[0][1:3] == (0.0, pytest.approx(0.64))
    assert reports[-1][1] == pytest.approx(0.64) and reports[-1][3] >= 0.0
    middle = [r[1] for r in reports[1:-1]]
    assert middle and middle == sorted(middle) and all(0.0 < t < 0.64 for t in middle)
