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

"""
Closed-loop simulation: a controller driving the Pinocchio plant.

Each control period ``h`` the runner measures the plant (optionally
delayed by whole samples, quantised, with noise, and with the velocity
measured, differenced or state-variable filtered), samples the reference,
calls ``controller.step`` and holds the torque constant over the period
while the plant integrates with its own finer sub-step (zero-order hold).
Errors are computed against the plant's true position. Faults can be
injected over time windows to exercise the controllers' safe outputs.
Inside :func:`progress`, every run reports how far it is, at its start and
then every couple of seconds of wall time (``robodyn sim`` prints it).
"""

import contextlib
from dataclasses import dataclass, field
import math
import time

import numpy as np

from .stats import SimResult
from ..control.base import JointReference
from ..control.filtered_difference import FilteredDifference
from ..control.filters import SEED003_REALTIME, StateVariableFilter
from ..errors import InputError

#: Callbacks installed by :func:`progress` (innermost last).
_PROGRESS = []

VELOCITY_SOURCES = ('true', 'difference', 'svf')
FAULT_KINDS = ('nan_state', 'stale_state', 'no_reference', 'nan_reference')


@dataclass(frozen=True)
class Sensor:
    """
    How the controller sees the plant.

    Attributes
    ----------
    resolution : float or tuple, optional
        Position quantum per joint [rad or m] (e.g. ``2 pi / 2**16`` for a
        16-bit encoder); None for exact positions.
    delay : int
        Measurement delay in control periods.
    velocity : {'true', 'difference', 'svf'}
        Measured velocity (a tachometer), filtered differences of the
        measured positions, or seed 003's state-variable filter.
    velocity_cutoff : float
        Cut-off of the filtered difference [Hz].
    svf_coefficients : tuple of float
        ``C(s)`` of the state-variable filter, highest power first.
    noise : float
        Standard deviation of white position noise [rad or m].
    seed : int
        Seed of the noise.

    """

    resolution: object = None
    delay: int = 0
    velocity: str = 'true'
    velocity_cutoff: float = 50.0
    svf_coefficients: tuple = SEED003_REALTIME
    noise: float = 0.0
    seed: int = 0

    def __post_init__(self):
        if self.velocity not in VELOCITY_SOURCES:
            raise InputError('velocity', f'must be one of {", ".join(VELOCITY_SOURCES)}')
        if int(self.delay) != self.delay or self.delay < 0:
            raise InputError('delay', f'must be a whole number of periods >= 0, got {self.delay}')
        if not (math.isfinite(self.noise) and self.noise >= 0.0):
            raise InputError('noise', f'must be >= 0, got {self.noise}')


@dataclass(frozen=True)
class Fault:
    """
    A fault injected over ``[start, end)``.

    Attributes
    ----------
    start, end : float
        Window [s].
    kind : str
        ``'nan_state'`` (a NaN position reaches the controller),
        ``'stale_state'`` (the caller reports a stale state),
        ``'no_reference'`` or ``'nan_reference'``.

    """

    start: float
    end: float
    kind: str

    def __post_init__(self):
        if self.kind not in FAULT_KINDS:
            raise InputError('kind', f'must be one of {", ".join(FAULT_KINDS)}')


@dataclass
class _Measure:
    sensor: Sensor
    n: int
    period: float
    history: list = field(default_factory=list)

    def __post_init__(self):
        s = self.sensor
        self.rng = np.random.default_rng(s.seed)
        self.res = None if s.resolution is None else np.broadcast_to(
            np.asarray(s.resolution, dtype=float), (self.n,))
        if s.velocity == 'difference':
            self.est = FilteredDifference(self.period, s.velocity_cutoff, self.n)
        elif s.velocity == 'svf':
            self.est = StateVariableFilter(s.svf_coefficients, self.period, self.n)
        else:
            self.est = None

    def __call__(self, q, qd):
        self.history.append((q.copy(), qd.copy()))
        d = self.sensor.delay
        q, qd = self.history[max(0, len(self.history) - 1 - d)]
        if len(self.history) > d + 1:
            self.history.pop(0)
        if self.sensor.noise > 0.0:
            q = q + self.rng.normal(0.0, self.sensor.noise, self.n)
        if self.res is not None:
            q = np.round(q / self.res) * self.res
        if self.est is None:
            return q, qd
        # Row/element 1 of either estimator is the velocity estimate.
        return q, self.est.update(q)[1]


