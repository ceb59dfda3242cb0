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
Health of the hardware interface: a set of named problems with levels.

Each problem (``'link'``, ``'fault'``, ``'command'``, ...) is set and cleared
by the I/O loop; transient ones are held for a minimum time so that they are
seen. The health is the worst level with the messages of that level joined;
a listener is told whenever the level or the message changes.
"""

from dataclasses import dataclass, field
import threading
import time

LEVELS = {'ok': 0, 'warn': 1, 'error': 2}


@dataclass(frozen=True)
class Health:
    """
    Summary of the interface's state.

    Attributes
    ----------
    level : str
        ``'ok'``, ``'warn'`` or ``'error'``.
    message : str
        What is wrong (or ``'ok'``).
    values : dict
        Statistics as strings or numbers.

    """

    level: str
    message: str
    values: dict = field(default_factory=dict)


class Problems:
    """
    Named problems with levels and hold times.

    Parameters
    ----------
    listener : callable, optional
        ``listener(health)`` on every change of level or message (attribute
        of the same name, may be replaced).

    """

    def __init__(self, listener=None):
        self.listener = listener
        self._lock = threading.Lock()
        self._items = {}
        self._last = ('ok', 'ok')

    def report(self, key, level, message, hold=0.0):
        """
        Raise or update a problem.

        Parameters
        ----------
        key : str
            Problem name.
        level : str
            ``'warn'`` or ``'error'``.
        message : str
            Text.
        hold : float
            A transient problem: it expires this long after its last update
            [s]; 0 keeps it until cleared.

        """
        with self._lock:
            self._items[key] = (level, message, time.monotonic() + hold if hold > 0 else None)
        self._notify()

    def clear(self, key=None):
        """
        Clear one persistent problem or, with no key, every problem.

        Parameters
        ----------
        key : str, optional
            Problem name.

        """
        with self._lock:
            if key is None:
                removed = bool(self._items)
                self._items.clear()
            else:
                removed = key in self._items and self._items[key][2] is None
                if removed:
                    del self._items[key]
        if removed:     # nothing changed: no summary (called in every cycle)
            self._notify()

    def active(self):
        """
        List the current problems, after expiring the transient ones.

        Returns
        -------
        dict
            Key to ``(level, message)``.

        """
        now = time.monotonic()
        with self._lock:
            for key in [k for k, v in self._items.items() if v[2] is not None and v[2] < now]:
                del self._items[key]
            return {k: (v[0], v[1]) for k, v in self._items.items()}

    def health(self, values=None):
        """
        Summarise.

        Parameters
        ----------
        values : dict, optional
            Statistics to attach.

        Returns
        -------
        Health
            Worst level and its messages.

        """
        items = self.active()
        if not items:
            return Health('ok', 'ok', dict(values or {}))
        worst = max(items.values(), key=lambda v: LEVELS[v[0]])[0]
        message = '; '.join(m for lv, m in items.values() if lv == worst)
        return Health(worst, message, dict(values or {}))

    def _notify(self):
        if self.listener is None:
            return
        h = self.health()
        key = (h.level, h.message)
        if key != self._last:
            self._last = key
            try:
                self.listener(h)
            except Exception:  # a failing listener (e.g. at shutdown) must not stop the caller
                pass
