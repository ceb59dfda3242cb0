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
CANopen CiA 402 servo drives as a backend of the hardware interface.

One drive per joint, by node id, in cyclic synchronous torque mode (modes
of operation 10) over ``canopen`` on ``python-can``:

* :mod:`.objects`: the object indexes, COB-IDs and the PDO layout both
  sides use;
* :mod:`.power_state`: the CiA 402 power state machine (statusword states,
  controlword commands);
* :mod:`.bus`: the CAN bus (SocketCAN, or ``udp_multicast`` inside an
  isolated network namespace), paced as a real bus and with bad frames
  counted, never raised;
* :mod:`.settings`: the backend's settings;
* :mod:`.configure`: NMT, SDO set-up with read-back, PDO mapping,
  heartbeats;
* :mod:`.cycle`: SYNC, TPDO collection and RPDO output of one cycle;
* :mod:`.driver`: :class:`~.driver.Cia402Driver`, the
  :class:`~robodyn_ros.hardware.backend.DriveBackend` the hardware interface
  drives.

``robodyn_cia402.eds`` is the package's generic drive description (the
simulated drive's object dictionary, and the host's default when a real
drive's own EDS is not given). See ``docs/drives.md``.
"""

import os

#: The package's EDS file of a generic CiA 402 drive.
EDS_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'robodyn_cia402.eds')
