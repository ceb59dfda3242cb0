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
The hardware interface's health summary: level, message and the link and drive counters.

Read by the nodes' diagnostics (``hardware_interface``, ``control_loop``).
"""


def interface_health(hw):
    """
    Summarise a hardware interface's health, with its statistics as values.

    Parameters
    ----------
    hw : HardwareInterface
        The interface (its driver, settings, reaction, commands, statistics
        and problem list are read, nothing is changed).

    Returns
    -------
    Health
        Level, message and key values.

    """
    st = hw.driver.stats
    ident = hw.driver.identity
    last = hw.driver.last_sample
    values = {
        'state': hw.state,
        'board_mode': hw.settings.board_mode,
        'drive_state': hw.reaction.state.value,
        'drive_state_cause': hw.reaction.cause,
        'command_source': (str(hw.commands.owner) if hw.commands.claimed else ''),
        'firmware': '.'.join(map(str, ident.firmware)) if ident else '',
        **hw.stats.values(),
        'latency_us': last.latency_us if last else '',
        'lost_frames': st.lost_frames, 'reordered_frames': st.reordered_frames,
        'crc_errors': st.crc_errors,
        'message_errors': st.message_errors, 'reconnects': st.reconnects,
        'skipped_reports': hw.driver.skipped,
        'commands_rejected': hw.commands.rejected,
        'commands_foreign': hw.commands.foreign,
        'sources_barred': len(hw.commands.barred),
        'friction_compensation': hw.settings.friction_compensation,
        **hw.driver.health_values(),
    }
    return hw.problems.health(values)
