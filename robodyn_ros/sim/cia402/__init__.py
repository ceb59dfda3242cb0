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
A simulated CiA 402 drive set: one process, one object dictionary per joint.

``robodyn sim-drive ROBOT`` serves one drive per joint on a CAN bus
(``udp_multicast`` inside an isolated network namespace, or ``virtual``),
each a ``canopen`` :class:`LocalNode` built from the package's EDS, around
the same plant, friction, brakes and fault injection as ``robodyn
sim-board`` (:mod:`robodyn_ros.sim.board.axes`, :mod:`robodyn_ros.sim.board.faults`):

* :mod:`.config`: the options;
* :mod:`.faults`: the drive-specific faults added to the board's;
* :mod:`.drive`: one drive: SDO server with checked writes, the CiA 402
  power state machine as a drive runs it, PDOs from its own mapping,
  heartbeat consumer, RPDO timeout, EMCY;
* :mod:`.drive_set`: the process: bus loop, SYNC, plant, control channel.
"""
