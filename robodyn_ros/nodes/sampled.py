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
Subscriptions read on demand instead of by executor callbacks.

A high-rate topic that a node only needs at its own pace (the newest
``joint_states`` at each control step, the newest command at each board
cycle, the measured state when a goal arrives) costs rclpy's executor
several hundred microseconds of Python per message, whatever the node does
with it. A :class:`SampledTopic` instead leaves the messages in the
middleware's history (keep-last ``depth``) and takes them when asked, at
10-30 us each.

The subscription belongs to a companion node (``<node>_sampler``, same
namespace and context) that is never added to an executor, so the
executor never sees it. The topic name is resolved by the owning node, so
its remappings apply. The companion is destroyed with the owner's
``destroy_node`` (or :func:`release`): a companion left behind would keep
its context's DDS participant alive, and many participants in one process
(a test session creating a context per test) met a Fast DDS deadlock
between one participant's destruction and another's in-process discovery.
"""

import time

from rclpy.node import Node

_COMPANIONS = {}


def _companion(node):
    key = id(node)
    comp = _COMPANIONS.get(key)
    if comp is None or comp[0] is not node:
        sampler = Node(f'{node.get_name()}_sampler', namespace=node.get_namespace(),
                       context=node.context, use_global_arguments=False,
                       enable_rosout=False, start_parameter_services=False)
        comp = _COMPANIONS[key] = (node, sampler, [])     # the owner's live topics
        owner_destroy = node.destroy_node

        def destroy_node(*args, **kwargs):
            try:                             # the owner first: it stops its own threads
                return owner_destroy(*args, **kwargs)
            finally:
                release(node)
        node.destroy_node = destroy_node     # the owner's destruction takes the companion
    return comp


def release(node):
    """
    Destroy the companion of ``node`` and its subscriptions (done by ``node.destroy_node``).

    Its :class:`SampledTopic` objects take nothing afterwards.

    Parameters
    ----------
    node : rclpy.node.Node
        The owning node.

    """
    comp = _COMPANIONS.get(id(node))
    if comp is None or comp[0] is not node:
        return
    del _COMPANIONS[id(node)]
    for topic in comp[2]:
        topic._sub = None
    comp[2].clear()
    comp[1].destroy_node()


class SampledTopic:
    """
    A subscription whose messages are taken on demand.

    Parameters
    ----------
    node : rclpy.node.Node
        Owning node (resolves the topic name).
    msg_type : type
        Message class.
    topic : str
        Topic name (relative names resolve in the owner's namespace, with
        its remappings).
    qos : rclpy.qos.QoSProfile
        QoS; its depth is the number of unread messages kept.
    raw : bool
        Take serialized bytes instead of messages.

    """

    def __init__(self, node, msg_type, topic, qos, raw=False):
        self.topic = node.resolve_topic_name(topic)
        self.msg_type = msg_type
        self.raw = raw
        self._owner, self._node, self._topics = _companion(node)
        self._sub = self._node.create_subscription(msg_type, self.topic, lambda _: None, qos,
                                                   raw=raw)
        self._topics.append(self)

    def _take(self):
        sub = self._sub
        if sub is None:             # destroyed, or released with its owner
            return None
        with sub.handle:
            return sub.handle.take_message(self.msg_type, self.raw)

    def take_all(self):
        """
        Take every unread message.

        Returns
        -------
        list of tuple
            ``(message, received)`` oldest first; ``received`` is the
            arrival time [s, epoch] (the middleware's, else now).

        """
        out = []
        while True:
            got = self._take()
            if got is None:
                return out
            msg, info = got
            stamp = info.get('received_timestamp') if isinstance(info, dict) else None
            out.append((msg, stamp * 1e-9 if stamp else time.time()))

    def take_all_with_source(self):
        """
        Take every unread message with its publisher.

        Returns
        -------
        list of tuple
            ``(message, received, publisher_gid)`` oldest first;
            ``publisher_gid`` is the publisher's GID (bytes, or None when
            the middleware does not give it).

        """
        out = []
        while True:
            got = self._take()
            if got is None:
                return out
            msg, info = got
            stamp = gid = None
            if isinstance(info, dict):
                stamp = info.get('received_timestamp')
                gid = (info.get('publisher_gid') or {}).get('data')
            out.append((msg, stamp * 1e-9 if stamp else time.time(),
                        bytes(gid) if gid is not None else None))

    def latest(self):
        """Take every unread message and return the newest ``(message, received)`` or None."""
        msgs = self.take_all()
        return msgs[-1] if msgs else None

    def destroy(self):
        """Destroy the subscription (and the companion node with its last one)."""
        if self._sub is None:
            return
        self._node.destroy_subscription(self._sub)
        self._sub = None
        self._topics.remove(self)
        if not self._topics:
            _COMPANIONS.pop(id(self._owner), None)
            self._node.destroy_node()
