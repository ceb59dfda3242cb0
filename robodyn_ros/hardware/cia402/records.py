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

"""Records of the CiA 402 backend: the drive set's identity, link counters, EMCY reports."""

from dataclasses import dataclass

from . import objects as o


@dataclass(frozen=True)
class DriveSetIdentity:
    """
    What :meth:`Cia402Driver.connect` found.

    Attributes
    ----------
    firmware : tuple of int
        The first drive's software version as numbers (0 where not numeric).
    axis_count : int
        Drives.
    cycle_period : float
        SYNC period [s].
    drives : tuple of DriveIdentity
        Each drive.

    """

    firmware: tuple
    axis_count: int
    cycle_period: float
    drives: tuple


@dataclass
class DriveLinkStats:
    """
    Link counters in the names the hardware interface reports.

    Attributes
    ----------
    lost_frames : int
        TPDOs missing in their window.
    reordered_frames : int
        TPDOs after their window.
    crc_errors : int
        CAN error frames.
    message_errors : int
        Bad frames (undecodable, wrong length).
    reconnects : int
        Reconnections after a lost link.
    emcy : int
        EMCY messages received.

    """

    lost_frames: int = 0
    reordered_frames: int = 0
    crc_errors: int = 0
    message_errors: int = 0
    reconnects: int = 0
    emcy: int = 0


@dataclass(frozen=True)
class EmcyReport:
    """
    One EMCY message.

    Attributes
    ----------
    axis : int
        Joint index of the drive.
    node_id : int
        Its node id.
    code, register : int
        Error code and error register.
    time : float
        Host time [s, monotonic].

    """

    axis: int
    node_id: int
    code: int
    register: int
    time: float

    def __str__(self):
        return f'EMCY {o.emcy_description(self.code)}'
