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
The package's own motor driver board, host side (no rclpy).

Its byte protocol in layers: :mod:`.messages` (every record by name: the
host's :mod:`.requests`, the board's :mod:`.reports`, each packing and
unpacking its own payload, built from :mod:`.wire`: ids, bit fields, wire
units, the record base and registry), :mod:`.codec` (payloads by message
id), :mod:`.framing` and :mod:`.crc` (frames),
:mod:`.transports` (serial and UDP links), :mod:`.client` (requests and the
state stream) and :mod:`.driver` (the board in joint space: connect, check,
configure, read samples, send currents or an impedance command). The
simulated board that answers it lives in :mod:`robodyn_ros.sim.board`; the
protocol is described in ``docs/driver_board_protocol.md``.
"""
