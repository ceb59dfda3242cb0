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
The hardware side of the host: the interface, its safety and the board link.

The lifecycle and I/O cycle (:mod:`.interface`), the fault reaction and
position hold, the command channel and output limits, and the motor driver
board's host side in :mod:`.board` (messages, codec, framing, transports,
client, driver); the simulated board lives in :mod:`robodyn_ros.sim.board`.
Plain Python (no rclpy): the ``hardware_interface`` node adapts
:class:`~robodyn_ros.hardware.interface.HardwareInterface` to ROS. See
``docs/driver_board_protocol.md`` and ``docs/hardware.md``.
"""
