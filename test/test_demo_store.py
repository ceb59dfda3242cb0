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

"""The demo's run log: lazy decoding, windows, trimming."""

import threading

import numpy as np
from robodyn_ros.demo.store import RunLog


def _log():
    log = RunLog()

    def decode(data):
        k = int(data)
        if k < 0:
            raise ValueError('corrupt')
        return 100.0 + 0.01 * k, np.full(2, float(k)), None, np.zeros(2)

    log.state_decoder = decode
    return log


def test_states_are_decoded_when_read_and_windowed_by_stamp():
    """Serialized states decode on demand; a corrupt one is noted and skipped."""
    log = _log()
    for k in range(100):
        log.add_state_serialized(200.0 + 0.01 * k, str(k if k != 50 else -1))
    assert log.state_count() == 100
    assert log.state_arrivals(200.0, 200.095).size == 10
    st = log.states(100.2, 100.3)
    assert np.allclose(st['stamp'], 100.0 + 0.01 * np.arange(20, 31))
    assert np.allclose(st['q'][:, 0], np.arange(20, 31)) and np.isnan(st['qd']).all()
    assert log.state_count() == 99 and log.notes == ['joint_states: corrupt']


def test_concurrent_appends_are_all_kept():
    """Appends from a callback thread while the session reads lose nothing."""
    log = _log()

    def writer():
        for k in range(2000):
            log.add_state_serialized(float(k), str(k))
            log.add_command(float(k))

    t = threading.Thread(target=writer)
    t.start()
    while t.is_alive():
        log.states()
    t.join()
    assert log.states()['q'].shape == (2000, 2) and log.commands().size == 2000


def test_trim_forgets_old_samples():
    """Trimming drops states, commands and estimates older than the cut."""
    log = _log()
    for k in range(10):
        log.add_state_serialized(float(k), str(k))
        log.add_command(float(k))
        log.add_payload('controller_x', float(k), 1.0)
    log.states()  # half decoded, half pending
    for k in range(10, 20):
        log.add_state_serialized(float(k), str(k))
    log.trim(15.0)
    assert log.state_count() == 5 and log.commands().size == 0
    assert log.payload_estimates('controller_x')[0].size == 0
    assert np.allclose(log.states()['q'][:, 0], np.arange(15, 20))


def test_diagnostics_keep_the_latest_status():
    """The latest status per name is returned with its values."""
    log = RunLog()
    log.add_diagnostic('/hw', 1.0, 0, 'ok', {'lost_frames': '0'})
    log.add_diagnostic('/hw', 2.0, 2, 'link lost', {'lost_frames': '4'})
    assert log.diagnostic('/hw')['message'] == 'link lost'
    assert log.diagnostic('/hw')['values']['lost_frames'] == '4'
    assert log.diagnostic('/none') is None and sorted(log.diagnostics) == ['/hw']
    assert log.counter('/hw', 'lost_frames') == 4
    assert log.counter('/hw', 'missing') == 0 and log.counter('/none', 'lost_frames') == 0
    log.add_diagnostic('/hw', 3.0, 0, 'ok', {'lost_frames': 'n/a'})
    assert log.counter('/hw', 'lost_frames') == 0
