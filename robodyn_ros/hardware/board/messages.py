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
Every message of the board protocol, by name: the records, their ids and bit fields.

The catalogue the rest of the package imports from: the host's requests
(:mod:`.requests`), the board's reports and answers (:mod:`.reports`) and
what they are built from (:mod:`.wire`: ids, status and fault bits, result
codes, wire units, the :class:`Message` base and :func:`message_type`).
Each record packs and unpacks its own payload; :mod:`.codec` adds the
frame around it.
"""

from .reports import Ack, FaultReport, HeartbeatReply, Identify, StateReport
from .requests import (ClearFault, Configure, Disable, Enable, Heartbeat, IdentifyRequest,
                       SetCurrents, SetImpedance)
from .wire import (ACKED_REQUESTS, BOARD_WIDE, CURRENT_SCALE, F32_MAX, Fault, FAULT_MASK,
                   fault_names, GEAR_RATIO_SCALE, MAX_AXES, Message, message_type, MsgId,
                   PROTOCOL_VERSION, Result, Status, STATUS_MASK, TIME_SCALE,
                   TORQUE_CONSTANT_SCALE)

__all__ = [
    'ACKED_REQUESTS', 'Ack', 'BOARD_WIDE', 'CURRENT_SCALE', 'ClearFault', 'Configure',
    'Disable', 'Enable', 'F32_MAX', 'FAULT_MASK', 'Fault', 'FaultReport', 'GEAR_RATIO_SCALE',
    'Heartbeat', 'HeartbeatReply', 'Identify', 'IdentifyRequest', 'MAX_AXES', 'Message',
    'MsgId', 'PROTOCOL_VERSION', 'Result', 'STATUS_MASK', 'SetCurrents', 'SetImpedance',
    'StateReport', 'Status', 'TIME_SCALE', 'TORQUE_CONSTANT_SCALE', 'fault_names',
    'message_type',
]
