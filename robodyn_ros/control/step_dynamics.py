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
needs these quantities of the controller's model:

* :func:`model_torque`: the inverse dynamics, friction included, of the
  model carrying a point-mass payload ``m``, ``tau_0 + m y_m`` (seed 003
  eq. 4.1; the friction is the model's without the payload);
* :func:`payload_regressor`: ``y_m``, the rigid-body torque of a unit
  payload at its place;
* :func:`inertia_diagonal`: the diagonal of the joint-space inertia of the
  model carrying the payload (the split form's gains, :mod:`.ct_split`).

Each is one call of the robot's kernels (:class:`StepKernels`):
``inverse_dynamics`` without a payload, ``inverse_dynamics_payload`` with
``[m, cx, cy, cz]``, ``payload_torque`` at ``[cx, cy, cz]`` and
``mass_matrix`` (the inertia diagonal adds ``n + 1`` calls of
``payload_torque`` when the payload mass is not zero).
"""

import numpy as np

from .jit import AVAILABLE, call_kernel, jitable

#: Kernel indices of :class:`StepKernels`.
BASE_FULL, PAYLOAD_FULL, PAYLOAD_UNIT, MASS_MATRIX = 0, 1, 2, 3

_PAYLOAD_ENTRY_POINTS = ('inverse_dynamics_payload', 'payload_torque')


def _writer(fn):
    """Wrap ``fn(q, qd, qdd) -> tau`` as ``f(q, qd, qdd, out)``."""
    def call(q, qd, qdd, out):
        out[:] = fn(q, qd, qdd)
    return call


def _matrix_writer(fn):
    """Wrap ``fn(q) -> M`` (n, n) as ``f(q, out)`` with ``out`` the (n * n,) row-major buffer."""
    def call(q, out):
        out[:] = fn(q).reshape(-1)
    return call


def payload_vector(com):
    """
    Give the payload argument of the step's kernel calls for a centre of mass.

    Parameters
    ----------
    com : array_like
        Payload centre of mass in the kernels' payload frame, (3,) [m].

    Returns
    -------
    numpy.ndarray
        ``[m, cx, cy, cz]`` (4,), ``m`` written by :func:`model_torque`.

    """
    return np.concatenate(([0.0], np.asarray(com, dtype=float).reshape(3)))


class StepKernels:
    """
    The kernels of one controller model, as the loop-form step calls them.

    Parameters
    ----------
    dynamics : ModelDynamics
        The controller model's dynamics (``tau_0``).
    payload_kernels : Kernels or NumpyKernels, optional
        Its payload-parametric kernels (:func:`robodyn_ros.dynamics.codegen.kernels`
        with the payload frame); none: the payload terms are never used.
    compiled : bool
        Give the C functions' addresses for compiled code when numba and
        the C kernels are there.

    Attributes
    ----------
    handles : numpy.ndarray or tuple
        What :func:`~robodyn_ros.control.jit.call_kernel` takes: the
        addresses (``numpy.intp``) when :attr:`compiled`, else callables
        ``f(..., out)`` (``tau_0`` through ``dynamics.inverse_dynamics``,
        the mass matrix through ``dynamics.mass_matrix`` into an (n * n,)
        row-major buffer).
    compiled : bool
        Whether the step can run compiled.

    """

    def __init__(self, dynamics, payload_kernels=None, compiled=True):
        base = dynamics.kernels
        self._keep = (base, payload_kernels)   # the addresses are valid while these live
        native = all(k is None or hasattr(k, 'c_address') for k in self._keep)
        self.compiled = bool(compiled and AVAILABLE and native)
        if self.compiled:
            addresses = [base.c_address('inverse_dynamics')]
            addresses += [0 if payload_kernels is None else payload_kernels.c_address(name)
                          for name in _PAYLOAD_ENTRY_POINTS]
            addresses.append(base.c_address('mass_matrix'))
            self.handles = np.array(addresses, dtype=np.intp)
        else:
            self.handles = (_writer(dynamics.inverse_dynamics),) + tuple(
                None if payload_kernels is None else getattr(payload_kernels, name)
                for name in _PAYLOAD_ENTRY_POINTS) + (_matrix_writer(dynamics.mass_matrix),)

    def __repr__(self):
        return f'StepKernels(compiled={self.compiled})'


@jitable
def payload_regressor(kernels, payload, q, qd, qdd, out):
    """
    Rigid-body torque of a unit payload, ``y_m`` (n,) [N m/kg], into ``out``.

    ``payload`` is ``[m, cx, cy, cz]`` (:func:`payload_vector`; ``m`` is
    not used); ``q``, ``qd``, ``qdd`` and ``out`` are (n,) float arrays.
    """
    call_kernel(kernels, PAYLOAD_UNIT, (q, qd, qdd, payload[1:4], out))


@jitable
def model_torque(kernels, payload, q, qd, qdd, mass, out):
    """
    Torque of the model carrying ``mass`` kg, ``tau_0 + mass y_m`` (n,), into ``out``.

    One kernel call; ``payload[0]`` takes ``mass`` (``payload`` as
    :func:`payload_vector`, not used when ``mass == 0``).
    """
    if mass == 0.0:
        call_kernel(kernels, BASE_FULL, (q, qd, qdd, out))
    else:
        payload[0] = mass
        call_kernel(kernels, PAYLOAD_FULL, (q, qd, qdd, payload, out))


@jitable
def inertia_diagonal(kernels, payload, q, mass, matrix, work, out):
    """
    Diagonal of the inertia of the model carrying ``mass`` kg at ``q``, (n,) into ``out``.

    ``M_jj(q) + mass Mp_jj(q)``, armature included: one ``mass_matrix``
    call into ``matrix`` ((n * n,) C-contiguous float buffer) and, with a
    payload, ``n + 1`` calls of ``payload_torque``: ``Mp_jj = y_m(q, 0,
    e_j)_j - y_m(q, 0, 0)_j``. ``work`` is a (4, n) float buffer.
    """
    n = q.shape[0]
    call_kernel(kernels, MASS_MATRIX, (q, matrix))
    for j in range(n):
        out[j] = matrix[j * n + j]
    if mass == 0.0:
        return
    zero, unit, column, static = work[0][:n], work[1][:n], work[2][:n], work[3][:n]
    for j in range(n):
        zero[j] = 0.0
        unit[j] = 0.0
    payload_regressor(kernels, payload, q, zero, zero, static)
    for j in range(n):
        unit[j] = 1.0
        payload_regressor(kernels, payload, q, zero, unit, column)
        unit[j] = 0.0
        out[j] = out[j] + mass * (column[j] - static[j])
