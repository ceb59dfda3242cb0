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

"""JointStateReader: serialized or decoded messages into one joint order, checked once."""

import numpy as np
import pytest
from rclpy.serialization import serialize_message
from robodyn_ros.nodes.joint_state_reader import JointStateError, JointStateReader
from sensor_msgs.msg import JointState

NAMES = ['a', 'b', 'c']


def _msg(names, position=(), velocity=(), effort=(), sec=0, nanosec=0):
    msg = JointState(name=list(names), position=[float(x) for x in position],
                     velocity=[float(x) for x in velocity], effort=[float(x) for x in effort])
    msg.header.stamp.sec, msg.header.stamp.nanosec = sec, nanosec
    return msg


@pytest.mark.parametrize('serialized', [False, True])
def test_reorders_by_name_from_bytes_and_objects(serialized):
    """Any name order (and extra joints) gives the reader's order; the stamp is kept."""
    rng = np.random.default_rng(3)
    reader = JointStateReader(NAMES, required=('position', 'velocity'))
    for _ in range(20):
        order = list(rng.permutation(NAMES + ['x', 'y'][:rng.integers(0, 3)]))
        q, qd = rng.normal(size=len(order)), rng.normal(size=len(order))
        msg = _msg(order, q, qd, sec=7, nanosec=5)
        got = reader.read(serialize_message(msg) if serialized else msg)
        idx = [order.index(n) for n in NAMES]
        assert np.array_equal(got.position, q[idx]) and np.array_equal(got.velocity, qd[idx])
        assert got.effort is None and got.stamp_ns == 7_000_000_005
        got.position[0] = 99.0           # the arrays are the caller's own
        assert reader.read(serialize_message(msg) if serialized else msg).position[0] != 99.0


def test_index_is_cached_per_name_list():
    """The same names reuse the index; new names rebuild it."""
    reader = JointStateReader(NAMES)
    first = reader.index(['c', 'a', 'b'])
    assert first.tolist() == [1, 2, 0]
    assert reader.index(['c', 'a', 'b']) is first
    assert reader.index(NAMES) is None          # already in order: no reindexing


@pytest.mark.parametrize('names, fields, match', [
    (['a', 'b', 'a'], {'position': [1, 2, 3]}, "duplicate joint name 'a'"),
    (['a', 'b'], {'position': [1, 2]}, 'lacks joints c'),
    (NAMES, {'position': [1, 2]}, '2 position values for 3 names'),
    (NAMES, {'velocity': [1, 2, 3]}, 'no position values'),
    (NAMES, {'position': [1, 2, 3], 'effort': [1.0]}, '1 effort values for 3 names'),
])
def test_bad_messages_are_refused_with_the_reason(names, fields, match):
    """Duplicates, missing joints and length mismatches raise JointStateError naming them."""
    reader = JointStateReader(NAMES)
    for data in (_msg(names, **fields), serialize_message(_msg(names, **fields))):
        with pytest.raises(JointStateError, match=match):
            reader.read(data)


def test_commands_refuse_unknown_joints_and_accept_model_order():
    """Without allow_extra a foreign joint is refused; unnamed values are in reader order."""
    reader = JointStateReader(NAMES, required=('effort',), allow_extra=False,
                              allow_unnamed=True)
    with pytest.raises(JointStateError, match='unknown joints z'):
        reader.read(_msg(NAMES + ['z'], effort=[1, 2, 3, 4]))
    assert reader.read(_msg([], effort=[1, 2, 3])).effort.tolist() == [1.0, 2.0, 3.0]
    with pytest.raises(JointStateError, match='2 effort values for 3 joints'):
        reader.read(_msg([], effort=[1, 2]))
    with pytest.raises(JointStateError, match='no effort values'):
        reader.read(_msg(NAMES, position=[1, 2, 3]))


def test_corrupt_bytes_are_a_joint_state_error():
    """Truncated serialized data is refused, not a crash."""
    data = serialize_message(_msg(NAMES, position=[1, 2, 3]))
    with pytest.raises(JointStateError, match='unreadable message'):
        JointStateReader(NAMES).read(data[:len(data) - 20])


def test_reader_names_must_be_unique():
    """A reader for duplicate joints is a programming error."""
    with pytest.raises(ValueError, match='duplicate'):
        JointStateReader(['a', 'a'])
