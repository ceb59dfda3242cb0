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

The options are two frozen records, :class:`PlantSettings` (current loop to
joint) and :class:`SensorSettings` (encoders and current sensors).
"""

from dataclasses import dataclass, replace
import math

import numpy as np

from .cycle_kernel import COMPILED as CYCLE, CURRENT_LAG, HARD_STOPS
from ..plant import Plant
from ...errors import InputError
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
    joints = [j.with_changes(friction=replace(j.friction, bearing=None, transmission=None))
              for j in model.joints]
    return model.replace_joints(joints)


def _values(value, name, low=0.0, high=None, strict=False):
    """Check one value or one per axis (finite, in range); give a float or a tuple."""
    try:
        arr = np.array(value, dtype=float)
    except (TypeError, ValueError):
        arr = np.array([np.nan])
    bad = (arr.ndim > 1 or arr.size == 0 or not np.all(np.isfinite(arr))
           or np.any(arr <= low if strict else arr < low)
           or (high is not None and np.any(arr > high)))
    if bad:
        upper = '' if high is None else f' and <= {high:g}'
        wanted = f'{">" if strict else ">="} {low:g}{upper}'
        raise InputError(name, f'must be finite and {wanted}, one value or one per axis, got '
                               f'{value!r}')
    return float(arr) if arr.ndim == 0 else tuple(float(v) for v in arr)


@dataclass(frozen=True)
class PlantSettings:
    """
    What lies between the current set-points and the joints of the simulated board.

    Every field is checked (sequences made tuples) when the record is made;
    per-axis values are broadcast to the axes where they are used.

    Attributes
    ----------
    current_time_constant : float
        Time constant of the current loop [s] (0: the current follows at once).
    efficiency : float or tuple of float
        True transmission efficiency in (0, 1] [-], one or one per axis.
    backlash : float or tuple of float
        Backlash width at the joint side [rad or m], one or one per axis.
    backlash_speed : float
        Speed at which the motor crosses the backlash gap [rad/s or m/s].
    brakes : bool
        Hold the joints while the outputs are off.
    friction_smoothing : float
        Lower bound of the plant's zero-velocity friction band [rad/s or m/s]
        (the friction follows the model's formula above about three times it).

    """

    current_time_constant: float = 5e-4
    efficiency: float = 1.0
    backlash: float = 0.0
    backlash_speed: float = 0.5
    brakes: bool = True
    friction_smoothing: float = 0.002

    def __post_init__(self):
        checked = {
            'current_time_constant': _values(self.current_time_constant,
                                             'current_time_constant'),
            'efficiency': _values(self.efficiency, 'efficiency', high=1.0, strict=True),
            'backlash': _values(self.backlash, 'backlash'),
            'backlash_speed': _values(self.backlash_speed, 'backlash_speed'),
            'brakes': bool(self.brakes),
            'friction_smoothing': _values(self.friction_smoothing, 'friction_smoothing'),
        }
        for name in ('current_time_constant', 'backlash_speed', 'friction_smoothing'):
            if isinstance(checked[name], tuple):
                raise InputError(name, f'must be one value, got {getattr(self, name)!r}')
        for name, value in checked.items():
            object.__setattr__(self, name, value)


@dataclass(frozen=True)
class SensorSettings:
    """
    The encoders and current sensors of the simulated board.

    Every field is checked (sequences made tuples) when the record is made.

    Attributes
    ----------
    encoder_counts : int or tuple of int
        Counts per motor revolution [counts/rev], one or one per axis.
    encoder_noise : float
        Standard deviation of the encoder noise [counts].
    current_noise : float
        Standard deviation of the current sensor noise [A].

    """

    encoder_counts: int = 4096
    encoder_noise: float = 0.0
    current_noise: float = 0.0

    def __post_init__(self):
        counts = _values(self.encoder_counts, 'encoder_counts', low=1.0)
        values = counts if isinstance(counts, tuple) else (counts,)
        if any(v != int(v) for v in values):
            raise InputError('encoder_counts', f'must be positive integers, got '
                                               f'{self.encoder_counts!r}')
        ints = tuple(int(v) for v in values)
        object.__setattr__(self, 'encoder_counts', ints if isinstance(counts, tuple) else ints[0])
        for name in ('encoder_noise', 'current_noise'):
            value = _values(getattr(self, name), name)
            if isinstance(value, tuple):
                raise InputError(name, f'must be one value, got {getattr(self, name)!r}')
            object.__setattr__(self, name, value)


class SimAxes:
    """
    Actuators, transmission and sensors of the simulated board.

    Parameters
    ----------
    model : RobotModel
        The board's true model (dynamics, friction, actuators).
    period : float
        Board cycle [s].
    plant : PlantSettings
        Current loop, transmission, backlash, brakes and friction smoothing.
    sensors : SensorSettings
        Encoder resolution and the sensors' noise.
    q0 : array_like, optional
        Initial positions [rad or m].
    rng : numpy.random.Generator
        Noise source.
    substeps : int
        Inner steps per cycle (impedance mode, :meth:`substep`).

    Attributes
    ----------
    plant_settings : PlantSettings
        The ``plant`` it was built with.
    sensor_settings : SensorSettings
        The ``sensors`` it was built with.
    plant : robodyn_ros.sim.Plant
        The simulated mechanics.

    """

    def __init__(self, model, period, plant=PlantSettings(), sensors=SensorSettings(), q0=None,
                 rng=None, substeps=1):
        if not isinstance(plant, PlantSettings):
            raise InputError('plant', f'must be a PlantSettings, got {plant!r}')
        if not isinstance(sensors, SensorSettings):
            raise InputError('sensors', f'must be a SensorSettings, got {sensors!r}')
        if not (isinstance(substeps, int) and substeps >= 1):
            raise InputError('substeps', f'must be an integer >= 1, got {substeps!r}')
        self.plant_settings, self.sensor_settings = plant, sensors
        self.model = model
        self.n = n = model.n
        self.period = float(period)
        self.substeps = substeps
        self.inner_period = self.period / substeps
        self.axes = axis_parameters(model, plant.efficiency)
        counts = np.asarray(sensors.encoder_counts, dtype=np.int64).reshape(-1)
        self.encoder_counts = np.full(n, counts[0]) if counts.size == 1 else counts

        def alpha(h):
            tau_i = plant.current_time_constant
            return 1.0 - math.exp(-h / tau_i) if tau_i > 0 else 1.0

        self.alpha = alpha(self.period)
        self.inner_alpha = alpha(self.inner_period)
        self.backlash = np.broadcast_to(np.asarray(plant.backlash, dtype=float), (n,)).copy()
        self.backlash_speed = plant.backlash_speed
        self.encoder_noise = sensors.encoder_noise
        self.current_noise = sensors.current_noise
        self.brakes = plant.brakes
        self.rng = rng if rng is not None else np.random.default_rng(0)
        self.plant = Plant(model, q0=q0, dt=self.period, friction=True,
                           smoothing_velocity=plant.friction_smoothing,
                           integrator='semi_implicit')
        self.current = np.zeros(n)
        self.gap = self.backlash / 2.0
        self._has_backlash = bool(np.any(self.backlash))
        self.lower = np.array(model.lower_limits, dtype=float)   # (writable: the compiled
        self.upper = np.array(model.upper_limits, dtype=float)   # stops take those only)
        self.counts_per_unit = self.encoder_counts * self.axes.gear_ratio / (2.0 * math.pi)
        self._torque_per_amp = np.array(self.axes.torque_per_amp, dtype=float)  # eta N Kt
        self._torque = np.zeros(n)      # the compiled current lag's output
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
        outputs_on : bool or numpy.ndarray
            Whether the power stage is enabled: for all axes, or per axis
            ((n,) bool; a drive set). With brakes, an axis whose stage is
            off is held still.

        Raises
        ------
        FloatingPointError
            If the plant's state is no longer finite.

        """
        if not isinstance(outputs_on, (bool, np.bool_)) and np.ndim(outputs_on):
            finite = self._advance_axes(reference, np.asarray(outputs_on, dtype=bool),
                                        self.period, self.alpha)
        else:
            finite = self._advance(reference, outputs_on, self.period, self.alpha)
        if not finite:          # not known (None), or not finite: the check words it
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
            torque = self._current_lag(reference, alpha)
        else:
            self.current[:] = 0.0
            if self.brakes:
                plant.qd[:] = 0.0
                plant.time += h
                return None
            torque = self._torque_per_amp * self.current
        plant.advance(self._backlash(torque, h), h)
        return self._stops()

    def _current_lag(self, reference, alpha):
        """Move the currents ``alpha`` of the way to ``reference``; give the joint torque."""
        fast = CYCLE.get()
        if fast is not None:
            try:
                fast[CURRENT_LAG](self.current, reference, alpha, self._torque_per_amp,
                                  self._torque)
                return self._torque
            except TypeError:   # an array type it was not compiled for: the NumPy form
                pass
        self.current += (reference - self.current) * alpha
        return self._torque_per_amp * self.current

    def _advance_axes(self, reference, on, h, alpha):
        """Advance ``h`` with the power stage on or off per axis (a drive set)."""
        plant = self.plant
        self.current = np.where(on, self.current + (reference - self.current) * alpha, 0.0)
        if self.brakes and not on.any():
            plant.qd[:] = 0.0
            plant.time += h
            return None
        held = plant.q.copy()
        plant.advance(self._backlash(self._torque_per_amp * self.current, h), h)
        if self.brakes:
            plant.q = np.where(on, plant.q, held)
            plant.qd = np.where(on, plant.qd, 0.0)
        return self._stops()

    def _stops(self):
        """Stop at the joint limits; give whether the state is finite (None: not checked)."""
        plant = self.plant
        fast = CYCLE.get()
        if fast is not None:
            try:
                return fast[HARD_STOPS](plant.q, plant.qd, self.lower, self.upper)
            except TypeError:   # an array type it was not compiled for: the NumPy form
                pass
        q = plant.q
        low = q < self.lower
        high = q > self.upper
        if low.any() or high.any():
            plant.q = np.clip(q, self.lower, self.upper)
            plant.qd = np.where(low, np.maximum(plant.qd, 0.0),
                                np.where(high, np.minimum(plant.qd, 0.0), plant.qd))
        return None

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

    def took_counts(self, counts):
        """
        Keep counts read by the compiled sensor pass (a stuck encoder freezes at them).

        Parameters
        ----------
        counts : numpy.ndarray
            Counts, (n,) int.

        """
        self._frozen = counts

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
