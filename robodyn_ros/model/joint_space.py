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
Joint-space part of :class:`~robodyn_ros.model.RobotModel`: per-joint arrays, configurations.

:class:`JointSpaceMixin` gives the model its per-joint arrays (tree
structure, limits, armature) and the configurations it validates, draws and
starts from. It reads only the host's ``joints`` and ``n``.
"""

from functools import cached_property

import numpy as np

from .checks import check_vector
from ..errors import InputError


def _readonly(arr):
    arr.setflags(write=False)
    return arr


class JointSpaceMixin:
    """Per-joint arrays and configurations of a model with ``joints`` and ``n``."""

    # ------------------------------------------------------------------ arrays
    @cached_property
    def parents(self):
        """Parent body index per joint, -1 for the root, (n,) int."""
        return _readonly(np.array([j.parent for j in self.joints], dtype=int))

    @cached_property
    def is_prismatic(self):
        """Prismatic flag per joint, (n,) bool."""
        return _readonly(np.array([j.is_prismatic for j in self.joints], dtype=bool))

    @cached_property
    def lower_limits(self):
        """Lower position limits, (n,) [rad or m]; -inf where unbounded."""
        return _readonly(np.array([j.limits.lower for j in self.joints]))

    @cached_property
    def upper_limits(self):
        """Upper position limits, (n,) [rad or m]; inf where unbounded."""
        return _readonly(np.array([j.limits.upper for j in self.joints]))

    @cached_property
    def velocity_limits(self):
        """Velocity limits, (n,) [rad/s or m/s]."""
        return _readonly(np.array([j.limits.velocity for j in self.joints]))

    @cached_property
    def acceleration_limits(self):
        """Acceleration limits, (n,) [rad/s^2 or m/s^2]."""
        return _readonly(np.array([j.limits.acceleration for j in self.joints]))

    @cached_property
    def effort_limits(self):
        """Effort limits, (n,) [N m or N]."""
        return _readonly(np.array([j.limits.effort for j in self.joints]))

    @cached_property
    def armature(self):
        """Link-side rotor inertia per joint, (n,) [kg m^2 or kg]."""
        return _readonly(np.array([j.actuator.armature for j in self.joints]))

    @cached_property
    def children(self):
        """Child joint indices per body (tuple of tuples of int)."""
        kids = [[] for _ in self.joints]
        for i, j in enumerate(self.joints):
            if j.parent >= 0:
                kids[j.parent].append(i)
        return tuple(tuple(k) for k in kids)

    @cached_property
    def is_chain(self):
        """Whether the tree is a single serial chain (bool)."""
        return all(j.parent == i - 1 for i, j in enumerate(self.joints))

    # ------------------------------------------------------------------ configurations
    def check_configuration(self, q, argument='q'):
        """
        Validate a configuration vector.

        Parameters
        ----------
        q : array_like
            Joint coordinates, shape (n,) [rad or m].
        argument : str
            Name used in the error message.

        Returns
        -------
        numpy.ndarray
            ``q`` as a float array of shape (n,).

        Raises
        ------
        InputError
            Wrong shape or non-finite entries.

        """
        return check_vector(q, self.n, argument)

    def random_configuration(self, rng=None):
        """
        Draw a configuration uniformly within the joint limits.

        Parameters
        ----------
        rng : numpy.random.Generator, optional
            Random generator.

        Returns
        -------
        numpy.ndarray
            Shape (n,); unbounded joints are drawn in [-pi, pi] [rad or m].

        """
        rng = np.random.default_rng() if rng is None else rng
        lo, hi = self._bounded_limits()
        return rng.uniform(lo, hi)

    def home_configuration(self, toward_middle=0.0, outside='limit'):
        """
        Zero inside the joint limits, optionally moved toward the middle of each range.

        Returns ``(1 - t) z + t m`` with ``t = toward_middle``, ``m`` the
        middle of each range (an unbounded side counts as -pi or pi, as in
        :meth:`random_configuration`; 0 for a joint unbounded on both sides)
        and ``z`` zero where zero is within the joint's limits, elsewhere the
        nearest limit (``outside='limit'``) or the middle ``m``
        (``outside='middle'``). The package's uses:

        * ``home_configuration()``: where a bring-up, the simulated board and
          the gain defaults start from (zero clamped into the limits);
        * ``home_configuration(outside='middle')``: the hold damping's
          inertia reference, a representative pose rather than a limit;
        * ``home_configuration(0.5)``: the closed-loop scenarios' start,
          halfway from the clamped zero to the middle, away from the limits;
        * ``home_configuration(1.0)``: the middle of each range, the centre
          of the benchmarks' random waypoints.

        Parameters
        ----------
        toward_middle : float
            Share of the way from ``z`` to the middle of the range, in [0, 1].
        outside : {'limit', 'middle'}
            ``z`` of a joint whose range does not contain zero.

        Returns
        -------
        numpy.ndarray
            Shape (n,) [rad or m].

        Raises
        ------
        InputError
            If ``toward_middle`` is outside [0, 1] or ``outside`` is unknown.

        """
        t = float(toward_middle)
        if not 0.0 <= t <= 1.0:
            raise InputError('toward_middle', f'must be in [0, 1], got {toward_middle}')
        if outside not in ('limit', 'middle'):
            raise InputError('outside', f"must be 'limit' or 'middle', got {outside!r}")
        lo, hi = self._bounded_limits()
        middle = 0.5 * (lo + hi)
        zero = np.clip(np.zeros(self.n), self.lower_limits, self.upper_limits)
        if outside == 'middle':
            zero = np.where(zero == 0.0, zero, middle)
        return (1.0 - t) * zero + t * middle

    def _bounded_limits(self):
        """Position limits with unbounded sides at -pi and pi, (n,) each [rad or m]."""
        lo = np.where(np.isfinite(self.lower_limits), self.lower_limits, -np.pi)
        hi = np.where(np.isfinite(self.upper_limits), self.upper_limits, np.pi)
        return lo, hi
