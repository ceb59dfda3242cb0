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
Admission and queueing of the dynamics service's requests (no rclpy).

The rules, in the order they are checked when a request arrives:

1. more points than ``max_points``: refused (``too_large``), from the
   serialized size, before the request is read (in the node);
2. **outstanding** requests are those admitted and not yet answered
   (waiting, being computed, or out with workers). A request is admitted
   when fewer than ``max_requests`` are outstanding and its points fit
   within ``max_points`` outstanding points, or when nothing is
   outstanding (so one request of up to ``max_points`` always gets in);
3. otherwise it is answered at once with ``busy`` and the queue depth: the
   client may send it again later (the client library retries a few times
   with a growing pause).

Admitted requests are served first come, first served. Memory is bounded
by the outstanding points: what the service holds is at most
``max_points`` outstanding points of states and efforts, whatever the mix.
"""

from collections import deque
import threading

from ..errors import RobodynError


class BusyError(RobodynError):
    """
    The queue is full: send the request again later.

    Attributes
    ----------
    depth : int
        Outstanding requests.
    points : int
        Outstanding points.

    """

    def __init__(self, depth, points, max_requests, max_points):
        super().__init__(f'busy: {depth} requests ({points} points) outstanding, limits '
                         f'{max_requests} requests and {max_points} points; send it again '
                         'later')
        self.depth = depth
        self.points = points


class RequestQueue:
    """
    First-come-first-served queue with a bound on outstanding requests and points.

    Thread-safe: any thread admits and puts, any thread gets and releases.

    Parameters
    ----------
    max_requests : int
        Most outstanding requests (>= 1).
    max_points : int
        Most outstanding points (>= 1).

    """

    def __init__(self, max_requests, max_points):
        self._cond = threading.Condition()
        self._items = deque()
        self._requests = 0
        self._points = 0
        self._closed = False
        self.max_requests = int(max_requests)
        self.max_points = int(max_points)
        self.peak_points = 0

    @property
    def depth(self):
        """Outstanding requests (int)."""
        return self._requests

    @property
    def points(self):
        """Return how many points are outstanding (int)."""
        return self._points

    @property
    def waiting(self):
        """Count the requests admitted and not yet taken (int)."""
        return len(self._items)

    def set_limits(self, max_requests, max_points):
        """
        Change the limits (requests already admitted stay).

        Parameters
        ----------
        max_requests, max_points : int
            New limits.

        """
        with self._cond:
            self.max_requests = int(max_requests)
            self.max_points = int(max_points)

    def offer(self, item, points):
        """
        Admit a request and queue it, or refuse it.

        Parameters
        ----------
        item : object
            The request.
        points : int
            Its points.

        Raises
        ------
        BusyError
            When the limits are reached (nothing is queued).

        """
        with self._cond:
            if self._closed:
                raise BusyError(self._requests, self._points, 0, 0)
            fits = (self._requests < self.max_requests
                    and self._points + points <= self.max_points)
            if not (fits or self._requests == 0):
                raise BusyError(self._requests, self._points, self.max_requests,
                                self.max_points)
            self._requests += 1
            self._points += int(points)
            self.peak_points = max(self.peak_points, self._points)
            self._items.append(item)
            self._cond.notify()

    def get(self, timeout=None):
        """
        Take the oldest waiting request.

        Parameters
        ----------
        timeout : float, optional
            Longest wait [s] (default: until one comes or the queue closes).

        Returns
        -------
        object or None
            The request; None on timeout or when closed.

        """
        with self._cond:
            if not self._cond.wait_for(lambda: self._items or self._closed, timeout):
                return None
            if self._closed:
                return None
            return self._items.popleft()

    def release(self, points):
        """
        Count a request as answered.

        Parameters
        ----------
        points : int
            Its points.

        """
        with self._cond:
            self._requests = max(0, self._requests - 1)
            self._points = max(0, self._points - int(points))

    def close(self):
        """Wake every waiting thread and refuse all further requests."""
        with self._cond:
            self._closed = True
            self._items.clear()
            self._cond.notify_all()
