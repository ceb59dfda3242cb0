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


"""The simulated board's compiled cycle arithmetic against its NumPy form, cycle by cycle."""

from collections import Counter

from board_helpers import ACTUATORS
import numpy as np
import pytest
from robodyn_ros.hardware.board import messages as m
from robodyn_ros.model import load_robot
from robodyn_ros.sim import plant_step
from robodyn_ros.sim.board import cycle_kernel
from robodyn_ros.sim.board.axes import SensorSettings, SimAxes
from robodyn_ros.sim.board.faults import FaultInjector
from robodyn_ros.sim.board.firmware import SimFirmware


@pytest.fixture(scope='module')
def compiled():
    plant_step.load()       # the plant's own step compiled in both runs, not in one only
    if cycle_kernel.COMPILED.load() is None:
        pytest.fail('numba is a dependency: the board cycle must compile here')
    return cycle_kernel.COMPILED.get()


def _firmware(robot, counts, factor):
    model = load_robot(robot, params=ACTUATORS) if robot == 'ma3000' else load_robot(robot)
    axes = SimAxes(model, 0.001, sensors=SensorSettings(encoder_counts=counts),
                   q0=model.home_configuration())
    fw = SimFirmware(axes, FaultInjector(np.random.default_rng(0)),
                     np.full(model.n, 6.0), over_current_factor=factor)
    fw.clock = lambda: fw.time_us * 1e-6        # board time: no wall-clock watchdog here
    return fw


def _run(fw, currents, start):
    """Drive ``fw`` with the scripted currents; every message it sends, cycle by cycle."""
    n = fw.n
    fw.handle(m.Configure(0.02, tuple(fw.max_current), (0.05,) * n, (100.0,) * n,
                          tuple(int(c) for c in fw.axes.encoder_counts)), 0)
    fw.handle(m.Enable(), 1)
    out = []
    for k, row in enumerate(currents):
        if k == start:
            fw.handle(m.ClearFault(), 2)
            fw.handle(m.Enable(), 3)
        fw.take_currents(fw.time_us, np.array(row))
        out.append(fw.tick())
    return out, fw.axes.q.copy(), fw.axes.qd.copy(), fw.fault_events


@pytest.mark.parametrize('robot,counts,factor', [
    ('ma3000', [4096, 2048, 1024], 1.25),
    ('ma3000', [16, 8, 4], 0.5),          # coarse encoders; a low trip level: over-current
    ('puma560', 4096, 1.25),
    ('ur5', 1024, 0.7),
])
def test_the_compiled_cycle_gives_the_numpy_forms_reports(
        compiled, monkeypatch, robot, counts, factor):
    """Strong random currents into the hard stops, faults and a re-enable: the same messages."""
    n = load_robot(robot).n
    rng = np.random.default_rng(3)
    currents = rng.normal(0.0, 4.0, (1500, n)).cumsum(axis=0) * 0.05
    currents[600:700] = 8.0 * np.sign(rng.normal(size=n))       # beyond the limit: clamped
    runs, calls = [], Counter()

    def counted(i, func):
        def call(*args):
            out = func(*args)
            calls[i] += 1           # (a call that raised went to the NumPy form)
            return out
        return call

    wrapped = tuple(counted(i, f) for i, f in enumerate(compiled))
    for fast in (True, False):
        with monkeypatch.context() as patch:
            patch.setattr(cycle_kernel.COMPILED, 'get', (lambda: wrapped) if fast
                          else (lambda: None))
            runs.append(_run(_firmware(robot, counts, factor), currents, 900))
    (out, q, qd, events), (ref_out, ref_q, ref_qd, ref_events) = runs
    assert out == ref_out
    # the compiled run took the compiled forms, cycle after cycle
    # (every cycle reads the sensors; with the outputs on, the clamp, lag and stops run)
    assert calls[cycle_kernel.SENSE] == 1500 and calls[cycle_kernel.CLAMP] > 100
    assert calls[cycle_kernel.HARD_STOPS] == calls[cycle_kernel.CURRENT_LAG] > 100
    np.testing.assert_array_equal(q, ref_q)
    np.testing.assert_array_equal(qd, ref_qd)
    assert events == ref_events
    reports = [x for cycle in out for x in cycle if isinstance(x, m.StateReport)]
    assert len(reports) == 1500
    if factor < 1.0:        # the compiled trip latched (twice: before and after the reset)
        assert [e['faults'] for e in events] == [['over_current']] * 2
    else:                   # no fault: the clamp ran
        assert events == [] and any(r.status & m.Status.CURRENT_LIMITED for r in reports)


