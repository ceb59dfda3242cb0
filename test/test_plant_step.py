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


"""The plant's semi-implicit sub-step in loop form against the array formulas."""

from dataclasses import replace
import os
import subprocess
import sys

from dyn_models import random_dh_model
import numpy as np
import pytest
from robodyn_ros.dynamics import mass_matrix
from robodyn_ros.dynamics.tables import tables
from robodyn_ros.friction.models import velocity_friction
from robodyn_ros.model import load_robot
from robodyn_ros.sim import Plant
from robodyn_ros.sim import plant_step
from robodyn_ros.sim.plant_step import friction_table

#: The compiled pair (numba is a test requirement here).
COMPILED = plant_step.load()

MODELS = {
    'puma560': lambda: load_robot('puma560'),
    'ur5': lambda: load_robot('ur5'),
    'random_stribeck_rrprrr': lambda: random_dh_model(3, stribeck=True),
    'random_prr': lambda: random_dh_model(4, joints='PRR', convention='standard'),
}


def _velocities(n, rng):
    """Rest, the smoothing band's scale, ordinary and fast speeds, both signs [rad/s]."""
    rows = [np.zeros(n), np.full(n, 1e-9), np.full(n, -1e-4), np.full(n, 2e-3)]
    rows += [rng.normal(0.0, s, n) for s in (1e-3, 0.05, 1.0, 10.0)]
    return rows


@pytest.mark.parametrize('name', sorted(MODELS))
@pytest.mark.parametrize('band', ['model', 'zero', 'wide'])
def test_friction_and_slope_are_the_models_friction(name, band):
    """Torque as friction.models.velocity_friction; slope as its central difference."""
    model = MODELS[name]()
    tab = tables(model)
    eps = {'model': tab.smoothing_velocity, 'zero': np.zeros(model.n),
           'wide': np.maximum(tab.smoothing_velocity, 0.05)}[band]
    ref_tab = replace(tab, smoothing_velocity=eps)
    table = friction_table(tab, eps)
    dv = 1e-6
    for qd in _velocities(model.n, np.random.default_rng(7)):
        torque, slope = COMPILED[0](qd, table, dv)
        np.testing.assert_allclose(torque, velocity_friction(ref_tab, qd), rtol=1e-12,
                                   atol=1e-12)
        ref_slope = (velocity_friction(ref_tab, qd + dv)
                     - velocity_friction(ref_tab, qd - dv)) / (2 * dv)
        np.testing.assert_allclose(slope, ref_slope, rtol=1e-6, atol=1e-6)
        # the Python form of the same loop (what runs without numba) gives the same numbers
        py_torque, py_slope = plant_step.friction_and_slope(qd, table, dv)
        np.testing.assert_allclose(py_torque, torque, rtol=1e-13, atol=1e-14)
        np.testing.assert_allclose(py_slope, slope, rtol=1e-6, atol=1e-6)


def test_implicit_update_is_the_array_formula():
    """The update: qd' = qd + h qdd / (1 + h max(slope, 0) / M_ii), q' = q + h qd'."""
    rng = np.random.default_rng(11)
    for _ in range(20):
        q, qd, qdd = rng.normal(size=(3, 7))
        slope = rng.normal(0.0, 5.0, 7)          # negative slopes are not taken implicitly
        inertia = rng.uniform(0.01, 3.0, 7)
        h = float(rng.uniform(1e-5, 2e-3))
        for update in COMPILED[1], plant_step.implicit_update:
            _check_update(update, q, qd, qdd, slope, inertia, h)


