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

"""MCAP recording of serialized messages, read back with mcap_ros2's own decoder."""

from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue
from mcap.reader import make_reader
from mcap_ros2.decoder import DecoderFactory
import pytest
from rclpy.serialization import serialize_message
from robodyn_ros.demo.recording import find_definition, McapRecorder, schema_text
from robodyn_ros.errors import InputError
from sensor_msgs.msg import JointState
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint


def read_ros2_messages(path, topics):
    with open(path, 'rb') as fh:
        reader = make_reader(fh, decoder_factories=[DecoderFactory()])
        return list(reader.iter_decoded_messages(topics=topics))


def test_schema_has_every_nested_definition_once():
    """The schema of JointTrajectory lists Header, Time, JointTrajectoryPoint, Duration once."""
    text = schema_text('trajectory_msgs/msg/JointTrajectory')
    nested = [line for line in text.splitlines() if line.startswith('MSG: ')]
    assert sorted(nested) == sorted({'MSG: std_msgs/Header', 'MSG: builtin_interfaces/Time',
                                     'MSG: trajectory_msgs/JointTrajectoryPoint',
                                     'MSG: builtin_interfaces/Duration'})


def test_unknown_type_is_a_clear_error():
    """A type without a definition names the package and the folders searched."""
    with pytest.raises(InputError, match='no_such_msgs/msg/Nothing'):
        find_definition('no_such_msgs', 'Nothing')


def test_round_trip_through_mcap(tmp_path):
    """Messages written as CDR bytes decode back to the same values, in order."""
    path = str(tmp_path / 'run.mcap')
    rec = McapRecorder(path, metadata={'robodyn_demo': {'robot': 'puma560'}})
    rec.add_channel('/joint_states', 'sensor_msgs/msg/JointState')
    rec.add_channel('/planned_trajectory', 'trajectory_msgs/msg/JointTrajectory')
    rec.add_channel('/diagnostics', 'diagnostic_msgs/msg/DiagnosticArray')
    for k in range(50):
        msg = JointState(name=['a', 'b'], position=[0.1 * k, -0.2 * k], velocity=[1.0, 2.0])
        msg.header.stamp.sec = 10 + k
        rec.write('/joint_states', serialize_message(msg), log_time_ns=(10 + k) * 10 ** 9)
    traj = JointTrajectory(joint_names=['a', 'b'], points=[
        JointTrajectoryPoint(positions=[0.0, 1.0], velocities=[0.5, 0.5])])
    traj.points[0].time_from_start.nanosec = 5000
    rec.write('/planned_trajectory', serialize_message(traj))
    diag = DiagnosticArray(status=[DiagnosticStatus(level=DiagnosticStatus.WARN, name='/x',
                                                    values=[KeyValue(key='k', value='v')])])
    rec.write('/diagnostics', serialize_message(diag))
    rec.close()
    rec.close()  # idempotent
    assert rec.messages == 52
    states = read_ros2_messages(path, topics=['/joint_states'])
    assert len(states) == 50
    for k, (schema, channel, message, decoded) in enumerate(states):
        assert list(decoded.position) == pytest.approx([0.1 * k, -0.2 * k])
        assert decoded.header.stamp.sec == 10 + k and message.log_time == (10 + k) * 10 ** 9
        assert channel.message_encoding == 'cdr' and schema.encoding == 'ros2msg'
    ((_, _, _, plan),) = read_ros2_messages(path, topics=['/planned_trajectory'])
    assert plan.points[0].time_from_start.nanosec == 5000
    assert list(plan.points[0].velocities) == [0.5, 0.5]
    ((_, _, _, d),) = read_ros2_messages(path, topics=['/diagnostics'])
    assert d.status[0].values[0].value == 'v' and d.status[0].name == '/x'


def test_nested_types_skip_primitives_bounds_and_constants():
    """Bounded strings and arrays are primitives; Header and relative names resolve."""
    from robodyn_ros.demo.recording import _nested_types
    text = ('string<=10 a\nstring<=5[<=3] b\nint32[4] c\nfloat64[] d\nHeader h\n'
            'Point p  # relative\nfoo/Bar[] e\nbyte OK=0\n# comment only\n')
    assert list(_nested_types(text, 'pkg')) == ['std_msgs/Header', 'pkg/Point', 'foo/Bar']