def test_hard_stops_clamp_as_the_array_formula(compiled):
    """Positions beyond a limit, velocities into it and NaN: as clip and where."""
    rng = np.random.default_rng(1)
    lower, upper = np.array([-1.0, -np.inf, 0.0, -2.0]), np.array([1.0, np.inf, 0.5, 2.0])
    for _ in range(500):
        q = rng.normal(0.0, 2.0, 4)
        qd = rng.normal(0.0, 1.0, 4)
        if rng.random() < 0.2:
            (q if rng.random() < 0.5 else qd)[rng.integers(4)] = rng.choice([np.nan, np.inf])
        low, high = q < lower, q > upper
        ref_q = np.clip(q, lower, upper)
        ref_qd = np.where(low, np.maximum(qd, 0.0), np.where(high, np.minimum(qd, 0.0), qd))
        finite = bool(np.isfinite(ref_q).all() and np.isfinite(ref_qd).all())
        assert compiled[cycle_kernel.HARD_STOPS](q, qd, lower, upper) == finite
        np.testing.assert_array_equal(q, ref_q)
        np.testing.assert_array_equal(qd, ref_qd)


def test_clamp_and_current_lag_are_the_array_formulas(compiled):
    """The set-point clamp (NaN counts as changed) and the current loop's lag."""
    rng = np.random.default_rng(2)
    limit = np.array([1.0, 2.0, 0.0, 5.0])
    for _ in range(300):
        values = rng.normal(0.0, 3.0, 4)
        if rng.random() < 0.2:
            values[rng.integers(4)] = np.nan
        ref = np.minimum(np.maximum(values, -limit), limit)
        changed = bool((ref != values).any())
        assert compiled[cycle_kernel.CLAMP](values, limit) == changed
        np.testing.assert_array_equal(values, ref)
        current, reference, tpa = rng.normal(size=(3, 4))
        alpha = rng.random()
        ref_current = current + (reference - current) * alpha
        torque = np.empty(4)
        compiled[cycle_kernel.CURRENT_LAG](current, reference, alpha, tpa, torque)
        np.testing.assert_array_equal(current, ref_current)
        np.testing.assert_array_equal(torque, tpa * ref_current)


def test_sense_finds_the_silent_encoder_as_the_numpy_check(compiled):
    """Moving axes whose counts stand still for a watchdog period: the same axis and times."""
    fw = _firmware('ma3000', [4096, 2048, 1024], 1.25)
    rng = np.random.default_rng(4)
    found = 0
    for _ in range(400):
        fw.time_us = int(rng.integers(100_000, 200_000))
        fw.watchdog_us = int(rng.choice([2_000, 20_000]))
        fw.enabled = bool(rng.random() < 0.8)
        counts = rng.integers(-5, 5, 3)
        last = np.where(rng.random(3) < 0.5, counts, counts + 1)
        changes = fw.time_us - rng.integers(0, 2 * fw.watchdog_us, 3)
        fw.axes.plant.qd = rng.normal(0.0, 2.0, 3)
        fw._last_counts, fw._last_change_us = last.copy(), changes.copy()
        fw.faults = 0
        enabled = fw.enabled            # (a latch below switches the outputs off)
        ref = fw._encoder_check(counts)
        ref_changes = fw._last_change_us.copy()
        got_changes = changes.copy()
        cpu = fw.axes.counts_per_unit
        trip, silent = compiled[cycle_kernel.SENSE](
            counts / cpu, np.zeros(3), cpu, np.zeros(3), np.ones(3), fw.axes.qd, enabled,
            fw.time_us, fw.watchdog_us, last, got_changes, counts.copy())
        np.testing.assert_array_equal(got_changes, ref_changes)
        assert trip == -1
        assert silent == (ref[0].axis if ref else -1)
        found += bool(ref)
        fw.enabled = True
    assert found > 20
