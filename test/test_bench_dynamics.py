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

"""The payload and friction part of ``robodyn bench dynamics``: same torques, every timing."""

from robodyn_ros.bench import dynamics
from robodyn_ros.dynamics.codegen import kernels
from robodyn_ros.model import load_robot


def test_payload_and_friction_forms_agree_and_are_timed():
    """Old and new form of each quantity give the same torques; each form is timed."""
    model = load_robot('puma560')
    res = dynamics.payload_and_friction(model, kernels(model, 'c'), 1, 1e-4)
    diff = res.pop('max_difference')
    assert set(diff) == {'payload torque', 'payload regressor', 'friction'}
    assert all(d <= 1e-10 for d in diff.values()), diff
    assert len(res) == 6 and all(t['median'] > 0.0 for t in res.values())
    assert set(dynamics.kernel_ratios(res)) == {'payload', 'regressor', 'friction'}
