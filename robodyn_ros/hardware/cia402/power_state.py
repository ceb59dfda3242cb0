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
The CiA 402 power state machine: states, statusword and controlword.

==========================  ===================  =========================
state                       statusword pattern   power stage and brake
==========================  ===================  =========================
Not ready to switch on      xxxx xxxx x0xx 0000  off, brake on
Switch on disabled          xxxx xxxx x1xx 0000  off, brake on
Ready to switch on          xxxx xxxx x01x 0001  off, brake on
Switched on                 xxxx xxxx x01x 0011  off, brake on
Operation enabled           xxxx xxxx x01x 0111  on, brake released
Quick stop active           xxxx xxxx x00x 0111  stopping, then brake
Fault reaction active       xxxx xxxx x0xx 1111  fault reaction
Fault                       xxxx xxxx x0xx 1000  off, brake on
==========================  ===================  =========================

Controlword commands (bit 0 switch on, 1 enable voltage, 2 quick stop
(active low), 3 enable operation, 7 fault reset on a rising edge):
shutdown ``0x06``, switch on ``0x07``, enable operation ``0x0F``, disable
voltage ``0x00``, quick stop ``0x02``, disable operation ``0x07``, fault
reset ``0x80``. :func:`next_state` is the drive's side of the machine (the
simulated drive runs it); :func:`state_of` is the host's reading.
"""

import enum


class PowerState(enum.Enum):
    """States of the CiA 402 power state machine."""

    NOT_READY = 'not ready to switch on'
    SWITCH_ON_DISABLED = 'switch on disabled'
    READY_TO_SWITCH_ON = 'ready to switch on'
    SWITCHED_ON = 'switched on'
    OPERATION_ENABLED = 'operation enabled'
    QUICK_STOP_ACTIVE = 'quick stop active'
    FAULT_REACTION_ACTIVE = 'fault reaction active'
    FAULT = 'fault'


P = PowerState

#: Statusword bits.
READY_TO_SWITCH_ON = 0x0001
SWITCHED_ON = 0x0002
OPERATION_ENABLED = 0x0004
FAULT = 0x0008
VOLTAGE_ENABLED = 0x0010
QUICK_STOP = 0x0020
SWITCH_ON_DISABLED = 0x0040
WARNING = 0x0080
REMOTE = 0x0200
TARGET_REACHED = 0x0400

#: Statusword low bits of each state, with the mask that identifies it.
_PATTERNS = (
    (0x4F, 0x00, P.NOT_READY),
    (0x4F, 0x40, P.SWITCH_ON_DISABLED),
    (0x6F, 0x21, P.READY_TO_SWITCH_ON),
    (0x6F, 0x23, P.SWITCHED_ON),
    (0x6F, 0x27, P.OPERATION_ENABLED),
    (0x6F, 0x07, P.QUICK_STOP_ACTIVE),
    (0x4F, 0x0F, P.FAULT_REACTION_ACTIVE),
    (0x4F, 0x08, P.FAULT),
)
_BITS = {state: bits for _, bits, state in _PATTERNS}

#: Controlword commands.
SHUTDOWN = 0x0006
SWITCH_ON = 0x0007
ENABLE_OPERATION = 0x000F
DISABLE_VOLTAGE = 0x0000
QUICK_STOP_COMMAND = 0x0002
DISABLE_OPERATION = 0x0007
FAULT_RESET = 0x0080


def state_of(statusword):
    """
    Read the power state from a statusword.

    Parameters
    ----------
    statusword : int
        Object 0x6041.

    Returns
    -------
    PowerState or None
        The state (None for a pattern of no state).

    """
    for mask, bits, state in _PATTERNS:
        if statusword & mask == bits:
            return state
    return None


def statusword(state, voltage=True, remote=True, warning=False):
    """
    Build the statusword a drive reports in a state.

    Parameters
    ----------
    state : PowerState
        The state.
    voltage : bool
        Bit 4, voltage enabled (the power stage's supply is on).
    remote : bool
        Bit 9, remote (the controlword is obeyed).
    warning : bool
        Bit 7.

    Returns
    -------
    int
        The statusword.

    """
    word = _BITS[state]
    if state in (P.READY_TO_SWITCH_ON, P.SWITCHED_ON, P.OPERATION_ENABLED):
        word |= QUICK_STOP        # quick stop not active
    if voltage and state not in (P.NOT_READY, P.SWITCH_ON_DISABLED):
        word |= VOLTAGE_ENABLED
    if remote:
        word |= REMOTE
    if warning:
        word |= WARNING
    return word


def command_of(controlword):
    """
    Name the command of a controlword (fault reset is an edge: see :func:`next_state`).

    Parameters
    ----------
    controlword : int
        Object 0x6040.

    Returns
    -------
    str
        ``'shutdown'``, ``'switch_on'``, ``'enable_operation'``,
        ``'disable_voltage'`` or ``'quick_stop'``.

    """
    if controlword & 0x0002 == 0:
        return 'disable_voltage'
    if controlword & 0x0006 == 0x0002:
        return 'quick_stop'
    if controlword & 0x0007 == 0x0006:
        return 'shutdown'
    if controlword & 0x000F == 0x0007:
        return 'switch_on'
    return 'enable_operation'


def next_state(state, controlword, previous_controlword=0, quick_stop_option=2,
               fault_cleared=True):
    """
    Apply one controlword to a drive's power state (the drive's side).

    Parameters
    ----------
    state : PowerState
        The drive's state.
    controlword : int
        The new controlword.
    previous_controlword : int
        The one before (a fault reset is the rising edge of bit 7).
    quick_stop_option : int
        Object 0x605A: with 5-8 enable operation leaves Quick stop active
        for Operation enabled; with 1-4 the drive itself goes on to Switch
        on disabled once stopped (:func:`after_stop`).
    fault_cleared : bool
        Whether the fault's cause is gone (a reset is refused otherwise).

    Returns
    -------
    PowerState
        The new state.

    """
    if state == P.FAULT:
        if controlword & FAULT_RESET and not previous_controlword & FAULT_RESET:
            return P.SWITCH_ON_DISABLED if fault_cleared else P.FAULT
        return P.FAULT
    if state in (P.FAULT_REACTION_ACTIVE, P.NOT_READY):
        return state
    if controlword & FAULT_RESET:
        return state                 # bit 7 set: no other command is taken
    cmd = command_of(controlword)
    if state == P.QUICK_STOP_ACTIVE:
        if cmd == 'disable_voltage':
            return P.SWITCH_ON_DISABLED
        if cmd == 'enable_operation' and quick_stop_option > 4:
            return P.OPERATION_ENABLED
        return state                 # the drive leaves it itself once stopped (1-4)
    if cmd in ('disable_voltage', 'quick_stop'):
        if state == P.OPERATION_ENABLED and cmd == 'quick_stop':
            return P.QUICK_STOP_ACTIVE
        return P.SWITCH_ON_DISABLED
    if state == P.SWITCH_ON_DISABLED:
        return P.READY_TO_SWITCH_ON if cmd == 'shutdown' else state
    if cmd == 'shutdown':
        return P.READY_TO_SWITCH_ON
    if state == P.READY_TO_SWITCH_ON:
        return P.SWITCHED_ON if cmd in ('switch_on', 'enable_operation') else state
    if cmd == 'switch_on':
        return P.SWITCHED_ON
    return P.OPERATION_ENABLED       # enable operation from Switched on or Operation enabled


def after_stop(state, quick_stop_option):
    """
    Return the state a drive goes to once a quick stop has stopped the motor.

    Parameters
    ----------
    state : PowerState
        The drive's state.
    quick_stop_option : int
        Object 0x605A.

    Returns
    -------
    PowerState
        Switch on disabled from Quick stop active with options 1-4, else ``state``.

    """
    if state == P.QUICK_STOP_ACTIVE and quick_stop_option <= 4:
        return P.SWITCH_ON_DISABLED
    return state


def outputs_on(state):
    """Whether the power stage drives the motor in a state (bool)."""
    return state == P.OPERATION_ENABLED
