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
Compile the control laws' loop code ahead, so that no configure waits for it.

The compiled steps are cached on disk by numba, once per state record type
(the records are padded to a capacity, so one compile serves every robot up
to sixteen joints). :func:`warm_up` builds every law once on a model and runs
one sample of each (and prepares the split form of the laws that have one,
for a board in impedance mode); ``robodyn warm`` calls it at setup.
"""

import numpy as np

from .base import JointReference
from .factory import LAWS, make_controller
from ..errors import RobodynError
from ..friction.models import without_friction


def warm_up(model, period=0.001):
    """
    Build every law on ``model`` and run one sample of each (compiling on first use).

    Parameters
    ----------
    model : RobotModel
        A model whose dynamics kernels are compiled C (or numpy: then only
        the Python-side entries are compiled).
    period : float
        Sample period [s].

    Returns
    -------
    tuple of str
        The laws run (a law that cannot be built on ``model`` with its
        default options is left out; its first configure compiles).

    """
    q = np.asarray(model.home_configuration(), dtype=float)
    zero = np.zeros(model.n)
    reference = JointReference.hold(q)
    run = []
    for law in LAWS:
        try:
            controller = make_controller(law, model, period)
        except RobodynError:
            continue
        controller.reset()
        controller.step(0.0, q, zero, reference)
        controller.step(period, q, zero, reference)
        if controller.has_split_form:
            controller.prepare_split()
        run.append(law)
    return tuple(run)


def warm_law_models(model, period=0.001):
    """
    Warm the laws on ``model`` and on it without friction (the one-process loop's law model).

    Parameters
    ----------
    model : RobotModel
        The robot's model.
    period : float
        Sample period [s].

    Returns
    -------
    tuple of str
        The laws run on ``model``.

    """
    laws = warm_up(model, period)
    warm_up(without_friction(model), period)
    return laws
