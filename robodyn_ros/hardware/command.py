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
The command channel: which torque command the outputs follow.

:class:`CommandChannel` holds the newest valid torque command of the one
source that holds the claim, with its arrival time (thread-safe: the command
source writes, the I/O thread reads); invalid commands are counted and
dropped, never applied, and never replace the last valid one. The torque
then goes through the current pipeline (:mod:`.current_command`).
"""

import math
import threading

import numpy as np

from ..control.split_form import FIELDS, ImpedanceSetpoint


class CommandChannel:
    """
    The newest valid torque command of the one source that holds the claim.

    Commands arrive from any thread with the identity of their source (a
    publisher): joint torques, or impedance set-points (a law's split form,
    :class:`~robodyn_ros.control.split_form.ImpedanceSetpoint`, for a board
    in impedance mode). Each is checked on arrival: a wrong length, a non-finite
    value or an effort above the joint's limit is **rejected** (counted,
    with the reason kept) and never replaces the last valid command, so the
    staleness timeout still runs from that one. One source at a time holds
    the claim (as ros2_control's exclusive claim of a command interface):
    commands of any other source are refused and counted. A free claim is
    taken by the interface (:meth:`claim`) once a source has sent
    ``stream_length`` valid commands in a row, each within the timeout of
    the one before, and no other source's for longer than the timeout
    (:meth:`ready_source`; two live streams are ``contested``: neither
    takes the claim while both go on). The holder gives the claim up with
    a release (:meth:`release`): its last command is dropped and the
    interface holds. A source whose command was refused while another held
    the claim is **barred**: it never takes a freed claim (a rogue publisher that waited
    for the holder to pause does not take the arm over), until
    :meth:`unbar` (the interface's next activation).

    Parameters
    ----------
    n : int
        Number of joints.
    effort_limits : array_like, optional
        Largest accepted |effort| per joint [N m or N] (default none).
    stream_length : int
        Valid commands in a row that make a stream.

    """

    FRESH = 'fresh'
    NONE = 'none'
    STALE = 'stale'
    MAX_BARRED = 256

    def __init__(self, n, effort_limits=None, stream_length=3):
        self.n = int(n)
        self.effort_limits = (np.full(self.n, np.inf) if effort_limits is None
                              else np.asarray(effort_limits, dtype=float).reshape(self.n))
        self.stream_length = int(stream_length)
        self._lock = threading.Lock()
        self.owner = None
        self.claimed = False
        self.received = 0
        self.rejected = 0
        self.foreign = 0
        self.contested = 0
        self.last_problem = ''
        self.last_foreign = None
        self.barred = set()
        self.clear()

    def clear(self):
        """Forget the command, the claim and any stream in progress (not the bars)."""
        with self._lock:
            self._torque, self._stamp = None, -math.inf
            self.owner, self.claimed = None, False
            self._streak_source, self._streak, self._streak_stamp = None, 0, -math.inf
            self._rival_stamp = -math.inf
            self._released = False

    def unbar(self):
        """Let every barred source take a free claim again."""
        with self._lock:
            self.barred.clear()

    def _refuse(self, source, bar):
        """Count a foreign source's message; bar it if asked and the claim is held (locked)."""
        self.foreign += 1
        self.last_foreign = source
        if bar and self.claimed and len(self.barred) < self.MAX_BARRED:
            self.barred.add(source)
        return False

    def check(self, torque):
        """
        Check a command's values.

        Parameters
        ----------
        torque : array_like or ImpedanceSetpoint
            Joint torques [N m or N], (n,); or a set-point (each field (n,)
            and finite, gains >= 0, the feed-forward within the effort
            limits).

        Returns
        -------
        tuple
            ``(array or set-point, '')`` when valid, ``(None, reason)``
            otherwise.

        """
        if isinstance(torque, ImpedanceSetpoint):
            return self._check_setpoint(torque)
        try:
            arr = np.asarray(torque, dtype=float).reshape(-1)
        except (TypeError, ValueError):
            return None, 'joint_commands efforts are not numbers'
        if arr.shape != (self.n,):
            return None, f'joint_commands has {arr.size} efforts for {self.n} joints'
        finite = np.isfinite(arr)
        if not finite.all():
            bad = ', '.join(str(i) for i in np.flatnonzero(~finite))
            return None, f'joint_commands effort is not finite for joint index {bad}'
        over = np.abs(arr) > self.effort_limits
        if over.any():
            j = int(np.argmax(over))
            return None, (f'joint_commands effort {arr[j]:.6g} exceeds the effort limit '
                          f'{self.effort_limits[j]:.6g} of joint index {j}')
        return arr, ''

    def _check_setpoint(self, setpoint):
        for name in FIELDS:
            arr = getattr(setpoint, name)
            if not isinstance(arr, np.ndarray) or arr.shape != (self.n,):
                return None, f'impedance set-point {name} is not {self.n} values'
            finite = np.isfinite(arr)
            if not finite.all():
                return None, (f'impedance set-point {name} is not finite for joint index '
                              f'{int(np.argmin(finite))}')
            if name in ('kp', 'kd') and (arr < 0.0).any():
                return None, (f'impedance set-point {name} is negative for joint index '
                              f'{int(np.argmax(arr < 0.0))}')
        over = np.abs(setpoint.tau_ff) > self.effort_limits
        if over.any():
            j = int(np.argmax(over))
            return None, (f'impedance set-point feed-forward {setpoint.tau_ff[j]:.6g} exceeds '
                          f'the effort limit {self.effort_limits[j]:.6g} of joint index {j}')
        return setpoint, ''

    def put(self, torque, stamp, source=None, timeout=math.inf):
        """
        Offer a command.

        Parameters
        ----------
        torque : array_like or ImpedanceSetpoint
            Joint torques [N m or N], (n,), in model order, or an impedance
            set-point (see :meth:`check`).
        stamp : float
            Arrival time [s, monotonic].
        source : hashable, optional
            Identity of the sender (e.g. a publisher GID); None is one
            anonymous local source.
        timeout : float
            Largest gap between the commands of a stream [s].

        Returns
        -------
        bool
            Whether it was accepted (valid, and from the claim holder or,
            with a free claim, from a source not barred, counted towards a
            stream).

        """
        arr, problem = self.check(torque)
        if arr is None:
            return self.reject(problem, stamp)
        with self._lock:
            if (source != self.owner if self.claimed else source in self.barred):
                return self._refuse(source, bar=True)
            if not self.claimed:
                if source == self._streak_source and stamp - self._streak_stamp <= timeout:
                    self._streak += 1
                else:
                    if (self._streak and self._streak_source != source
                            and stamp - self._streak_stamp <= timeout):
                        self._rival_stamp = self._streak_stamp   # two live streams
                        self.contested += 1
                    self._streak_source, self._streak = source, 1
                self._streak_stamp = stamp
            self._torque, self._stamp = arr, stamp
            self._released = False
            self.received += 1
        return True

    def reject(self, reason, stamp):
        """
        Count a command that cannot be used (the last valid one is kept).

        Parameters
        ----------
        reason : str
            Why, for diagnostics.
        stamp : float
            Time [s].

        Returns
        -------
        bool
            False.

        """
        with self._lock:
            self.rejected += 1
            self.last_problem = reason
        return False

    def release(self, source, stamp):
        """
        End the claim holder's stream: drop its command and free the claim.

        Parameters
        ----------
        source : hashable
            Who releases.
        stamp : float
            Time [s].

        Returns
        -------
        bool
            True when ``source`` held the claim (a release from anyone else
            is refused and counted as foreign).

        """
        with self._lock:
            if not self.claimed or source != self.owner:
                return self._refuse(source, bar=False)   # a stray release moves nothing
            self._torque, self._stamp = None, stamp
            self.owner, self.claimed = None, False
            self._streak_source, self._streak = None, 0
            self._released = True
        return True

    def ready_source(self, now, timeout):
        """
        Give the source whose stream can take a free claim now, if any.

        Parameters
        ----------
        now : float
            Time [s, monotonic].
        timeout : float
            Largest accepted age of its last command [s].

        Returns
        -------
        tuple or None
            ``(source,)`` (a one-element tuple, since the anonymous source
            is None), or None.

        """
        with self._lock:
            if (not self.claimed and self._streak >= self.stream_length
                    and now - self._streak_stamp <= timeout
                    and self._streak_stamp - self._rival_stamp > timeout):
                return (self._streak_source,)
        return None

    def claim(self, source):
        """
        Give the claim to ``source`` (its last command becomes the command).

        Parameters
        ----------
        source : hashable
            The source of :meth:`ready_source`.

        """
        with self._lock:
            self.owner, self.claimed = source, True
            self._streak_source, self._streak = None, 0

    def get(self, now, timeout):
        """
        Return the command to apply now.

        Parameters
        ----------
        now : float
            Current monotonic time [s].
        timeout : float
            Largest accepted age [s].

        Returns
        -------
        tuple
            ``(torque or None, state, reason)``: state ``'fresh'``,
            ``'none'`` (never received, or released) or ``'stale'``.

        """
        with self._lock:
            torque, stamp, released = self._torque, self._stamp, self._released
        if torque is None:
            return None, self.NONE, ('joint_commands released by its source' if released
                                     else 'no joint_commands')
        if now - stamp > timeout:
            return None, self.STALE, f'joint_commands older than {timeout:g} s'
        return torque, self.FRESH, ''
