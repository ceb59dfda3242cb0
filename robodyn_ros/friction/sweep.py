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
Constant-velocity sweeps on a board, for friction identification.

For each joint and each speed ``v`` the joint moves forward and back at
``+v`` and ``-v`` (trapezoidal velocity, the other joints held) under a
PID position loop with gravity feed-forward; after a settling time the
steady part of each leg is measured. With the velocity constant the motor
torque (from the measured current) balances the rigid-body torque and the
friction, so each leg gives one point::

    v_mean = (q_end - q_start) / T
    tau_f  = mean(tau_measured - [tau_model(q, qd, 0) - tau_v,model(qd)])
             - [M(q) (v_end - v_start) / T]

where the first bracket is the host model's inverse dynamics without its
velocity friction (rigid body, plus the load-dependent friction if the model
has one) with the velocity of the state-variable filter, and the second the
mean inertial torque of what is left of the loop's transient (mass matrix
with rotor inertia at the middle of the window; ``v_start`` and ``v_end``
are least-squares slopes of the encoder positions over the first and last
20 ms, in board time). The feed-forward uses Pinocchio's gravity (fast, and independent of
the analysis, which uses our RNE in batch).
"""

from dataclasses import dataclass, field
import math

import numpy as np

from .models import velocity_friction
from ..dynamics import inverse_dynamics, mass_matrix
from ..dynamics.tables import tables
from ..errors import InputError
from ..hardware.errors import HardwareError
from ..pinocchio_bridge import PinocchioBridge


@dataclass(frozen=True)
class SweepSettings:
    """
    How to sweep.

    Attributes
    ----------
    joints : tuple of str
        Joints to identify (empty: all).
    velocities : tuple of float
        Speeds [rad/s or m/s] (capped at 0.8 of the joint's velocity limit).
    settle, measure : float
        Settling time and measurement window of each leg [s].
    accel_time : float
        Time to reach the speed [s].
    bandwidth : float
        Position-loop bandwidth [Hz] (triple pole of the PID loop).
    margin : float
        Distance kept from the joint limits [rad or m].
    move_speed : float
        Speed of the repositioning moves [rad/s or m/s].

    """

    joints: tuple = ()
    velocities: tuple = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5)
    settle: float = 0.2
    measure: float = 0.3
    accel_time: float = 0.1
    bandwidth: float = 4.0
    margin: float = 0.1
    move_speed: float = 0.5

    def check(self, model):
        """
        Validate against a model.

        Parameters
        ----------
        model : RobotModel
            The model.

        Raises
        ------
        InputError
            Unknown joints or bad values.

        """
        for name in self.joints:
            if name not in model.joint_names:
                raise InputError('joints', f'unknown joint {name!r} (the model has '
                                 f'{", ".join(model.joint_names)})')
        if not self.velocities or min(self.velocities) <= 0.0:
            raise InputError('velocities', 'need positive speeds')
        for name in ('settle', 'measure', 'accel_time', 'bandwidth', 'move_speed'):
            if not getattr(self, name) > 0.0:
                raise InputError(name, 'must be positive')


@dataclass(frozen=True)
class SweepPoint:
    """
    One measured leg.

    Attributes
    ----------
    joint : str
        Joint name.
    command : float
        Commanded velocity [rad/s or m/s].
    velocity : float
        Mean measured velocity [rad/s or m/s].
    torque : float
        Mean friction torque [N m or N].
    samples : int
        Reports in the window.

    """

    joint: str
    command: float
    velocity: float
    torque: float
    samples: int


@dataclass
class SweepData:
    """
    All legs of a sweep.

    Attributes
    ----------
    robot : str
        Model name.
    points : list of SweepPoint
        Measured legs.
    skipped : list of str
        Speeds that did not fit in a joint's range.

    """

    robot: str
    points: list = field(default_factory=list)
    skipped: list = field(default_factory=list)

    def arrays(self, joint):
        """
        Velocities and torques of one joint.

        Parameters
        ----------
        joint : str
            Joint name.

        Returns
        -------
        tuple of numpy.ndarray
            ``(velocity, torque)``.

        """
        pts = [p for p in self.points if p.joint == joint]
        return (np.array([p.velocity for p in pts]), np.array([p.torque for p in pts]))


def _profile(t, start, distance, speed, accel_time):
    """
    Trapezoidal move (triangular if too short) of ``distance`` at most at ``speed``.

    Returns
    -------
    tuple
        Position, velocity at time ``t`` and the total duration [s].

    """
    d = math.copysign(1.0, distance)
    dist = abs(distance)
    a = speed / accel_time
    if dist < speed * accel_time:
        ta = math.sqrt(dist / a)
        v = a * ta
        cruise = 0.0
    else:
        ta, v = accel_time, speed
        cruise = (dist - v * ta) / v
    total = 2.0 * ta + cruise
    if t <= 0.0:
        return start, 0.0, total
    if t < ta:
        return start + d * 0.5 * a * t * t, d * a * t, total
    if t < ta + cruise:
        return start + d * (0.5 * a * ta * ta + v * (t - ta)), d * v, total
    if t < total:
        r = total - t
        return start + d * (dist - 0.5 * a * r * r), d * a * r, total
    return start + distance, 0.0, total


class FrictionSweep:
    """
    Run constant-velocity sweeps through a connected :class:`~.driver.BoardDriver`.

    Parameters
    ----------
    driver : BoardDriver
        Connected (configured) driver.
    settings : SweepSettings
        How to sweep.
    log : callable, optional
        ``log(text)`` for progress messages.

    """

    def __init__(self, driver, settings=None, log=None):
        self.driver = driver
        self.model = driver.model
        self.settings = settings or SweepSettings()
        self.settings.check(self.model)
        self.log = log or (lambda text: None)
        self._bridge = PinocchioBridge(self.model)
        self._tab = tables(self.model)
        self._integral = np.zeros(self.model.n)
        self._gains_now = None

    def _gravity(self, q):
        import pinocchio as pin
        b = self._bridge
        return b.from_v(pin.computeGeneralizedGravity(b.pin_model, b.pin_data, b.q(q)))

    def _gains(self, q):
        m = np.diag(mass_matrix(self.model, q)).copy()
        w = 2.0 * math.pi * self.settings.bandwidth
        return 3.0 * w * w * m, 3.0 * w * m, w ** 3 * m

    def _read(self):
        sample = self.driver.read(0.1)
        if sample is None:
            raise HardwareError('board stopped reporting during the sweep')
        if sample.faults:
            raise HardwareError('board fault during the sweep: faults 0x%04x' % sample.faults)
        return sample

    def _track(self, reference, duration, window=None):
        """Follow ``reference(t) -> (q_ref, qd_ref)`` for ``duration`` s; record a window."""
        kp, kd, ki = self._gains_now
        start = None
        rec = []
        while True:
            s = self._read()
            if start is None:
                start = s.board_time_us
            t = (s.board_time_us - start) * 1e-6
            q_ref, qd_ref = reference(t)
            err = q_ref - s.position
            self._integral += err * self.driver.identity.cycle_period
            tau = (self._gravity(s.position) + kp * err + kd * (qd_ref - s.velocity)
                   + ki * self._integral)
            self.driver.send_torque(s, tau)
            if window is not None and window[0] <= t <= window[1]:
                rec.append(s)
            if t >= duration:
                return rec

    def _move(self, q_from, q_to):
        dist = q_to - q_from
        far = float(np.max(np.abs(dist)))
        if far < 1e-9:
            return
        speed = self.settings.move_speed
        total = _profile(0.0, 0.0, far, speed, 0.2)[2]

        def ref(t):
            p, v, _ = _profile(t, 0.0, far, speed, 0.2)
            return q_from + dist * (p / far), dist * (v / far)

        self._track(ref, total + 0.2)

    def _leg(self, hold, j, start, distance, speed, window):
        s = self.settings

        def ref(t):
            q = hold.copy()
            qd = np.zeros_like(hold)
            q[j], qd[j], _ = _profile(t, start, distance, speed, s.accel_time)
            return q, qd

        total = _profile(0.0, start, distance, speed, s.accel_time)[2]
        rec = self._track(ref, total + 0.05, window)
        if len(rec) < 5:
            return None
        return (np.array([r.board_time_us for r in rec]) * 1e-6,
                np.array([r.position for r in rec]), np.array([r.velocity for r in rec]),
                np.array([r.effort for r in rec]))

    def _analyse(self, j, leg):
        """Mean velocity and friction torque of one recorded leg (after the sweep)."""
        t, q, qd, effort = leg
        t = t - t[0]
        dt = t[-1]
        model_tau = (inverse_dynamics(self.model, q, qd, np.zeros_like(q))
                     - velocity_friction(self._tab, qd))
        span = min(0.02, dt / 5.0)
        head, tail = t <= span, t >= dt - span
        v_start = np.polyfit(t[head], q[head], 1)[0]
        v_end = np.polyfit(t[tail], q[tail], 1)[0]
        inertial = mass_matrix(self.model, q[len(q) // 2]) @ ((v_end - v_start) / (dt - span))
        velocity = (q[-1, j] - q[0, j]) / dt
        torque = float(np.mean(effort[:, j] - model_tau[:, j]) - inertial[j])
        return velocity, torque, len(q)

    def run(self):
        """
        Enable the board, sweep every joint, return to the start and disable.

        Returns
        -------
        SweepData
            The measured points.

        Raises
        ------
        HardwareError
            If the board faults or stops reporting (the outputs are switched off).

        """
        model, s = self.model, self.settings
        names = s.joints or tuple(model.joint_names)
        data = SweepData(model.name)
        first = self._read()
        q0 = first.position.copy()
        self._gains_now = self._gains(q0)
        self._integral[:] = 0.0
        self.driver.enable()
        legs = []
        try:
            for name in names:
                j = model.joint_index(name)
                self._sweep_joint(j, q0, data, legs)
            self._move(self.driver.last_sample.position.copy(), q0)
        finally:
            try:
                last = self.driver.last_sample
                if last is not None:
                    self.driver.send_currents(last, np.zeros(model.n))
                self.driver.disable()
            except (HardwareError, OSError):
                pass
        for j, command, leg in legs:
            velocity, torque, count = self._analyse(j, leg)
            data.points.append(SweepPoint(model.joint_names[j], command, velocity, torque, count))
            self.log(f'{model.joint_names[j]}: v = {velocity:+.4f}, friction = {torque:+.4f}')
        self.legs = legs
        return data

    def _sweep_joint(self, j, q0, data, legs):
        model, s = self.model, self.settings
        name = model.joint_names[j]
        lower = model.lower_limits[j] + s.margin
        upper = model.upper_limits[j] - s.margin
        if not math.isfinite(lower) or not math.isfinite(upper):
            lower, upper = q0[j] - math.pi, q0[j] + math.pi
        vlimit = model.joints[j].limits.velocity
        for v_cmd in s.velocities:
            v = min(v_cmd, 0.8 * vlimit) if math.isfinite(vlimit) else v_cmd
            ta = s.accel_time
            distance = v * (ta + s.settle + s.measure + 0.05)
            if distance > upper - lower:
                data.skipped.append(
                    f'{name} at {v:g}: needs {distance:.3f} of {upper - lower:.3f} range')
                continue
            center = min(max(q0[j], lower + distance / 2), upper - distance / 2)
            hold = q0.copy()
            start = center - distance / 2
            here = self.driver.last_sample.position.copy()
            target = hold.copy()
            target[j] = start
            self._move(here, target)
            window = (ta + s.settle, ta + s.settle + s.measure)
            for sign in (1.0, -1.0):
                begin = start if sign > 0 else start + distance
                hold[j] = begin
                leg = self._leg(hold, j, begin, sign * distance, v, window)
                if leg is not None:
                    legs.append((j, sign * v, leg))
