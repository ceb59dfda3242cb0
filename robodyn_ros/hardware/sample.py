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
One cycle of joint-space state, whatever the hardware behind it.

:class:`JointSample` is what a drive backend (:mod:`.backend`) hands the
hardware interface once per cycle: the driver board's state report, or the
TPDOs of a CiA 402 drive set after one SYNC, converted to joint space.
"""

from dataclasses import dataclass

import numpy as np

#: Status bit 0: the outputs are on (the board's ``Status.ENABLED``; a CiA 402
#: drive set sets it when every drive is in Operation enabled).
STATUS_ENABLED = 0x01
#: Status bit 1: configured (the board's ``Status.CONFIGURED``).
STATUS_CONFIGURED = 0x02


@dataclass(frozen=True, eq=False)
class JointSample:
    """
    One cycle's state in joint space.

    Attributes
    ----------
    board_time_us : int
        Hardware time of the sample [us] (the board's clock, or the SYNC
        time of a drive set).
    host_time : float
        Host monotonic time when its bytes were received [s].
    position, velocity, acceleration : numpy.ndarray
        Position and velocity, and an acceleration estimate, (n,)
        [rad, rad/s, rad/s^2 or m, m/s, m/s^2].
    effort : numpy.ndarray
        Joint torque from the measured currents or torques, (n,) [N m or N].
    currents : numpy.ndarray
        Motor currents, measured or derived from the motor torque, (n,) [A].
    status, faults : int
        Status bits (:data:`STATUS_ENABLED`, :data:`STATUS_CONFIGURED`, and
        the backend's own) and fault bits (the board's latched faults, or
        one bit per drive of a drive set).
    latency_us : int
        Time between the state a set-point was computed from and its
        application (-1 before the first set-point) [us].
    skipped : int
        Older reports dropped because the host fell behind.

    """

    board_time_us: int
    host_time: float
    position: np.ndarray
    velocity: np.ndarray
    acceleration: np.ndarray
    effort: np.ndarray
    currents: np.ndarray
    status: int
    faults: int
    latency_us: int
    skipped: int

    @property
    def enabled(self):
        """Whether the outputs are on (bool)."""
        return bool(self.status & STATUS_ENABLED)
