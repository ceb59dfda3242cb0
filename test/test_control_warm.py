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

"""Compiling the laws' steps ahead: every law runs once, and the compiled entries exist."""

import pytest

from robodyn_ros.control import ct_step
from robodyn_ros.control.factory import LAWS
from robodyn_ros.control.jit import AVAILABLE
from robodyn_ros.control.warm import warm_up
from robodyn_ros.model import load_robot


@pytest.mark.parametrize('robot', ['puma560', 'ur5'])
def test_every_law_runs_once_on_the_model(robot):
    assert warm_up(load_robot(robot)) == LAWS


@pytest.mark.skipif(not AVAILABLE, reason='numba not installed: the steps run as Python')
def test_the_compiled_step_has_a_signature_after_warming():
    warm_up(load_robot('ma3000'))
    assert ct_step.ct_step_entry.signatures
    assert ct_step.command_entry.signatures
