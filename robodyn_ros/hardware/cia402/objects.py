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
Object indexes, COB-IDs and the PDO layout of the CiA 402 backend.

Both the host (:mod:`.configure`, :mod:`.cycle`) and the simulated drive
use this one description, so a mapping the host writes is the mapping the
drive serves. Per drive with node id ``k``:

=========  ==============  ================================================
PDO        COB-ID          content (little endian)
=========  ==============  ================================================
RPDO1      0x200 + k       controlword 0x6040 (u16), target torque 0x6071
                           (i16, per mille of the rated torque 0x6076)
TPDO1      0x180 + k       statusword 0x6041 (u16), position actual 0x6064
                           (i32, encoder increments)
TPDO2      0x280 + k       velocity actual 0x606C (i32, increments/s),
                           torque actual 0x6077 (i16, per mille)
=========  ==============  ================================================

All three are synchronous (transmission type 1): the TPDOs answer every
SYNC (COB-ID 0x80), the RPDO received between two SYNCs takes effect at
the next one. Heartbeats are 0x700 + id, EMCY 0x80 + id, SDO 0x600/0x580 + id.
"""

import struct

# Communication objects
DEVICE_TYPE = 0x1000
ERROR_REGISTER = 0x1001
COB_ID_SYNC = 0x1005
CYCLE_PERIOD = 0x1006
DEVICE_NAME = 0x1008
SOFTWARE_VERSION = 0x100A
CONSUMER_HEARTBEAT = 0x1016
PRODUCER_HEARTBEAT = 0x1017
IDENTITY = 0x1018
RPDO_COMM = 0x1400
RPDO_MAP = 0x1600
TPDO_COMM = 0x1800
TPDO_MAP = 0x1A00
# CiA 402 objects
ABORT_CONNECTION = 0x6007
ERROR_CODE = 0x603F
CONTROLWORD = 0x6040
STATUSWORD = 0x6041
QUICK_STOP_OPTION = 0x605A
FAULT_REACTION_OPTION = 0x605E
MODES_OF_OPERATION = 0x6060
MODES_DISPLAY = 0x6061
POSITION_ACTUAL = 0x6064
VELOCITY_ACTUAL = 0x606C
TARGET_TORQUE = 0x6071
MAX_TORQUE = 0x6072
RATED_TORQUE = 0x6076
TORQUE_ACTUAL = 0x6077
ENCODER_RESOLUTION = 0x608F

#: Modes of operation: cyclic synchronous torque.
MODE_CST = 10
#: Device type of a CiA 402 servo drive (low word 402).
DEVICE_TYPE_402 = 402
#: Abort connection option code 3: quick stop on a communication error.
ABORT_QUICK_STOP = 3
#: Quick stop option code 2: stop, then Switch on disabled.
QUICK_STOP_DISABLE = 2

SYNC_COB_ID = 0x80
NMT_COB_ID = 0x000
#: Heartbeat NMT state byte of an operational node.
NMT_OPERATIONAL = 0x05
NMT_PRE_OPERATIONAL = 0x7F

#: (index, subindex, bits) of every mapped object, per PDO.
RPDO1 = ((CONTROLWORD, 0, 16), (TARGET_TORQUE, 0, 16))
TPDO1 = ((STATUSWORD, 0, 16), (POSITION_ACTUAL, 0, 32))
TPDO2 = ((VELOCITY_ACTUAL, 0, 32), (TORQUE_ACTUAL, 0, 16))
#: Transmission type: synchronous, every SYNC.
SYNCHRONOUS = 1

RPDO1_FORMAT = struct.Struct('<Hh')
TPDO1_FORMAT = struct.Struct('<Hi')
TPDO2_FORMAT = struct.Struct('<ih')


def rpdo1_cob_id(node_id):
    """Return the COB-ID of a drive's RPDO1 (int)."""
    return 0x200 + node_id


def tpdo1_cob_id(node_id):
    """Return the COB-ID of a drive's TPDO1 (int)."""
    return 0x180 + node_id


def tpdo2_cob_id(node_id):
    """Return the COB-ID of a drive's TPDO2 (int)."""
    return 0x280 + node_id


def heartbeat_cob_id(node_id):
    """Return the COB-ID of a node's heartbeat (int)."""
    return 0x700 + node_id


def emcy_cob_id(node_id):
    """Return the COB-ID of a drive's EMCY (int)."""
    return 0x80 + node_id


def mapping_entry(index, subindex, bits):
    """
    Encode one PDO mapping entry as CiA 301 writes it.

    Parameters
    ----------
    index, subindex : int
        The mapped object.
    bits : int
        Its length [bit].

    Returns
    -------
    int
        ``index << 16 | subindex << 8 | bits``.

    """
    return (index << 16) | (subindex << 8) | bits


def mapping_fields(entry):
    """
    Decode one PDO mapping entry.

    Parameters
    ----------
    entry : int
        ``index << 16 | subindex << 8 | bits``.

    Returns
    -------
    tuple
        ``(index, subindex, bits)``.

    """
    return (entry >> 16) & 0xFFFF, (entry >> 8) & 0xFF, entry & 0xFF


def consumer_entry(node_id, time_ms):
    """
    Encode a consumer heartbeat entry (0x1016 sub 1..).

    Parameters
    ----------
    node_id : int
        The producer watched.
    time_ms : int
        Consumer time [ms].

    Returns
    -------
    int
        ``node_id << 16 | time_ms``.

    """
    return (node_id << 16) | (time_ms & 0xFFFF)


#: Descriptions of the EMCY error codes the backend names (CiA 301/402).
EMCY_CODES = {
    0x0000: 'error reset or no error',
    0x1000: 'generic error',
    0x2310: 'continuous over-current',
    0x3210: 'DC link over-voltage',
    0x4310: 'excess drive temperature',
    0x5530: 'data storage error',
    0x6320: 'parameter error',
    0x7305: 'incremental sensor fault',
    0x8130: 'life guard or heartbeat error',
    0x8250: 'RPDO timeout',
    0x8611: 'following error',
    0xFF00: 'device specific',
}


def emcy_description(code):
    """Describe an EMCY error code in words (str)."""
    text = EMCY_CODES.get(code) or EMCY_CODES.get(code & 0xFF00) or 'unknown error'
    return f'0x{code:04X} {text}'
