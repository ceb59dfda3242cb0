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
Tracking-error and loop-rate statistics of a demo run (pure functions).

The tracking error is computed here from what went over DDS, independently
of the controller's own report: the planned trajectory (header stamp = its
start) is interpolated at the stamps of ``joint_states`` (cubic Hermite on
the dense points, holding the last point after the end).
"""

from dataclasses import asdict, dataclass

import numpy as np


def reference_at(plan, t):
    """
    Sample a received plan at absolute times.

    Parameters
    ----------
    plan : Plan
        The plan (dense points with positions and, when present, velocities).
    t : array_like
        Times [s, epoch], shape (N,).

    Returns
    -------
    numpy.ndarray
        Reference positions, (N, n) [rad or m]; the first point before the
        start, the last after the end.

    """
    t = np.atleast_1d(np.asarray(t, dtype=float)) - plan.stamp
    times, q = plan.times, plan.positions
    if times.size == 1:
        return np.repeat(q[:1], t.size, axis=0)
    tc = np.clip(t, times[0], times[-1])
    k = np.clip(np.searchsorted(times, tc, side='right') - 1, 0, times.size - 2)
    h = (times[k + 1] - times[k])[:, None]
    s = ((tc - times[k])[:, None] / h)
    q0, q1 = q[k], q[k + 1]
    if plan.velocities is None:
        return q0 + s * (q1 - q0)
    v0, v1 = plan.velocities[k] * h, plan.velocities[k + 1] * h
    s2, s3 = s * s, s * s * s
    return ((2 * s3 - 3 * s2 + 1) * q0 + (s3 - 2 * s2 + s) * v0 + (-2 * s3 + 3 * s2) * q1
            + (s3 - s2) * v1)


@dataclass
class ErrorStats:
    """
    Per-joint tracking error over one run.

    Attributes
    ----------
    max_abs, rms : list of float
        Per joint [rad or m].
    samples : int
        Joint states used.
    duration : float
        Time covered [s].

    """

    max_abs: list
    rms: list
    samples: int
    duration: float

    def as_dict(self):
        """Return the fields as a dict (JSON-ready)."""
        return asdict(self)


def error_stats(errors, stamps):
    """
    Summarise position errors.

    Parameters
    ----------
    errors : numpy.ndarray
        (N, n) errors [rad or m].
    stamps : numpy.ndarray
        (N,) sample times [s].

    Returns
    -------
    ErrorStats
        Max and RMS per joint (NaN when there is no sample).

    """
    errors = np.asarray(errors, dtype=float)
    if errors.size == 0:
        n = errors.shape[1] if errors.ndim == 2 else 0
        return ErrorStats([float('nan')] * n, [float('nan')] * n, 0, 0.0)
    return ErrorStats(np.max(np.abs(errors), axis=0).tolist(),
                      np.sqrt(np.mean(errors ** 2, axis=0)).tolist(), int(errors.shape[0]),
                      float(stamps[-1] - stamps[0]) if len(stamps) > 1 else 0.0)


def tracking_errors(plan, stamps, q):
    """
    Return ``q_ref - q`` at each joint state.

    Parameters
    ----------
    plan : Plan
        The reference.
    stamps : numpy.ndarray
        (N,) joint-state stamps [s, epoch].
    q : numpy.ndarray
        (N, n) measured positions [rad or m].

    Returns
    -------
    numpy.ndarray
        (N, n) errors [rad or m].

    """
    if len(stamps) == 0:
        return np.zeros((0, plan.positions.shape[1]))
    return reference_at(plan, stamps) - np.asarray(q, dtype=float)


@dataclass
class RateStats:
    """
    Arrival statistics of a periodic stream.

    Attributes
    ----------
    count : int
        Messages.
    rate_hz : float
        Mean rate [Hz].
    period_p50_ms, period_p99_ms, period_max_ms : float
        Inter-arrival percentiles and maximum [ms].

    """

    count: int
    rate_hz: float
    period_p50_ms: float
    period_p99_ms: float
    period_max_ms: float

    def as_dict(self):
        """Return the fields as a dict (JSON-ready)."""
        return asdict(self)


def rate_stats(times):
    """
    Summarise the arrival times of a stream.

    Parameters
    ----------
    times : array_like
        Arrival (or stamp) times [s], increasing.

    Returns
    -------
    RateStats
        NaN statistics with fewer than two samples.

    """
    t = np.sort(np.asarray(times, dtype=float))
    if t.size < 2:
        nan = float('nan')
        return RateStats(int(t.size), nan, nan, nan, nan)
    dt = np.diff(t) * 1e3
    return RateStats(int(t.size), float((t.size - 1) / (t[-1] - t[0])),
                     float(np.percentile(dt, 50)), float(np.percentile(dt, 99)),
                     float(dt.max()))


def settle_value(times, values, window):
    """
    Mean of a signal over its last ``window`` seconds.

    Parameters
    ----------
    times, values : array_like
        (N,) samples [s], [any unit].
    window : float
        Averaging window at the end [s].

    Returns
    -------
    float
        The mean (NaN without samples).

    """
    times = np.asarray(times, dtype=float)
    values = np.asarray(values, dtype=float)
    if times.size == 0:
        return float('nan')
    keep = times >= times[-1] - window
    return float(np.mean(values[keep]))


def moving_median(times, values, start, end):
    """
    Median of a signal over ``[start, end]``.

    Parameters
    ----------
    times, values : array_like
        (N,) samples [s], [any unit].
    start, end : float
        Window [s].

    Returns
    -------
    float
        The median (NaN without samples in the window).

    """
    times = np.asarray(times, dtype=float)
    values = np.asarray(values, dtype=float)
    keep = (times >= start) & (times <= end)
    return float(np.median(values[keep])) if keep.any() else float('nan')
