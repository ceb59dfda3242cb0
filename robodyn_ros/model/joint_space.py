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

    def home_configuration(self, toward_middle=0.0):
        """
        Zero clamped into the joint limits, optionally moved toward the middle of each range.

        Returns ``(1 - t) clip(0, lower, upper) + t (lower + upper) / 2`` with
        ``t = toward_middle``, where an unbounded side counts as -pi (lower)
        or pi (upper) for the middle, as in :meth:`random_configuration`.
        ``t = 0`` (the default) is zero wherever zero is within the limits and
        the nearest limit elsewhere: where a bring-up, the simulated board and
        the default gains start from. ``t = 0.5`` is halfway to the middle
        (the closed-loop scenarios' start, away from the limits), ``t = 1`` the
        middle of each range (0 for a joint unbounded on both sides).

        Parameters
        ----------
        toward_middle : float
            Share of the way from the clamped zero to the middle of the range,
            in [0, 1].

        Returns
        -------
        numpy.ndarray
            Shape (n,) [rad or m].

        Raises
        ------
        InputError
            If ``toward_middle`` is outside [0, 1].

        """
        t = float(toward_middle)
        if not 0.0 <= t <= 1.0:
            raise InputError('toward_middle', f'must be in [0, 1], got {toward_middle}')
        zero = np.clip(np.zeros(self.n), self.lower_limits, self.upper_limits)
        lo, hi = self._bounded_limits()
        return (1.0 - t) * zero + t * (0.5 * (lo + hi))

    def _bounded_limits(self):
        """Position limits with unbounded sides at -pi and pi, (n,) each [rad or m]."""
        lo = np.where(np.isfinite(self.lower_limits), self.lower_limits, -np.pi)
        hi = np.where(np.isfinite(self.upper_limits), self.upper_limits, np.pi)
        return lo, hi
