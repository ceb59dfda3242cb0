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
Simulation (no rclpy): the Pinocchio plant, the closed-loop runner and the scenarios.

The names below are imported when first used: the closed-loop runner
brings in the control laws (numba, SciPy), which a simulated board or drive
set, also in this package, does not need.
"""

from ..lazy_names import module_getattr

#: Public name -> module that defines it.
_WHERE = {'Plant': '.plant', 'Fault': '.runner', 'Sensor': '.runner', 'simulate': '.runner',
          'SimResult': '.stats'}

__all__ = ['Fault', 'Plant', 'Sensor', 'SimResult', 'simulate']

__getattr__ = module_getattr(__name__, _WHERE)
