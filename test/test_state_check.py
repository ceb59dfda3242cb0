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

"""StatePlausibility: positions beyond the limits, impossible speeds and jumps."""

import numpy as np
import pytest
from robodyn_ros.control import state_check
from robodyn_ros.control.state_check import StatePlausibility
from robodyn_ros.errors import InputError
from robodyn_ros.model import load_robot


@pytest.mark.parametrize('robot', ['puma560', 'ur5', 'ma3000'])
def test_each_rule_names_the_joint(robot):
    """Inside the limits at a possible speed passes; each rule catches its own kind."""
    model = load_robot(robot)
    check = StatePlausibility(model, margin=0.1, speed_factor=1.5)
    q = model.home_configuration()
    qd = np.zeros(model.n)
    assert check.check(q, qd, 0.0) == ''
    j = model.n - 1
    far = q.copy()
    far[j] = model.upper_limits[j] + 0.2 if np.isfinite(model.upper_limits[j]) else 1e30
    if np.isfinite(model.upper_limits[j]):
        assert f'joint {model.joint_names[j]} position' in check.check(far, qd, 0.01)
    fast = qd.copy()
    fast[0] = 1.6 * model.velocity_limits[0]
    assert f'joint {model.joint_names[0]} velocity' in check.check(q, fast, 0.01)
    step = q.copy()
    step[0] += 1.5 * model.velocity_limits[0] * 0.01 + 0.1 + 1e-3   # just too far in 10 ms
    assert 'jumped' in check.check(step, qd, 0.01)
    step[0] -= 2e-3                                                 # just possible
    assert check.check(step, qd, 0.01) == ''


def test_a_refused_sample_is_not_the_reference_for_the_next():
    """After a glitch the next good sample is compared with the last good one."""
    model = load_robot('puma560')
    check = StatePlausibility(model)
    q = model.home_configuration()
    assert check.check(q, None, 0.0) == ''
    glitch = q.copy()
    glitch[1] -= 1.0
    assert 'jumped' in check.check(glitch, None, 0.002)
    assert check.check(q, None, 0.004) == ''
    check.reset()
    assert check.check(glitch, None, 0.006) == ''    # no reference after a reset


def test_settings_are_checked():
    """A margin <= 0 or a speed factor < 1 is refused."""
    model = load_robot('ma3000')
    with pytest.raises(InputError, match='plausibility_margin'):
        StatePlausibility(model, margin=0.0)
    with pytest.raises(InputError, match='plausibility_speed_factor'):
        StatePlausibility(model, speed_factor=0.5)


def _random_states(model, rng, count):
    """Yield states, speeds and steps inside and beyond each rule's bound."""
    lo = np.where(np.isfinite(model.lower_limits), model.lower_limits, -4.0)
    hi = np.where(np.isfinite(model.upper_limits), model.upper_limits, 4.0)
    for _ in range(count):
        q = rng.uniform(lo - 0.15, hi + 0.15)
        qd = rng.uniform(-1.7, 1.7, model.n) * model.velocity_limits
        dt = float(rng.choice([0.0, 0.001, 0.01]))
        yield q, (None if rng.random() < 0.2 else qd), dt


@pytest.mark.parametrize('robot', ['puma560', 'ur5', 'panda'])
def test_compiled_and_numpy_forms_give_the_same_answer(robot):
    """Random walks across every rule: the same message (or none) from both forms."""
    model = load_robot(robot)
    if state_check.COMPILED.load() is None:
        pytest.fail('numba is a dependency: the plausibility check must compile here')
    compiled = state_check.COMPILED.get()[0]
    fast, slow = StatePlausibility(model, 0.1, 1.5), StatePlausibility(model, 0.1, 1.5)
    rules = {'': state_check.NONE, 'position': state_check.POSITION,
             'velocity': state_check.VELOCITY, 'jumped': state_check.JUMP}
    rng = np.random.default_rng(11)
    t, kinds = 0.0, set()
    for q, qd, dt in _random_states(model, rng, 400):
        t += dt
        # the loop form's own verdict, compiled and as Python, before the check moves on
        last = np.empty(0) if slow._q is None else slow._q
        args = (q, np.empty(0) if qd is None else qd, last,
                max(t - slow._t, 0.0) if slow._q is not None else 0.0,
                slow.lower, slow.upper, slow.speed, slow.margin)
        verdict = compiled(*args)
        assert state_check.first_violation(*args) == verdict
        got, want = fast.check(q, qd, t), slow._numpy_check(q, qd, t)
        assert got == want
        kind = want.split(' ')[2] if want else ''
        assert verdict[0] == rules[kind]
        if want:
            assert verdict[1] == model.joint_names.index(want.split(' ')[1])
        kinds.add(kind)
    assert kinds == set(rules)


def test_a_believable_state_is_checked_compiled(monkeypatch):
    """The cycle's arrays (a sample's rows, a model's bounds) do not fall back to NumPy."""
    model = load_robot('ur5')
    check = StatePlausibility(model)
    rows = np.zeros((3, model.n))           # a filter's output: rows of one array
    rows[0] = model.home_configuration()

    def numpy_form(*args):
        raise AssertionError('the NumPy form ran for a believable state')

    monkeypatch.setattr(StatePlausibility, '_numpy_check', numpy_form)
    for k in range(3):
        assert check.check(rows[0], rows[1], 0.001 * k) == ''
    assert check.check(rows[0], None, 0.004) == ''
