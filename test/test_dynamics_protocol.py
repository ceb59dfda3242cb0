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


"""Messages of the dynamics service: ids, states in model order, errors, chunks, JSON."""

import numpy as np
import pytest
from robodyn_ros.nodes import dynamics_cdr as cdr
from robodyn_ros.nodes import dynamics_protocol as proto
from std_msgs.msg import String

NAMES = ['a', 'b', 'c']


def test_request_states_reorder():
    """States come out in model order; the order maps efforts back to the request's."""
    q = np.arange(6.0).reshape(2, 3)
    data = cdr.encode(5, 7, 'x', ['c', 'a', 'b'], q, q + 10)
    assert proto.request_id(data) == 'x@5.000000007'
    qm, qdm, qddm, order = proto.request_states(cdr.decode(data), NAMES)
    assert np.array_equal(qm, q[:, [1, 2, 0]]) and np.array_equal(qdm, q[:, [1, 2, 0]] + 10)
    assert np.array_equal(qddm, np.zeros((2, 3)))
    assert np.array_equal(qm[:, order], q)         # model order -> request order
    same = proto.request_states(cdr.decode(cdr.encode(0, 0, 'y', NAMES, q)), NAMES)
    assert np.array_equal(same[0], q) and np.array_equal(same[3], [0, 1, 2])


def test_request_states_refusals():
    """Unknown, missing, repeated joints and no positions raise ValueError with the reason."""
    q = np.zeros((3, 3))
    cases = [(['a', 'b', 'd'], q, 'unknown joints d'), (['a', 'b'], q[:, :2], 'lacks joints c'),
             (['a', 'b', 'a'], q, 'repeats one')]
    for names, arr, match in cases:
        with pytest.raises(ValueError, match=match):
            proto.request_states(cdr.decode(cdr.encode(0, 0, 'f', names, arr)), NAMES)
    effort_only = cdr.decode(cdr.encode(0, 0, 'f', NAMES, effort=q))
    with pytest.raises(ValueError, match='no positions'):
        proto.request_states(effort_only, NAMES)


def test_errors_chunks_and_json():
    """Error details parse back; chunk ids round-trip; malformed ids and JSON are recognised."""
    err = cdr.decode(cdr.encode_error(0, 0, 'f', 'busy', 'full', {'queue_depth': 3}))
    assert proto.parse_error(err) == ('busy', 'full', {'queue_depth': '3'})
    assert proto.parse_chunk_id(proto.chunk_id('abc', 4, False)) == ('abc', 4, False)
    for bad in ('abc:4', 'abc:x:1', 'abc:1:2'):
        with pytest.raises(ValueError):
            proto.parse_chunk_id(bad)
    assert proto.parse_json(proto.json_msg({'k': 1})) == {'k': 1}
    assert proto.parse_json(String(data='[1, 2]')) is None
    assert proto.parse_json(String(data='{not json')) is None
    assert set(proto.ERROR_CODES) == {'invalid', 'too_large', 'busy', 'failed'}


def test_a_probe_is_a_request_with_no_points_and_no_joints():
    """A probe is recognised; an error (it names a code) and a request are not probes."""
    assert proto.is_probe(cdr.decode(cdr.encode_probe(1, 2, 'p')))
    assert not proto.is_probe(cdr.decode(cdr.encode_error(1, 2, 'p', proto.READY, 'x')))
    assert not proto.is_probe(cdr.decode(cdr.encode(1, 2, 'p', ['a'], [[0.0]])))
    assert proto.READY not in proto.ERROR_CODES
