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
Lifecycle transitions of another node that survive a lost request or answer.

A ROS 2 service call goes over two DDS topics whose endpoints are matched
independently; right after a node starts (or restarts under the same name),
``wait_for_service`` can succeed while the request or the answer is still
dropped (ros2/rmw_fastrtps#392). A lifecycle transition is not idempotent, so
it is not simply asked again: when no answer comes, the node's state is read
(``get_state`` changes nothing) and the request is repeated only while the
node is still idle in the state the transition starts from; a node already
in the target state has done it.
"""

import threading
import time

from lifecycle_msgs.msg import Transition
from lifecycle_msgs.srv import ChangeState, GetState

#: Transition name to (id, start state label, target state label).
TRANSITIONS = {'configure': (Transition.TRANSITION_CONFIGURE, 'unconfigured', 'inactive'),
               'activate': (Transition.TRANSITION_ACTIVATE, 'inactive', 'active'),
               'deactivate': (Transition.TRANSITION_DEACTIVATE, 'active', 'inactive'),
               'cleanup': (Transition.TRANSITION_CLEANUP, 'inactive', 'unconfigured')}
#: Wait for an answer this long before reading the node's state [s].
ATTEMPT = 3.0
#: Longest wait for a get_state answer while checking [s].
STATE_TIMEOUT = 2.0


def call(client, request, timeout):
    """
    Call a service and wait for its answer.

    Parameters
    ----------
    client : rclpy.client.Client
        The client (its node spins in another thread).
    request : object
        The request.
    timeout : float
        Longest wait for the service and then for the answer [s].

    Returns
    -------
    object or None
        The response, None when the service or its answer did not come.

    """
    if not client.wait_for_service(timeout_sec=timeout):
        return None
    future = client.call_async(request)
    return wait_answer(client, future, timeout)


def wait_answer(client, future, timeout, keep=False):
    """
    Wait for a pending call; forget it on timeout unless ``keep``.

    Parameters
    ----------
    client : rclpy.client.Client
        The client that made the call.
    future : rclpy.task.Future
        The pending call.
    timeout : float
        Longest wait [s].
    keep : bool
        Leave the call pending after a timeout (its answer may still come).

    Returns
    -------
    object or None
        The response, None on timeout.

    """
    done = threading.Event()
    future.add_done_callback(lambda _: done.set())
    if done.wait(max(timeout, 0.0)):
        return future.result()
    if not keep:
        client.remove_pending_request(future)
    return None


class LifecycleCaller:
    """
    Drive the lifecycle of other nodes from a node spun in another thread.

    Parameters
    ----------
    node : rclpy.node.Node
        The calling node (spun by an executor in another thread).

    """

    def __init__(self, node):
        self.node = node
        self._change = {}
        self._get = {}

    def _client(self, table, cls, name):
        if name not in table:
            table[name] = self.node.create_client(cls, name)
        return table[name]

    def available(self, target, timeout=0.0):
        """Tell whether ``target``'s change_state service is discovered (bool)."""
        client = self._client(self._change, ChangeState, f'{target}/change_state')
        return client.wait_for_service(timeout_sec=timeout)

    def get_state(self, target, timeout=STATE_TIMEOUT):
        """
        Read a node's lifecycle state.

        Parameters
        ----------
        target : str
            Node name (relative).
        timeout : float
            Longest wait [s].

        Returns
        -------
        str or None
            The state label (``'unconfigured'``, ``'inactive'``, ``'active'``,
            ...), None when the node did not answer.

        """
        client = self._client(self._get, GetState, f'{target}/get_state')
        res = call(client, GetState.Request(), timeout)
        return None if res is None else res.current_state.label

    def change_state(self, target, transition, timeout):
        """
        Ask a node for a transition; repeat a lost request, never a delivered one.

        Parameters
        ----------
        target : str
            Node name (relative).
        transition : str
            ``'configure'``, ``'activate'``, ``'deactivate'`` or ``'cleanup'``.
        timeout : float
            Longest wait [s].

        Returns
        -------
        bool or None
            The node's answer (True also when the node is found in the target
            state), None when it did not answer in time.

        """
        tid, start, target_state = TRANSITIONS[transition]
        client = self._client(self._change, ChangeState, f'{target}/change_state')
        deadline = time.monotonic() + timeout
        if not client.wait_for_service(timeout_sec=timeout):
            return None
        request = ChangeState.Request()
        request.transition.id = tid
        future, repeated = client.call_async(request), False
        try:
            while True:
                left = deadline - time.monotonic()
                res = wait_answer(client, future, min(ATTEMPT, left), keep=True)
                if res is not None:
                    if not res.success and repeated:
                        # The first request may have done it after all.
                        return self.get_state(target, STATE_TIMEOUT) == target_state
                    return bool(res.success)
                if deadline - time.monotonic() <= 0.0:
                    return None
                state = self.get_state(target, min(STATE_TIMEOUT, deadline - time.monotonic()))
                if state == target_state:
                    return True
                if state == start:  # idle where it started: the request was lost
                    self.node.get_logger().warning(
                        f'{target}: no answer to {transition} and it is still {start}: '
                        'the request was lost, asking again')
                    client.remove_pending_request(future)
                    future, repeated = client.call_async(request), True
                # None (busy, or lost too) or a transition state: keep waiting
        finally:
            if not future.done():
                client.remove_pending_request(future)
