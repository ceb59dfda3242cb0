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
Real-time options of a loop thread (the hardware interface's I/O, the controller's loop).

The thread takes ``rt_priority`` (SCHED_FIFO), ``cpus`` and ``lock_memory``;
the process's other Python threads go ten below the priority (a thread
holding the GIL and preempted would stop the loop: see
:mod:`robodyn_ros.realtime.hygiene` and docs/realtime.md).
"""

from rclpy.parameter import Parameter

from .params import ParamSpec
from ..realtime.hygiene import helper_priority, setup_helper_threads, setup_thread


def realtime_parameter_specs():
    """
    Declare the real-time options of the loop thread.

    Returns
    -------
    list of ParamSpec
        Priority, CPU affinity and memory locking (see docs/realtime.md).

    """
    return [
        ParamSpec('rt_priority', 0, 'SCHED_FIFO priority of the loop thread, the other '
                  'threads 10 below (0: normal scheduling; needs rtprio, see docs/realtime.md)',
                  low=0, high=99,
                  read_only=True),
        ParamSpec('cpus', None, 'CPUs the loop thread may run on (empty: any)',
                  kind=Parameter.Type.INTEGER_ARRAY, low=0, read_only=True),
        ParamSpec('lock_memory', False, 'Lock the process memory (mlockall) so the loop '
                  'takes no page faults', read_only=True),
    ]


def helper_setup(values):
    """
    Put the process's other Python threads ten below the loop's priority.

    Parameters
    ----------
    values : dict
        The node's parameter values (``rt_priority``).

    Returns
    -------
    list of str
        What was done, one line each (for the log).

    """
    return setup_helper_threads(helper_priority(values['rt_priority']))


def loop_thread_setup(values):
    """
    Apply the loop thread's options; call it in that thread.

    Parameters
    ----------
    values : dict
        The node's parameter values (``rt_priority``, ``cpus``, ``lock_memory``).

    Returns
    -------
    list of str
        What was done, or why it was not allowed, one line each.

    """
    return setup_thread(values['rt_priority'], tuple(values['cpus'] or ()),
                        values['lock_memory'])
