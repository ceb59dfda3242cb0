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
Errors of the driver-board integration.

Protocol errors describe bytes that are not a valid frame or message; they
are raised by the decoder and collected (never raised) by the stream parser.
Hardware errors describe a board that is absent, silent, different from the
model or refusing a request.
"""

from ..errors import RobodynError


class ProtocolError(RobodynError, ValueError):
    """Bytes that are not a valid frame or message of the board protocol."""


class FrameError(ProtocolError):
    """Bad sync, length or CRC: the bytes are not a frame."""


class CrcError(FrameError):
    """The frame's CRC does not match its contents."""


class MessageError(ProtocolError):
    """A frame with a valid CRC whose id or payload is not a valid message."""


class HardwareError(RobodynError):
    """The board cannot be used as asked."""


class TransportError(HardwareError, OSError):
    """The byte link to the board failed (device gone, socket closed, I/O error)."""


class BoardTimeout(HardwareError, TimeoutError):
    """The board did not answer in time."""


class BoardRefused(HardwareError):
    """
    The board answered a request with a negative acknowledgement.

    Parameters
    ----------
    request : str
        Name of the refused request, e.g. ``'enable'``.
    result : str
        The board's result code name, e.g. ``'fault_active'``.
    detail : int
        The board's detail word (fault bits or axis index).

    """

    def __init__(self, request, result, detail=0):
        self.request = request
        self.result = result
        self.detail = int(detail)
        super().__init__(f'board refused {request}: {result} (detail 0x{self.detail:04x})')


class BoardMismatch(HardwareError):
    """The board does not match the robot model or the node's expectations."""


class CommandRejected(RobodynError, ValueError):
    """
    A joint command that cannot be applied (unreadable, wrong joints or values).

    Raised by a command source (see
    :attr:`robodyn_ros.hardware.interface.HardwareInterface.command_source`);
    the interface counts it and reports ``reason``.

    Parameters
    ----------
    reason : str
        What is wrong with it.
    stamp : float
        Its arrival time (monotonic) [s].

    """

    def __init__(self, reason, stamp):
        super().__init__(reason)
        self.reason = reason
        self.stamp = stamp
