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
``robodyn faults --short``: every case of the safety table on the running graph.

Real processes (simulated board over UDP, hardware interface, planner,
controller, parallel dynamics) on loopback DDS; the drift is the board's
true joint motion. Run in CI in its short form.
"""

import json
import math
import subprocess
import sys
from types import SimpleNamespace

from robodyn_ros.demo.fault_campaign import CaseResult, DRIFT_LIMIT_DEG, FaultCampaign, table
from robodyn_ros.demo.fault_cases import CASE_NAMES
from robodyn_ros.demo.graph import HARDWARE
from robodyn_ros.demo.store import RunLog


def test_every_case_passes_on_the_simulated_robot(tmp_path):
    """Exit 0, every case in faults.json within the limits, the table printed."""
    proc = subprocess.run([sys.executable, '-m', 'robodyn_ros.cli.main', 'faults', '--short',
                           '--out', str(tmp_path)], capture_output=True, text=True,
                          timeout=600)
    report = json.loads((tmp_path / 'faults.json').read_text())
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert [c['name'] for c in report['cases']] == list(CASE_NAMES)
    for case in report['cases']:
        assert case['passed'], case
        if case['drift_limited']:
            assert max(case['drift_deg']) < DRIFT_LIMIT_DEG, case
    held = {c['name']: c for c in report['cases']}
    for name in ('controller_killed', 'implausible_states_far', 'controller_deactivated'):
        assert 'holding' in held[name]['reaction'] and held[name]['time_to_safe'] < 0.5, name
    assert 'refused' in held['rogue_invalid_commands']['reaction']
    assert held['link_lost_in_motion']['velocity_ratio'] <= 1.2
    assert 'in use' in held['second_board_same_port']['reaction']
    assert 'FAIL' not in proc.stdout and (tmp_path / 'faults.txt').exists()
    assert 'DDS data over UDP only' in proc.stdout + proc.stderr    # parts are killed, restarted


def test_table_and_verdicts():
    """A drift over the limit fails a case at rest, not one in a motion; the table says so."""
    at_rest = CaseResult('a', 'x', 'running -> holding', 0.02, [0.1, 0.7], math.nan)
    moving = CaseResult('b', 'y', 'running -> holding', 0.02, [1.4, 0.2], math.nan,
                        drift_limited=False)

    class _Quiet:
        """A campaign stand-in whose graph is healthy."""

        class session:  # noqa: N801 - mimics the attribute path
            class group:  # noqa: N801
                @staticmethod
                def check():
                    return None

    from robodyn_ros.demo.fault_campaign import FaultCampaign
    FaultCampaign.judge(_Quiet(), at_rest)
    FaultCampaign.judge(_Quiet(), moving)
    assert not at_rest.passed and 'joint(s) 2' in at_rest.failures[0]
    assert moving.passed
    text = table([at_rest, moving])
    assert 'FAIL' in text and 'pass (drift reported)' in text and '1 of 2 cases passed' in text


class _Deactivated:
    """A campaign stand-in for controller_deactivated: what the interface and controller said."""

    hold_time = 0.0
    controller = 'controller_computed_torque'

    def __init__(self, transitions, controller_message):
        self._transitions = transitions
        message = controller_message

        class _Log:
            @staticmethod
            def diagnostic(name):
                return {'message': message} if name == '/controller_computed_torque' else None

        class _Session:
            @staticmethod
            def transition(node, transition):
                return True

        self.log, self.session = _Log(), _Session()

    def here(self):
        return [0.0] * 6, 0.0

    def drift(self, q0, t0):
        return [0.0] * 6

    def first_safe(self, t0):
        return 0.01

    def transitions(self, t0):
        return [(0.0, t) for t in self._transitions]

    def reaction(self, t0):
        return ', '.join(self._transitions)

    def activate_controller(self):
        return None

    def drive_state(self):
        return 'running'

    def wait_running(self):
        return None


def test_deactivation_verdict_accepts_a_stale_stream_only_with_the_release_said():
    """Release seen: pass; stale first and the controller released: pass; otherwise fail."""
    from robodyn_ros.demo.fault_cases import controller_deactivated
    released = 'running -> holding: joint_commands released by its source: holding position'
    stale = 'running -> holding: joint_commands older than 0.02 s: holding position'
    said = 'deactivated: command stream released, no output'
    assert controller_deactivated(_Deactivated([released], 'active')).failures == []
    late = controller_deactivated(_Deactivated([stale], said))
    assert late.failures == [] and 'stale before the release' in late.reaction
    for transitions, message in (([stale], 'active'), ([], said), (['running -> fault'], said)):
        r = controller_deactivated(_Deactivated(transitions, message))
        assert r.failures == ['the interface did not see a release'], (transitions, message)


def test_transitions_count_a_republished_status_once():
    """The node republishes its last transition with its status: one transition, first arrival."""
    log = RunLog()
    name = '/' + HARDWARE
    for t, msg in [(1.0, 'drive disabled -> armed: activated'),
                   (2.0, 'drive armed -> running: a command stream arrived'),
                   (3.0, 'drive armed -> running: a command stream arrived'),   # republished
                   (3.5, 'outputs on'),                                         # health, other
                   (4.0, 'drive armed -> running: a command stream arrived'),   # republished
                   (5.0, 'drive running -> fault: EMCY'),
                   (6.0, 'drive running -> fault: EMCY'),
                   (7.0, 'drive fault -> armed: reset'),
                   (8.0, 'drive armed -> running: a command stream arrived')]:
        log.add_diagnostic(name, t, 0, msg, {})
    campaign = FaultCampaign.__new__(FaultCampaign)     # only its session's log is needed
    campaign.session = SimpleNamespace(log=log)
    assert [text.split(':')[0] for _, text in campaign.transitions(2.5)] == [
        'running -> fault', 'fault -> armed', 'armed -> running']
    assert [t for t, _ in campaign.transitions(0.0)] == [1.0, 2.0, 5.0, 7.0, 8.0]
    assert campaign.drive_state() == 'running'
