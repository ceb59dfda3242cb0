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
``sensor_msgs/JointState`` messages read into a fixed joint order.

Every node that takes joint states or joint commands reads them through a
:class:`JointStateReader` built for its own joint order: it accepts the
serialized bytes of a raw subscription (read directly when they are
little-endian CDR, see :mod:`.joint_state_cdr`) or a message object, finds
its joints by name once per distinct name list (the index is cached, so a
publisher that always sends the same names costs one comparison), and gives
float arrays in that order. The checks that do not depend on the values
are made here, once, at the boundary: duplicate names, missing (or, if
asked, unknown) joints, and fields whose length does not match the names.
What the values must satisfy (finite, within limits) is for the consumer.
"""

import numpy as np

from .joint_state_cdr import read_joint_state

#: The array fields of a JointState, in message order.
FIELDS = ('position', 'velocity', 'effort')


class JointStateError(ValueError):
    """A JointState message that cannot be read in the wanted joint order."""


class JointStateSample:
    """
    One message's values in the reader's joint order.

    Attributes
    ----------
    position, velocity, effort : numpy.ndarray or None
        (n,) float arrays [rad, rad/s, N m or m, m/s, N]; None for a field
        the message left empty.
    stamp_ns : int
        Header stamp [ns] (0 when unset).

    """

    __slots__ = ('position', 'velocity', 'effort', 'stamp_ns')

    def __init__(self, position, velocity, effort, stamp_ns):
        self.position = position
        self.velocity = velocity
        self.effort = effort
        self.stamp_ns = stamp_ns

    def __repr__(self):
        return (f'JointStateSample(position={self.position}, velocity={self.velocity}, '
                f'effort={self.effort}, stamp_ns={self.stamp_ns})')


def _stamp_ns(msg):
    stamp = getattr(msg, 'stamp_ns', None)
    if stamp is not None:
        return stamp
    header = getattr(msg, 'header', None)
    if header is None:
        return 0
    return header.stamp.sec * 1_000_000_000 + header.stamp.nanosec


class JointStateReader:
    """
    Read JointState messages into a fixed joint order.

    Parameters
    ----------
    names : sequence of str
        Joint order wanted (e.g. the model's joint names).
    required : sequence of str
        Fields that must be present (``'position'``, ``'velocity'``,
        ``'effort'``); the others may be empty.
    allow_extra : bool
        Accept messages that also name other joints (ignored). False for
        commands: a command for a joint this reader does not know is
        refused.
    allow_unnamed : bool
        Accept a message without names whose fields have one value per
        joint of the reader, in the reader's order.

    """

    def __init__(self, names, required=('position',), allow_extra=True, allow_unnamed=False):
        self.names = tuple(names)
        if len(set(self.names)) != len(self.names):
            raise ValueError(f'duplicate joint names in {list(self.names)}')
        unknown = set(required) - set(FIELDS)
        if unknown:
            raise ValueError(f'unknown JointState fields {sorted(unknown)}')
        self.required = tuple(required)
        self.allow_extra = bool(allow_extra)
        self.allow_unnamed = bool(allow_unnamed)
        self._cdr_cache = {}
        self._msg_names = None
        self._index = None
        self._identity = False

    def index(self, names):
        """
        Positions of the reader's joints in a message's name list (cached).

        Parameters
        ----------
        names : sequence of str
            The message's names.

        Returns
        -------
        numpy.ndarray or None
            Indices into ``names``, in the reader's order; None when the
            names are already in that order.

        Raises
        ------
        JointStateError
            Duplicate names, missing joints, or (without ``allow_extra``)
            joints the reader does not know.

        """
        if names is self._msg_names or names == self._msg_names:
            return None if self._identity else self._index
        names = list(names)
        lookup = {}
        for i, name in enumerate(names):
            if name in lookup:
                raise JointStateError(f'duplicate joint name {name!r}')
            lookup[name] = i
        missing = [n for n in self.names if n not in lookup]
        if missing:
            raise JointStateError(f'message lacks joints {", ".join(missing)}')
        if not self.allow_extra and len(names) != len(self.names):
            extra = [n for n in names if n not in set(self.names)]
            raise JointStateError(f'unknown joints {", ".join(extra)}')
        index = np.array([lookup[n] for n in self.names], dtype=np.intp)
        self._msg_names = names
        self._identity = len(names) == len(self.names) and bool(
            np.array_equal(index, np.arange(len(names))))
        self._index = index
        return None if self._identity else index

    def read(self, msg):
        """
        Read one message.

        Parameters
        ----------
        msg : bytes or JointState
            Serialized bytes (a raw subscription's) or a message object.

        Returns
        -------
        JointStateSample
            The fields in the reader's joint order.

        Raises
        ------
        JointStateError
            Unreadable bytes, bad or missing names, a missing required
            field, or a field whose length differs from the names'.

        """
        if isinstance(msg, (bytes, bytearray, memoryview)):
            try:
                msg = read_joint_state(bytes(msg), self._cdr_cache)
            except Exception as exc:  # noqa: B902 - any decoding failure is a bad message
                raise JointStateError(f'unreadable message ({exc})') from None
        names = msg.name
        if len(names) == 0 and self.allow_unnamed:
            if not any(len(getattr(msg, f)) for f in FIELDS):
                raise JointStateError('no names and no values')
            index, count = None, len(self.names)
        else:
            index, count = self.index(names), len(names)
        values = []
        for field in FIELDS:
            raw = getattr(msg, field)
            size = len(raw)
            if size == 0:
                if field in self.required:
                    raise JointStateError(f'no {field} values')
                values.append(None)
                continue
            if size != count:
                raise JointStateError(f'{size} {field} values for {count} '
                                      + ('names' if len(names) else 'joints'))
            arr = np.asarray(raw, dtype=float)
            values.append(arr.copy() if index is None else arr[index])
        return JointStateSample(values[0], values[1], values[2], _stamp_ns(msg))

    def __repr__(self):
        return f'JointStateReader({list(self.names)}, required={list(self.required)})'
