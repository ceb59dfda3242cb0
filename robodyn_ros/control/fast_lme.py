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
Compiled sample of the payload estimator and the computed-torque law (optional).

One sample of :class:`~robodyn_ros.control.payload.PayloadEstimator` (the
state-variable filter, the payload regressor, one scalar RLS step) and of
computed torque with the linear-in-mass payload model is a few hundred
multiply-adds and six calls of the dynamics kernels; in numpy it is some
forty array operations, whose call overhead (1-2 us each, several times that
when the loop runs once per millisecond and the caches are cold) dominates.
With numba and the C kernels, the functions here do the same arithmetic in
compiled loops and call the kernels' plain C functions
(:meth:`robodyn_ros.dynamics.codegen.kernels.Kernels.c_address`) directly.
They are compiled once per process, for every robot, and warmed up when a
controller is built. Without numba or the C kernels, ``AVAILABLE`` is False
(or the controller has no kernel functions) and the numpy code, which is the
reference, runs instead.
"""

import os

import numpy as np

try:  # numba is optional: the numpy code in payload.py and computed_torque.py is the reference.
    if os.environ.get('ROBODYN_NO_NUMBA'):
        raise ImportError('disabled by ROBODYN_NO_NUMBA')
    import numba
except ImportError:  # pragma: no cover - depends on the installation
    numba = None

AVAILABLE = numba is not None

#: Codes of the outcome of :func:`estimator_sample`.
SKIPPED, UPDATED = 0, 1

#: Codes of the computed-torque forms.
FORM_CODES = {'tracking': 0, 'regulation': 1, 'predictive': 2}


def _estimator_sample(x, phi, g0, g1, row, b_last, q_prev, q, tau, update, joints,
                      unit_rigid, base_rigid, base_full, rls, scratch):
    """
    Advance the filter by one sample and, if ``update``, do one RLS step.

    ``x`` (order, 2n) and ``q_prev`` (n,) are updated in place; ``rls`` is
    ``[theta, P, lambda, max_variance, lower, upper, min_excitation]``
    (theta and P updated in place); ``scratch`` (7, n) is work space.
    Returns ``UPDATED`` when the estimate took a step, else ``SKIPPED``.
    """
    order, width = x.shape
    n = width // 2
    new = np.empty((order, width))
    for i in range(order):
        for c in range(width):
            acc = 0.0
            for k in range(order):
                acc += phi[i, k] * x[k, c]
            if c < n:
                acc += g0[i] * q_prev[c] + g1[i] * (q[c] - q_prev[c])
            else:
                acc += g0[i] * tau[c - n]
            new[i, c] = acc
    x[:, :] = new
    q_prev[:] = q
    if not update:
        return SKIPPED
    qf, qdf, qddf = scratch[0], scratch[1], scratch[2]
    for c in range(n):
        qf[c] = x[0, c]
        qdf[c] = x[1, c]
        if order > 2:
            qddf[c] = x[2, c]
        else:
            acc = 0.0
            for k in range(order):
                acc += row[k] * x[k, c]
            qddf[c] = acc + b_last * q[c]
    unit, base, full = scratch[3], scratch[4], scratch[5]
    _call3(unit_rigid, qf, qdf, qddf, unit)
    _call3(base_rigid, qf, qdf, qddf, base)
    largest = 0.0
    for j in joints:
        d = abs(unit[j] - base[j])
        if not np.isfinite(d):
            return SKIPPED
        largest = max(largest, d)
    if not largest >= rls[6]:
        return SKIPPED
    _call3(base_full, qf, qdf, qddf, full)
    theta = rls[0]
    sxx = 0.0
    sxr = 0.0
    for j in joints:
        ym = unit[j] - base[j]
        psi = x[0, n + j] - full[j]
        if not np.isfinite(psi):
            return SKIPPED
        sxx += ym * ym
        sxr += ym * (psi - ym * theta)
    lam, p_old = rls[2], rls[1]
    p_new = p_old / (lam + p_old * sxx)
    if p_new > rls[3]:
        p_new = p_old / (1.0 + p_old * sxx)
    theta += p_new * sxr
    rls[0] = min(max(theta, rls[4]), rls[5])
    rls[1] = p_new
    return UPDATED


def _ct_payload_torque(q, qd, rq, rqd, rqdd, kp, kd, ki, integral, form, mass, e,
                       unit_rigid, base_rigid, base_full, scratch, tau):
    """
    Compute the torque of computed torque with the payload model, in place.

    ``tau`` (n,) receives the torque and ``e`` the error ``q_ref - q``.

    ``scratch`` (5, n) is work space.
    """
    n = q.shape[0]
    w = scratch[0]
    ki_on = False
    for j in range(n):
        if ki[j] != 0.0:
            ki_on = True
    for j in range(n):
        e[j] = rq[j] - q[j]
        if form == 1:
            w[j] = kp[j] * e[j] - kd[j] * qd[j]
        else:
            w[j] = rqdd[j] + kd[j] * (rqd[j] - qd[j]) + kp[j] * e[j]
        if ki_on:
            w[j] = w[j] + ki[j] * integral[j]
    # Copies: the kernels need contiguous arrays, the caller's may be views.
    pq, pqd = scratch[3], scratch[4]
    if form == 2:
        pq[:] = rq
        pqd[:] = rqd
    else:
        pq[:] = q
        pqd[:] = qd
    _call3(base_full, pq, pqd, w, tau)
    if mass != 0.0:
        unit, base = scratch[1], scratch[2]
        _call3(unit_rigid, pq, pqd, w, unit)
        _call3(base_rigid, pq, pqd, w, base)
        for j in range(n):
            tau[j] = tau[j] + mass * (unit[j] - base[j])


def _kernel_call(typingctx, address, a, b, c, out):
    """
    Type and lower a call of a kernel's C function at an address (a numba intrinsic).

    ``void f(const double *a, const double *b, const double *c, double
    *out)``: the arrays' data pointers are passed.
    """
    from llvmlite import ir
    from numba.core import types
    sig = types.void(types.intp, a, b, c, out)

    def codegen(context, builder, signature, args):
        byte_ptr = ir.IntType(8).as_pointer()
        ptrs = []
        for ty, value in zip(signature.args[1:], args[1:]):
            data = context.make_array(ty)(context, builder, value).data
            ptrs.append(builder.bitcast(data, byte_ptr))
        fnty = ir.FunctionType(ir.VoidType(), [byte_ptr] * len(ptrs))
        builder.call(builder.inttoptr(args[0], fnty.as_pointer()), ptrs)
        return context.get_dummy_value()
    return sig, codegen


if AVAILABLE:
    from numba.extending import intrinsic
    _call3 = intrinsic(_kernel_call)
    estimator_sample = numba.njit(cache=True)(_estimator_sample)
    ct_payload_torque = numba.njit(cache=True)(_ct_payload_torque)
else:  # pragma: no cover - depends on the installation
    estimator_sample = ct_payload_torque = None


def payload_functions(payload):
    """
    Return the addresses of a payload model's kernel functions, or None.

    Parameters
    ----------
    payload : PayloadModel
        The linear-in-mass model (its base and unit-payload dynamics).

    Returns
    -------
    tuple or None
        ``(unit_rigid, base_rigid, base_full)``, the addresses (int) of the
        C functions, when numba is installed and both models run on the C
        kernels; else None. The kernels must stay loaded while they are
        used (the payload model holds them).

    """
    if not AVAILABLE:
        return None
    kernels = []
    for dyn in (payload.unit, payload.base):
        k = dyn.kernels
        if k is None or not hasattr(k, 'c_address'):
            return None
        kernels.append(k)
    return (kernels[0].c_address('inverse_dynamics_rigid'),
            kernels[1].c_address('inverse_dynamics_rigid'),
            kernels[1].c_address('inverse_dynamics'))
