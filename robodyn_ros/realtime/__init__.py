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
Fixed-rate loops and their timing (no rclpy).

:mod:`.periodic_loop` runs a step at absolute deadlines in its own thread,
skips the periods it has missed without losing its phase, and keeps the
garbage collector's full passes out of the cycle; :mod:`.loop_timing`
records each cycle's period, compute time and law time with bounded memory
and summarises them. Every fixed-rate loop of the package (the controller,
the benchmark feeders) runs on these two. :mod:`.compiled_functions` loads
per-cycle loop forms compiled by numba, once per process, with the NumPy
form as the fallback.
"""

from .loop_timing import LoopTiming
from .periodic_loop import freeze_garbage, PeriodicLoop, thaw_garbage

__all__ = ['LoopTiming', 'PeriodicLoop', 'freeze_garbage', 'thaw_garbage']
