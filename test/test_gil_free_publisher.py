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


def _other_thread_ran_during(publish, payload):
    """Return how many times another Python thread ran in the middle half of one write."""
    stamps, stop = [], threading.Event()

    def spin():
        while not stop.is_set():
            stamps.append(time.perf_counter())
    thread = threading.Thread(target=spin, daemon=True)
    thread.start()
    time.sleep(0.05)
    t0 = time.perf_counter()
    publish(payload)
    t1 = time.perf_counter()
    stop.set()
    thread.join()
    lo, hi = t0 + 0.25 * (t1 - t0), t1 - 0.25 * (t1 - t0)
    return sum(lo < t < hi for t in stamps), t1 - t0


def test_other_threads_run_while_the_middleware_writes():
    """During a long write another thread keeps running; with rclpy's own publish it stops."""
    with RosGraph() as graph:
        pub_node = graph.add(Node('gfp_big_pub', context=graph.context))
        sub_node = graph.add(Node('gfp_big_sub', context=graph.context))
        sub_node.create_subscription(UInt8MultiArray, 'gfp_big', lambda m: None, 10, raw=True)
        pub = pub_node.create_publisher(UInt8MultiArray, 'gfp_big', 10)
        assert wait_until(lambda: pub.get_subscription_count() == 1, 10.0)
        data = serialize_message(UInt8MultiArray(data=bytes(BIG)))
        writer = GilFreePublisher(pub)
        ours, ours_time = _other_thread_ran_during(writer.publish, data)
        theirs, theirs_time = _other_thread_ran_during(pub.publish, data)
        # rclpy keeps the GIL for its whole write: the other thread cannot run in it at all.
        assert theirs == 0, (theirs, theirs_time)
        assert ours > 0, (ours, ours_time)


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
