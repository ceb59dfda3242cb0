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

"""Errors of the CiA 402 backend: each names the drive (node id and joint) and the object."""

from ..errors import BoardMismatch, BoardTimeout, HardwareError


def where(node_id, joint):
    """Name a drive in messages: ``drive node 3 (joint 'shoulder')`` (str)."""
    return f'drive node {node_id} (joint {joint!r})'


class DriveConfigError(BoardMismatch):
    """A drive differs from what the host expects, or did not keep a configured value."""


class DriveRefused(HardwareError):
    """A drive refused a request (SDO abort, or a power state it does not leave)."""


class DriveTimeout(BoardTimeout):
    """A drive did not answer in time."""
