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
Torque saturation and the integrators' anti-windup, in loop form.

:func:`saturate` clips a torque to the joint limits (refusing a non-finite
one) and returns the step's outcome code; :func:`integrate_error` is the
conditional integration that every integrating law uses as anti-windup: a
joint integrates its error only while it is within the law's band and
saturation does not push the same way as the error. Both are written once
(compiled with numba, see :mod:`.jit`): the compiled control step inlines
them, and :mod:`.base` and the Python laws call their entry points.
"""

import numpy as np

from .jit import compiled, jitable

#: Outcome codes of a control step.
OK, SATURATED, BAD_TORQUE = 0, 1, 2


@jitable
def saturate(tau, limit, out, saturated, n):
    """
    Clip ``tau`` (n,) to ``[-limit, limit]`` into ``out`` and flag the clipped joints.

    ``out`` may be ``tau`` itself. Returns ``BAD_TORQUE`` (nothing written)
    when ``tau`` is not finite, else ``SATURATED`` or ``OK``.
    """
    for j in range(n):
        if not np.isfinite(tau[j]):
            return BAD_TORQUE
    clipped = False
    for j in range(n):
        value = min(max(tau[j], -limit[j]), limit[j])
        saturated[j] = value != tau[j]
        clipped = clipped or value != tau[j]
        out[j] = value
    return SATURATED if clipped else OK


@jitable
def integrate_error(integral, e, tau, saturated, period, band_low, band_high, n):
    """
    Integrate the error ``e`` (n,) over one period where allowed (anti-windup).

    Joint ``j`` integrates while ``band_low <= |e_j| <= band_high`` and not
    (saturated and ``sign(e_j) == sign(tau_j)``), i.e. the applied torque is
    not already pushed to its limit in the direction the integral would add.
    """
    for j in range(n):
        mag = abs(e[j])
        if mag < band_low[j] or mag > band_high[j]:
            continue
        if saturated[j] and np.sign(e[j]) == np.sign(tau[j]):
            continue
        integral[j] = integral[j] + period * e[j]


#: Entry points for calls from Python.
saturate_entry = compiled(saturate)
integrate_entry = compiled(integrate_error)
