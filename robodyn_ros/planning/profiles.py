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
The point-to-point time laws of seed 001, chapter 8, and their synchronisation.

Every profile is a normalised law ``r(t)`` with ``r(0) = 0`` and
``r(t_f) = 1``; a joint moves as ``q_j(t) = q_j^i + r(t) D_j`` (eq. 8.1), so
all joints start and stop together. Kinds:

* ``linear`` (eq. 8.4, C0), ``cubic`` (8.5-8.9, C1), ``quintic`` (8.10-8.13,
  C2), ``bang_bang`` (8.15-8.17, C1): one duration for all joints,
  ``t_f = max_j t_fj`` with the minimum times of Table 8.1 (eq. 8.14);
* ``trapezoid`` (8.18-8.35, C1) and ``trapezoid_c2`` (trapezoid with
  continuous acceleration, 8.36-8.47, C2): homothetic synchronisation with a
  shared acceleration time ``tau`` (eqs. 8.32-8.34), the short-move rule
  (8.35, 8.47) included.

In normalised form the synchronisation reads: the law may reach speed
``V = min_j k_vj / |D_j|`` and acceleration ``A = min_j k_aj / |D_j|``; the
joint that sets ``V`` reaches its velocity limit (``lambda_j = 1``), the one
that sets ``A`` its acceleration limit (``upsilon_j = 1``), every other joint
stays below. This is eqs. 8.32-8.34 without the need for a reference joint
with ``D_1 != 0``.
"""

from dataclasses import dataclass
import math

import numpy as np

from .errors import LimitError
from .polynomials import compose_affine, derivative, pad, polyval
from ..errors import InputError

#: Profile kinds, in the order of the seed.
KINDS = ('linear', 'cubic', 'quintic', 'bang_bang', 'trapezoid', 'trapezoid_c2')

#: Order of continuity of each kind (0: position, 1: velocity, 2: acceleration).
CONTINUITY = {'linear': 0, 'cubic': 1, 'quintic': 2, 'bang_bang': 1, 'trapezoid': 1,
              'trapezoid_c2': 2}

#: Peak speed of the polynomial laws in units of D / t_f (eqs. 8.8, 8.13, 8.17).
PEAK_VELOCITY = {'linear': 1.0, 'cubic': 1.5, 'quintic': 15.0 / 8.0, 'bang_bang': 2.0}

#: Peak acceleration in units of D / t_f^2 (linear: none between its end jumps).
PEAK_ACCELERATION = {'linear': 0.0, 'cubic': 6.0, 'quintic': 10.0 / math.sqrt(3.0),
                     'bang_bang': 4.0}

#: Acceleration time over constant-acceleration time for the trapezoids (eq. 8.41).
_TAU_FACTOR = {'trapezoid': 1.0, 'trapezoid_c2': 1.5}

#: Share of the duration spent accelerating when a trapezoid has no finite limits.
DEFAULT_ACCEL_SHARE = 1.0 / 3.0

#: Shortest duration of a motion that moves at all [s]; shorter laws would have
#: coefficients beyond the range of floating point (a move of 1e-150 rad).
MIN_DURATION = 1e-6

#: Displacements at or below this count as no motion (an instantaneous step of
#: at most this size) [rad or m].
TINY_MOVE = 1e-12


def check_kind(kind):
    """
    Validate a profile kind.

    Parameters
    ----------
    kind : str
        One of :data:`KINDS`.

    Returns
    -------
    str
        The kind.

    Raises
    ------
    InputError
        For an unknown kind.

    """
    if kind not in KINDS:
        raise InputError('kind', f'unknown profile {kind!r}; one of {", ".join(KINDS)}')
    return kind


def minimum_time(kind, distance, velocity, acceleration):
    """
    Minimum time of each joint moving alone (Table 8.1, eqs. 8.22, 8.35, 8.45-8.47).

    Parameters
    ----------
    kind : str
        Profile kind.
    distance : array_like
        Displacements ``D_j`` [rad or m].
    velocity, acceleration : array_like
        Limits ``k_vj`` [rad/s or m/s], ``k_aj`` [rad/s^2 or m/s^2] (inf allowed).

    Returns
    -------
    numpy.ndarray
        ``t_fj`` [s]; 0 for joints that do not move.

    """
    check_kind(kind)
    d = np.abs(np.asarray(distance, dtype=float))
    kv = np.broadcast_to(np.asarray(velocity, dtype=float), d.shape)
    ka = np.broadcast_to(np.asarray(acceleration, dtype=float), d.shape)
    with np.errstate(divide='ignore', invalid='ignore'):
        if kind in PEAK_VELOCITY:
            t = d * PEAK_VELOCITY[kind] / kv
            if kind != 'linear':
                t = np.maximum(t, np.sqrt(d * PEAK_ACCELERATION[kind] / ka))
        else:
            f = _TAU_FACTOR[kind]
            # Short move: the velocity limit is not reached (8.35, 8.47).
            kv_eff = np.minimum(kv, np.sqrt(d * ka / f))
            t = f * kv_eff / ka + d / kv_eff
    return np.where(d > 0.0, t, 0.0)


@dataclass(frozen=True, eq=False)
class NormalizedProfile:
    """
    A time law ``r(t)`` from 0 to 1 as consecutive polynomial pieces.

    Attributes
    ----------
    kind : str
        Profile kind.
    duration : float
        ``t_f`` [s].
    accel_time : float
        Acceleration time ``tau`` of the trapezoids [s] (NaN otherwise).
    breaks : numpy.ndarray
        Piece boundaries, (S + 1,) [s].
    coefficients : numpy.ndarray
        (S, 6): ascending coefficients in the time since each piece's start.

    """

    kind: str
    duration: float
    accel_time: float
    breaks: np.ndarray
    coefficients: np.ndarray

    def evaluate(self, t, side='right'):
        """
        Law, rate and second derivative at given times.

        Parameters
        ----------
        t : array_like
            Times in ``[0, duration]`` [s] (clipped).
        side : {'right', 'left'}
            At a break, take the piece that starts there (``'right'``) or the
            one that ends there (``'left'``); matters for the acceleration
            of laws that are only C1.

        Returns
        -------
        tuple of numpy.ndarray
            ``(r, r', r'')`` [1, 1/s, 1/s^2].

        """
        t = np.clip(np.asarray(t, dtype=float), 0.0, self.duration)
        seg = np.clip(np.searchsorted(self.breaks, t, side=side) - 1, 0,
                      len(self.breaks) - 2)
        local = t - self.breaks[seg]
        c = self.coefficients[seg]
        d1 = derivative(c)
        return polyval(c, local), polyval(d1, local), polyval(derivative(d1), local)

    @property
    def peak_velocity(self):
        """Peak of ``|r'|`` [1/s] (float)."""
        if self.duration == 0.0:
            return 0.0
        if self.kind in PEAK_VELOCITY:
            return PEAK_VELOCITY[self.kind] / self.duration
        return 1.0 / (self.duration - self.accel_time)

    @property
    def peak_acceleration(self):
        """Peak of ``|r''|`` between the ends [1/s^2] (float; 0 for linear)."""
        if self.duration == 0.0:
            return 0.0
        if self.kind in PEAK_ACCELERATION:
            return PEAK_ACCELERATION[self.kind] / self.duration ** 2
        return _TAU_FACTOR[self.kind] * self.peak_velocity / self.accel_time


def normalized_profile(kind, duration, accel_time=None):
    """
    Build the law ``r(t)`` of a kind for a duration.

    Parameters
    ----------
    kind : str
        Profile kind.
    duration : float
        ``t_f`` [s] (>= 0).
    accel_time : float, optional
        ``tau`` of the trapezoids, ``0 < tau <= t_f / 2`` [s]; default
        ``t_f / 3``.

    Returns
    -------
    NormalizedProfile
        The law.

    """
    check_kind(kind)
    tf = float(duration)
    if not (math.isfinite(tf) and tf >= 0.0):
        raise InputError('duration', f'must be finite and >= 0, got {duration}')
    if tf == 0.0:
        return NormalizedProfile(kind, 0.0, math.nan, np.array([0.0, 0.0]),
                                 pad([[1.0]], 6))
    tau = math.nan
    if kind == 'linear':
        pieces = [(0.0, [0.0, 1.0 / tf])]
    elif kind == 'cubic':
        pieces = [(0.0, [0.0, 0.0, 3.0 / tf ** 2, -2.0 / tf ** 3])]
    elif kind == 'quintic':
        pieces = [(0.0, [0.0, 0.0, 0.0, 10.0 / tf ** 3, -15.0 / tf ** 4, 6.0 / tf ** 5])]
    elif kind == 'bang_bang':
        half = tf / 2.0
        pieces = [(0.0, [0.0, 0.0, 2.0 / tf ** 2]),
                  (half, compose_affine([-1.0, 4.0 / tf, -2.0 / tf ** 2], half))]
    else:
        tau = tf * DEFAULT_ACCEL_SHARE if accel_time is None else float(accel_time)
        if not (0.0 < tau <= tf / 2.0 * (1.0 + 1e-12)):
            raise InputError('accel_time', f'must be in (0, {tf / 2.0:g}] s, got {tau}')
        tau = min(tau, tf / 2.0)
        v = 1.0 / (tf - tau)
        if kind == 'trapezoid':
            # Eq. 8.19 in vector form: parabola, line, parabola.
            accel = np.array([0.0, 0.0, v / (2.0 * tau)])
        else:
            # Eq. 8.37 in vector form: quartic blend with continuous acceleration.
            accel = np.array([0.0, 0.0, 0.0, v / tau ** 2, -v / (2.0 * tau ** 3)])
        r_tau = polyval(accel, np.array(tau))
        pieces = [(0.0, accel), (tau, [r_tau, v])]
        # Deceleration: r(t) = 1 - accel(t_f - t), written in local time.
        mirrored = -compose_affine(accel, tau, -1.0)
        mirrored[0] += 1.0
        pieces.append((tf - tau, mirrored))
        pieces = [p for k, p in enumerate(pieces) if k != 1 or tf - 2.0 * tau > 1e-12 * tf]
    breaks = np.array([p[0] for p in pieces] + [tf])
    coeffs = np.array([pad([c], 6)[0] for _, c in pieces])
    return NormalizedProfile(kind, tf, tau, breaks, coeffs)


@dataclass(frozen=True, eq=False)
class Synchronisation:
    """
    How a set of joints moves together under one law.

    Attributes
    ----------
    profile : NormalizedProfile
        The shared law ``r(t)``.
    distance : numpy.ndarray
        Displacements ``D_j``, (n,) [rad or m].
    joint_times : numpy.ndarray
        Minimum time of each joint alone, ``t_fj``, (n,) [s].
    velocity_ratio : numpy.ndarray
        Peak speed over the velocity limit, ``lambda_j``, (n,) (0 when the
        limit is infinite).
    acceleration_ratio : numpy.ndarray
        Peak acceleration over the acceleration limit, ``upsilon_j``, (n,).

    """

    profile: NormalizedProfile
    distance: np.ndarray
    joint_times: np.ndarray
    velocity_ratio: np.ndarray
    acceleration_ratio: np.ndarray

    @property
    def duration(self):
        """Shared duration ``t_f`` [s] (float)."""
        return self.profile.duration

    @property
    def accel_time(self):
        """Shared acceleration time ``tau`` of the trapezoids [s] (float, NaN otherwise)."""
        return self.profile.accel_time


def synchronise(kind, distance, velocity, acceleration, duration=None, joint_names=None):
    """
    One law for all joints: minimum time under the limits, or a given duration.

    Parameters
    ----------
    kind : str
        Profile kind.
    distance : array_like
        Displacements ``D_j``, (n,) [rad or m].
    velocity, acceleration : array_like
        Limits per joint (inf: unlimited) [rad/s, rad/s^2 or m/s, m/s^2].
    duration : float, optional
        Wanted duration [s]; must not be shorter than the minimum. For the
        trapezoids the minimum-time law is stretched in time (same shape).
    joint_names : sequence of str, optional
        Names for messages.

    Returns
    -------
    Synchronisation
        The shared law and the ratios reached.

    Raises
    ------
    LimitError
        A duration shorter than the minimum (naming the joint that sets it),
        or no finite limit where the minimum time needs one.

    """
    check_kind(kind)
    d = np.abs(np.asarray(distance, dtype=float))
    n = d.size
    names = list(joint_names) if joint_names is not None else [str(j) for j in range(n)]
    kv = np.broadcast_to(np.asarray(velocity, dtype=float), (n,))
    ka = np.broadcast_to(np.asarray(acceleration, dtype=float), (n,))
    times = minimum_time(kind, d, kv, ka)
    moving = d > TINY_MOVE
    times = np.where(moving, times, 0.0)
    t_min = float(times.max()) if n else 0.0
    tau = None
    if kind in _TAU_FACTOR and np.any(moving):
        f = _TAU_FACTOR[kind]
        a_norm = float(np.min(ka[moving] / d[moving]))
        v_norm = float(np.min(kv[moving] / d[moving]))
        if math.isfinite(a_norm):
            v_norm = min(v_norm, math.sqrt(a_norm / f))
            tau = f * v_norm / a_norm
            t_min = tau + 1.0 / v_norm
        elif duration is None:
            j = int(np.flatnonzero(moving)[0])
            raise LimitError(names[j], 'acceleration limit', ka[j], None,
                             f'is not finite; the {kind} profile needs a finite limit or '
                             'a duration')
    if np.any(moving) and math.isfinite(t_min) and 0.0 < t_min < MIN_DURATION:
        if tau is not None:
            tau *= MIN_DURATION / t_min
        t_min = MIN_DURATION
    if duration is None:
        if np.any(moving) and not (math.isfinite(t_min) and t_min > 0.0):
            j = int(np.flatnonzero(moving)[0])
            raise LimitError(names[j], 'velocity limit', kv[j], None,
                             f'and acceleration limit {ka[j]:g} are not finite; the minimum '
                             'time needs a finite limit or a duration')
        tf = t_min
    else:
        tf = float(duration)
        if not (math.isfinite(tf) and tf >= 0.0):
            raise InputError('duration', f'must be finite and >= 0, got {duration}')
        if np.any(moving) and tf < MIN_DURATION:
            j = int(np.flatnonzero(moving)[0])
            raise LimitError(names[j], 'duration', tf, MIN_DURATION,
                             'of a move is shorter than the shortest allowed', 's')
        if tf < t_min * (1.0 - 1e-12):
            j = int(np.argmax(times))
            raise LimitError(names[j], 'duration', tf, t_min,
                             f'is shorter than the minimum (velocity limit {kv[j]:g}, '
                             f'acceleration limit {ka[j]:g}, distance {d[j]:g}) of',
                             's')
        if tau is not None:
            tau *= tf / t_min
    profile = normalized_profile(kind, tf, tau if tau is not None else None)
    with np.errstate(divide='ignore', invalid='ignore'):
        lam = np.where(np.isfinite(kv), d * profile.peak_velocity / kv, 0.0)
        ups = np.where(np.isfinite(ka), d * profile.peak_acceleration / ka, 0.0)
    return Synchronisation(profile, np.asarray(distance, dtype=float).copy(), times, lam, ups)
