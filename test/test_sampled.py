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


"""A sampled topic: taken on demand, and its companion node goes with its owner."""

import gc
import weakref

import pytest
import rclpy
from rclpy.exceptions import InvalidHandle
from rclpy.node import Node
from rclpy.qos import QoSProfile
from robodyn_ros.nodes import sampled
from robodyn_ros.nodes.sampled import SampledTopic
from ros_helpers import RosGraph, wait_for
from std_msgs.msg import Float64


def _companion_names(node):
    return [n for n, _ in node.get_node_names_and_namespaces() if n.endswith('_sampler')]


def test_messages_are_taken_in_order_and_only_once():
    with RosGraph() as g:
        owner = g.add(Node('owner', context=g.context))
        topic = SampledTopic(owner, Float64, 'value', QoSProfile(depth=10))
        pub = owner.create_publisher(Float64, 'value', 10)
        assert wait_for(lambda: pub.get_subscription_count() == 1, 10.0)
        for x in (1.0, 2.0, 3.0):
            pub.publish(Float64(data=x))
        got = []
        assert wait_for(lambda: got.extend(m.data for m, _ in topic.take_all()) or len(got) >= 3,
                        5.0)
        assert got == [1.0, 2.0, 3.0]
        assert topic.latest() is None


def test_the_companion_is_destroyed_with_its_owner():
    with RosGraph() as g:
        watcher = g.add(Node('watcher', context=g.context))
        owner = Node('owner', context=g.context)
        topics = [SampledTopic(owner, Float64, name, QoSProfile(depth=1)) for name in 'ab']
        assert wait_for(lambda: _companion_names(watcher) == ['owner_sampler'], 10.0)
        owner.destroy_node()
        assert id(owner) not in sampled._COMPANIONS
        assert wait_for(lambda: _companion_names(watcher) == [], 10.0)
        assert all(t.take_all() == [] for t in topics)   # nothing taken, nothing raised
        topics[0].destroy()                                # destroying later is harmless


def test_the_last_destroyed_topic_takes_the_companion_and_a_new_one_makes_another():
    context = rclpy.context.Context()
    rclpy.init(context=context)
    try:
        owner = Node('owner', context=context)
        first = SampledTopic(owner, Float64, 'a', QoSProfile(depth=1))
        companion = sampled._COMPANIONS[id(owner)][1]
        first.destroy()
        assert id(owner) not in sampled._COMPANIONS
        with pytest.raises(InvalidHandle):              # the companion node is destroyed
            companion.get_subscriptions_info_by_topic('a')
        second = SampledTopic(owner, Float64, 'b', QoSProfile(depth=1))
        assert sampled._COMPANIONS[id(owner)][1] is not companion
        owner.destroy_node()
        assert id(owner) not in sampled._COMPANIONS and second.take_all() == []
    finally:
        rclpy.try_shutdown(context=context)


def test_a_destroyed_owner_and_its_context_are_collected():
    """No module-level reference keeps an owner (and its DDS participant) alive."""
    context = rclpy.context.Context()
    rclpy.init(context=context)
    owner = Node('owner', context=context)
    SampledTopic(owner, Float64, 'a', QoSProfile(depth=1))
    ref = weakref.ref(owner)
    owner.destroy_node()
    rclpy.try_shutdown(context=context)
    del owner, context
    gc.collect()
    assert ref() is None
