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
Publishing that lets the other Python threads run while the middleware writes.

rclpy's ``Publisher.publish`` keeps Python's GIL for the whole middleware
write. A write normally takes microseconds, but Fast DDS can block in it:
opening a shared-memory port waits for the port's health check (a third of
a second on a healthy idle port, eProsima/Fast-DDS#6535; up to a second
when the subscriber's process was killed), and a reliable writer waits on
a reader that stopped acknowledging. Measured here: a publisher thread at
1 kHz stalled every other thread of its process for 330 ms when a
``joint_states`` subscriber process was killed, and a control loop in the
same process missed 330 cycles (the board's 100 ms watchdog braked the
arm). :class:`GilFreePublisher` serializes the message (microseconds, with
the GIL) and calls ``rcl_publish_serialized_message`` through ``ctypes``,
which releases the GIL for the call: a blocked write then blocks only the
thread that publishes. Where ``librcl`` cannot be reached (another layout
of the ROS install) it falls back to rclpy's own publish and says so once.
"""

import ctypes
import logging
import threading

from rclpy.serialization import serialize_message

_LOG = logging.getLogger(__name__)


class _Allocator(ctypes.Structure):
    """``rcutils_allocator_t``: four function pointers and a state pointer."""

    _fields_ = [('allocate', ctypes.c_void_p), ('deallocate', ctypes.c_void_p),
                ('reallocate', ctypes.c_void_p), ('zero_allocate', ctypes.c_void_p),
                ('state', ctypes.c_void_p)]


class _SerializedMessage(ctypes.Structure):
    """
    ``rcl_serialized_message_t`` (``rcutils_uint8_array_t``).

    The buffer is declared ``char *`` so that a ``bytes`` object is stored by
    its data pointer (and kept alive by the record) without a cast.
    """

    _fields_ = [('buffer', ctypes.c_char_p), ('buffer_length', ctypes.c_size_t),
                ('buffer_capacity', ctypes.c_size_t), ('allocator', _Allocator)]


class _ErrorString(ctypes.Structure):
    """``rcutils_error_string_t``: the formatted error of the calling thread."""

    _fields_ = [('str', ctypes.c_char * 1024)]


_LIB = {}
_LIB_LOCK = threading.Lock()


def rcl_library():
    """
    Return ``librcl`` and ``librcutils`` as ``ctypes`` libraries, or None.

    rclpy has loaded both already (its extension links them), so their
    names resolve to the loaded copies. ``ctypes.CDLL`` functions release
    the GIL during the call.

    Returns
    -------
    tuple or None
        ``(rcl, rcutils)``, or None when they cannot be loaded.

    """
    with _LIB_LOCK:
        if 'libs' not in _LIB:
            _LIB['libs'] = _load()
        return _LIB['libs']


def _load():
    import rclpy  # noqa: F401 - loads librcl and librcutils
    try:
        rcl, rcutils = ctypes.CDLL('librcl.so'), ctypes.CDLL('librcutils.so')
        publish = rcl.rcl_publish_serialized_message
        get_error, reset_error = rcutils.rcutils_get_error_string, rcutils.rcutils_reset_error
    except (OSError, AttributeError) as exc:
        _LOG.warning('librcl not reachable through ctypes (%s): publishing with rclpy, '
                     'which holds the GIL during the write', exc)
        return None
    publish.argtypes = [ctypes.c_void_p, ctypes.POINTER(_SerializedMessage), ctypes.c_void_p]
    publish.restype = ctypes.c_int
    get_error.argtypes, get_error.restype = [], _ErrorString
    reset_error.argtypes, reset_error.restype = [], None
    return rcl, rcutils


class PublishError(RuntimeError):
    """The middleware refused a message (rcl's return code and error text)."""


class GilFreePublisher:
    """
    Publish through an rclpy publisher without holding the GIL in the write.

    Parameters
    ----------
    publisher : rclpy.publisher.Publisher
        The publisher (a lifecycle publisher publishes only while activated,
        as its own ``publish`` does).

    Notes
    -----
    The call holds the publisher's handle (rclpy defers its destruction
    until the call returns), so destroying the publisher from another
    thread is safe.

    """

    def __init__(self, publisher):
        self.publisher = publisher
        libs = rcl_library()
        self._publish = libs[0].rcl_publish_serialized_message if libs else None
        self._errors = libs[1] if libs else None

    @property
    def releases_gil(self):
        """Whether the write runs without the GIL (bool)."""
        return self._publish is not None

    def publish(self, msg):
        """
        Publish a message or its serialized bytes.

        Parameters
        ----------
        msg : rclpy message or bytes
            The message (serialized here) or CDR bytes.

        Returns
        -------
        bool
            False when a lifecycle publisher is not activated (nothing sent).

        Raises
        ------
        PublishError
            When rcl refuses the message.

        """
        pub = self.publisher
        if not getattr(pub, 'is_activated', True):
            return False
        data = msg if isinstance(msg, bytes) else serialize_message(msg)
        if self._publish is None:
            pub.publish(data)
            return True
        handle = pub.handle
        with handle:
            # A separate record per call: two threads may publish at once.
            size = len(data)
            record = _SerializedMessage(data, size, size)
            ret = self._publish(handle.pointer, ctypes.byref(record), None)
        if ret != 0:
            text = self._errors.rcutils_get_error_string().str.decode(errors='replace')
            self._errors.rcutils_reset_error()
            raise PublishError(f'rcl_publish_serialized_message returned {ret}: {text}')
        return True
