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

"""The controller node's parameters are generated from the law classes."""

from robodyn_ros.control.factory import LAW_CLASSES, LAWS
from robodyn_ros.control.options import CATALOGUE
from robodyn_ros.nodes.controller_params import parameter_specs


def test_every_law_option_is_a_parameter_with_the_law_defaults():
    """One unset parameter per option of some law; live for a live gain of some law only."""
    specs = {s.name: s for s in parameter_specs()}
    assert len(specs) == len(parameter_specs())
    options = {name for cls in LAW_CLASSES for name in cls.option_names()}
    live = {name for cls in LAW_CLASSES for name in cls.live_gains}
    assert options <= set(specs)
    for name in options:
        spec, opt = specs[name], CATALOGUE[name]
        assert spec.default is None and spec.kind is not None, name
        assert spec.read_only == (name not in live), name
        assert (spec.low, spec.high, spec.choices) == (opt.low, opt.high, opt.choices), name
    assert specs['law'].choices == LAWS and specs['law'].read_only
    assert specs['forgetting'].validate(0.3) and specs['forgetting'].validate(0.98) is None
    assert specs['form'].validate('magic') and specs['kp'].validate([-1.0])
