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
One simulated CiA 402 drive: object dictionary, power state machine, PDOs.

A :class:`SimDrive` is one joint's drive as its firmware would behave:

* its object dictionary is a ``canopen`` :class:`LocalNode` built from the
  package's EDS; SDO writes are checked (only cyclic synchronous torque is
  a mode it has; PDO mappings must map mappable objects and fit in 8
  bytes; the controlword moves the power state machine), SDO reads of the
  live objects (statusword, actual values, error code) give the drive's
  state;
* the power state machine of :mod:`robodyn_ros.hardware.cia402.power_state`
  runs on the controlword of each SYNC's RPDO (synchronous PDOs: what
  arrived between two SYNCs takes effect at the next one); quick stop
  applies the brake at once and, after ``quick_stop_time``, goes on to
  Switch on disabled (quick stop option 2); a fault goes through Fault
  reaction active (brake) to Fault and stays there until a fault reset
  with the cause gone;
* the brake is released ``brake_delay`` after Operation enabled, once the
  power stage holds torque;
* supervision: RPDO timeout (RPDO1 event timer) and heartbeat consumer
  (0x1016, watching the host) trigger the abort connection option 0x6007
  (3: quick stop) with an EMCY; an over-current trips the drive;
* the TPDOs are packed from its own mapping (0x1A00..), the RPDOs unpacked
  with 0x1600.., whatever the host wrote there.
