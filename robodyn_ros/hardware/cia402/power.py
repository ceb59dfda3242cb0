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
The host walking a drive set through the CiA 402 power state machine.

Each function runs whole cycles of the driver (SYNC, TPDOs, then RPDOs with
zero target torque and each drive's next controlword) until every drive is
where it should be, or raises naming the drives and their states:

* :func:`enable`: Switch on disabled -> (shutdown) Ready to switch on ->
  (switch on) Switched on -> (enable operation) Operation enabled; a drive
  in Quick stop active is taken to Switch on disabled first; a drive in
  Fault refuses (reset first);
* :func:`disable`: shutdown, to Ready to switch on (the brake applies);
* :func:`clear_fault`: controlword bit 7 low for one cycle, then high (the
  rising edge), to the faulted drives only; a drive still in Fault after
  that keeps its cause: refused.
"""

import time

import numpy as np

from .errors import DriveRefused, DriveTimeout, where
from .power_state import (DISABLE_VOLTAGE, ENABLE_OPERATION, FAULT_RESET, P, SHUTDOWN,
                          SWITCH_ON)


def walk(driver, request, step, done, timeout=None):
    """
    Run cycles with zero torque, each drive given ``step(i, state)``, until ``done(states)``.

    Parameters
    ----------
    driver : Cia402Driver
        The connected drive set.
    request : str
        What is asked (for the error).
    step : callable
        ``step(i, state)`` gives drive ``i``'s next controlword.
    done : callable
        ``done(states)`` tells when every drive is there.
    timeout : float, optional
        Longest wait [s] (default ten request timeouts).

    Raises
    ------
    DriveTimeout
        Not done in time.

    """
    timeout = 10.0 * driver.settings.request_timeout if timeout is None else timeout
    deadline = time.monotonic() + timeout
    zero = np.zeros(driver.model.n, dtype=int)
    while True:
        raw = driver.exchange()
        if raw is not None:
            if done(driver.states):
                driver.send_raw(zero)
                return
            for i, st in enumerate(driver.states):
                driver.controlword[i] = step(i, st)
            driver.send_raw(zero)
        if time.monotonic() > deadline:
            text = ', '.join(f'{where(k, driver.model.joint_names[i])} '
                             f'{st.value if st else "unknown"}'
                             for i, (k, st) in enumerate(zip(driver.settings.node_ids,
                                                             driver.states)))
            raise DriveTimeout(f'{request}: the drives did not get there within {timeout:g} s '
                               f'({text})')


def _refuse_faulted(driver, request):
    bad = driver.faulted()
    if bad:
        raise DriveRefused(f'{request} refused: ' + driver.fault_text(sum(1 << i for i in bad))
                           + '; reset the fault first')


def enable(driver):
    """
    Walk every drive to Operation enabled.

    Parameters
    ----------
    driver : Cia402Driver
        The connected drive set.

    Raises
    ------
    DriveRefused
        A drive is in Fault.
    DriveTimeout
        A drive does not follow.

    """
    if driver.states[0] is None:
        driver.exchange()
    _refuse_faulted(driver, 'enable')

    def step(i, st):
        if st in (P.FAULT, P.FAULT_REACTION_ACTIVE):
            _refuse_faulted(driver, 'enable')
        if st == P.SWITCH_ON_DISABLED:
            return SHUTDOWN
        if st == P.READY_TO_SWITCH_ON:
            return SWITCH_ON
        if st == P.QUICK_STOP_ACTIVE:
            return DISABLE_VOLTAGE
        return ENABLE_OPERATION

    walk(driver, 'enable', step, lambda states: all(s == P.OPERATION_ENABLED for s in states))
    driver.controlword[:] = ENABLE_OPERATION


def disable(driver):
    """
    Take every drive out of Operation enabled (Ready to switch on, brakes on).

    Parameters
    ----------
    driver : Cia402Driver
        The connected drive set.

    Raises
    ------
    DriveTimeout
        A drive stays enabled.

    """
    off = (P.READY_TO_SWITCH_ON, P.SWITCH_ON_DISABLED, P.FAULT, P.NOT_READY)

    def step(i, st):
        if st == P.SWITCH_ON_DISABLED:
            return DISABLE_VOLTAGE
        if st in (P.FAULT, P.FAULT_REACTION_ACTIVE):
            return driver.controlword[i]
        return SHUTDOWN

    walk(driver, 'disable', step, lambda states: all(s in off for s in states))


def clear_fault(driver):
    """
    Reset the faulted drives (rising edge of controlword bit 7).

    Parameters
    ----------
    driver : Cia402Driver
        The connected drive set.

    Raises
    ------
    DriveRefused
        A drive stays in Fault (its cause is still there).

    """
    if driver.states[0] is None:
        driver.exchange()
    faulted = driver.faulted()
    if not faulted:
        return
    text = driver.fault_text(sum(1 << i for i in faulted))
    zero = np.zeros(driver.model.n, dtype=int)
    driver.controlword[faulted] = DISABLE_VOLTAGE
    driver.exchange()
    driver.send_raw(zero)
    driver.controlword[faulted] = FAULT_RESET
    try:
        walk(driver, 'fault reset', lambda i, st: driver.controlword[i],
             lambda states: not any(states[i] in (P.FAULT, P.FAULT_REACTION_ACTIVE)
                                    for i in faulted),
             timeout=max(0.2, 20 * driver.settings.cycle_period))
    except DriveTimeout:
        raise DriveRefused(f'fault reset refused, the cause is still there: {text}') from None
    finally:
        driver.controlword[faulted] = DISABLE_VOLTAGE
    driver.exchange()
    driver.send_raw(zero)
    driver.forget_emcy(faulted)
