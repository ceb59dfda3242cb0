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
The simulated board's power stage, transmission and sensors around the plant.

Per cycle of period ``h`` and per axis:

* **current loop**: first order, ``i += (i_ref - i) (1 - exp(-h / tau_i))``;
  outputs off force ``i = 0``;
* **torque**: ``tau = eta N Kt i`` with the board's *true* actuator data;
* **backlash** (optional, width ``b`` at the joint side): the motor side
  leads the link by a gap ``g`` in ``[-b/2, b/2]``; torque passes only when
  the gap is closed in its direction, otherwise the motor crosses the gap
  at ``backlash_speed`` and the link gets no torque;
* **plant**: :class:`robodyn_ros.sim.Plant` (Pinocchio forward dynamics with
  the plant's own friction), one semi-implicit step per cycle; hard stops at
  the joint limits; with brakes, outputs off hold the joints still;
* **encoder** on the motor: ``counts = round((q + g) N cpr / 2 pi)`` plus
  Gaussian noise in counts; **current sensor** with Gaussian noise [A].
"""

import math

import numpy as np

from ..plant import Plant
from ...hardware.scaling import axis_parameters


def without_load_friction(model):
    """
    Return a copy of a model without bearing and transmission friction.

    Parameters
    ----------
    model : RobotModel
        The model.

    Returns
    -------
    RobotModel
        The copy (velocity friction kept).

    """
    from dataclasses import replace
    joints = [j.with_changes(friction=replace(j.friction, bearing=None, transmission=None))
              for j in model.joints]
    return model.replace_joints(joints)


class SimAxes:
    """
    Actuators, transmission and sensors of the simulated board.

    Parameters
    ----------
    model : RobotModel
        The board's true model (dynamics, friction, actuators).
    period : float
        Board cycle [s].
    encoder_counts : array_like
        Counts per motor revolution (one value or one per axis).
    current_time_constant : float
        Time constant of the current loop [s].
    efficiency : float or array_like
        True transmission efficiency.
    backlash : float or array_like
        Backlash width at the joint side [rad or m].
    backlash_speed : float
        Speed at which the motor crosses the backlash gap [rad/s or m/s].
    encoder_noise, current_noise : float
        Standard deviations [counts] and [A].
    brakes : bool
        Hold the joints while the outputs are off.
    friction_smoothing : float
        Lower bound of the plant's zero-velocity friction band [rad/s or m/s]
        (the friction follows the model's formula above about three times it).
    q0 : array_like, optional
        Initial positions [rad or m].
    rng : numpy.random.Generator
        Noise source.

    """

    def __init__(self, model, period, encoder_counts=4096, current_time_constant=5e-4,
                 efficiency=1.0, backlash=0.0, backlash_speed=0.5, encoder_noise=0.0,
                 current_noise=0.0, brakes=True, friction_smoothing=0.002, q0=None, rng=None):
        self.model = model
        self.n = n = model.n
        self.period = float(period)
        self.axes = axis_parameters(model, efficiency)
        counts = np.asarray(encoder_counts, dtype=np.int64).reshape(-1)
        self.encoder_counts = np.full(n, counts[0]) if counts.size == 1 else counts
        self.alpha = 1.0 - math.exp(-self.period / current_time_constant) if (
            current_time_constant > 0) else 1.0
        self.backlash = np.broadcast_to(np.asarray(backlash, dtype=float), (n,)).copy()
        self.backlash_speed = float(backlash_speed)
        self.encoder_noise = float(encoder_noise)
        self.current_noise = float(current_noise)
        self.brakes = bool(brakes)
        self.rng = rng if rng is not None else np.random.default_rng(0)
        self.plant = Plant(model, q0=q0, dt=self.period, friction=True,
                           smoothing_velocity=friction_smoothing, integrator='semi_implicit')
        self.current = np.zeros(n)
        self.gap = self.backlash / 2.0
        self.lower = model.lower_limits
        self.upper = model.upper_limits
        self.counts_per_unit = self.encoder_counts * self.axes.gear_ratio / (2.0 * math.pi)
        self._frozen = self.true_counts()

    @property
    def q(self):
        """Give the true joint positions, (n,) [rad or m]."""
        return self.plant.q

    @property
    def qd(self):
        """Give the true joint velocities, (n,) [rad/s or m/s]."""
        return self.plant.qd

    def true_counts(self):
        """Compute the encoder counts without noise, (n,) int."""
        return np.rint((self.plant.q + self.gap) * self.counts_per_unit).astype(np.int64)

    def _backlash(self, tau):
        """Return the transmitted torque and update the gap (joint side)."""
        if not np.any(self.backlash):
            return tau
        half = self.backlash / 2.0
        target = np.where(tau > 0.0, half, np.where(tau < 0.0, -half, self.gap))
        closed = np.abs(self.gap - target) <= 1e-12
        step = self.backlash_speed * self.period
        self.gap = np.where(closed, self.gap,
                            self.gap + np.clip(target - self.gap, -step, step))
        return np.where(closed, tau, 0.0)

    def step(self, reference, outputs_on):
        """
        Advance one cycle.

        Parameters
        ----------
        reference : numpy.ndarray
            Current set-points [A], (n,).
        outputs_on : bool or numpy.ndarray
            Whether the power stage is enabled: for all axes, or per axis
            ((n,) bool; a drive set). With brakes, an axis whose stage is
            off is held still.

        """
        if np.ndim(outputs_on):
            self._step_axes(reference, np.asarray(outputs_on, dtype=bool))
            return
        if outputs_on:
            self.current += (reference - self.current) * self.alpha
        else:
            self.current[:] = 0.0
        if not outputs_on and self.brakes:
            self.plant.qd[:] = 0.0
            self.plant.time += self.period
            return
        tau = self._backlash(self.axes.torque_per_amp * self.current)
        self.plant.step(tau, self.period)
        self._stops()

    def _step_axes(self, reference, on):
        """Advance one cycle with the power stage on or off per axis."""
        self.current = np.where(on, self.current + (reference - self.current) * self.alpha, 0.0)
        if self.brakes and not on.any():
            self.plant.qd[:] = 0.0
            self.plant.time += self.period
            return
        held = self.plant.q.copy()
        tau = self._backlash(self.axes.torque_per_amp * self.current)
        self.plant.step(tau, self.period)
        if self.brakes:
            self.plant.q = np.where(on, self.plant.q, held)
            self.plant.qd = np.where(on, self.plant.qd, 0.0)
        self._stops()

    def _stops(self):
        """Hard stops at the joint limits."""
        low = self.plant.q < self.lower
        high = self.plant.q > self.upper
        if np.any(low) or np.any(high):
            self.plant.q = np.clip(self.plant.q, self.lower, self.upper)
            self.plant.qd = np.where(low, np.maximum(self.plant.qd, 0.0),
                                     np.where(high, np.minimum(self.plant.qd, 0.0),
                                              self.plant.qd))

    def encoder(self, stuck):
        """
        Read the encoders.

        Parameters
        ----------
        stuck : numpy.ndarray
            Per axis, whether the count is frozen (bool, (n,)).

        Returns
        -------
        numpy.ndarray
            Counts, (n,) int.

        """
        counts = self.true_counts()
        if self.encoder_noise > 0.0:
            counts = counts + np.rint(self.rng.normal(0.0, self.encoder_noise, self.n)).astype(
                np.int64)
        counts = np.where(stuck, self._frozen, counts)
        self._frozen = counts
        return counts

    def measured_current(self, offset):
        """
        Read the current sensors.

        Parameters
        ----------
        offset : numpy.ndarray
            Injected extra current [A], (n,).

        Returns
        -------
        numpy.ndarray
            Measured currents [A], (n,).

        """
        out = self.current + offset
        if self.current_noise > 0.0:
            out = out + self.rng.normal(0.0, self.current_noise, self.n)
        return out
