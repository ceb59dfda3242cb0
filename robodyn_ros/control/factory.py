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
Build a controller from a law name and flat options (for the node and the CLI).

Everything here is generated from the law classes (:data:`LAW_CLASSES`): each
carries its ``law`` name, its options (``option_names()``, described in
:mod:`.options`), its ``live_gains`` and ``from_options``, where unset
options take the law's own defaults. Options are plain numbers, lists and
strings, as ROS parameters are; a key the law does not take is an error.
"""

from .computed_torque import ComputedTorque
from .computed_torque_lme import ComputedTorqueLME
from .mbvsst import MBVSST
from .pid import PDGravity, PID
from .self_tuning import SelfTuningComputedTorque
from .sliding_mode import SlidingMode
from .slotine_li import SlotineLi
from ..errors import InputError

#: The laws the factory builds, in the order they are listed.
LAW_CLASSES = (PID, PDGravity, ComputedTorque, ComputedTorqueLME, SlidingMode,
               SelfTuningComputedTorque, SlotineLi, MBVSST)

LAWS = tuple(cls.law for cls in LAW_CLASSES)

#: Gains that can change while running, per law (arrays of n values or scalars).
LIVE_GAINS = {cls.law: cls.live_gains for cls in LAW_CLASSES}

#: Every option of some law, in a stable order.
OPTION_NAMES = tuple(dict.fromkeys(name for cls in LAW_CLASSES for name in cls.option_names()))

#: Options that are a live gain of some law.
LIVE_OPTIONS = tuple(name for name in OPTION_NAMES
                     if any(name in cls.live_gains for cls in LAW_CLASSES))

_BY_NAME = {cls.law: cls for cls in LAW_CLASSES}


def law_class(law):
    """
    Return the class of a law.

    Parameters
    ----------
    law : str
        One of :data:`LAWS`.

    Returns
    -------
    type
        The :class:`~robodyn_ros.control.base.Controller` subclass.

    Raises
    ------
    InputError
        For an unknown law (the message lists them).

    """
    cls = _BY_NAME.get(law)
    if cls is None:
        raise InputError('law', f'must be one of {", ".join(LAWS)}, got {law!r}')
    return cls


def make_controller(law, model, period, options=None):
    """
    Build a controller.

    Parameters
    ----------
    law : str
        One of :data:`LAWS`.
    model : RobotModel
        The controller's model.
    period : float
        Sample period [s].
    options : dict, optional
        The law's options (``law_class(law).option_names()``); unset values
        (``None``, ``''``, ``[]``) take the law's defaults.

    Returns
    -------
    Controller
        The controller.

    Raises
    ------
    InputError
        Unknown law, an option the law does not take, or an invalid value
        (each names the law or the option).

    """
    return law_class(law).from_options(model, period, options)


def apply_gains(controller, gains):
    """
    Change gains of a running controller, all or none.

    Parameters
    ----------
    controller : Controller
        The controller.
    gains : dict
        Gain name (its ``live_gains``) to new value(s).

    Raises
    ------
    InputError
        If a gain cannot change at run time or a value is invalid (the
        controller is then unchanged).

    """
    controller.set_gains(**gains)


def apply_gain(controller, name, value):
    """
    Change one gain of a running controller after checking it.

    Parameters
    ----------
    controller : Controller
        The controller.
    name : str
        Gain name (see :data:`LIVE_GAINS`).
    value : float or sequence of float
        New value(s).

    Raises
    ------
    InputError
        If the gain cannot change at run time or the value is invalid (the
        controller is then unchanged).

    """
    controller.set_gains(**{name: value})
