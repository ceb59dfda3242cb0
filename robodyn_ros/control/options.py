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
The flat options of the control laws: what each means, its type and range.

A law class lists the options it takes (``law_options``, gathered along its
bases) and builds itself from them (``from_options``); an option left unset
takes the law's own default (its constructor's, or gains designed from
``omega``), so each default exists once, in the law. This catalogue holds
only what an option *is*: the node declares its parameters from it
(:mod:`robodyn_ros.nodes.controller_params`) and the factory checks option
values against it. Empty values (``None``, ``''``, ``[]``) count as unset.
"""

from dataclasses import dataclass
import math

import numpy as np

from ..errors import InputError

#: Kinds of option value.
KINDS = ('double', 'doubles', 'integers', 'string', 'bool')


@dataclass(frozen=True)
class Option:
    """
    One option of the control laws.

    Attributes
    ----------
    name : str
        Option name (also the node parameter's).
    kind : str
        One of :data:`KINDS`: a number, numbers per joint, integers, a
        string or a flag.
    description : str
        Meaning, with units.
    low, high : float, optional
        Inclusive range (of every element).
    choices : tuple, optional
        Allowed strings.

    """

    name: str
    kind: str
    description: str
    low: float = None
    high: float = None
    choices: tuple = None


_UNSET = " (unset: the law's default)"

CATALOGUE = {o.name: o for o in (
    Option('torque_limit', 'doubles', 'Torque limits per joint (unset: the model effort limits) '
           '[N m]', low=0.0),
    Option('backend', 'string', 'Dynamics backend (unset: the fastest available)',
           choices=('auto', 'codegen', 'numpy')),
    Option('omega', 'double', 'Closed-loop natural frequency for gains from poles [rad/s]'
           + _UNSET, low=0.1, high=1000.0),
    Option('zeta', 'double', 'Damping ratio for gains from poles' + _UNSET, low=0.1,
           high=10.0),
    Option('form', 'string', 'Computed-torque form' + _UNSET,
           choices=('tracking', 'regulation', 'predictive')),
    Option('kp', 'doubles', "Proportional gains per joint (unset: from omega, or the law's) "
           '[1/s^2 for model-based laws, N m/rad for PID]', low=0.0),
    Option('kd', 'doubles', "Derivative gains per joint (unset: from omega, or the law's)",
           low=0.0),
    Option('ki', 'doubles', 'Integral gains per joint (unset: 0; PID: the triple pole)',
           low=0.0),
    Option('integral_band', 'doubles', 'PID: integrate only while small <= abs(e) <= large, '
           '[small, large] [rad]' + _UNSET, low=0.0),
    Option('lam', 'doubles', 'Sliding-surface slope per joint (unset: omega) [1/s]', low=0.0),
    Option('gain', 'doubles', 'Sliding-mode switching gain per joint (unset: omega^2) '
           '[rad/s^2]', low=0.0),
    Option('boundary', 'doubles', 'Sliding-mode boundary layer per joint' + _UNSET + ' [rad/s]',
           low=0.0),
    Option('sliding_form', 'string', 'Sliding-mode form' + _UNSET,
           choices=('decoupled', 'relay')),
    Option('gamma', 'double', 'Slotine-Li adaptation gain' + _UNSET, low=0.0),
    Option('payload_frame', 'string', 'Frame of the estimated payload (unset: end effector)'),
    Option('initial_mass', 'double', 'Initial payload estimate [kg]' + _UNSET, low=0.0,
           high=1000.0),
    Option('forgetting', 'double', 'RLS forgetting factor' + _UNSET, low=0.5, high=1.0),
    Option('estimator_joints', 'integers', 'Joints (0-based indices) whose torque equations '
           'feed the payload estimator (unset: every joint; seed 003 used joint 0, the waist, '
           'alone, which a payload barely loads on most arms)', low=0),
    Option('freeze_threshold', 'double', 'Payload estimator: hold the estimate while its '
           "excitation, the windowed RMS torque per kg of the payload's inertia on the "
           'estimating joints, is below this (at rest and at constant velocity; 0: never '
           'hold)' + _UNSET + ' [N m/kg]', low=0.0, high=1e6),
    Option('relay_fraction', 'double', 'MBVSST relay amplitude / torque limit' + _UNSET,
           low=0.0, high=1.0),
    Option('torque_scale', 'doubles', 'MBVSST torque per tuner unit (unset: from '
           'relay_fraction) [N m]', low=0.0),
    Option('vsst_boundary', 'doubles', 'MBVSST tuner boundary layer per joint (unset: 0, the '
           'relay)', low=0.0),
    Option('compiled', 'bool', 'Computed-torque laws: run the sample compiled when numba and '
           'the C kernels are there (false: the same code as Python)'),
)}


def is_unset(value):
    """
    Tell whether an option value counts as unset.

    Parameters
    ----------
    value : object
        The value.

    Returns
    -------
    bool
        For ``None``, ``''`` and empty sequences.

    """
    if value is None:
        return True
    if isinstance(value, str):
        return value == ''
    return hasattr(value, '__len__') and len(value) == 0


def check_value(name, value):
    """
    Check an option value against the catalogue.

    Parameters
    ----------
    name : str
        Option name (in :data:`CATALOGUE`).
    value : object
        The value (set).

    Returns
    -------
    object
        The value: a float, a list of floats or ints, a string or a bool.

    Raises
    ------
    InputError
        Naming the option, for a value of the wrong kind, out of range or
        not among the choices.

    """
    opt = CATALOGUE[name]
    try:
        if opt.kind == 'double':
            checked = float(value)
            items = [checked]
        elif opt.kind in ('doubles', 'integers'):
            cast = float if opt.kind == 'doubles' else _integer
            items = [cast(v) for v in np.atleast_1d(np.asarray(value, dtype=object)).ravel()]
            checked = items if np.ndim(value) > 0 else items[0]
        elif opt.kind == 'bool':
            if not isinstance(value, (bool, np.bool_)):
                raise ValueError('not a bool')
            checked, items = bool(value), []
        else:
            checked, items = str(value), []
    except (TypeError, ValueError):
        raise InputError(name, f'expected {opt.kind}, got {value!r}') from None
    for v in items:
        if isinstance(v, float) and math.isnan(v):
            raise InputError(name, f'must not be NaN, got {value!r}')
        if opt.low is not None and v < opt.low:
            raise InputError(name, f'must be >= {opt.low}, got {value!r}')
        if opt.high is not None and v > opt.high:
            raise InputError(name, f'must be <= {opt.high}, got {value!r}')
    if opt.choices is not None and checked not in opt.choices:
        raise InputError(name, f'must be one of {", ".join(opt.choices)}, got {value!r}')
    return checked


def checked_options(law, valid, options):
    """
    Check a law's options: known names, valid values; drop the unset ones.

    Parameters
    ----------
    law : str
        The law's name (for messages).
    valid : sequence of str
        Its option names.
    options : dict or None
        Name to value.

    Returns
    -------
    dict
        The set options, checked (:func:`check_value`).

    Raises
    ------
    InputError
        Naming the first option that the law does not take (with the valid
        ones) or whose value is invalid.

    """
    opts = {}
    for key, value in dict(options or {}).items():
        if key not in valid:
            raise InputError(key, f'not an option of law {law!r} (its options: '
                                  f'{", ".join(valid)})')
        if not is_unset(value):
            opts[key] = check_value(key, value)
    return opts


def _integer(v):
    if isinstance(v, (bool, np.bool_)) or float(v) != int(v):
        raise ValueError('not an integer')
    return int(v)
