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


"""The current pipeline's loop form, compiled and as Python, against its NumPy form."""

import math
import warnings

import numpy as np
import pytest
from robodyn_ros.hardware import current_kernel
from robodyn_ros.hardware.board.messages import Identify
from robodyn_ros.hardware.current_command import CurrentCommand, OutputLimits
from robodyn_ros.hardware.scaling import axis_parameters, joint_scaling
from robodyn_ros.model import load_robot


def _numpy_form(limits, q, command, friction, margin):
    """Return the reference: OutputLimits' NumPy methods, as CurrentCommand composes them."""
    clipped, tau, at_limit = limits.limit_effort(q, command + friction, margin)
    amps, limited = limits.amps(clipped)
    return amps, clipped, at_limit, clipped != tau, limited


def _limits(rng, n):
    """Random limits: some infinite, some joints with a zero current limit."""
    lower = rng.uniform(-3.0, 0.0, n)
    upper = rng.uniform(0.0, 3.0, n)
    free = rng.random(n) < 0.2
    lower[free], upper[free] = -math.inf, math.inf
    return lower, upper, rng.uniform(1.0, 300.0, n), rng.uniform(0.01, 2.0, n), \
        np.where(rng.random(n) < 0.1, 0.0, rng.uniform(0.5, 20.0, n))


def _cases(seed=3, count=600):
    rng = np.random.default_rng(seed)
    for k in range(count):
        n = int(rng.integers(1, 17))
        lower, upper, effort, apt, current = _limits(rng, n)
        q = rng.uniform(-3.5, 3.5, n)
        near = rng.random(n) < 0.3          # at, inside and beyond the ramp of a limit
        q[near] = np.where(rng.random(near.sum()) < 0.5, lower[near], upper[near]) \
            + rng.uniform(-0.08, 0.08, near.sum())
        command = rng.normal(0.0, 150.0, n) * (rng.random(n) < 0.9)
        friction = rng.normal(0.0, 5.0, n)
        margin = (0.0, 0.05, 0.1, float(rng.uniform(0.001, 1.0)))[k % 4]
        if k % 7 == 0:                       # NaN and infinities where they can arise
            q[rng.integers(n)] = math.nan
            command[rng.integers(n)] = (math.nan, math.inf, -math.inf)[k % 3]
        yield q, command, friction, margin, lower, upper, effort, apt, current


class _Limits(OutputLimits):
    """OutputLimits from arrays (the NumPy methods need no model)."""

    def __init__(self, lower, upper, effort, amps_per_torque, current):
        self.lower, self.upper, self.effort = lower, upper, effort
        self.current_limit, self._amps_per_torque = current, amps_per_torque
        self._neg_limit, self._neg_effort = -current, -effort


@pytest.fixture(scope='module')
def compiled():
    pair = current_kernel.COMPILED.load()
    if pair is None:
        pytest.fail('numba is a dependency: the current pipeline must compile here')
    return pair[0]


def test_both_loop_forms_give_the_numpy_numbers_bit_for_bit(compiled):
    """600 random cases (1-16 joints, limits near and infinite, NaN, inf): equal arrays."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', RuntimeWarning)      # NaN and inf on purpose
        for q, cmd, fric, margin, lower, upper, effort, apt, current in _cases():
            want = _numpy_form(_Limits(lower, upper, effort, apt, current), q, cmd, fric,
                               margin)
            args = (q, cmd, fric, margin, lower, upper, effort, apt, current)
            for form in (current_kernel.current_pipeline, compiled):
                got = form(*args)
                for a, b in zip(got, want):
                    np.testing.assert_array_equal(a, b)
                    assert a.dtype == b.dtype


def test_some_cases_do_reach_every_limit():
    """The random cases are not all trivial: each flag is set somewhere, and cleared."""
    seen = np.zeros((3, 2), dtype=int)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', RuntimeWarning)
        for q, cmd, fric, margin, *rest in _cases():
            _, _, *flags = current_kernel.current_pipeline(q, cmd, fric, margin, *rest)
            for row, flag in enumerate(flags):
                seen[row] += (flag.sum(), (~flag).sum())
    assert (seen > 50).all(), seen


def test_current_command_takes_the_compiled_form_with_the_same_result(compiled):
    """Once loaded, CurrentCommand's results are the loop form's; other inputs fall back."""
    puma = load_robot('puma560')
    sc = joint_scaling(axis_parameters(puma), Identify(1, (1, 0, 0), 0.001, (1000,) * 6,
                                                       (10.0,) * 6))
    pipe = CurrentCommand(puma, sc, np.full(6, 8.0))
    q = np.array([puma.upper_limits[0] - 0.01, 0.0, 0.3, 0.0, 0.0, 0.0])
    cmd = np.array([40.0, -20.0, 500.0, 1.0, -1.0, 0.0])
    fric = np.full(6, 0.5)
    res = pipe(q, cmd, fric, 0.05)
    want = _numpy_form(pipe, q, cmd, fric, 0.05)
    for got, ref in zip((res.currents, res.torque, res.at_limit, res.effort_limited,
                         res.current_limited), want):
        np.testing.assert_array_equal(got, ref)
    assert res.at_limit[0] and res.effort_limited[2] and res.friction is fric
    # a list command and an integer margin are not what the compiled form takes: NumPy form
    again = pipe(q, cmd.tolist(), fric, 0)
    np.testing.assert_array_equal(again.currents, _numpy_form(pipe, q, np.array(
        cmd.tolist()), fric, 0.0)[0])
    # a strided view (TypeError in the compiled form) gives the NumPy numbers too
    wide = np.zeros(12)
    wide[::2] = cmd
    np.testing.assert_array_equal(pipe(q, wide[::2], fric, 0.05).currents, want[0])


def test_a_length_mismatch_is_refused_not_read_past(compiled):
    """The loop form checks the lengths (compiled code has no bounds checks)."""
    one = np.ones(3)
    for bad in range(7):
        args = [one, one, one, 0.1, -one, one, one, one, one]
        if bad:
            args[bad if bad < 3 else bad + 1] = np.ones(2)
        if not bad:
            assert compiled(*args)[0].shape == (3,)
            continue
        with pytest.raises(ValueError, match='differ in length'):
            compiled(*args)
        with pytest.raises(ValueError, match='differ in length'):
            current_kernel.current_pipeline(*args)


def test_the_cycle_takes_the_compiled_form_with_a_real_model(compiled, monkeypatch):
    """A model's read-only limits and a sample's arrays do not send the cycle to NumPy."""
    for robot in ('puma560', 'ur5'):
        model = load_robot(robot)
        assert not model.lower_limits.flags.writeable   # why CurrentCommand copies them
        sc = joint_scaling(axis_parameters(model), Identify(
            1, (1, 0, 0), 0.001, (1000,) * model.n, (10.0,) * model.n))
        pipe = CurrentCommand(model, sc, np.full(model.n, 8.0))
        q = np.asarray(model.home_configuration(), dtype=float)
        cmd, fric = np.linspace(-30.0, 30.0, model.n), np.full(model.n, 0.3)
        want = pipe(q, cmd, fric, 0.05)
        with monkeypatch.context() as patch:   # the NumPy form must not run at all
            patch.setattr(OutputLimits, 'limit_effort', _numpy_form_called)
            got = pipe(q, cmd, fric, 0.05)
        np.testing.assert_array_equal(got.currents, want.currents)


def _numpy_form_called(*args):
    raise AssertionError('the NumPy form ran: the compiled form refused the arguments')
