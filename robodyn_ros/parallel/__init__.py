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
Parallel dynamics (no rclpy): the seeds' partitioning schemes on real threads.

* :mod:`.taskgraph`, :mod:`.schedule`, :mod:`.gantt`: seed 004's 3-flop
  subtasks, layered graph and list scheduler;
"""

from .schedule import list_schedule, Schedule
from .taskgraph import generic_graph, task_graph, TaskGraph

__all__ = ['Schedule', 'TaskGraph', 'generic_graph', 'list_schedule', 'task_graph']
