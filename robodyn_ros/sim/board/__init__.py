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
The simulated motor driver board behind the real byte protocol (no rclpy).

:mod:`.firmware` is the board's protocol state machine with its limits
and watchdog, :mod:`.impedance` the PD it closes at its inner rate in
impedance mode; :mod:`.axes` the power stage, transmission, brakes and
sensors around the Pinocchio plant; :mod:`.faults` the fault injection and
its control channel; :mod:`.config` the board's settings file;
:mod:`.endpoints` the board ends of the pty and UDP links; and
:mod:`.simulator` puts them together as ``robodyn sim-board``.
"""
