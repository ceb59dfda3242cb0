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
Configure one CiA 402 drive for cyclic synchronous torque, and check it.

:func:`configure_drive` takes a drive (a ``canopen`` :class:`RemoteNode`)
from whatever state it is in to a checked configuration:

1. it answers an SDO read of the device type within the connect timeout,
   and is a CiA 402 drive that supports cyclic synchronous torque (0x6502
   bit 9);
2. NMT pre-operational (no PDOs while the mapping changes);
3. SDO set-up, each value read back and compared (a drive that keeps
   another value is a configure error naming the object, the value written
   and the value read): modes of operation 0x6060 = 10, rated torque
   0x6076, max torque 0x6072, quick stop option 0x605A = 2, abort connection
   option 0x6007 = 3 (quick stop on a communication error), communication
   cycle period 0x1006, heartbeat producer 0x1017, heartbeat consumer 0x1016
   watching the host;
4. PDO mapping through canopen's PDO maps (RPDO1, TPDO1, TPDO2 as
   :mod:`.objects` lays them out; the other PDOs disabled), then every
   communication and mapping entry read back;
5. encoder resolution 0x608F against the expected one, and the mode shown
   in 0x6061;
6. NMT operational, confirmed by the drive's heartbeat.

A drive in Fault stays in Fault: configure never resets a fault.
"""

from dataclasses import dataclass
import time

import canopen
from canopen.objectdictionary import ODVariable
from canopen.sdo import SdoAbortedError, SdoCommunicationError

from . import objects as o
from .errors import DriveConfigError, DriveRefused, DriveTimeout, where
from .power_state import state_of


@dataclass(frozen=True)
class DriveIdentity:
    """
    What configure found on one drive.

    Attributes
    ----------
    node_id : int
        Its node id.
    name : str
        Manufacturer device name (0x1008).
    software : str
        Software version (0x100A).
    vendor_id, product_code : int
        Identity object 0x1018.
    encoder_counts : int
        Encoder increments per motor revolution (0x608F).
    state : str
        Power state at configure.

    """

    node_id: int
    name: str
    software: str
    vendor_id: int
    product_code: int
    encoder_counts: int
    state: str


class DriveSetup:
    """
    SDO access to one drive with its name in every error.

    Parameters
    ----------
    node : canopen.RemoteNode
        The drive.
    joint : str
        Its joint's name.
    timeout : float
        SDO answer timeout [s].

    """

    def __init__(self, node, joint, timeout):
        self.node = node
        self.joint = joint
        self.where = where(node.id, joint)
        node.sdo.RESPONSE_TIMEOUT = float(timeout)

    def _name(self, index, subindex):
        try:
            obj = self.node.object_dictionary[index]
            if not isinstance(obj, ODVariable):
                obj = obj[subindex]
        except KeyError:
            return f'0x{index:04X}:{subindex}'
        return f'0x{index:04X}:{subindex} {obj.name.lower()}'

    def _var(self, index, subindex):
        obj = self.node.sdo[index]
        return obj if isinstance(obj.od, ODVariable) else obj[subindex]

    def read(self, index, subindex=0):
        """Read one object (raw value); errors name the drive and the object."""
        try:
            return self._var(index, subindex).raw
        except SdoAbortedError as exc:
            raise DriveRefused(f'{self.where} refused to read {self._name(index, subindex)}: '
                               f'SDO abort 0x{exc.code:08X} ({exc})') from None
        except SdoCommunicationError as exc:
            raise DriveTimeout(f'{self.where} did not answer reading '
                               f'{self._name(index, subindex)}: {exc}') from None

    def write(self, index, value, subindex=0, check=True):
        """
        Write one object and read it back.

        Raises
        ------
        DriveRefused
            SDO abort (the drive refused the value).
        DriveConfigError
            The value read back differs.
        DriveTimeout
            No answer.

        """
        try:
            self._var(index, subindex).raw = value
        except SdoAbortedError as exc:
            raise DriveRefused(f'{self.where} refused {self._name(index, subindex)} = {value}: '
                               f'SDO abort 0x{exc.code:08X} ({exc})') from None
        except SdoCommunicationError as exc:
            raise DriveTimeout(f'{self.where} did not answer writing '
                               f'{self._name(index, subindex)}: {exc}') from None
        if check:
            self.expect(index, value, subindex, 'wrote')

    def expect(self, index, value, subindex=0, how='expected'):
        """Read one object and raise DriveConfigError unless it equals ``value``."""
        got = self.read(index, subindex)
        if got != value:
            fmt = (lambda v: f'0x{v:08X}') if index < 0x2000 and isinstance(value, int) \
                and value > 0xFFFF else str
            raise DriveConfigError(f'{self.where}: {self._name(index, subindex)}: {how} '
                                   f'{fmt(value)}, read back {fmt(got)}')


def _map_pdo(setup, pdo_map, cob_id, entries, event_timer_ms=None):
    """Write one PDO's mapping with canopen's PDO map (``entries`` empty: disable it)."""
    pdo_map.clear()
    for index, subindex, _ in entries:
        pdo_map.add_variable(index, subindex)
    pdo_map.cob_id = cob_id
    pdo_map.enabled = bool(entries)
    if entries:
        pdo_map.trans_type = o.SYNCHRONOUS
        if event_timer_ms is not None:
            pdo_map.event_timer = event_timer_ms
    try:
        pdo_map.save()
    except SdoAbortedError as exc:
        raise DriveRefused(f'{setup.where} refused the mapping of PDO 0x{cob_id:03X}: SDO abort '
                           f'0x{exc.code:08X} ({exc})') from None
    except SdoCommunicationError as exc:
        raise DriveTimeout(f'{setup.where} did not answer mapping PDO 0x{cob_id:03X}: '
                           f'{exc}') from None
    network = setup.node.network
    if entries and cob_id in network.subscribers:   # the cycle decodes the PDOs itself
        network.unsubscribe(cob_id, pdo_map.on_message)


def _check_pdo(setup, comm, mapping, cob_id, entries, event_timer_ms=None):
    """Read one PDO's communication and mapping entries back."""
    if not entries:
        if not setup.read(comm, 1) & 0x80000000:
            raise DriveConfigError(f'{setup.where}: PDO 0x{comm:04X} should be disabled')
        return
    setup.expect(comm, cob_id, 1, 'mapped COB-ID')
    setup.expect(comm, o.SYNCHRONOUS, 2, 'transmission type')
    if event_timer_ms is not None:
        setup.expect(comm, event_timer_ms, 5, 'event timer [ms]')
    setup.expect(mapping, len(entries), 0, 'mapped objects')
    for k, entry in enumerate(entries, start=1):
        setup.expect(mapping, o.mapping_entry(*entry), k, 'mapping entry')