def _check_update(update, q, qd, qdd, slope, inertia, h):
    q_new, qd_new, qdd_new = update(q, qd, qdd, slope, inertia, h)
    v = qd + h * qdd / (1.0 + h * np.maximum(slope, 0.0) / inertia)
    np.testing.assert_allclose(qd_new, v, rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(q_new, q + h * v, rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(qdd_new, (v - qd) / h, rtol=1e-9, atol=1e-9)
    for new, old in ((q_new, q), (qd_new, qd)):
        assert new is not old and not np.shares_memory(new, old)


@pytest.mark.parametrize('form', ['compiled', 'numpy'])
@pytest.mark.parametrize('name', sorted(MODELS))
def test_semi_implicit_steps_follow_the_formula_with_pinocchio_and_our_mass_matrix(
        name, form, monkeypatch):
    """Each step of the plant is the semi-implicit formula, checked with independent parts."""
    # The plant takes the compiled form once the background load has finished; before, and
    # without numba, its NumPy form: both must give the formula.
    monkeypatch.setattr(plant_step, 'compiled', lambda: COMPILED if form == 'compiled' else None)
    model = MODELS[name]()
    rng = np.random.default_rng(5)
    lower, upper = np.asarray(model.lower_limits, float), np.asarray(model.upper_limits, float)
    q0 = rng.uniform(np.maximum(lower, -2.0), np.minimum(upper, 2.0))
    plant = Plant(model, q0=q0, qd0=rng.normal(0.0, 0.3, model.n), dt=1e-3,
                  integrator='semi_implicit')
    tab = tables(model)
    dv = 1e-6
    for k in range(50):
        tau = rng.normal(0.0, 5.0, model.n)
        q, qd = plant.q.copy(), plant.qd.copy()
        # plant.acceleration: Pinocchio's aba for the torque left after the velocity friction
        acc = plant.acceleration(q, qd, tau)
        slope = (velocity_friction(tab, qd + dv) - velocity_friction(tab, qd - dv)) / (2 * dv)
        inertia = np.diag(mass_matrix(model, q))        # our CRB, not Pinocchio's crba
        v = qd + 1e-3 * acc / (1.0 + 1e-3 * np.maximum(slope, 0.0) / inertia)
        plant.advance(tau, 1e-3)
        np.testing.assert_allclose(plant.qd, v, rtol=1e-7, atol=1e-9, err_msg=f'step {k}')
        np.testing.assert_allclose(plant.q, q + 1e-3 * v, rtol=1e-9, atol=1e-12)


def test_a_semi_implicit_plant_gets_the_compiled_step_in_the_background():
    """Building the plant starts the load; it returns at once, the compiled pair follows."""
    script = ('import sys, time\n'
              'from robodyn_ros.model import load_robot\n'
              'from robodyn_ros.sim import Plant, plant_step\n'
              'Plant(load_robot("puma560"), integrator="semi_implicit", dt=1e-3)\n'
              'print(plant_step.compiled() is None, flush=True)\n'
              'deadline = time.monotonic() + 60\n'
              'while plant_step.compiled() is None and time.monotonic() < deadline:\n'
              '    time.sleep(0.01)\n'
              'print(plant_step.compiled() is not None)\n')
    env = {k: v for k, v in os.environ.items() if k != 'ROBODYN_NO_NUMBA'}
    out = subprocess.run([sys.executable, '-W', 'ignore', '-c', script], capture_output=True,
                         text=True, timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ['True', 'True'], out.stdout


def test_without_numba_the_plant_keeps_its_numpy_form():
    """ROBODYN_NO_NUMBA=1: nothing is compiled, the plant still steps (NumPy form)."""
    script = ('from robodyn_ros.model import load_robot\n'
              'from robodyn_ros.sim import Plant, plant_step\n'
              'p = Plant(load_robot("puma560"), integrator="semi_implicit", dt=1e-3)\n'
              'p.advance(p.q * 0 + 1.0, 1e-3)\n'
              'print(plant_step.load(), plant_step.compiled(), p.finite())\n')
    out = subprocess.run([sys.executable, '-W', 'ignore', '-c', script], capture_output=True,
                         text=True, timeout=120, env={**os.environ, 'ROBODYN_NO_NUMBA': '1'})
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ['None', 'None', 'True'], out.stdout


@pytest.mark.parametrize('velocity', [0.0, float('inf')])
def test_a_stribeck_velocity_without_static_friction_is_harmless(velocity):
    """Without static friction the Stribeck velocity is unused: 0 or inf gives no NaN at rest."""
    from robodyn_ros.dynamics import inverse_dynamics

    def variant(stribeck_velocity):
        base = load_robot('puma560')
        return base.replace_joints([j.with_changes(friction=replace(
            j.friction, coulomb_pos=1.0, coulomb_neg=0.8, static_pos=float('nan'),
            static_neg=float('nan'), stribeck_velocity=stribeck_velocity))
            for j in base.joints])
    model = variant(velocity)
    rest = np.zeros(model.n)
    np.testing.assert_array_equal(velocity_friction(tables(model), rest), rest)
    assert np.all(np.isfinite(inverse_dynamics(model, rest, rest, rest)))
    for form in COMPILED, None:
        plant = Plant(model, integrator='semi_implicit', dt=1e-3)
        fast = plant_step.compiled
        plant_step.compiled = lambda: form
        try:
            plant.advance(rest, 1e-3)
        finally:
            plant_step.compiled = fast
        assert plant.finite()
    # in motion the friction is that of any ordinary Stribeck velocity (the term is zero)
    for qd in _velocities(model.n, np.random.default_rng(3)):
        np.testing.assert_allclose(velocity_friction(tables(model), qd),
                                   velocity_friction(tables(variant(0.5)), qd), rtol=1e-13)


def test_an_array_type_the_step_was_not_compiled_for_takes_the_numpy_form():
    """A strided or read-only state never compiles in a cycle: that step runs as NumPy."""
    model = load_robot('puma560')
    tab = tables(model)
    dv = 1e-6
    for make in (lambda x: np.repeat(x, 2)[::2], lambda x: _read_only(x)):
        plant = Plant(model, q0=np.full(model.n, 0.2), qd0=np.full(model.n, 0.1), dt=1e-3,
                      integrator='semi_implicit')
        plant.q, plant.qd = make(plant.q), make(plant.qd)
        with pytest.raises(TypeError):
            COMPILED[0](plant.qd, friction_table(tab, tab.smoothing_velocity), dv)
        q, qd, tau = plant.q.copy(), plant.qd.copy(), np.full(model.n, 2.0)
        acc = plant.acceleration(q, qd, tau)
        slope = (velocity_friction(tab, qd + dv) - velocity_friction(tab, qd - dv)) / (2 * dv)
        v = qd + 1e-3 * acc / (1.0 + 1e-3 * np.maximum(slope, 0.0) / np.diag(
            mass_matrix(model, q)))
        plant.advance(tau, 1e-3)
        np.testing.assert_allclose(plant.qd, v, rtol=1e-7, atol=1e-9)
    assert [len(f.signatures) for f in COMPILED] == [1, 1]


def _read_only(x):
    x = x.copy()
    x.flags.writeable = False
    return x


def test_starting_the_load_never_waits_for_a_compile_in_progress():
    """A second plant built while the background load runs is not held up by it."""
    script = ('import threading, time\n'
              'from robodyn_ros.sim import plant_step\n'
              'gate = threading.Event()\n'
              'original = plant_step.load\n'
              'def slow_load():\n'
              '    with plant_step._LOCK:\n'
              '        gate.wait(30)\n'
              '    return original()\n'
              'plant_step.load = slow_load\n'
              'holder = threading.Thread(target=slow_load)\n'
              'holder.start()\n'
              'time.sleep(0.2)\n'
              'began = time.monotonic()\n'
              'plant_step.start()\n'
              'took = time.monotonic() - began\n'
              'gate.set()\n'
              'holder.join()\n'
              'print(took < 5.0)\n')
    out = subprocess.run([sys.executable, '-W', 'ignore', '-c', script], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ['True'], out.stdout
