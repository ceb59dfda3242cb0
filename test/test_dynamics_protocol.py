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

"""Messages of the dynamics service: ids, states, efforts, chunks, JSON."""

import numpy as np
import pytest
from robodyn_ros.nodes import dynamics_protocol as proto
from robodyn_ros.nodes.conversions import trajectory_msg
from std_msgs.msg import String

NAMES = ['a', 'b', 'c']


def test_request_states_reorder_and_fill_efforts():
    """States come out in model order; efforts go back in request order."""
    q = np.arange(6.0).reshape(2, 3)
    msg = trajectory_msg(['c', 'a', 'b'], [0.0, 0.1], q, q + 10, None, frame_id='x')
    msg.header.stamp.sec, msg.header.stamp.nanosec = 5, 7
    assert proto.request_id(msg) == 'x@5.000000007'
    qm, qdm, qddm, order = proto.request_states(msg, NAMES, 10)
    assert np.array_equal(qm, q[:, [1, 2, 0]]) and np.array_equal(qdm, q[:, [1, 2, 0]] + 10)
    assert np.array_equal(qddm, np.zeros((2, 3)))
    proto.fill_efforts(msg, qm * 2, order)
    assert list(msg.points[1].effort) == [6.0, 8.0, 10.0]
    assert np.array_equal(proto.response_efforts(msg, NAMES), qm * 2)
    err = proto.error_response(msg)
    assert proto.is_error(err) and err.header == msg.header and not proto.is_error(msg)


def test_request_states_refusals():
    """Unknown joints, no points and too many points raise ValueError with the reason."""
    q = np.zeros((3, 3))
    with pytest.raises(ValueError, match='unknown joints d'):
        proto.request_states(trajectory_msg(['a', 'b', 'd'], [0, 0, 0], q), NAMES, 10)
    with pytest.raises(ValueError, match='no points'):
        proto.request_states(trajectory_msg(NAMES, [], q[:0]), NAMES, 10)
    with pytest.raises(ValueError, match='max_points'):
        proto.request_states(trajectory_msg(NAMES, [0, 0, 0], q), NAMES, 2)
    with pytest.raises(ValueError, match='lacks joints c'):
        proto.request_states(trajectory_msg(['a', 'b'], [0, 0, 0], q[:, :2]), NAMES, 10)


def test_chunks_and_json():
    """Chunk ids round-trip; malformed ids and JSON are recognised."""
    q = np.ones((2, 3))
    msg = proto.chunk_request('abc', 4, False, trajectory_msg(NAMES, [0], q[:1]).header.stamp,
                              NAMES, q, q, q)
    assert proto.parse_chunk_id(msg.header.frame_id) == ('abc', 4, False)
    for bad in ('abc:4', 'abc:x:1', 'abc:1:2'):
        with pytest.raises(ValueError):
            proto.parse_chunk_id(bad)
    assert proto.parse_json(proto.json_msg({'k': 1})) == {'k': 1}
    assert proto.parse_json(String(data='[1, 2]')) is None
    assert proto.parse_json(String(data='{not json')) is None
