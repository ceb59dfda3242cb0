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
The simulated board's impedance mode: the last command and the PD it closes at the inner rate.

The firmware keeps the last accepted ``SET_IMPEDANCE`` command and, for
each of the ``substeps`` inner periods ``h`` of a board cycle, samples its
sensors and holds a current set-point for ``h`` (zero-order hold), per axis::

    i = kp (position + velocity (t - t_s) - theta) + kd (velocity - omega) + current
    i_ref = clip(i, -limit, limit)

with ``t`` the board time at the start of the inner period, ``t_s`` the
command's state time, ``theta = 2 pi counts / cpr`` the motor angle of the
encoder as read at ``t`` (quantised, with its noise and faults) and
``omega`` the motor speed (:meth:`~.axes.SimAxes.motor_velocity`). All
quantities are the board's motor side (rad, rad/s, A/rad, A s/rad, A); the
host converts (:meth:`robodyn_ros.hardware.board.driver.BoardDriver.send_impedance`).
"""

import math

import numpy as np


class ImpedanceLoop:
    """
    The board's impedance command and its inner PD.

    Parameters
    ----------
    encoder_counts : numpy.ndarray
        Counts per motor revolution of each axis, (n,).

    Attributes
    ----------
    position, velocity, kp, kd, current : numpy.ndarray
        The command in force (motor side), (n,).
    state_time_us : int
        Its state time, at which ``position`` holds [us].
    last : numpy.ndarray
        The current set-point of the last inner period [A], (n,).

    """

    def __init__(self, encoder_counts):
        counts = np.asarray(encoder_counts, dtype=float)
        n = counts.size
        self.rad_per_count = 2.0 * math.pi / counts
        self.position = np.zeros(n)
        self.velocity = np.zeros(n)
        self.kp = np.zeros(n)
        self.kd = np.zeros(n)
        self.current = np.zeros(n)
        self.state_time_us = 0
        self.last = np.zeros(n)

    def take(self, msg):
        """
        Take a checked command as the one in force.

        Parameters
        ----------
        msg : SetImpedance
            The accepted message (axis count already checked).

        """
        self.position[:] = msg.position
        self.velocity[:] = msg.velocity
        self.kp[:] = msg.kp
        self.kd[:] = msg.kd
        self.current[:] = msg.current
        self.state_time_us = msg.state_time_us

    def run(self, axes, stuck, limit, start_us):
        """
        Close the PD over one board cycle: ``axes.substeps`` inner periods.

        Parameters
        ----------
        axes : SimAxes
            Power stage, plant and sensors (outputs on).
        stuck : numpy.ndarray
            Per axis, whether the encoder count is frozen (bool, (n,)).
        limit : numpy.ndarray
            Configured current limits [A], (n,).
        start_us : int
            Board time at the start of the cycle [us].

        Returns
        -------
        bool
            Whether a set-point was clamped to the limit in any inner period.

        """
        h = axes.inner_period
        elapsed = (start_us - self.state_time_us) * 1e-6
        reference = self.position + self.velocity * elapsed   # reference line at the start
        advance = self.velocity * h
        low = -limit
        amps = self.last
        peak = np.zeros_like(amps)
        for _ in range(axes.substeps):
            theta = axes.encoder(stuck) * self.rad_per_count
            omega = axes.motor_velocity()
            raw = self.kp * (reference - theta) + self.kd * (self.velocity - omega) + self.current
            np.minimum(np.maximum(raw, low, out=amps), limit, out=amps)
            np.maximum(peak, np.abs(raw), out=peak)
            axes.substep(amps)
            reference += advance
        return bool((peak > limit).any())

    def snapshot(self):
        """
        Describe the command for the control channel.

        Returns
        -------
        dict
            JSON-ready lists (motor side) and the state time.

        """
        def floats(a):
            return [float(v) if math.isfinite(v) else None for v in a]

        return {'state_time_us': self.state_time_us, 'position': floats(self.position),
                'velocity': floats(self.velocity), 'kp': floats(self.kp), 'kd': floats(self.kd),
                'current': floats(self.current), 'last_current': floats(self.last)}
