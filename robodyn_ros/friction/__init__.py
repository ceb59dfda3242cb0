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
Joint friction in one place (no rclpy).

:mod:`.models` holds the friction laws (viscous, Coulomb, Stribeck, the
load-dependent term of seed 004) and evaluates them; :mod:`.symbolic` writes
the same laws as code-generator graph nodes for the C kernels;
:mod:`.compensation` adds the model friction to a joint torque command (the
hardware interface uses it), through the compiled loop form of
:mod:`.loop_form` (shared with the simulated plant); :mod:`.identification` fits friction to
constant-velocity data and :mod:`.sweep` collects that data on a board;
:mod:`.probes` finds the states where friction peaks, for the planner's
torque checks.
"""
