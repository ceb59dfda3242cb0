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
Record ROS 2 messages to MCAP, as already serialized CDR bytes.

A recording made here opens in Foxglove Studio and PlotJuggler and reads
back with ``mcap_ros2.reader.read_ros2_messages``: each channel carries the
``ros2msg`` schema text (the message definition followed by every nested
definition, as rosbag2 writes it), found in the ``share/<package>/msg``
folders of the ROS installation (``AMENT_PREFIX_PATH``) or of the Python
environment. No rclpy here: the caller hands over serialized messages.
"""

import os
import re
import sys
import threading
import time

from ..errors import InputError

#: Separator between nested definitions in a ``ros2msg`` schema.
SEPARATOR = '=' * 80
#: Field types that are not messages.
PRIMITIVES = frozenset((
    'bool', 'byte', 'char', 'float32', 'float64', 'int8', 'uint8', 'int16', 'uint16',
    'int32', 'uint32', 'int64', 'uint64', 'string', 'wstring', 'octet', 'float', 'double',
    'long', 'short'))
_ARRAY = re.compile(r'\[[^\]]*\]$')
_STRING_BOUND = re.compile(r'<=\d+$')


def _prefixes():
    paths = [p for p in os.environ.get('AMENT_PREFIX_PATH', '').split(os.pathsep) if p]
    paths.append(sys.prefix)
    return paths


def find_definition(package, name, prefixes=None):
    """
    Return the text of a ``.msg`` file.

    Parameters
    ----------
    package, name : str
        Package and message name, e.g. ``'sensor_msgs'``, ``'JointState'``.
    prefixes : list of str, optional
        Install prefixes to search (default ``AMENT_PREFIX_PATH`` then
        ``sys.prefix``).

    Returns
    -------
    str
        The definition.

    Raises
    ------
    InputError
        When no prefix holds it.

    """
    for prefix in prefixes or _prefixes():
        path = os.path.join(prefix, 'share', package, 'msg', name + '.msg')
        if os.path.isfile(path):
            with open(path, encoding='utf-8') as fh:
                return fh.read()
    raise InputError('message type', f'no definition of {package}/msg/{name} under '
                     f'{", ".join(prefixes or _prefixes())}')


def _nested_types(text, package):
    """Yield the message types (``pkg/Name``) of the fields of a definition."""
    for line in text.splitlines():
        line = line.split('#', 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) < 2 or '=' in parts[1] or (len(parts) > 2 and parts[2].startswith('=')):
            continue  # constants have no nested type
        kind = _STRING_BOUND.sub('', _ARRAY.sub('', parts[0]))  # array, then string bound
        if kind in PRIMITIVES:
            continue
        if '/' not in kind:
            kind = 'std_msgs/Header' if kind == 'Header' else f'{package}/{kind}'
        pkg, _, name = kind.partition('/')
        yield f'{pkg}/{name.split("/")[-1]}'


def schema_text(datatype, prefixes=None):
    """
    Build the ``ros2msg`` schema of a message type with every nested definition.

    Parameters
    ----------
    datatype : str
        ``'pkg/msg/Name'`` (or ``'pkg/Name'``).
    prefixes : list of str, optional
        Install prefixes to search.

    Returns
    -------
    str
        The main definition, then ``SEPARATOR``, ``MSG: pkg/Name`` and the
        definition of each nested type, depth first, each type once.

    """
    pkg, name = datatype.split('/')[0], datatype.split('/')[-1]
    main = find_definition(pkg, name, prefixes)
    parts, seen, todo = [main.rstrip('\n')], {f'{pkg}/{name}'}, list(_nested_types(main, pkg))
    while todo:
        kind = todo.pop(0)
        if kind in seen:
            continue
        seen.add(kind)
        sub_pkg, sub_name = kind.split('/')
        text = find_definition(sub_pkg, sub_name, prefixes)
        parts.append(f'{SEPARATOR}\nMSG: {kind}\n{text.rstrip(chr(10))}')
        todo.extend(_nested_types(text, sub_pkg))
    return '\n'.join(parts) + '\n'


class McapRecorder:
    """
    Write serialized ROS 2 messages to an MCAP file (thread-safe).

    Parameters
    ----------
    path : str
        Output file.
    metadata : dict, optional
        ``{name: {key: value}}`` records written at the start.

    """

    def __init__(self, path, metadata=None):
        from mcap.writer import CompressionType, Writer
        self.path = path
        self._fh = open(path, 'wb')
        try:
            compression = CompressionType.ZSTD
            import zstandard  # noqa: F401
        except ImportError:
            compression = CompressionType.NONE
        self._writer = Writer(self._fh, compression=compression)
        self._writer.start(profile='ros2', library='robodyn_ros')
        self._schemas = {}
        self._channels = {}
        self._sequence = {}
        self._lock = threading.Lock()
        self.messages = 0
        self._closed = False
        for name, data in (metadata or {}).items():
            self._writer.add_metadata(name, {str(k): str(v) for k, v in data.items()})

    def add_channel(self, topic, datatype):
        """
        Register a topic before its first message.

        Parameters
        ----------
        topic : str
            Topic name (absolute, as shown by ``ros2 topic list``).
        datatype : str
            ``'pkg/msg/Name'``.

        """
        with self._lock:
            if topic in self._channels:
                return
            if datatype not in self._schemas:
                self._schemas[datatype] = self._writer.register_schema(
                    datatype, 'ros2msg', schema_text(datatype).encode())
            self._channels[topic] = self._writer.register_channel(
                topic, 'cdr', self._schemas[datatype])
            self._sequence[topic] = 0

    def write(self, topic, data, log_time_ns=None):
        """
        Append one serialized message.

        Parameters
        ----------
        topic : str
            A registered topic.
        data : bytes
            The CDR bytes as received from the middleware.
        log_time_ns : int, optional
            Reception time [ns since the epoch] (default now).

        """
        stamp = time.time_ns() if log_time_ns is None else int(log_time_ns)
        with self._lock:
            if self._closed:
                return
            self._sequence[topic] += 1
            self._writer.add_message(self._channels[topic], log_time=stamp, data=bytes(data),
                                     publish_time=stamp, sequence=self._sequence[topic])
            self.messages += 1

    def close(self):
        """Write the summary and close the file (idempotent)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._writer.finish()
            self._fh.close()
