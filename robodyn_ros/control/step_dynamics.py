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
The dynamics a control step needs, behind one small indirection over the kernels.

The loop-form control code (the computed torque, the payload estimator)
needs two quantities of the controller's model:

* :func:`model_torque`: the inverse dynamics, friction included, of the
  model carrying a point-mass payload ``m``, ``tau_0 + m y_m`` (seed 003
  eq. 4.1);
* :func:`payload_regressor`: ``y_m``, the rigid-body torque of a unit
  payload at its place.

Both are computed here from three kernels of :class:`StepKernels`: the base
model's inverse dynamics with and without friction and the rigid inverse
dynamics of the model with a 1 kg payload (``y_m = unit_rigid -
base_rigid``). Payload-parametric kernels would make each one call; only
this module changes then.
"""

import numpy as np

from .jit import AVAILABLE, call_kernel, jitable

#: Kernel indices of :class:`StepKernels`.
UNIT_RIGID, BASE_RIGID, BASE_FULL = 0, 1, 2

_ENTRY_POINTS = ((UNIT_RIGID, 'unit', 'inverse_dynamics_rigid'),
                 (BASE_RIGID, 'base', 'inverse_dynamics_rigid'),
                 (BASE_FULL, 'base', 'inverse_dynamics'))


def _writer(fn):
    """Wrap ``fn(q, qd, qdd) -> tau`` as ``f(q, qd, qdd, out)``."""
    def call(q, qd, qdd, out):
        out[:] = fn(q, qd, qdd)
    return call


class StepKernels:
    """
    The kernels of one controller model, as the loop-form step calls them.

    Parameters
    ----------
    base : ModelDynamics
        Dynamics of the controller's model.
    unit : ModelDynamics, optional
        Dynamics of that model with a 1 kg payload at its place (none
        without a payload model: the payload terms are then never used).
    compiled : bool
        Give the C functions' addresses for compiled code when numba and
        the C kernels are there.

    Attributes
    ----------
    handles : numpy.ndarray or tuple
        What :func:`~robodyn_ros.control.jit.call_kernel` takes: the
        addresses (``numpy.intp``) when :attr:`compiled`, else callables
        ``f(q, qd, qdd, out)``.
    compiled : bool
        Whether the step can run compiled.

    """

    def __init__(self, base, unit=None, compiled=True):
        models = {'base': base, 'unit': unit}
        self._keep = (base, unit)   # the addresses are valid while the kernels live
        callables = [None] * len(_ENTRY_POINTS)
        addresses = np.zeros(len(_ENTRY_POINTS), dtype=np.intp)
        native = True
        for index, which, name in _ENTRY_POINTS:
            dyn = models[which]
            if dyn is None:
                continue
            callables[index] = _writer(getattr(dyn, name))
            kernels = dyn.kernels
            if kernels is None or not hasattr(kernels, 'c_address'):
                native = False
            else:
                addresses[index] = kernels.c_address(name)
        self.compiled = bool(compiled and AVAILABLE and native)
        self.handles = addresses if self.compiled else tuple(callables)

    def __repr__(self):
        return f'StepKernels(compiled={self.compiled})'


@jitable
def payload_regressor(kernels, q, qd, qdd, out, work):
    """
    Rigid-body torque of a unit payload, ``y_m`` (n,) [N m/kg], into ``out``.

    ``q``, ``qd``, ``qdd``, ``out`` and ``work`` are (n,) float arrays
    (``work`` is overwritten).
    """
    call_kernel(kernels, UNIT_RIGID, (q, qd, qdd, out))
    call_kernel(kernels, BASE_RIGID, (q, qd, qdd, work))
    for j in range(q.shape[0]):
        out[j] = out[j] - work[j]


@jitable
def model_torque(kernels, q, qd, qdd, mass, out, work):
    """
    Torque of the model carrying ``mass`` kg, ``tau_0 + mass y_m`` (n,), into ``out``.

    ``work`` is (2, >= n) scratch; with ``mass == 0`` only ``tau_0`` is
    computed (one kernel call).
    """
    n = q.shape[0]
    call_kernel(kernels, BASE_FULL, (q, qd, qdd, out))
    if mass != 0.0:
        ym = work[0][:n]
        payload_regressor(kernels, q, qd, qdd, ym, work[1][:n])
        for j in range(n):
            out[j] = out[j] + mass * ym[j]
