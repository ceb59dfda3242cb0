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
The simulated board's arithmetic around the plant step in loop form, compiled by numba.

Around the plant's step (:mod:`~robodyn_ros.sim.plant_step`), every board
cycle stops the joints at their limits, checks that the state is still
finite, reads the encoders and the current sensors and checks them (the
over-current trip; the encoder check: an axis that moves but whose count
has not changed for a watchdog period). The NumPy form of that
(``SimAxes`` and ``SimFirmware.tick``) is some twenty small array
operations; here it is two compiled calls:

- :func:`hard_stops` clamps the positions to the limits (the velocity into
  a limit set to zero) and tells whether the state is finite;
- :func:`sense` reads the encoders and checks the sensors, for a board
  without sensor noise and without an injected sensor fault (the
  simulator's real-time case; the others keep the NumPy form).

``test/test_sim_board_cycle_kernel.py`` compares both forms cycle by
cycle. :data:`COMPILED` is loaded in the background by the simulator, like
the plant step.
"""
import numpy as np

from ...realtime.compiled_functions import CompiledFunctions


def clamp(values, limit):
    """
    Clamp set-points to their limits, in place (loop form).

    Parameters
    ----------
    values : numpy.ndarray
        Set-points, (n,).
    limit : numpy.ndarray
        Their limits, (n,), >= 0: each value is clamped to [-limit, limit].

    Returns
    -------
    bool
        Whether any value was changed (a NaN counts as changed, as NumPy's
        ``!=`` has it).

    """
    changed = False
    for i in range(values.shape[0]):
        v = min(max(values[i], -limit[i]), limit[i])
        if v != values[i] or v != v:
            changed = True
        values[i] = v
    return changed


def current_lag(current, reference, alpha, torque_per_amp, torque):
    """
    Advance the current loop's first-order lag one step and give the motor torque (loop form).

    Parameters
    ----------
    current : numpy.ndarray
        Currents, (n,) [A]; moved ``alpha`` of the way to ``reference``.
    reference : numpy.ndarray
        Current set-points, (n,) [A].
    alpha : float
        Fraction of the step covered in one period.
    torque_per_amp : numpy.ndarray
        Joint torque per amp, (n,) [N m/A or N/A].
    torque : numpy.ndarray
        Receives the torque, (n,) [N m or N].

    """
    for i in range(current.shape[0]):
        current[i] += (reference[i] - current[i]) * alpha
        torque[i] = torque_per_amp[i] * current[i]


def hard_stops(q, qd, lower, upper):
    """
    Stop the joints at their limits, in place, and check the state (loop form).

    Parameters
    ----------
    q, qd : numpy.ndarray
        Joint positions and velocities, (n,); a position beyond a limit is
        set to it and a velocity further into it to zero.
    lower, upper : numpy.ndarray
        Joint limits, (n,) [rad or m] (infinite for none).

    Returns
    -------
    bool
        Whether every position and velocity is finite.

    """
    finite = True
    for i in range(q.shape[0]):
        if q[i] < lower[i]:
            q[i] = lower[i]
            qd[i] = max(qd[i], 0.0)
        elif q[i] > upper[i]:
            q[i] = upper[i]
            qd[i] = min(qd[i], 0.0)
        if not (np.isfinite(q[i]) and np.isfinite(qd[i])):
            finite = False
    return finite


def sense(q, gap, counts_per_unit, current, trip_level, qd, enabled, time_us, watchdog_us,
          last_counts, last_change_us, counts):
    """
    Read the encoders and check the sensors for one cycle (loop form).

    Parameters
    ----------
    q, gap : numpy.ndarray
        Joint positions and backlash gaps, (n,) [rad or m].
    counts_per_unit : numpy.ndarray
        Encoder counts per joint unit, (n,).
    current : numpy.ndarray
        Measured currents, (n,) [A].
    trip_level : numpy.ndarray
        Over-current trip level per axis, (n,) [A].
    qd : numpy.ndarray
        Joint velocities, (n,) [rad/s or m/s].
    enabled : bool
        Whether the outputs are on (the encoder check runs only then).
    time_us, watchdog_us : int
        Board time and watchdog period [us].
    last_counts : numpy.ndarray
        int64, (n,): the previous cycle's counts.
    last_change_us : numpy.ndarray
        int64, (n,): when each count last changed [us]; updated.
    counts : numpy.ndarray
        int64, (n,): receives the counts.

    Returns
    -------
    tuple of int
        The first axis over its trip level and the first axis whose encoder
        is silent while it moves, -1 for none.

    """
    n = q.shape[0]
    trip = -1
    silent = -1
    for i in range(n):
        c = np.int64(np.rint((q[i] + gap[i]) * counts_per_unit[i]))
        counts[i] = c
        if c != last_counts[i]:
            last_change_us[i] = time_us
        if trip < 0 and abs(current[i]) > trip_level[i]:
            trip = i
        check = max(0.05, 3.0 / (abs(counts_per_unit[i]) * watchdog_us * 1e-6))
        if not enabled or not abs(qd[i]) > check:     # (NaN: not moving, as NumPy's >)
            last_change_us[i] = time_us
        elif silent < 0 and time_us - last_change_us[i] >= watchdog_us:
            silent = i
    return trip, silent


#: Positions of the functions in ``COMPILED.get()``.
CLAMP, CURRENT_LAG, HARD_STOPS, SENSE = range(4)


def clamp_in_place(values, limit):
    """
    Clamp set-points to their limits in place: compiled once loaded, else in NumPy.

    Parameters
    ----------
    values : numpy.ndarray
        Set-points, (n,) float.
    limit : numpy.ndarray
        Their limits, (n,), >= 0.

    Returns
    -------
    bool
        Whether any value was changed.

    """
    fast = COMPILED.get()
    if fast is not None:
        try:
            return fast[CLAMP](values, limit)
        except TypeError:   # an array type it was not compiled for: the NumPy form
            pass
    clamped = np.minimum(np.maximum(values, -limit), limit)
    changed = bool((clamped != values).any())
    values[:] = clamped
    return changed


def _warm(compiled):
    one, count = np.ones(1), np.zeros(1, dtype=np.int64)
    compiled[CLAMP](one.copy(), one)
    compiled[CURRENT_LAG](one.copy(), one, 0.5, one, one.copy())
    compiled[HARD_STOPS](one.copy(), one.copy(), one, one)
    compiled[SENSE](one, one, one, one, one, one, True, 1, 1000, count, count.copy(),
                    count.copy())


#: The compiled functions (``COMPILED.get()``: ``(clamp, current_lag, hard_stops, sense)``,
#: or None).
COMPILED = CompiledFunctions('the simulated board cycle', (clamp, current_lag, hard_stops, sense),
                             _warm)
