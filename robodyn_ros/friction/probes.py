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
Friction probes for torque checks on a time grid.

Coulomb and Stribeck friction switch sign within a tiny speed band around
zero velocity. Wherever a joint's velocity passes through zero, or the joint
starts or stops, the friction torque peaks at a speed that an even time grid
almost never samples. These helpers find the crossings and the speed at which
an effort provider's friction peaks, so that a check can add probe states.
"""

import numpy as np


#: Speeds scanned for the friction peak near zero velocity [rad/s or m/s].
PROBE_SPEEDS = np.logspace(-5.0, -1.0, 33)


def zero_crossings(times, qd, tiny=1e-12):
    """
    Where each joint's velocity passes through zero or rests.

    Parameters
    ----------
    times : numpy.ndarray
        Sample times, (N,) [s].
    qd : numpy.ndarray
        Velocities, (N, n).
    tiny : float
        Speeds at or below this count as zero.

    Returns
    -------
    list of tuple
        ``(time, joint, sign)``: near ``time`` the joint moves with speeds
        of that sign arbitrarily close to zero.

    """
    out = []
    for j in range(qd.shape[1]):
        v = qd[:, j]
        nz = np.flatnonzero(np.abs(v) > tiny)
        if nz.size == 0:
            continue
        if nz[0] > 0:
            out.append((times[nz[0] - 1], j, np.sign(v[nz[0]])))
        if nz[-1] < v.size - 1:
            out.append((times[nz[-1] + 1], j, np.sign(v[nz[-1]])))
        # Consecutive moving samples: a rest between them, or a sign change (interpolated).
        a, b = nz[:-1], nz[1:]
        sa, sb = np.sign(v[a]), np.sign(v[b])
        gap = b > a + 1
        va, vb = np.abs(v[a]), np.abs(v[b])
        with np.errstate(invalid='ignore', divide='ignore'):
            t0 = times[a] + (times[b] - times[a]) * va / (va + vb)
        for k in np.flatnonzero(gap | (sa != sb)):
            if gap[k]:
                out.append((times[a[k] + 1], j, sa[k]))
                out.append((times[b[k] - 1], j, sb[k]))
            else:
                out.append((t0[k], j, sa[k]))
                out.append((t0[k], j, sb[k]))
    return out


def friction_peak_speeds(effort_provider, q_ref):
    """
    Small speeds at which each joint's friction torque peaks, per direction.

    Scans :data:`PROBE_SPEEDS` (all joints at once, in one provider call) at
    the configuration ``q_ref`` and keeps, per joint and sign, the speed with
    the largest ``|tau(q, v, 0) - tau(q, 0, 0)|``.

    Parameters
    ----------
    effort_provider : callable
        ``(Q, QD, QDD) -> TAU``.
    q_ref : array_like
        Configuration, (n,) [rad or m].

    Returns
    -------
    tuple of numpy.ndarray
        ``(positive, negative)`` speeds (both > 0), (n,) each [rad/s or m/s].

    """
    q_ref = np.asarray(q_ref, dtype=float)
    count = PROBE_SPEEDS.size
    q = np.tile(q_ref, (2 * count + 1, 1))
    qd = np.zeros_like(q)
    qd[:count] = PROBE_SPEEDS[:, None]
    qd[count:2 * count] = -PROBE_SPEEDS[:, None]
    tau = np.asarray(effort_provider(q, qd, np.zeros_like(q)), dtype=float)
    friction = np.abs(tau[:2 * count] - tau[2 * count])
    return (PROBE_SPEEDS[np.argmax(friction[:count], axis=0)],
            PROBE_SPEEDS[np.argmax(friction[count:], axis=0)])


def probe_rows(trajectory, times, qd, speeds):
    """
    Probe states at the zero crossings, the joint's speed set to its friction peak.

    Parameters
    ----------
    trajectory : Trajectory
        The path.
    times : numpy.ndarray
        Grid times, (N,) [s].
    qd : numpy.ndarray
        Velocities at the grid times, (N, n).
    speeds : tuple of numpy.ndarray
        ``(positive, negative)`` peak speeds from :func:`friction_peak_speeds`.

    Returns
    -------
    tuple or None
        ``(t0, q, qd, qdd, offset)``: the crossing times and path states with
        the crossing joint's velocity zeroed, and the signed probe speed to
        add to it (zero elsewhere); None without crossings.

    """
    found = zero_crossings(times, qd)
    if not found:
        return None
    t0 = np.array([f[0] for f in found])
    q, v, a = trajectory.sample(t0)
    offset = np.zeros_like(q)
    for k, (_, j, sign) in enumerate(found):
        v[k, j] = 0.0
        offset[k, j] = speeds[0 if sign > 0 else 1][j]
        offset[k, j] *= 1.0 if sign > 0 else -1.0
    return t0, q, v, a, offset