def configure_drive(node, joint, settings, rated_torque_mnm, max_torque_permille,
                    expected_counts=None):
    """
    Configure and check one drive (see the module docstring).

    Parameters
    ----------
    node : canopen.RemoteNode
        The drive, on a connected network.
    joint : str
        Its joint's name.
    settings : Cia402Settings
        Timing, heartbeats, master id.
    rated_torque_mnm : int
        Rated torque to write to 0x6076 [mN m].
    max_torque_permille : int
        Torque limit to write to 0x6072 [per mille of the rated torque].
    expected_counts : int, optional
        Encoder increments per motor revolution the joint must have.

    Returns
    -------
    DriveIdentity
        What was found.

    Raises
    ------
    DriveTimeout, DriveRefused, DriveConfigError
        Naming the drive, the object and the values.

    """
    s = settings
    setup = DriveSetup(node, joint, s.request_timeout)
    deadline = time.monotonic() + s.connect_timeout
    while True:
        try:
            device = setup.read(o.DEVICE_TYPE)
            break
        except DriveTimeout:
            if time.monotonic() > deadline:
                raise DriveTimeout(f'{setup.where} does not answer (no SDO reply within '
                                   f'{s.connect_timeout:g} s): check the node id, the bitrate '
                                   'and the wiring') from None
    if device & 0xFFFF != o.DEVICE_TYPE_402:
        raise DriveConfigError(f'{setup.where} is not a CiA 402 drive (device type '
                               f'0x{device:08X})')
    node.nmt.state = 'PRE-OPERATIONAL'
    modes = setup.read(0x6502)
    if not modes & (1 << (o.MODE_CST - 1)):
        raise DriveConfigError(f'{setup.where} does not support cyclic synchronous torque '
                               f'(0x6502 supported drive modes 0x{modes:08X})')
    setup.write(o.MODES_OF_OPERATION, o.MODE_CST)
    setup.write(o.RATED_TORQUE, int(rated_torque_mnm))
    setup.write(o.MAX_TORQUE, int(max_torque_permille))
    setup.write(o.QUICK_STOP_OPTION, o.QUICK_STOP_DISABLE)
    setup.write(o.ABORT_CONNECTION, o.ABORT_QUICK_STOP)
    setup.write(o.CYCLE_PERIOD, int(round(s.cycle_period * 1e6)))
    setup.write(o.PRODUCER_HEARTBEAT, int(round(s.heartbeat_period * 1e3)))
    setup.write(o.CONSUMER_HEARTBEAT, o.consumer_entry(s.master_id,
                                                       int(round(s.heartbeat_timeout * 1e3))), 1)
    k = node.id
    watchdog_ms = int(round(s.watchdog_period * 1e3))
    layout = ((node.rpdo[1], o.RPDO_COMM, o.RPDO_MAP, o.rpdo1_cob_id(k), o.RPDO1, watchdog_ms),
              (node.rpdo[2], o.RPDO_COMM + 1, o.RPDO_MAP + 1, 0x300 + k, (), None),
              (node.tpdo[1], o.TPDO_COMM, o.TPDO_MAP, o.tpdo1_cob_id(k), o.TPDO1, None),
              (node.tpdo[2], o.TPDO_COMM + 1, o.TPDO_MAP + 1, o.tpdo2_cob_id(k), o.TPDO2, None),
              (node.tpdo[3], o.TPDO_COMM + 2, o.TPDO_MAP + 2, 0x380 + k, (), None),
              (node.tpdo[4], o.TPDO_COMM + 3, o.TPDO_MAP + 3, 0x480 + k, (), None))
    for pdo_map, _, _, cob_id, entries, timer in layout:
        _map_pdo(setup, pdo_map, cob_id, entries, timer)
    for _, comm, mapping, cob_id, entries, timer in layout:
        _check_pdo(setup, comm, mapping, cob_id, entries, timer)
    increments = setup.read(o.ENCODER_RESOLUTION, 1)
    revolutions = setup.read(o.ENCODER_RESOLUTION, 2)
    if not revolutions or increments % revolutions:
        raise DriveConfigError(f'{setup.where}: encoder resolution 0x608F {increments} '
                               f'increments per {revolutions} revolutions is not a whole number '
                               'per revolution')
    counts = increments // revolutions
    if expected_counts and counts != int(expected_counts):
        raise DriveConfigError(f'{setup.where}: encoder has {counts} increments per motor '
                               f'revolution, expected {int(expected_counts)}')
    setup.expect(o.MODES_DISPLAY, o.MODE_CST, 0, 'modes of operation display: expected')
    state = state_of(setup.read(o.STATUSWORD))
    identity = DriveIdentity(k, str(setup.read(o.DEVICE_NAME)),
                             str(setup.read(o.SOFTWARE_VERSION)), setup.read(o.IDENTITY, 1),
                             setup.read(o.IDENTITY, 2), counts,
                             state.value if state else 'unknown')
    return identity


def start_drive(node, joint, timeout):
    """
    Put a configured drive in NMT operational and wait for its heartbeat to say so.

    Parameters
    ----------
    node : canopen.RemoteNode
        The drive.
    joint : str
        Its joint's name.
    timeout : float
        Longest wait [s].

    Raises
    ------
    DriveTimeout
        No operational heartbeat in time.

    """
    node.nmt.state = 'OPERATIONAL'
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if node.nmt.wait_for_heartbeat(max(0.01, deadline - time.monotonic())) \
                    == 'OPERATIONAL':
                return
        except canopen.nmt.NmtError:
            break
    raise DriveTimeout(f'{where(node.id, joint)} sent no operational heartbeat within '
                       f'{timeout:g} s after NMT start (state {node.nmt.state})')
