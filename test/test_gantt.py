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

"""Gantt chart of a schedule: a PNG of the right size, errors for bad paths."""

import pytest
from robodyn_ros.errors import InputError
from robodyn_ros.parallel.gantt import draw_gantt
from robodyn_ros.parallel.schedule import list_schedule
from robodyn_ros.parallel.taskgraph import generic_graph


def test_draws_a_png(tmp_path):
    """The file is a PNG whose width grows with the schedule length."""
    short = draw_gantt(list_schedule(generic_graph(3), 6), tmp_path / 'short.png')
    long = draw_gantt(list_schedule(generic_graph(3), 1), tmp_path / 'long.png', title='x')
    for path in (short, long):
        with open(path, 'rb') as fh:
            assert fh.read(8) == b'\x89PNG\r\n\x1a\n'

    def width(path):
        with open(path, 'rb') as fh:
            head = fh.read(24)
        return int.from_bytes(head[16:20], 'big')
    assert width(long) > width(short)


def test_missing_folder(tmp_path):
    """A path in a folder that does not exist gives InputError."""
    with pytest.raises(InputError):
        draw_gantt(list_schedule(generic_graph(2), 2), tmp_path / 'nope' / 'g.png')
