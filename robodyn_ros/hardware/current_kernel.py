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
The per-cycle torque-to-current conversion in loop form, for numba.

:class:`~robodyn_ros.hardware.current_command.CurrentCommand` is the reference: the
joint-limit ramp (:func:`~robodyn_ros.hardware.current_command.limit_torque`), the
effort clamp and the current clamp as NumPy expressions, about thirty small
array operations a cycle. :func:`current_pipeline` does the same arithmetic
joint by joint, NaN for NaN (NumPy's ``minimum`` and ``maximum`` propagate
NaN; so do :func:`np_min` and :func:`np_max`), and :data:`COMPILED` holds it
compiled (:class:`~robodyn_ros.realtime.compiled_functions.CompiledFunctions`).
``test/test_current_kernel.py`` holds both forms to the same numbers.
"""

import numpy as np

from ..realtime.compiled_functions import CompiledFunctions


def np_max(a, b):
    """Return ``numpy.maximum(a, b)`` of two floats (NaN if either is NaN)."""
    if a != a or b != b:
        return a + b
    return a if a >= b else b


def np_min(a, b):
    """Return ``numpy.minimum(a, b)`` of two floats (NaN if either is NaN)."""
    if a != a or b != b:
        return a + b
    return a if a <= b else b


def current_pipeline(q, command, friction, margin, lower, upper, effort, amps_per_torque,
                     current_limit):
    """
    Limit a torque command and convert it to currents (loop form).

    Parameters
    ----------
    q : numpy.ndarray
        Measured positions, (n,) [rad or m].
    command, friction : numpy.ndarray
        Controller torque and friction compensation, (n,) [N m or N].
    margin : float
        Joint-limit ramp width [rad or m] (0: cut only beyond the limit).
    lower, upper : numpy.ndarray
        Position limits (``inf`` for none), (n,).
    effort : numpy.ndarray
        Effort limits, (n,) [N m or N].
    amps_per_torque : numpy.ndarray
        Motor current per joint torque, (n,) [A/(N m) or A/N].
    current_limit : numpy.ndarray
        Current limits, (n,) [A].

    Returns
    -------
    tuple of numpy.ndarray
        ``(currents, torque, at_limit, effort_limited, current_limited)``:
        currents [A], the torque within both limits [N m or N], and per joint
        flags (bool), as in :class:`~robodyn_ros.hardware.current_command.CurrentResult`.

    Raises
    ------
    ValueError
        If the arrays differ in length.

    """
    n = q.shape[0]
    for arr in (command, friction, lower, upper, effort, amps_per_torque, current_limit):
        if arr.shape[0] != n:
            raise ValueError('arrays of the current pipeline differ in length')
    amps = np.empty(n)
    clipped = np.empty(n)
    at_limit = np.empty(n, dtype=np.bool_)
    effort_limited = np.empty(n, dtype=np.bool_)
    current_limited = np.empty(n, dtype=np.bool_)
    for i in range(n):
        tau = command[i] + friction[i]
        if margin > 0.0:
            up = np_min(np_max((upper[i] - q[i]) / margin, 0.0), 1.0)
            down = np_min(np_max((q[i] - lower[i]) / margin, 0.0), 1.0)
        else:
            up = 1.0 if q[i] < upper[i] else 0.0
            down = 1.0 if q[i] > lower[i] else 0.0
        pos = 1.0 if tau > 0.0 else 0.0
        neg = 1.0 if tau < 0.0 else 0.0
        # as limit_torque: pos * up + neg * down + (neither), so a NaN ramp stays NaN
        scale = pos * up + neg * down + (1.0 - max(pos, neg))
        ramped = tau * scale
        at_limit[i] = scale < 1.0
        torque = np_min(np_max(ramped, -effort[i]), effort[i])
        clipped[i] = torque
        effort_limited[i] = torque != ramped
        a = torque * amps_per_torque[i]
        current_limited[i] = abs(a) > current_limit[i]
        amps[i] = np_min(np_max(a, -current_limit[i]), current_limit[i])
    return amps, clipped, at_limit, effort_limited, current_limited


def _warm(compiled):
    one = np.ones(1)
    compiled[0](one, one, one, 0.1, -one, one, one, one, one)


#: The compiled :func:`current_pipeline` (``COMPILED.get()``: a 1-tuple, or None).
COMPILED = CompiledFunctions('the current pipeline', (current_pipeline,), _warm,
                             helpers=(np_max, np_min))
