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

Per step of length ``h`` (a board cycle in current mode; one inner period,
a fraction ``1 / substeps`` of the cycle, in impedance mode) and per axis:

* **current loop**: first order, ``i += (i_ref - i) (1 - exp(-h / tau_i))``;
  outputs off force ``i = 0``;
* **torque**: ``tau = eta N Kt i`` with the board's *true* actuator data;
* **backlash** (optional, width ``b`` at the joint side): the motor side
  leads the link by a gap ``g`` in ``[-b/2, b/2]``; torque passes only when
  the gap is closed in its direction, otherwise the motor crosses the gap
  at ``backlash_speed`` and the link gets no torque;
* **plant**: :class:`robodyn_ros.sim.Plant` (Pinocchio forward dynamics with
  the plant's own friction), one semi-implicit step of ``h``; hard stops at
  the joint limits; with brakes, outputs off hold the joints still;
* **encoder** on the motor: ``counts = round((q + g) N cpr / 2 pi)`` plus
  Gaussian noise in counts; **current sensor** with Gaussian noise [A];
  **motor speed** ``N qd`` (an ideal speed sensor, the back-EMF the encoder
  plausibility check also uses; the backlash gap crossing is not seen).
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
    substeps : int
        Inner steps per cycle (impedance mode, :meth:`substep`).

    """

    def __init__(self, model, period, encoder_counts=4096, current_time_constant=5e-4,
                 efficiency=1.0, backlash=0.0, backlash_speed=0.5, encoder_noise=0.0,
                 current_noise=0.0, brakes=True, friction_smoothing=0.002, q0=None, rng=None,
                 substeps=1):
        self.model = model
        self.n = n = model.n
        self.period = float(period)
        self.substeps = int(substeps)
        if self.substeps < 1:
            raise ValueError(f'substeps must be >= 1, got {substeps}')
        self.inner_period = self.period / self.substeps
        self.axes = axis_parameters(model, efficiency)
        counts = np.asarray(encoder_counts, dtype=np.int64).reshape(-1)
        self.encoder_counts = np.full(n, counts[0]) if counts.size == 1 else counts

        def alpha(h):
            return 1.0 - math.exp(-h / current_time_constant) if current_time_constant > 0 else 1.0

        self.alpha = alpha(self.period)
        self.inner_alpha = alpha(self.inner_period)
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
        self._has_backlash = bool(np.any(self.backlash))
        self.lower = model.lower_limits
        self.upper = model.upper_limits
        self.counts_per_unit = self.encoder_counts * self.axes.gear_ratio / (2.0 * math.pi)
        self._torque_per_amp = self.axes.torque_per_amp  # eta N Kt, once
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

    def motor_velocity(self):
        """Give the motor speeds the board measures, ``N qd``, (n,) [rad/s]."""
        return self.axes.gear_ratio * self.plant.qd

    def _backlash(self, tau, h):
        """Return the transmitted torque and update the gap over ``h`` (joint side)."""
        if not self._has_backlash:
            return tau
        half = self.backlash / 2.0
        target = np.where(tau > 0.0, half, np.where(tau < 0.0, -half, self.gap))
        closed = np.abs(self.gap - target) <= 1e-12
        step = self.backlash_speed * h
        self.gap = np.where(closed, self.gap,
                            self.gap + np.clip(target - self.gap, -step, step))
        return np.where(closed, tau, 0.0)

    def step(self, reference, outputs_on):
        """
        Advance one cycle (current mode).

        Parameters
        ----------
        reference : numpy.ndarray
            Current set-points [A], (n,).
        outputs_on : bool
            Whether the power stage is enabled.

        Raises
        ------
        FloatingPointError
            If the plant's state is no longer finite.

        """
        self._advance(reference, outputs_on, self.period, self.alpha)
        self.check()

    def substep(self, reference):
        """
        Advance one inner period with the outputs on (impedance mode).

        The caller runs :attr:`substeps` of them per cycle, then :meth:`check`.

        Parameters
        ----------
        reference : numpy.ndarray
            Current set-points [A], (n,).

        """
        self._advance(reference, True, self.inner_period, self.inner_alpha)

    def check(self):
        """Raise FloatingPointError if the plant's state is no longer finite."""
        if not self.plant.finite():
            raise FloatingPointError('plant state diverged (check torques and time step)')

    def _advance(self, reference, outputs_on, h, alpha):
        plant = self.plant
        if outputs_on:
            self.current += (reference - self.current) * alpha
        else:
            self.current[:] = 0.0
        if not outputs_on and self.brakes:
            plant.qd[:] = 0.0
            plant.time += h
            return
        plant.advance(self._backlash(self._torque_per_amp * self.current, h), h)
        q = plant.q
        low = q < self.lower
        high = q > self.upper
        if low.any() or high.any():
            plant.q = np.clip(q, self.lower, self.upper)
            plant.qd = np.where(low, np.maximum(plant.qd, 0.0),
                                np.where(high, np.minimum(plant.qd, 0.0), plant.qd))

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
