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

* :mod:`.batch`: batch partitioning, the scheme that pays:
  :func:`parallel_inverse_dynamics`, :func:`parallel_mass_matrix`,
  :func:`parallel_forward_dynamics` over the GIL-free customized kernels;
* :mod:`.taskgraph`, :mod:`.schedule`, :mod:`.gantt`, :mod:`.taskexec`:
  seed 004's 3-flop subtasks, layered graph, list scheduler, Gantt chart and
  scheduled execution on a thread team;
* :mod:`.rowkernels`, :mod:`.rows`: seed 003's row partition of M and Q;
* :mod:`.linkframes`, :mod:`.linkstep`, :mod:`.prediction`,
  :mod:`.predworkers`: seed 000's prediction-decoupled
  per-link workers and its error tables;
* :mod:`.service`: the computing core of the ``parallel_dynamics`` node;
* the seeds' figures and Stanford-arm tables: :mod:`robodyn_ros.reproductions`.
"""

from .batch import parallel_forward_dynamics, parallel_inverse_dynamics, parallel_mass_matrix
from .schedule import list_schedule, Schedule
from .taskgraph import generic_graph, task_graph, TaskGraph

__all__ = ['Schedule', 'TaskGraph', 'generic_graph', 'list_schedule',
           'parallel_forward_dynamics', 'parallel_inverse_dynamics', 'parallel_mass_matrix',
           'task_graph']
