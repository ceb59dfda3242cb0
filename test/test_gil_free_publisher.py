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


"""GilFreePublisher: real rclpy publishers, the write made without the GIL."""

import sys
import threading
import time

from board_helpers import wait_until
import pytest
import rclpy
from rclpy.lifecycle import LifecycleState, Node as LifecycleNode
from rclpy.node import Node
from rclpy.serialization import serialize_message
from robodyn_ros.nodes.gil_free_publisher import GilFreePublisher
from ros_helpers import RosGraph
from std_msgs.msg import String, UInt8MultiArray

#: A message whose write takes tens of milliseconds inside rcl (the probe of the GIL).
BIG = 40_000_000


def test_messages_and_bytes_arrive():
    """A message (serialized here) and CDR bytes both reach a real subscriber, in order."""
    with RosGraph() as graph:
        pub_node = graph.add(Node('gfp_pub', context=graph.context))
        sub_node = graph.add(Node('gfp_sub', context=graph.context))
        got = []
        sub_node.create_subscription(String, 'gfp_topic', lambda m: got.append(m.data), 10)
        writer = GilFreePublisher(pub_node.create_publisher(String, 'gfp_topic', 10))
        assert writer.releases_gil
        assert wait_until(lambda: writer.publisher.get_subscription_count() == 1, 10.0)
        assert writer.publish(String(data='first'))
        assert writer.publish(serialize_message(String(data='second')))
        assert wait_until(lambda: len(got) == 2, 10.0)
        assert got == ['first', 'second']


def _other_thread_during(publish, payload):
    """
    Watch another Python thread while ``publish(payload)`` runs.

    Returns
    -------
    tuple
        How many times the other thread ran in the middle half of the call, the longest
        time (s) it did not run during the call, and the call's duration (s).

    """
    stamps, stop = [], threading.Event()

    def spin():
        while not stop.is_set():
            stamps.append(time.perf_counter())
    # A short switch interval: the other thread gets the GIL within 0.1 ms of its release,
    # and the publishing thread gets it back as fast once the call has returned.
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-4)
    try:
        thread = threading.Thread(target=spin, daemon=True)
        thread.start()
        time.sleep(0.05)
        t0 = time.perf_counter()
        publish(payload)
        t1 = time.perf_counter()
        stop.set()
        thread.join()
    finally:
        sys.setswitchinterval(interval)
    inside = [t0] + [t for t in stamps if t0 < t < t1] + [t1]
    longest = max(b - a for a, b in zip(inside, inside[1:]))
    lo, hi = t0 + 0.25 * (t1 - t0), t1 - 0.25 * (t1 - t0)
    return sum(lo < t < hi for t in stamps), longest, t1 - t0


def test_other_threads_run_while_the_middleware_writes():
    """During a long write another thread keeps running; rclpy's own publish shuts it out."""
    # No executor spins these nodes: its threads would take the GIL to hand the big message
    # to Python, and the probe must see only the publishing thread and the watching one.
    # The reader still gets every message inside the middleware, so the write is real.
    context = rclpy.context.Context()
    rclpy.init(context=context)
    try:
        pub_node = Node('gfp_big_pub', context=context)
        sub_node = Node('gfp_big_sub', context=context)
        sub_node.create_subscription(UInt8MultiArray, 'gfp_big', lambda m: None, 10, raw=True)
        pub = pub_node.create_publisher(UInt8MultiArray, 'gfp_big', 10)
        assert wait_until(lambda: pub.get_subscription_count() == 1, 10.0)
        data = serialize_message(UInt8MultiArray(data=bytes(BIG)))
        writer = GilFreePublisher(pub)
        ours = []
        # A loaded machine may not schedule the other thread within a short write (ours
        # takes 4-30 ms here): up to five rounds. With the GIL held it never runs in any.
        for _ in range(5):
            ours.append(_other_thread_during(writer.publish, data))
            _, theirs_gap, theirs_time = _other_thread_during(pub.publish, data)
            # rclpy keeps the GIL for its whole write: most of its call, the other thread
            # waits, in every round.
            assert theirs_gap > 0.5 * theirs_time, (theirs_gap, theirs_time)
            if ours[-1][0] > 0:
                break
        assert ours[-1][0] > 0, ours
    finally:
        rclpy.shutdown(context=context)


def test_an_inactive_lifecycle_publisher_sends_nothing():
    """As rclpy's lifecycle publisher: nothing goes out until the node is activated."""
    with RosGraph() as graph:
        node = graph.add(LifecycleNode('gfp_lifecycle', context=graph.context))
        sub_node = graph.add(Node('gfp_lifecycle_sub', context=graph.context))
        got = []
        sub_node.create_subscription(String, 'gfp_lc', lambda m: got.append(m.data), 10)
        pub = node.create_lifecycle_publisher(String, 'gfp_lc', 10)
        writer = GilFreePublisher(pub)
        assert wait_until(lambda: pub.get_subscription_count() == 1, 10.0)
        assert writer.publish(String(data='inactive')) is False
        pub.on_activate(LifecycleState('active', 3))
        assert writer.publish(String(data='active'))
        assert wait_until(lambda: got == ['active'], 10.0)
        time.sleep(0.2)
        assert got == ['active']


def test_a_publisher_of_a_shut_down_context_fails_as_rclpy_does():
    """After shutdown the write is refused with rclpy's own error, not a crash."""
    context = rclpy.context.Context()
    rclpy.init(context=context)
    node = Node('gfp_shutdown', context=context)
    pub = node.create_publisher(String, 'gfp_shutdown', 10)
    writer = GilFreePublisher(pub)
    assert writer.publish(String(data='before'))
    rclpy.shutdown(context=context)
    with pytest.raises(Exception) as theirs:
        pub.publish(String(data='after'))
    with pytest.raises(type(theirs.value)):
        writer.publish(String(data='after'))
