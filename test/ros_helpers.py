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


"""Helpers for tests that start a real ROS 2 graph (rclpy over DDS, loopback only)."""

import threading
import time

import rclpy
from rclpy.exceptions import InvalidHandle
from rclpy.executors import MultiThreadedExecutor

#: Graphs ended in this process; a test that ended one is followed by a full collection
#: (conftest): the nodes' reference cycles hold the context, and the context its DDS
#: participant, until the next full collection. Without it the next graph's participant
#: overlaps the old one, and Fast DDS can deadlock destroying a participant while another
#: one in the process discovers (eProsima/Fast-DDS#6193).
GRAPHS_ENDED = [0]


class RosGraph:
    """
    An rclpy context with a multi-threaded executor spinning in the background.

    Use as a context manager; nodes added with :meth:`add` are spun until exit.
    """

    def __init__(self, threads=4):
        self.context = rclpy.context.Context()
        rclpy.init(context=self.context)
        self.executor = MultiThreadedExecutor(num_threads=threads, context=self.context)
        self._thread = threading.Thread(target=self._spin, daemon=True)
        self._stop = False
        self.nodes = []

    def _spin(self):
        while not self._stop and self.context.ok():
            try:
                self.executor.spin_once(timeout_sec=0.05)
            except InvalidHandle:
                # A test thread destroyed an entity (a lifecycle transition triggered from
                # the test) while this thread built its wait set: rclpy's race
                # (ros2/rclpy#1142, #1206); the next round no longer sees it.
                continue

    def add(self, node):
        """Spin ``node`` too and return it."""
        self.nodes.append(node)
        self.executor.add_node(node)
        return node

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop = True
        self._thread.join(timeout=5.0)
        for node in self.nodes:
            self.executor.remove_node(node)
            node.destroy_node()
        self.executor.shutdown()
        rclpy.try_shutdown(context=self.context)
        GRAPHS_ENDED[0] += 1     # conftest collects after the test (its locals hold nodes too)


def wait_for(predicate, timeout=10.0, period=0.02):
    """Poll ``predicate`` until it is true or ``timeout`` [s] passes; return its last value."""
    deadline = time.monotonic() + timeout
    value = predicate()
    while not value and time.monotonic() < deadline:
        time.sleep(period)
        value = predicate()
    return value