def _reference_fn(reference):
    if callable(getattr(reference, 'sample', None)):
        return lambda t: JointReference(*reference.sample(t))
    if callable(reference):
        return reference
    raise InputError('reference', 'must be a Trajectory or a callable t -> JointReference')


@contextlib.contextmanager
def progress(callback, interval=2.0):
    """
    Report the progress of every :func:`simulate` run inside the block.

    Parameters
    ----------
    callback : callable
        Called as ``callback(label, simulated, duration, elapsed)`` [s] when a
        run starts, every ``interval`` seconds of wall time and when it ends.
    interval : float
        Wall time between reports [s].

    Yields
    ------
    None
        Nothing; the reports go to ``callback``.

    """
    _PROGRESS.append((callback, float(interval)))
    try:
        yield
    finally:
        _PROGRESS.remove((callback, float(interval)))


def simulate(plant, controller, reference, duration, *, sensor=None, faults=(), label=None):
    """
    Run a controller against the plant.

    Parameters
    ----------
    plant : Plant
        The plant (its current state is the initial state; it is advanced).
    controller : Controller
        The controller (its period is the control period).
    reference : Trajectory or callable
        Desired motion: a trajectory sampled at each control instant, or a
        function ``t -> JointReference`` (or another record the controller
        accepts).
    duration : float
        Simulated time [s].
    sensor : Sensor, optional
        Measurement model; default exact position and velocity.
    faults : sequence of Fault
        Faults to inject.
    label : str, optional
        Name of the run (default the controller's law).

    Returns
    -------
    SimResult
        Time series and statistics; if the plant diverges (state not
        finite) the run stops there and ``diverged`` is set.

    """
    h = controller.period
    if not (math.isfinite(duration) and duration > 0.0):
        raise InputError('duration', f'must be > 0 s, got {duration}')
    if plant.model.n != controller.n:
        raise InputError('controller', f'has {controller.n} joints, the plant {plant.model.n}')
    n = controller.n
    steps = int(round(duration / h))
    measure = _Measure(sensor or Sensor(), n, h)
    ref_at = _reference_fn(reference)
    times = np.arange(steps) * h
    q_log = np.empty((steps, n))
    qd_log = np.empty((steps, n))
    ref_q = np.full((steps, n), np.nan)
    ref_qd = np.full((steps, n), np.nan)
    tau_log = np.empty((steps, n))
    modes = []
    estimates = {}
    diverged = False
    label = label or controller.law
    report, interval = _PROGRESS[-1] if _PROGRESS else (None, 0.0)
    began = time.monotonic()
    due = began + interval
    if report is not None:
        report(label, 0.0, steps * h, 0.0)
    for k in range(steps):
        t = times[k]
        if report is not None and k and k % 32 == 0 and time.monotonic() >= due:
            due = time.monotonic() + interval
            report(label, t, steps * h, due - interval - began)
        q_true, qd_true = plant.q.copy(), plant.qd.copy()
        q_m, qd_m = measure(q_true, qd_true)
        ref = ref_at(t)
        active = [f.kind for f in faults if f.start <= t < f.end]
        if 'nan_state' in active:
            q_m = q_m.copy()
            q_m[0] = np.nan
        if 'no_reference' in active:
            ref = None
        elif 'nan_reference' in active:
            ref = JointReference(np.full(n, np.nan), ref.qd, ref.qdd)
        if 'stale_state' in active:
            tau, status = controller.fault('stale state')
        else:
            tau, status = controller.step(t, q_m, qd_m, ref)
        q_log[k], qd_log[k], tau_log[k] = q_true, qd_true, tau
        if ref is not None and getattr(ref, 'q', None) is not None:
            ref_q[k] = ref.q
            ref_qd[k] = ref.qd
        modes.append(status.mode.value)
        for key, value in controller.estimates().items():
            estimates.setdefault(key, []).append(np.array(value, dtype=float))
        try:
            plant.step(tau, h)
        except FloatingPointError:
            diverged = True
            steps = k + 1
            break
    est = {k: np.array(v) for k, v in estimates.items()}
    cut = slice(0, steps)
    if report is not None:
        report(label, steps * h, len(times) * h, time.monotonic() - began)
    return SimResult(label, h, times[cut], q_log[cut], qd_log[cut],
                     ref_q[cut], ref_qd[cut], tau_log[cut], np.array(modes), est, diverged)
