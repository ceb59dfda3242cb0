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

"""The simulated power stage, transmission and sensors against closed forms and the plant."""

import math

from board_helpers import ACTUATORS, TRUTH
import numpy as np
import pytest
from robodyn_ros.errors import InputError
from robodyn_ros.model import load_robot
from robodyn_ros.sim.board.axes import (PlantSettings, SensorSettings, SimAxes,
                                        without_load_friction)
from robodyn_ros.sim.plant import Plant

H = 0.001


def _axes(**kw):
    model = load_robot('ma3000', params=kw.pop('params', ACTUATORS))
    kw.setdefault('q0', [0.0, -1.5, 0.0])
    return model, SimAxes(model, H, **kw)


def test_current_loop_is_first_order():
    """i_k = i_ref (1 - (1 - alpha)^k), alpha = 1 - exp(-h / tau); outputs off: i = 0."""
    model, ax = _axes(plant=PlantSettings(current_time_constant=0.002))
    ref = np.array([1.0, -2.0, 0.5])
    alpha = 1 - math.exp(-H / 0.002)
    for k in range(1, 6):
        ax.step(ref, True)
        assert np.allclose(ax.current, ref * (1 - (1 - alpha) ** k))
    ax.step(ref, False)
    assert np.all(ax.current == 0.0)


def test_torque_reaches_the_plant_as_eta_n_kt_i():
    """Same motion as a Pinocchio plant driven by eta N Kt times the loop's current."""
    model, ax = _axes(plant=PlantSettings(efficiency=0.8, current_time_constant=0.0,
                                          friction_smoothing=0.01))
    plant = Plant(model, q0=[0.0, -1.5, 0.0], dt=H, integrator='semi_implicit',
                  smoothing_velocity=0.01)
    ref = np.array([0.3, 1.0, -0.4])
    gain = 0.8 * np.array([100 * 0.05, -150 * 0.06, 80 * 0.04])
    for _ in range(100):
        ax.step(ref, True)
        plant.step(gain * ref, H)
    assert np.allclose(ax.q, plant.q, atol=1e-12) and np.allclose(ax.qd, plant.qd, atol=1e-12)
    assert abs(ax.qd[0]) > 0.01


def test_encoder_quantisation_and_noise():
    """Counts are round((q + gap) N cpr / 2 pi); the noise has the given spread."""
    model, ax = _axes(sensors=SensorSettings(encoder_counts=[4096, 1000, 360]))
    counts = ax.encoder(np.zeros(3, dtype=bool))
    per = np.array([4096 * 100, 1000 * -150, 360 * 80]) / (2 * math.pi)
    assert counts.tolist() == np.rint(np.array([0.0, -1.5, 0.0]) * per).astype(int).tolist()
    model, noisy = _axes(sensors=SensorSettings(encoder_noise=3.0), rng=np.random.default_rng(1))
    base = noisy.true_counts()
    samples = np.array([noisy.encoder(np.zeros(3, dtype=bool)) - base for _ in range(3000)])
    assert np.std(samples) == pytest.approx(3.0, rel=0.1)
    frozen = noisy.encoder(np.array([True, False, False]))
    assert frozen[0] == samples[-1][0] + base[0]


def test_backlash_blocks_torque_while_the_gap_is_crossed():
    """After a torque reversal no torque passes for b / (speed h) cycles."""
    model, ax = _axes(plant=PlantSettings(backlash=0.01, backlash_speed=1.0), q0=[0.0, -1.5, 0.0])
    plus = np.array([1.0, 0.0, 0.0])
    ax.step(plus, True)
    assert ax.gap[0] == pytest.approx(0.005)
    ax.current[:] = 0.0
    blocked = 0
    for _ in range(30):
        before = ax.qd[0]
        was_open = ax.gap[0] > -0.005 + 1e-12
        ax.step(-plus, True)
        if was_open:
            blocked += 1
            assert ax.qd[0] == pytest.approx(before, abs=2e-4)  # a free -1 A step: -9e-4
        else:
            assert ax.qd[0] < before - 5e-4
    assert blocked == 10  # 0.01 rad at 1 rad/s in 1 ms steps


