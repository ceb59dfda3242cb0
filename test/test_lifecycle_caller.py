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


"""LifecycleCaller: a transition is asked again only when it was lost, never done twice."""

import threading
import time

from lifecycle_msgs.msg import State
from lifecycle_msgs.srv import ChangeState, GetState
from rclpy.callback_groups import ReentrantCallbackGroup
from rclpy.lifecycle import LifecycleNode, TransitionCallbackReturn
from rclpy.node import Node

from robodyn_ros.nodes.lifecycle_caller import LifecycleCaller, TRANSITIONS

from ros_helpers import RosGraph


class SlowLifecycle(LifecycleNode):
    """A real lifecycle node whose configure takes ``delay`` seconds."""

    def __init__(self, name, context, delay):
        super().__init__(name, context=context)
        self.delay = delay
        self.configured = 0

    def on_configure(self, state):
        time.sleep(self.delay)
        self.configured += 1
        return TransitionCallbackReturn.SUCCESS


class LateAnswer(Node):
    """
    Lifecycle services whose first change_state answer comes late.

    While the first request is held, get_state still reports the start state
    (as when the request was lost in DDS): the caller asks again; the held
    request then does the transition and the repeated one is refused.
    """

    def __init__(self, name, context, hold):
        super().__init__(name, context=context)
        group = ReentrantCallbackGroup()
        self.hold = hold
        self.label = 'unconfigured'
        self.requests = 0
        self.transitions = 0
        self._lock = threading.Lock()
        self.create_service(ChangeState, f'{name}/change_state', self._change,
                            callback_group=group)
        self.create_service(GetState, f'{name}/get_state', self._get, callback_group=group)

    def _change(self, request, response):
        with self._lock:
            self.requests += 1
            first = self.requests == 1
        if first:
            time.sleep(self.hold)
        with self._lock:
            tid, start, target = next(v for v in TRANSITIONS.values()
                                      if v[0] == request.transition.id)
            response.success = self.label == start
            if response.success:
                self.label = target
                self.transitions += 1
        return response

    def _get(self, request, response):
        response.current_state = State(label=self.label)
        return response


def _caller(graph):
    node = graph.add(Node('caller', context=graph.context))
    return LifecycleCaller(node)


def test_a_slow_transition_is_asked_once():
    with RosGraph() as targets, RosGraph() as callers:
        target = targets.add(SlowLifecycle('slow', targets.context, delay=7.0))
        caller = _caller(callers)
        assert caller.get_state('slow', 10.0) == 'unconfigured'
        began = time.monotonic()
        assert caller.change_state('slow', 'configure', 30.0) is True
        assert time.monotonic() - began >= 7.0
        assert target.configured == 1
        assert caller.get_state('slow') == 'inactive'
        assert caller.change_state('slow', 'activate', 10.0) is True
        assert caller.change_state('slow', 'activate', 10.0) is False  # already active


def test_a_request_that_looks_lost_is_asked_again_and_done_once():
    with RosGraph() as targets, RosGraph() as callers:
        target = targets.add(LateAnswer('late', targets.context, hold=5.0))
        caller = _caller(callers)
        assert caller.get_state('late', 10.0) == 'unconfigured'
        assert caller.change_state('late', 'configure', 30.0) is True
        assert target.requests == 2            # asked again while it looked idle
        assert target.transitions == 1        # but configured once
        assert caller.get_state('late') == 'inactive'


def test_no_answer_is_none_within_the_timeout():
    with RosGraph() as callers:
        caller = _caller(callers)
        began = time.monotonic()
        assert caller.change_state('nobody', 'configure', 2.0) is None
        assert caller.get_state('nobody', 1.0) is None
        assert time.monotonic() - began < 6.0
