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
The fault campaign's troublemakers: publishers that are not supposed to be there.

A :class:`RoguePublisher` is a node of its own (so its publishers have their
own GIDs, as a second process's would) that floods ``joint_commands`` or
``joint_states`` with a chosen kind of message for a while, from a thread.
"""

import math
import threading
import time

from rclpy.node import Node
from sensor_msgs.msg import JointState

#: Kinds of bad joint_commands a rogue can send (each cycles through its variants).
COMMAND_KINDS = ('invalid', 'valid')
#: Kinds of bad joint_states.
STATE_KINDS = ('far', 'jump', 'duplicate')


class RoguePublisher(Node):
    """
    A second publisher of ``joint_commands`` and ``joint_states``.

    Parameters
    ----------
    joint_names : sequence of str
        The robot's joints.
    name : str
        Node name.

    """

    def __init__(self, joint_names, name='fault_rogue'):
        super().__init__(name)
        self.joint_names = list(joint_names)
        self._commands = self.create_publisher(JointState, 'joint_commands', 10)
        self._states = self.create_publisher(JointState, 'joint_states', 10)
        self.sent = 0

    def _invalid_commands(self):
        n = len(self.joint_names)
        names = self.joint_names
        return [
            JointState(name=names, effort=[math.nan] * n),
            JointState(name=names[:-1] + ['not_a_joint'], effort=[0.0] * n),
            JointState(name=names, effort=[0.0] * (n - 1)),
            JointState(name=names),
            JointState(name=names, effort=[1e30] * n),
            JointState(name=names + names, effort=[0.0] * (2 * n)),
        ]

    def flood_commands(self, kind, seconds, rate=1000.0, effort=None):
        """
        Publish bad ``joint_commands`` for ``seconds`` at ``rate`` (blocking).

        Parameters
        ----------
        kind : {'invalid', 'valid'}
            ``'invalid'``: NaN, unknown names, wrong length, no efforts,
            1e30 efforts and duplicate names in turn; ``'valid'``: a valid
            command (``effort``, default zero) from a second source.
        seconds : float
            How long [s].
        rate : float
            Messages per second.
        effort : sequence of float, optional
            The valid command's efforts [N m or N].

        """
        if kind == 'valid':
            msgs = [JointState(name=self.joint_names, effort=[float(e) for e in (
                effort if effort is not None else [0.0] * len(self.joint_names))])]
        elif kind == 'invalid':
            msgs = self._invalid_commands()
        else:
            raise ValueError(f'kind must be one of {COMMAND_KINDS}, got {kind!r}')
        self._flood(self._commands, msgs, seconds, rate)

    def flood_states(self, kind, q, seconds, rate=500.0):
        """
        Publish nonsense ``joint_states`` beside the real ones (blocking).

        Parameters
        ----------
        kind : {'far', 'jump', 'duplicate'}
            ``'far'``: a finite position of 1e30 rad on one joint;
            ``'jump'``: the real position 0.5 rad off on one joint;
            ``'duplicate'``: the real position itself (a second publisher).
        q : sequence of float
            The arm's position [rad or m].
        seconds : float
            How long [s].
        rate : float
            Messages per second.

        """
        pos = [float(v) for v in q]
        if kind == 'far':
            pos[1] = 1e30
        elif kind == 'jump':
            pos[1] += 0.5
        elif kind != 'duplicate':
            raise ValueError(f'kind must be one of {STATE_KINDS}, got {kind!r}')
        msg = JointState(name=self.joint_names, position=pos, velocity=[0.0] * len(pos))
        self._flood(self._states, [msg], seconds, rate)

    def _flood(self, publisher, msgs, seconds, rate):
        end = time.monotonic() + seconds
        period = 1.0 / rate
        k = 0
        while time.monotonic() < end:
            publisher.publish(msgs[k % len(msgs)])
            k += 1
            self.sent += 1
            time.sleep(period)

    def flood_in_background(self, method, *args, **kwargs):
        """
        Run one of the flood methods in a thread; return the thread (started).

        Parameters
        ----------
        method : str
            ``'flood_commands'`` or ``'flood_states'``.
        *args, **kwargs
            Its arguments.

        Returns
        -------
        threading.Thread
            Join it to wait for the end of the flood.

        """
        thread = threading.Thread(target=getattr(self, method), args=args, kwargs=kwargs,
                                  daemon=True)
        thread.start()
        return thread
