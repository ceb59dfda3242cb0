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
What the hardware interface needs from the hardware: the drive backend.

:class:`~.interface.HardwareInterface` runs the same lifecycle, I/O cycle and
fault reaction on any :class:`DriveBackend`: the package's motor driver
board (:class:`~.board.driver.BoardDriver`) or a set of CANopen CiA 402
drives (:class:`~.cia402.driver.Cia402Driver`). A backend

* opens the link, identifies and checks the hardware against the model and
  configures it (:meth:`~DriveBackend.connect`; the outputs stay off);
* paces the cycle and gives one :class:`~.sample.JointSample` per cycle
  (:meth:`~DriveBackend.read`);
* takes one current set-point per joint and cycle
  (:meth:`~DriveBackend.send_currents`; the interface has already applied
  friction compensation and every limit);
* switches the outputs on and off (brakes released only with the outputs
  on) and clears a latched fault only when asked
  (:meth:`~DriveBackend.enable`, :meth:`~DriveBackend.disable`,
  :meth:`~DriveBackend.clear_fault`): never by itself;
* reports link health: a lost link raises
  :class:`~.errors.TransportError` from any call, a slow one shows in
  :attr:`~DriveBackend.last_round_trip`.
"""

import abc


class DriveBackend(abc.ABC):
    """
    The hardware behind one hardware interface (see the module docstring).

    Attributes
    ----------
    kind : str
        What the hardware is called in messages (``'board'``, ``'drives'``;
        never ``'drive'``: messages starting ``drive `` are the fault
        reaction's transitions).
    model : RobotModel
        The host's model (joint order = axis order).
    settings : object
        Its settings; ``watchdog_period`` [s] (how long the hardware runs
        without a set-point before it switches off) and ``connect_timeout``
        [s] are read by the interface.
    axes : AxisParameters
        Gear ratios, torque constants and limits from the model.
    scaling : JointScaling or None
        Torque-to-current conversion after :meth:`connect`.
    current_limit : numpy.ndarray
        Current limit per joint after :meth:`connect` [A].
    identity : object or None
        What :meth:`connect` found (``firmware`` tuple, ``axis_count``,
        ``cycle_period`` [s]).
    last_sample : JointSample or None
        The newest sample.
    last_round_trip : tuple or None
        ``(host time, round trip)`` of the newest link measurement [s].
    stats : object
        Link counters: ``lost_frames``, ``reordered_frames``, ``crc_errors``,
        ``message_errors``, ``reconnects``.
    skipped : int
        Samples dropped because the host fell behind.

    """

    kind = 'hardware'

    @abc.abstractmethod
    def connect(self, timeout=None):
        """Open the link, identify, check and configure; return the identity."""

    @abc.abstractmethod
    def close(self):
        """Close the link (never raises)."""

    @property
    @abc.abstractmethod
    def is_open(self):
        """Whether the link is open (bool)."""

    @abc.abstractmethod
    def enable(self):
        """Switch the outputs on (brakes released once torque is held)."""

    @abc.abstractmethod
    def disable(self):
        """Switch the outputs off (brakes on)."""

    @abc.abstractmethod
    def clear_fault(self):
        """Clear latched faults (the explicit act; refused while a cause persists)."""

    @abc.abstractmethod
    def heartbeat(self):
        """Keep the link alive and measured while no set-points are sent."""

    @abc.abstractmethod
    def read(self, timeout):
        """Return the next cycle's JointSample, or None (raises TransportError)."""

    @abc.abstractmethod
    def send_currents(self, sample, currents):
        """Send one cycle's current set-points [A], computed from ``sample``."""

    @abc.abstractmethod
    def fault_text(self, faults):
        """Describe a sample's fault bits in one line (str)."""

    def describe(self):
        """Describe the connected hardware in one line (str)."""
        return f'{self.kind}: {self.model.n} axes'

    def health_values(self):
        """Return backend-specific diagnostics values (dict)."""
        return {}
