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
Dense checks of a finished trajectory against every limit (no rclpy).

The reachability core enforces the constraints at its grid points only; this
module checks the returned motion on an even time grid of its own (2,000
samples by default) plus friction probe states at every velocity zero
crossing (:mod:`.friction_probes`), with the effort provider's true torques
(the model with payload and every friction model). On request it checks the
full joint jerk (:meth:`~.trajectory.Trajectory.jerk`) against the jerk limits
on the same samples, refined around each local peak (the jerk of a smoothed
law peaks sharply where the path bends near its rest ends). Nothing here
relies on the planning grid.
"""

from dataclasses import dataclass

import numpy as np

from ..friction.probes import friction_peak_speeds, probe_rows


@dataclass(frozen=True, eq=False)
class DenseCheck:
    """
    Worst ratios of a trajectory to its limits on a dense sampling.

    Attributes
    ----------
    velocity, acceleration, torque : numpy.ndarray
        Peak ``|value| / limit`` per joint, (n,) (0 where unlimited or not
        checked; the acceleration refined between samples when the jerk
        was checked).
    times : numpy.ndarray
        Sample times [s], (N,).
    torque_ratio : numpy.ndarray or None
        ``|tau| / limit`` per sample, (N, n) (probe rows included, at the
        crossing times).
    velocity_ratio, acceleration_ratio : numpy.ndarray
        Per sample, (N, n).
    samples : int
        Even samples used.
    jerk : numpy.ndarray or None
        Peak ``|jerk| / limit`` per joint, (n,), refinement samples included;
        None when the jerk was not checked.
    jerk_ratio : numpy.ndarray or None
        Per even sample, (N, n); None when the jerk was not checked.

    """

    velocity: np.ndarray
    acceleration: np.ndarray
    torque: np.ndarray
    times: np.ndarray
    torque_ratio: np.ndarray
    velocity_ratio: np.ndarray
    acceleration_ratio: np.ndarray
    samples: int
    jerk: np.ndarray = None
    jerk_ratio: np.ndarray = None

    @property
    def worst(self):
        """Largest ratio over all limits checked (float)."""
        return float(max(np.max(self.velocity), np.max(self.acceleration),
                         np.max(self.torque), 0.0 if self.jerk is None else np.max(self.jerk)))


def _ratio(values, bound):
    bound = np.asarray(bound, dtype=float)
    with np.errstate(divide='ignore', invalid='ignore'):
        return np.where(np.isfinite(bound), np.abs(values) / bound, 0.0)


def refined_peaks(values, duration, bound, samples=2000, points=17, levels=3):
    """
    Peak ``|value| / bound`` on an even grid refined around its local peaks.

    Every local peak of the sampled ratio above half the largest (the 200
    largest at most) is sampled again at ``points`` even times between its
    two neighbouring samples, ``levels`` times, each time around the largest
    of the previous level (a jerk jumps and an acceleration has kinks, so a
    peak can sit between two samples).

    Parameters
    ----------
    values : callable
        ``values(times) -> (N, n)`` array, e.g. a trajectory's jerks.
    duration : float
        Sampled interval ``[0, duration]`` [s].
    bound : array_like
        Limits, (n,) (infinite: not checked).
    samples : int
        Even samples over the duration (both ends included).
    points : int
        Samples of each refinement (odd).
    levels : int
        Refinements of each peak.

    Returns
    -------
    tuple of numpy.ndarray
        ``(peak, ratio)``: peak ratio per joint, (n,), and the ratio at the
        even samples, (N, n).

    """
    times = np.linspace(0.0, duration, max(2, int(samples)))
    ratio = _ratio(values(times), bound)
    m = ratio.max(axis=1)
    inner = np.arange(1, m.size - 1)
    peak = inner[(m[inner] >= m[inner - 1]) & (m[inner] >= m[inner + 1])
                 & (m[inner] > 0.5 * m.max())]
    ends = [i for i in (0, m.size - 1) if m[i] > 0.5 * m.max()]
    peak = np.concatenate([peak, ends]).astype(int)
    peak = peak[np.argsort(m[peak])[::-1][:200]]
    best = ratio.max(axis=0)
    if peak.size == 0:
        return best, ratio
    centre = times[peak]
    half = np.full(peak.size, times[1] - times[0])
    steps = np.linspace(-1.0, 1.0, points)
    for _ in range(int(levels)):
        fine = np.clip(centre[:, None] + half[:, None] * steps[None], 0.0, duration)
        r = _ratio(values(fine.ravel()), bound).reshape(peak.size, points, -1)
        best = np.maximum(best, r.max(axis=(0, 1)))
        centre = fine[np.arange(peak.size), np.argmax(r.max(axis=2), axis=1)]
        half = half * 2.0 / (points - 1)
    return best, ratio


def jerk_peaks(trajectory, jerk_limits, samples=2000):
    """
    Peak full joint jerk over the limits, refined around its local peaks.

    Parameters
    ----------
    trajectory : Trajectory
        The motion (its :meth:`~.trajectory.Trajectory.jerk`).
    jerk_limits : array_like
        Jerk limits, (n,) [rad/s^3 or m/s^3] (infinite: not checked).
    samples : int
        Even samples over the duration (both ends included).

    Returns
    -------
    tuple of numpy.ndarray
        ``(peak, ratio)``: peak ``|jerk| / limit`` per joint, (n,), and the
        ratio at the even samples, (N, n) (see :func:`refined_peaks`).

    """
    return refined_peaks(trajectory.jerk, trajectory.duration, jerk_limits, samples)


def dense_check(trajectory, limits, effort_provider=None, effort_limits=None, samples=2000,
                probe_speeds=None, jerk=False):
    """
    Check velocity, acceleration, torque (and jerk) limits on a dense even grid.

    Parameters
    ----------
    trajectory : Trajectory
        The motion.
    limits : PlanningLimits
        Velocity and acceleration (and jerk) limits.
    effort_provider : callable, optional
        ``(Q, QD, QDD) -> TAU``; without it the torques are not checked.
    effort_limits : array_like, optional
        Torque limits (default ``limits.effort``).
    samples : int
        Even samples over the duration (both ends included).
    probe_speeds : tuple of numpy.ndarray, optional
        Friction peak speeds of the provider (see
        :func:`~.friction_probes.friction_peak_speeds`).
    jerk : bool
        Also check the joint jerk against ``limits.jerk`` [rad/s^3 or m/s^3];
        the peaks of the jerk and of the acceleration (which has kinks where
        the jerk jumps) are then refined between the samples.

    Returns
    -------
    DenseCheck
        The ratios.

    """
    n = trajectory.n
    times = np.linspace(0.0, trajectory.duration, max(2, int(samples)))
    q, qd, qdd = trajectory.sample(times)
    rv = _ratio(qd, limits.velocity)
    ra = _ratio(qdd, limits.acceleration)
    peaks, rj = jerk_peaks(trajectory, limits.jerk, samples) if jerk else (None, None)
    peak_a = ra.max(axis=0)
    if jerk:
        peak_a = refined_peaks(lambda t: trajectory.sample(t)[2], trajectory.duration,
                               limits.acceleration, samples)[0]
    rt = np.zeros((times.size, n))
    bound = limits.effort if effort_limits is None else np.broadcast_to(
        np.asarray(effort_limits, dtype=float), (n,))
    if effort_provider is not None and np.any(np.isfinite(bound)):
        tq, tqd, tqdd, ttimes = q, qd, qdd, times
        if probe_speeds is None:
            probe_speeds = friction_peak_speeds(effort_provider, q[0])
        probes = probe_rows(trajectory, times, qd, probe_speeds)
        if probes is not None:
            t0, pq, pv, pa, off = probes
            tq, tqd, tqdd = np.vstack([q, pq]), np.vstack([qd, pv + off]), np.vstack([qdd, pa])
            ttimes = np.concatenate([times, t0])
        tau = np.asarray(effort_provider(tq, tqd, tqdd), dtype=float)
        rt = _ratio(tau, bound)
        times = ttimes
    return DenseCheck(rv.max(axis=0), peak_a, rt.max(axis=0), times, rt, rv, ra,
                      int(samples), peaks, rj)
