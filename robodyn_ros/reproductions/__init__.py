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
The source documents' numbers, reproduced (no rclpy).

Each module rebuilds one published result and names what it reproduces:
:mod:`.operation_counts` (customized Newton-Euler operation counts beside
our generator's), :mod:`.parallel_figures` (the figures of the parallel
schemes), :mod:`.stanford_prediction` (the Stanford arm along the two
test trajectories with prediction-decoupled workers) and
:mod:`.closed_loop` (the closed-loop control experiments). The tests hold
each against the published values; ``docs/results.md`` lists them.
"""