def test_brakes_hold_and_hard_stops_clip():
    """Outputs off with brakes: the arm under gravity stays; without brakes it falls."""
    model, ax = _axes(q0=[0.0, -0.5, 0.0])
    for _ in range(200):
        ax.step(np.zeros(3), False)
    assert np.allclose(ax.q, [0.0, -0.5, 0.0]) and np.all(ax.qd == 0.0)
    model, free = _axes(q0=[0.0, -0.5, 0.0], plant=PlantSettings(brakes=False))
    for _ in range(3000):
        free.step(np.zeros(3), False)
    assert free.q[1] == pytest.approx(model.lower_limits[1]) or free.q[1] == pytest.approx(
        model.upper_limits[1])
    assert np.all(free.q >= model.lower_limits) and np.all(free.q <= model.upper_limits)


def test_settings_are_checked_when_made():
    """The plant and sensor records normalise per-axis values and refuse bad ones."""
    plant = PlantSettings(efficiency=np.array([0.9, 0.8, 1.0]), backlash=[0.0, 0.01, 0.0])
    assert plant.efficiency == (0.9, 0.8, 1.0) and plant.backlash == (0.0, 0.01, 0.0)
    assert SensorSettings(encoder_counts=np.array([4096, 1024])).encoder_counts == (4096, 1024)
    assert SensorSettings(encoder_counts=2048.0).encoder_counts == 2048
    for record, field, bad in ((PlantSettings, 'efficiency', 1.2),
                               (PlantSettings, 'efficiency', 0.0),
                               (PlantSettings, 'backlash', -0.01),
                               (PlantSettings, 'current_time_constant', [1e-3, 2e-3]),
                               (PlantSettings, 'friction_smoothing', float('nan')),
                               (SensorSettings, 'encoder_counts', 0),
                               (SensorSettings, 'encoder_counts', 1024.5),
                               (SensorSettings, 'current_noise', -1.0)):
        with pytest.raises(InputError) as err:
            record(**{field: bad})
        assert err.value.argument == field, (field, bad)
    with pytest.raises(InputError, match='plant'):
        _axes(plant={'brakes': False})


def test_without_load_friction_keeps_velocity_friction():
    """The option drops bearing/transmission models and nothing else."""
    puma = load_robot('puma560')
    light = without_load_friction(puma)
    assert all(j.friction.bearing is None and j.friction.transmission is None
               for j in light.joints)
    assert [j.friction.coulomb_pos for j in light.joints] == [
        j.friction.coulomb_pos for j in puma.joints]
    truth = load_robot('ma3000', params=TRUTH)
    assert truth.joints[0].friction.static_pos == 3.0


def test_substeps_are_plant_steps_at_the_inner_period():
    """Four sub-steps of a cycle: the current loop and the plant at h / 4, same as a Plant."""
    model, ax = _axes(plant=PlantSettings(current_time_constant=0.002, friction_smoothing=0.01),
                      substeps=4)
    assert ax.inner_period == pytest.approx(H / 4)
    plant = Plant(model, q0=[0.0, -1.5, 0.0], dt=H / 4, integrator='semi_implicit',
                  smoothing_velocity=0.01)
    gain = np.array([100 * 0.05, -150 * 0.06, 80 * 0.04])
    alpha = 1 - math.exp(-H / 4 / 0.002)
    current = np.zeros(3)
    rng = np.random.default_rng(5)
    for _ in range(40):
        ref = rng.normal(0.0, 1.0, 3)
        ax.substep(ref)
        current += (ref - current) * alpha
        plant.step(gain * current, H / 4)
    ax.check()
    assert np.allclose(ax.current, current, atol=1e-12)
    assert np.allclose(ax.q, plant.q, atol=1e-12) and np.allclose(ax.qd, plant.qd, atol=1e-12)
    assert np.allclose(ax.motor_velocity(), np.array([100.0, -150.0, 80.0]) * ax.qd)
    assert plant.time == pytest.approx(ax.plant.time)
    for bad in (0, 2.5):
        with pytest.raises(InputError, match='substeps'):
            _axes(substeps=bad)


def test_a_diverged_plant_is_reported_by_check():
    """A non-finite state raises FloatingPointError at the check (once per cycle)."""
    model, ax = _axes(substeps=2)
    ax.plant.qd[1] = np.nan
    ax.substep(np.zeros(3))
    with pytest.raises(FloatingPointError):
        ax.check()
    with pytest.raises(FloatingPointError):
        ax.step(np.zeros(3), True)
