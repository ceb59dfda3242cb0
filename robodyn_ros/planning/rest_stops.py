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
Interior stops of a path, its sections between them, and motions chained at rest (no rclpy).

Where a path comes back on itself (a reversal, a repeated waypoint) its
joint speed ``|q'(s)|`` nearly vanishes and its direction turns by more than
90 degrees. There the time-optimal law passes with a large path speed and a
tight turn, and the moving average of the jerk-limited variant carries that
speed into the turn. :func:`path_stops` finds these points;
:class:`PathSection` is the path between two of them, and
:class:`RestChain` runs motions one after the other, each from rest to
rest (the jerk-limited variant smooths each section on its own).
"""

import numpy as np

from .trajectory import Trajectory

#: Even samples per spline segment used to find the stops (at least 4,000 in all).
SAMPLES_PER_SEGMENT = 400

#: Largest ``|q'|`` at a stop, as a share of the smaller of its neighbouring peaks.
STOP_DEPTH = 0.2


def _speed(path, s):
    dq = path.sample(s)[1]
    return np.linalg.norm(dq, axis=1), dq


def _refine(path, lo, hi, iterations=60):
    """Golden-section minimum of ``|q'|`` on each bracket ``[lo, hi]`` (vectorized)."""
    g = 0.5 * (np.sqrt(5.0) - 1.0)
    a, b = lo.copy(), hi.copy()
    for _ in range(iterations):
        c, d = b - g * (b - a), a + g * (b - a)
        left = _speed(path, c)[0] < _speed(path, d)[0]
        b = np.where(left, d, b)
        a = np.where(left, a, c)
    return 0.5 * (a + b)


def path_stops(path, depth=STOP_DEPTH):
    """
    Find the path points where the path comes back on itself.

    A stop is a local minimum of ``|q'(s)|`` below ``depth`` times the
    smaller of the peaks of ``|q'|`` on either side (up to the neighbouring
    minima), where the directions ``q'`` at these peaks make an angle of
    more than 90 degrees.

    Parameters
    ----------
    path : Trajectory
        Geometric path ``q(s)``, ``s`` in ``[0, path.duration]``.
    depth : float
        Largest relative ``|q'|`` at a stop.

    Returns
    -------
    numpy.ndarray
        Path parameters of the stops [path units], increasing, ends excluded.

    """
    segments = max(1, len(getattr(path, 'breaks', ())) - 1)
    count = max(4001, SAMPLES_PER_SEGMENT * segments + 1)
    s = np.linspace(0.0, path.duration, count)
    breaks = np.asarray(getattr(path, 'breaks', ()), dtype=float)
    s = np.unique(np.concatenate([s, breaks[(breaks > 0.0) & (breaks < path.duration)]]))
    sp, dq = _speed(path, s)
    i = np.arange(1, s.size - 1)
    minima = i[(sp[i] <= sp[i - 1]) & (sp[i] < sp[i + 1])]
    if minima.size == 0:
        return np.zeros(0)
    edges = np.concatenate([[0], minima, [s.size - 1]])
    peaks = np.array([a + int(np.argmax(sp[a:b + 1])) for a, b in zip(edges[:-1], edges[1:])])
    left, right = peaks[:-1], peaks[1:]
    turn = np.sum(dq[left] * dq[right], axis=1) < 0.0
    deep = sp[minima] < depth * np.minimum(sp[left], sp[right])
    keep = minima[turn & deep]
    if keep.size == 0:
        return np.zeros(0)
    return _refine(path, s[keep - 1], s[keep + 1])


class PathSection(Trajectory):
    """
    The part ``[start, end]`` of a geometric path, as a path of its own.

    Parameters
    ----------
    path : Trajectory
        Geometric path ``q(s)``.
    start, end : float
        Path parameters of the section's ends [path units] (``start < end``).

    """

    def __init__(self, path, start, end):
        super().__init__(path.joint_names, float(end) - float(start))
        self._path = path
        self._start = float(start)

    @property
    def start(self):
        """Path parameter of the section's start [path units] (float)."""
        return self._start

    def _evaluate(self, times):
        return self._path.sample(self._start + times)

    def _evaluate_jerk(self, times):
        return self._path.jerk(self._start + times)


class RestChain(Trajectory):
    """
    Motions run one after the other, each starting where the previous one ended.

    Parameters
    ----------
    pieces : sequence of Trajectory
        The motions (each from rest to rest, so that the chain's
        velocity and acceleration are continuous).

    """

    def __init__(self, pieces):
        pieces = list(pieces)
        ends = np.cumsum([p.duration for p in pieces])
        super().__init__(pieces[0].joint_names, float(ends[-1]))
        self._pieces = pieces
        self._starts = np.concatenate([[0.0], ends[:-1]])

    @property
    def pieces(self):
        """Return the motions, in order (list of Trajectory)."""
        return list(self._pieces)

    @property
    def starts(self):
        """Start time of each motion [s], (P,) (numpy.ndarray)."""
        return self._starts.copy()

    def _index(self, times):
        return np.clip(np.searchsorted(self._starts, times, side='right') - 1, 0,
                       len(self._pieces) - 1)

    def _evaluate(self, times):
        k = self._index(times)
        q = np.zeros((times.size, self.n))
        qd, qdd = np.zeros_like(q), np.zeros_like(q)
        for i in np.unique(k):
            rows = k == i
            q[rows], qd[rows], qdd[rows] = self._pieces[i].sample(times[rows] - self._starts[i])
        return q, qd, qdd

    def _evaluate_jerk(self, times):
        k = self._index(times)
        out = np.zeros((times.size, self.n))
        for i in np.unique(k):
            rows = k == i
            out[rows] = self._pieces[i].jerk(times[rows] - self._starts[i])
        return out
