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
The board link as the hardware interface sees it: up, silent, lost, reconnecting.

:class:`Link` reads the state reports, tells a silent board (no report for
longer than the state timeout) from a lost link (a transport error, or a
silence much longer than that), closes a lost link and reconnects it
(identify and configure again: the board comes back with its outputs off),
and keeps the board's watchdog informed with heartbeats while no current
frames are sent. It never enables anything: what happens to the outputs
after a loss is the fault reaction's decision.
"""

import time

from .errors import HardwareError, TransportError


class Link:
    """
    Link supervision of one :class:`~robodyn_ros.hardware.backend.DriveBackend`.

    Parameters
    ----------
    driver : DriveBackend
        The hardware (board or drive set).
    problems : Problems
        Where link problems are reported (``'link'``, ``'silent'``).
    reconnect_period : callable
        ``reconnect_period()`` [s] (read at each attempt: a run-time setting).
    state_timeout : callable
        ``state_timeout()`` [s]: no report for this long is a silent board.

    Attributes
    ----------
    up : bool
        Whether the link is open and the board answers.
    lost_cause : str
        Why the link went down last (empty while up).

    """

    def __init__(self, driver, problems, reconnect_period, state_timeout):
        self.driver = driver
        self.problems = problems
        self._reconnect_period = reconnect_period
        self._state_timeout = state_timeout
        self.up = False
        self.lost_cause = ''
        self.last_sample_time = 0.0
        self.last_heartbeat = 0.0
        self._next_reconnect = 0.0

    def opened(self):
        """Mark the link up after a successful connect."""
        self.up = True
        self.lost_cause = ''
        self.last_sample_time = time.monotonic()

    def closed(self):
        """Mark the link closed on purpose (cleanup)."""
        self.up = False

    def read(self, now):
        """
        Read the next state report (up to 5 ms).

        Parameters
        ----------
        now : float
            Time [s, monotonic].

        Returns
        -------
        JointSample or None
            The report, or None when none came (silence is reported, and a
            long silence closes the link).

        """
        try:
            sample = self.driver.read(0.005)
        except TransportError as exc:
            self.lose(str(exc), now)
            return None
        now = time.monotonic()
        if sample is not None:
            self.last_sample_time = now
            self.problems.clear('silent')
            return sample
        timeout = self._state_timeout()
        silence = now - self.last_sample_time
        if silence > timeout:
            self.problems.report('silent', 'error', f'no state report from the '
                                 f'{self.driver.kind} for {silence * 1e3:.0f} ms')
        if silence > max(0.25, 5.0 * timeout):
            self.lose(f'{self.driver.kind} silent', now)
        elif now - self.last_heartbeat > 0.1:
            self.heartbeat(now)
        return None

    def heartbeat(self, now):
        """
        Send one heartbeat: it keeps the link measured while no currents are sent.

        Parameters
        ----------
        now : float
            Time [s, monotonic].

        """
        self.last_heartbeat = now
        self.guard(self.driver.heartbeat, now)

    def guard(self, action, now):
        """
        Run a board request; a transport error loses the link.

        Parameters
        ----------
        action : callable
            The request (no arguments).
        now : float
            Time [s, monotonic].

        Returns
        -------
        bool
            Whether it succeeded.

        Raises
        ------
        HardwareError
            A refusal or timeout of the board (not a transport error).

        """
        try:
            action()
            return True
        except TransportError as exc:
            self.lose(str(exc), now)
            return False

    def lose(self, cause, now):
        """
        Close the link after a loss; reconnection starts after the reconnect period.

        Parameters
        ----------
        cause : str
            Why.
        now : float
            Time [s, monotonic].

        """
        self.driver.close()
        self.up = False
        self.lost_cause = cause
        self._next_reconnect = now + self._reconnect_period()
        self.problems.report('link', 'error', f'{self.driver.kind} link lost ({cause}); '
                             'reconnecting')

    def reconnect(self, now):
        """
        Try to connect again when the reconnect period has passed.

        Parameters
        ----------
        now : float
            Time [s, monotonic].

        Returns
        -------
        bool
            True when the link is up again (the board's outputs are off).

        """
        if now < self._next_reconnect:
            return False
        period = self._reconnect_period()
        try:
            self.driver.connect(timeout=min(self.driver.settings.connect_timeout, period))
        except (HardwareError, OSError) as exc:
            self._next_reconnect = time.monotonic() + period
            self.problems.report('link', 'error', f'{self.driver.kind} link lost; reconnect '
                                 f'failed: {exc}')
            return False
        self.driver.stats.reconnects += 1
        self.opened()
        self.problems.clear('link')
        self.problems.clear('silent')
        return True

    def fast(self, now):
        """
        Tell whether a recent heartbeat came back within half the watchdog period.

        Parameters
        ----------
        now : float
            Time [s, monotonic].

        Returns
        -------
        bool
            True for a link fast enough to run the outputs on.

        """
        last = self.driver.last_round_trip
        half = 0.5 * self.driver.settings.watchdog_period
        return last is not None and now - last[0] < 0.5 and last[1] < half

    def __repr__(self):
        return f'Link(up={self.up}, lost_cause={self.lost_cause!r})'
