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

"""Diagnostics publishing (diagnostic_msgs/DiagnosticArray on ``diagnostics``)."""

import threading

from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue
from rclpy.serialization import serialize_message

from .gil_free_publisher import GilFreePublisher

OK = DiagnosticStatus.OK
WARN = DiagnosticStatus.WARN
ERROR = DiagnosticStatus.ERROR
STALE = DiagnosticStatus.STALE


class Diagnostics:
    """
    Keep one status per node and publish it on change and periodically.

    Parameters
    ----------
    node : rclpy.node.Node
        The node.
    name : str
        Status name (default: the node's fully qualified name).
    hardware_id : str
        Hardware identifier (robot or board).
    period : float
        Republish period [s]; 0 disables the timer.

    """

    def __init__(self, node, name=None, hardware_id='', period=1.0):
        self._node = node
        self._pub = GilFreePublisher(node.create_publisher(DiagnosticArray, 'diagnostics', 10))
        self._lock = threading.Lock()   # updated and published from several threads
        self._status = DiagnosticStatus(level=OK, name=name or node.get_fully_qualified_name(),
                                        message='starting', hardware_id=hardware_id)
        self._timer = node.create_timer(period, self.publish) if period > 0 else None

    @property
    def level(self):
        """Level of the status: OK, WARN, ERROR or STALE (bytes)."""
        return self._status.level

    @property
    def message(self):
        """Text of the status (str)."""
        return self._status.message

    def update(self, level, message, values=None, publish=True):
        """
        Change the status.

        Parameters
        ----------
        level : bytes
            ``OK``, ``WARN``, ``ERROR`` or ``STALE``.
        message : str
            Short text.
        values : dict, optional
            Key-value pairs (converted with ``str``).
        publish : bool
            Publish now if the level or message changed.

        """
        kv = None
        if values is not None:
            kv = [KeyValue(key=str(k), value=str(v)) for k, v in values.items()]
        with self._lock:
            changed = level != self._status.level or message != self._status.message
            self._status.level = level
            self._status.message = message
            if kv is not None:
                self._status.values = kv
        if publish and changed:
            self.publish()

    def publish(self):
        """Publish the current status (the write runs without the GIL)."""
        msg = DiagnosticArray()
        msg.header.stamp = self._node.get_clock().now().to_msg()
        msg.status = [self._status]
        with self._lock:           # serialized as one consistent status
            data = serialize_message(msg)
        self._pub.publish(data)
