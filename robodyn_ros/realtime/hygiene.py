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
Real-time set-up of a loop thread: GIL hand-over, priority, CPU affinity, locked memory.

A loop thread shares the interpreter with the node's executor threads. Each
time it comes back from a system call (a socket read, a write, a sleep) it
waits for the GIL, and a busy executor thread gives the GIL up only every
switch interval (5 ms by default): a cycle with ten system calls then takes
tens of milliseconds, and a burst of DDS traffic stops the loop for hundreds
(the board's watchdog trips). :func:`shorten_gil_switch` lowers the interval
for the process (to 0.5 ms): the executor threads lose a little throughput,
the loop gets the GIL within half a millisecond. :func:`setup_process` does
that and freezes the garbage collector's generations, before the link opens.

The freeze is held, not permanent: :func:`freeze_garbage` counts its
holders and :func:`thaw_garbage` (called when a loop stops) gives the
objects back to the collector when the last holder is gone. A frozen
object is never collected, so a node destroyed while frozen would keep its
rclpy context and DDS participant for the rest of the process (a test
session or a launch container with many nodes then piles up participants).

The thread's own settings (:func:`setup_thread`, from the loop thread) are
each optional and asked for by the node's parameters; each is tried and,
when the process may not use it (no ``CAP_SYS_NICE`` or ``rtprio`` limit,
an affinity outside the allowed CPUs, a ``memlock`` limit), reported in one
clear line and skipped, never fatal. On Linux a user gets them with, in
``/etc/security/limits.d/robodyn.conf``::

    @robodyn  -  rtprio   90
    @robodyn  -  memlock  unlimited

(and membership of the ``robodyn`` group; log in again), or for one shell
``ulimit -r 90 -l unlimited`` as root. ``SCHED_FIFO`` applies to the
calling thread only (``sched_setscheduler(0, ...)`` on Linux), so call
:func:`setup_thread` from the loop thread itself.

A loop thread at a real-time priority still needs the GIL: when a thread
of normal priority holds it and is preempted by another process, the loop
waits until that thread runs again (a priority inversion; measured here:
1.5 ms p99 from a report's arrival to the loop reading it, with two busy
processes). :func:`setup_helper_threads` gives the process's other Python
threads (executor, publisher) a ``SCHED_FIFO`` priority below the loop's
(:func:`helper_priority`): they still yield the CPU to the loop, but no
normal process preempts one that holds the GIL (p99 0.15 ms).
"""

import ctypes
import ctypes.util
import gc
import os
import sys
import threading

#: GIL switch interval a process with a loop thread runs with [s].
GIL_SWITCH_INTERVAL = 0.0005

#: ``mlockall`` flags (Linux).
MCL_CURRENT, MCL_FUTURE = 1, 2


def _lock_memory():
    libc_name = ctypes.util.find_library('c')
    if not libc_name:
        return 'no C library found'
    libc = ctypes.CDLL(libc_name, use_errno=True)
    if libc.mlockall(MCL_CURRENT | MCL_FUTURE) != 0:
        err = ctypes.get_errno()
        return f'mlockall failed: {os.strerror(err)} (raise the memlock limit: ulimit -l)'
    return ''


def shorten_gil_switch(interval=GIL_SWITCH_INTERVAL):
    """
    Lower the interpreter's GIL switch interval to ``interval`` (never raise it).

    Parameters
    ----------
    interval : float
        Longest time [s] a busy thread keeps the GIL while another waits.

    Returns
    -------
    float
        The interval now in force [s].

    """
    if sys.getswitchinterval() > interval:
        sys.setswitchinterval(interval)
    return sys.getswitchinterval()


_FREEZE = {'holders': 0}
_FREEZE_LOCK = threading.Lock()


def freeze_garbage():
    """
    Collect, then move every object alive now out of the collector's full passes.

    Each call is one hold; :func:`thaw_garbage` releases it.
    """
    with _FREEZE_LOCK:
        gc.collect()
        gc.freeze()
        _FREEZE['holders'] += 1


def thaw_garbage():
    """
    Release one hold of :func:`freeze_garbage`; the last one unfreezes.

    Returns
    -------
    bool
        True when the objects went back to the collector (no hold left).

    """
    with _FREEZE_LOCK:
        if _FREEZE['holders'] == 0:
            return False
        _FREEZE['holders'] -= 1
        if _FREEZE['holders']:
            return False
        gc.unfreeze()
        return True


def setup_process():
    """
    Prepare the process for a loop thread: GIL hand-over and a frozen collector.

    Call it before the loop's link opens (a collection over a large heap
    takes tens of milliseconds, during which nothing would read the link),
    and :func:`thaw_garbage` when the loop has stopped.

    Returns
    -------
    list of str
        One line per setting applied.

    """
    interval = shorten_gil_switch()
    freeze_garbage()
    return [f'GIL switch interval {interval * 1e3:g} ms',
            f'gc: {gc.get_freeze_count()} objects frozen']


def setup_thread(priority=0, cpus=(), lock_memory=False):
    """
    Apply the real-time settings to the calling thread (memory locking: the process).

    Parameters
    ----------
    priority : int
        ``SCHED_FIFO`` priority 1-99 (0: leave the normal scheduler).
    cpus : sequence of int
        CPUs the thread may run on (empty: leave it).
    lock_memory : bool
        ``mlockall(MCL_CURRENT | MCL_FUTURE)``: no page faults in the loop.

    Returns
    -------
    list of str
        One line per setting: what was applied, or why it was not.

    """
    report = []
    if priority:
        try:
            os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(int(priority)))
            report.append(f'SCHED_FIFO priority {int(priority)}')
        except (PermissionError, OSError, AttributeError) as exc:
            report.append(f'SCHED_FIFO priority {int(priority)} not allowed ({exc}); normal '
                          'scheduling (grant rtprio: see docs/realtime.md)')
    if cpus:
        try:
            os.sched_setaffinity(0, {int(c) for c in cpus})
            report.append(f'CPU affinity {sorted(int(c) for c in cpus)}')
        except (OSError, ValueError, AttributeError) as exc:
            report.append(f'CPU affinity {list(cpus)} not applied ({exc})')
    if lock_memory:
        problem = _lock_memory()
        report.append('memory locked (mlockall)' if not problem else
                      f'memory not locked: {problem}')
    return report


def helper_priority(loop_priority):
    """
    Return the ``SCHED_FIFO`` priority of a loop process's other threads.

    Parameters
    ----------
    loop_priority : int
        The loop thread's priority (0: normal scheduling).

    Returns
    -------
    int
        Ten below the loop's, at least 1; 0 (normal) when the loop has
        none or 1.

    """
    return max(1, int(loop_priority) - 10) if loop_priority > 1 else 0


def setup_helper_threads(priority):
    """
    Give every running Python thread of the process ``SCHED_FIFO`` ``priority``.

    Call it before the loop thread starts (which then takes its own,
    higher priority). Threads started later by one of them inherit it.

    Parameters
    ----------
    priority : int
        Priority 1-99 (0: nothing is changed).

    Returns
    -------
    list of str
        One line: what was applied, or why it was not.

    """
    if not priority:
        return []
    done = 0
    try:
        for thread in threading.enumerate():
            if thread.native_id is not None and thread.is_alive():
                os.sched_setscheduler(thread.native_id, os.SCHED_FIFO,
                                      os.sched_param(int(priority)))
                done += 1
    except (PermissionError, OSError, AttributeError) as exc:
        return [f'other threads: SCHED_FIFO priority {int(priority)} not allowed ({exc}); '
                'normal scheduling']
    return [f'other threads ({done}): SCHED_FIFO priority {int(priority)}, below the loop '
            "thread's (a thread holding the GIL is not preempted by normal processes)"]