"""

import struct
import time

import canopen
from canopen.objectdictionary import ODVariable
from canopen.sdo import SdoAbortedError

from ...hardware.cia402 import objects as o
from ...hardware.cia402.power_state import after_stop, next_state, outputs_on, P, statusword

#: SDO abort codes used by the drive.
VALUE_RANGE = 0x06090030
NOT_MAPPABLE = 0x06040041
PDO_LENGTH = 0x06040042
#: Objects whose reads give the drive's live state.
LIVE = (o.STATUSWORD, o.POSITION_ACTUAL, o.VELOCITY_ACTUAL, o.TORQUE_ACTUAL, o.MODES_DISPLAY,
        o.ERROR_CODE, o.ERROR_REGISTER, o.CONTROLWORD, o.TARGET_TORQUE)


class SimDrive:
    """
    One joint's simulated drive (see the module docstring).

    Parameters
    ----------
    axis : int
        Joint index.
    node_id : int
        CANopen node id.
    eds : str
        EDS file of its object dictionary.
    injector : DriveFaultInjector
        The set's active faults.
    encoder_counts : int
        Increments per motor revolution (0x608F).
    software : str
        Software version (0x100A).
    quick_stop_time, brake_delay : float
        See :class:`~.config.SimDriveConfig` [s].

    Attributes
    ----------
    state : PowerState
        Power state.
    position, velocity, torque : int
        Actual values of the last sample [increments, increments/s, per mille].

    """

    def __init__(self, axis, node_id, eds, injector, encoder_counts, software='1.0.0',
                 quick_stop_time=0.02, brake_delay=0.004):
        self.axis = axis
        self.node = canopen.LocalNode(node_id, eds)
        self._cache = {}
        #: Incremented at every SDO write (the set re-reads its settings).
        self.version = 0
        self.node.data_store[o.SOFTWARE_VERSION] = {0: software.encode('ascii')}
        self.od = self.node.object_dictionary
        self._set(o.ENCODER_RESOLUTION, int(encoder_counts), 1)
        self._set(o.ENCODER_RESOLUTION, 1, 2)
        self.node.add_read_callback(self._on_read)
        self.node.add_write_callback(self._on_write)
        self.injector = injector
        self.quick_stop_time = float(quick_stop_time)
        self.brake_delay = float(brake_delay)
        self.state = P.SWITCH_ON_DISABLED
        self.since = time.monotonic()
        self.controlword = 0
        self.target = 0
        self._pending = None
        self.position = self.velocity = self.torque = 0
        self.error_code = 0
        self.fault_cause = ''
        self.last_rpdo = time.monotonic()
        self.consumer = None            # (node id, time [s]) watched
        self.last_host = None
        self.host_lost = False
        self.counters = dict.fromkeys(('syncs', 'rpdos', 'bad_rpdos', 'rpdo_timeouts',
                                       'host_losses', 'emcys', 'faults'), 0)
        self._tpdos = None
        self._rpdos = None

    @property
    def node_id(self):
        """Give the node id (int)."""
        return self.node.id

    # ------------------------------------------------------------------ OD access
    def _obj(self, index, subindex=0):
        obj = self.od[index]
        return obj if isinstance(obj, ODVariable) else obj[subindex]

    def _set(self, index, value, subindex=0):
        self.node.data_store.setdefault(index, {})[subindex] = \
            self._obj(index, subindex).encode_raw(value)
        self._cache.pop((index, subindex), None)

    def stored(self, index, subindex=0):
        """
        Give the value stored in the object dictionary (not the live one).

        Parameters
        ----------
        index, subindex : int
            The object.

        Returns
        -------
        int or str
            The stored value, or the EDS default.

        """
        key = (index, subindex)
        value = self._cache.get(key)
        if value is None:
            obj = self._obj(index, subindex)
            raw = self.node.data_store.get(index, {}).get(subindex)
            value = obj.default if raw is None else obj.decode_raw(raw)
            self._cache[key] = value
        return value

    def _live(self, index):
        if index == o.STATUSWORD:
            return statusword(self.state, warning=self.host_lost)
        if index == o.POSITION_ACTUAL:
            return self.position
        if index == o.VELOCITY_ACTUAL:
            return self.velocity
        if index == o.TORQUE_ACTUAL:
            return self.torque
        if index == o.MODES_DISPLAY:
            return self.stored(o.MODES_OF_OPERATION)
        if index == o.ERROR_CODE:
            return self.error_code
        if index == o.ERROR_REGISTER:
            return 0x01 if self.state in (P.FAULT, P.FAULT_REACTION_ACTIVE) else 0
        if index == o.CONTROLWORD:
            return self.controlword
        return self.target

    def _on_read(self, index, subindex, od):
        if index in LIVE:
            return self._live(index)
        lie = self.injector.on('wrong_readback', self.axis)
        if lie is not None and lie['index'] == index:
            value = self.stored(index, subindex)
            return value + 1 if isinstance(value, int) else value
        return None

    def _on_write(self, index, subindex, od, data):
        value = od.decode_raw(data)
        self._cache.pop((index, subindex), None)    # stored after the callbacks
        self.version += 1
        if index == o.MODES_OF_OPERATION:
            if value != o.MODE_CST or self.injector.on('refuse_mode', self.axis):
                raise SdoAbortedError(VALUE_RANGE)
        elif index == o.CONTROLWORD:
            self._command(value)
        elif index == o.TARGET_TORQUE:
            self.target = value
        elif index == o.CONSUMER_HEARTBEAT and subindex == 1:
            producer, ms = (value >> 16) & 0x7F, value & 0xFFFF
            self.consumer = (producer, ms * 1e-3) if producer and ms else None
            self.last_host = None
            self.host_lost = False
        elif o.RPDO_MAP <= index < o.RPDO_MAP + 4 or o.TPDO_MAP <= index < o.TPDO_MAP + 4:
            self._check_mapping(index, subindex, value)
        if o.RPDO_COMM <= index < o.TPDO_MAP + 4:
            self._tpdos = self._rpdos = None      # compile the layout again

    def _check_mapping(self, index, subindex, value):
        if subindex == 0:
            bits = 0
            for k in range(1, value + 1):
                bits += o.mapping_fields(self.stored(index, k))[2]
            if value > 8 or bits > 64:
                raise SdoAbortedError(PDO_LENGTH)
            return
        if value == 0:
            return
        obj_index, obj_sub, bits = o.mapping_fields(value)
        try:
            obj = self._obj(obj_index, obj_sub)
        except KeyError:
            raise SdoAbortedError(NOT_MAPPABLE) from None
        if not obj.pdo_mappable or len(obj) != bits:
            raise SdoAbortedError(NOT_MAPPABLE)

    # ------------------------------------------------------------------ PDO layout
    def _layout(self, comm, mapping):
        out = []
        for k in range(4 if comm == o.TPDO_COMM else 2):
            cob = self.stored(comm + k, 1)
            if cob & 0x80000000 or self.stored(comm + k, 2) != o.SYNCHRONOUS:
                continue
            entries = [o.mapping_fields(self.stored(mapping + k, j))
                       for j in range(1, self.stored(mapping + k, 0) + 1)]
            objs = [self._obj(i, s) for i, s, _ in entries]
            fmt = struct.Struct('<' + ''.join(obj.STRUCT_TYPES[obj.data_type].format.lstrip('<')
                                              for obj in objs))
            out.append((cob & 0x7FF, k, [i for i, _, _ in entries], fmt))
        return out

    def tpdo_frames(self):
        """
        Pack the TPDOs of this SYNC from the drive's mapping.

        Returns
        -------
        list of tuple
            ``(cob_id, data)`` per enabled synchronous TPDO.

        """
        if self._tpdos is None:
            self._tpdos = self._layout(o.TPDO_COMM, o.TPDO_MAP)
        out = []
        for cob, k, indexes, fmt in self._tpdos:
            data = fmt.pack(*[self._live(index) if index in LIVE else self.stored(index)
                              for index in indexes])
            if k == 0 and self.injector.on('bad_tpdo', self.axis):
                data = data[:-1]
            out.append((cob, data))
        return out

    def rpdo_cob_ids(self):
        """Give the COB-IDs of the enabled RPDOs (list of int)."""
        if self._rpdos is None:
            self._rpdos = self._layout(o.RPDO_COMM, o.RPDO_MAP)
        return [cob for cob, _, _, _ in self._rpdos]

    def on_rpdo(self, cob_id, data, now):
        """
        Take one RPDO (it takes effect at the next SYNC).

        Parameters
        ----------
        cob_id : int
            Its COB-ID.
        data : bytes
            Its data.
        now : float
            Time [s, monotonic].

        """
        if self._rpdos is None:
            self.rpdo_cob_ids()
        for cob, _, indexes, fmt in self._rpdos:
            if cob != cob_id:
                continue
            if len(data) < fmt.size:
                self.counters['bad_rpdos'] += 1     # CiA 301: not processed
                return
            self._pending = dict(zip(indexes, fmt.unpack_from(data)))
            self.last_rpdo = now
            self.counters['rpdos'] += 1

    # ------------------------------------------------------------------ state machine
    def _go(self, state, now=None):
        if state != self.state:
            self.state = state
            self.since = time.monotonic() if now is None else now

    def _command(self, controlword):
        prev, self.controlword = self.controlword, controlword
        cleared = not self.fault_present()
        new = next_state(self.state, controlword, prev, self.stored(o.QUICK_STOP_OPTION),
                         cleared)
        if self.state == P.FAULT and new != P.FAULT:
            self.error_code = 0
            self.fault_cause = ''
            self.node.emcy.send(0x0000, 0)      # error reset
        self._go(new)

    def fault_present(self):
        """Whether an injected fault cause is active on this drive (bool)."""
        return bool(self.injector.on('emcy', self.axis) or
                    self.injector.on('over_current', self.axis))

    def fault(self, code, cause, now):
        """
        Fault: Fault reaction active (brake), EMCY, then Fault at the next tick.

        Parameters
        ----------
        code : int
            EMCY error code.
        cause : str
            What happened.
        now : float
            Time [s, monotonic].

        """
        if self.state in (P.FAULT, P.FAULT_REACTION_ACTIVE):
            return
        self.error_code = code
        self.fault_cause = cause
        self._go(P.FAULT_REACTION_ACTIVE, now)
        self.counters['faults'] += 1
        self.counters['emcys'] += 1
        self.node.emcy.send(code, 0x01)

    def _communication_error(self, code, now):
        self.node.emcy.send(code, 0x10)
        self.counters['emcys'] += 1
        option = self.stored(o.ABORT_CONNECTION)
        if self.state not in (P.OPERATION_ENABLED, P.QUICK_STOP_ACTIVE):
            return
        if option == 1:
            self.fault(code, 'communication error', now)
        elif option == 2:
            self._go(P.SWITCH_ON_DISABLED, now)
        elif option == 3:
            self._go(P.QUICK_STOP_ACTIVE, now)

    def on_sync(self, now):
        """
        SYNC: apply the RPDO received since the last one.

        Parameters
        ----------
        now : float
            Time [s, monotonic].

        """
        self.counters['syncs'] += 1
        pending, self._pending = self._pending, None
        if pending is None:
            return
        if o.TARGET_TORQUE in pending:
            self.target = int(pending[o.TARGET_TORQUE])
        if o.CONTROLWORD in pending:
            self._command(int(pending[o.CONTROLWORD]))

    def on_heartbeat(self, producer, now):
        """Note a heartbeat of the node this drive's consumer watches."""
        if self.consumer is not None and producer == self.consumer[0]:
            self.last_host = now
            self.host_lost = False

    def supervise(self, now):
        """
        Run the drive's timers: fault reaction, quick stop, RPDO timeout, heartbeat consumer.

        Parameters
        ----------
        now : float
            Time [s, monotonic].

        """
        if self.state == P.FAULT_REACTION_ACTIVE:
            self._go(P.FAULT, now)
        if self.state == P.QUICK_STOP_ACTIVE and now - self.since >= self.quick_stop_time:
            self._go(after_stop(self.state, self.stored(o.QUICK_STOP_OPTION)), now)
        if self.injector.active:
            emcy = self.injector.on('emcy', self.axis)
            if emcy is not None and self.state != P.FAULT:
                self.fault(emcy['code'], 'injected EMCY', now)
        if self.state == P.OPERATION_ENABLED and not self.stored(o.RPDO_COMM, 1) & 0x80000000 \
                and self.stored(o.RPDO_COMM, 5) and \
                now - self.last_rpdo > self.stored(o.RPDO_COMM, 5) * 1e-3:
            self.counters['rpdo_timeouts'] += 1
            self._communication_error(0x8250, now)
        c = self.consumer
        if c is not None and self.last_host is not None and not self.host_lost \
                and now - self.last_host > c[1]:
            self.host_lost = True
            self.counters['host_losses'] += 1
            self._communication_error(0x8130, now)

    def power_on(self, now):
        """Whether the power stage drives the motor (bool)."""
        return outputs_on(self.state)

    def brake_released(self, now):
        """Whether the brake is released: enabled for ``brake_delay`` (bool)."""
        return outputs_on(self.state) and now - self.since >= self.brake_delay

    def snapshot(self):
        """
        Describe the drive for the control channel.

        Returns
        -------
        dict
            Node id, state, statusword, controlword, target, actual values,
            error code and cause, NMT state, counters.

        """
        return {'node_id': self.node_id, 'state': self.state.value,
                'statusword': statusword(self.state, warning=self.host_lost),
                'controlword': self.controlword, 'target_torque': self.target,
                'position': self.position, 'velocity': self.velocity, 'torque': self.torque,
                'error_code': self.error_code, 'fault_cause': self.fault_cause,
                'nmt': self.node.nmt.state, 'host_lost': self.host_lost,
                'modes_of_operation': self.stored(o.MODES_OF_OPERATION),
                'rated_torque_mnm': self.stored(o.RATED_TORQUE), **self.counters}


__all__ = ['SimDrive']
