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
Faults of the simulated drive set: the board's plant faults plus the drives' own.

==============  =======================  ==========================================
fault           parameters               what the drive set does
==============  =======================  ==========================================
drop            rate, direction          drops received (rx) or sent (tx) frames
delay           seconds                  holds every TPDO back
disconnect      (none)                   the whole set goes silent (bus unplugged)
stuck_encoder   axis (-1: all)           freezes the encoder count
over_current    axis, amps               adds ``amps`` to the measured current:
                                         the drive trips (EMCY 0x2310, Fault)
emcy            axis, code               the drive faults with this EMCY code
                                         (default 0x4310) while injected
heartbeat_loss  axis                     the drive stops sending heartbeats
refuse_mode     axis                     the drive refuses modes of operation 10
                                         (SDO abort 0x06090030)
wrong_readback  axis, index              the drive reads back another value of
                                         ``index`` than written (value + 1)
bad_tpdo        axis                     the drive's TPDO1 goes out one byte short
==============  =======================  ==========================================

``axis`` is a joint index (-1: every drive). Names and parameters go on the
command line (``--inject emcy:axis=1,code=0x2310``) and the control channel
as for the board.
"""

from ..board.faults import FAULT_PARAMS, FaultInjector, FaultSpecError

#: The board's faults that act on a drive set, and the drives' own.
DRIVE_FAULTS = {
    **{k: FAULT_PARAMS[k] for k in ('drop', 'delay', 'disconnect', 'stuck_encoder',
                                    'over_current')},
    'emcy': {'axis': 0, 'code': 0x4310},
    'heartbeat_loss': {'axis': 0},
    'refuse_mode': {'axis': 0},
    'wrong_readback': {'axis': 0, 'index': 0x6076},
    'bad_tpdo': {'axis': 0},
}


def _integer(name, key, value):
    try:
        return int(value, 0) if isinstance(value, str) else int(value)
    except (TypeError, ValueError):
        raise FaultSpecError(f'fault {name}: {key} must be an integer, got {value!r}') from None


class DriveFaultInjector(FaultInjector):
    """The faults active on a simulated drive set (see the module docstring)."""

    table = DRIVE_FAULTS

    def inject(self, name, params, board_time_us=0):
        """
        Activate a fault (replacing the same fault's parameters).

        Parameters
        ----------
        name : str
            Fault name.
        params : dict
            Its parameters (checked; ``code`` and ``index`` may be hex strings).
        board_time_us : int
            Drive time, for the log [us].

        Returns
        -------
        dict
            The checked parameters.

        """
        params = dict(params)
        for key in ('code', 'index'):
            if key in params:
                params[key] = _integer(name, key, params[key])
        return super().inject(name, params, board_time_us)

    def on(self, name, axis):
        """
        Tell whether a per-axis fault is active on a drive.

        Parameters
        ----------
        name : str
            Fault name.
        axis : int
            Joint index.

        Returns
        -------
        dict or None
            Its parameters when active on ``axis``.

        """
        p = self.active.get(name)
        if p is not None and int(p.get('axis', -1)) in (-1, axis):
            return p
        return None
