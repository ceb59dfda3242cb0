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
Optional compilation of the loop-form control code, and its calls of the dynamics kernels.

The per-sample arithmetic of the control laws (the estimator sample, the
tuner step, the computed torque, saturation and anti-windup) is written once,
as plain Python loops over scalars that read and write the owners' state
records (numpy structured arrays) in place. With numba installed those
functions are compiled (:func:`compiled`, cached on disk); without it, or
with ``ROBODYN_NO_NUMBA=1``, the same functions run as Python (slowly, with
the same numbers).

A state record is a one-element structured array; the loop code indexes its
fields by name (``r['x'][i, j]``, ``r['count'] = r['count'] + 1``), which works
both compiled and in Python, where the owners' attributes are views of the
same memory. Sizes are padded to a capacity (:func:`capacity`) so that one
compiled function serves every robot up to sixteen joints (numba compiles
once per record type; the compilation is cached on disk).

:func:`call_kernel` calls a dynamics kernel: in compiled code through the
address of its C function (an integer of a ``numpy.intp`` array), in Python
through a callable ``f(q, qd, qdd, out)`` (the C entry points, or the numpy
dynamics when there is no C compiler).
"""

import os

import numpy as np

try:  # numba is optional: without it the loop code runs as Python.
    if os.environ.get('ROBODYN_NO_NUMBA'):
        raise ImportError('disabled by ROBODYN_NO_NUMBA')
    import numba
except ImportError:  # pragma: no cover - depends on the installation
    numba = None

#: Whether numba compiles the loop code.
AVAILABLE = numba is not None

#: Joints (and channels) are padded to a multiple of this.
BLOCK = 16


def capacity(size, block=BLOCK):
    """
    Round a record field size up to a multiple of ``block`` (its capacity).

    Parameters
    ----------
    size : int
        Needed size (>= 1).
    block : int
        Granularity.

    Returns
    -------
    int
        The capacity.

    """
    return block * max(1, -(-int(size) // block))


def record(dtype):
    """
    Make a zeroed one-element state record.

    Parameters
    ----------
    dtype : numpy.dtype
        Structured type.

    Returns
    -------
    numpy.ndarray
        Shape (1,), the record the loop code works on (its fields are views).

    """
    return np.zeros(1, dtype=dtype)


def jitable(fn):
    """
    Mark a loop-form function that compiled code may call (it stays a Python function).

    Parameters
    ----------
    fn : callable
        Plain Python function of scalars, arrays and records.

    Returns
    -------
    callable
        ``fn`` itself.

    """
    if AVAILABLE:
        from numba.extending import register_jitable
        register_jitable(fn)
    return fn


def compiled(fn):
    """
    Give the entry point of a loop-form function for calls from Python.

    Parameters
    ----------
    fn : callable
        A :func:`jitable` function.

    Returns
    -------
    callable
        Its numba compilation (cached on disk), or ``fn`` without numba.

    """
    if not AVAILABLE:
        return fn
    return numba.njit(cache=True)(fn)


def call_kernel(kernels, index, arrays):
    """
    Call dynamics kernel ``index`` on C-contiguous float64 arrays (inputs, then output).

    Parameters
    ----------
    kernels : tuple of callable or numpy.ndarray
        Callables ``f(*arrays)`` (Python) or the C functions' addresses
        (``numpy.intp``, compiled code).
    index : int
        Which kernel.
    arrays : tuple of numpy.ndarray
        Its arguments; the last receives the result.

    Notes
    -----
    As the C functions called by address (which check nothing), a NaN or
    infinite input gives NaN results (the Python entry points refuse it with
    ``ValueError``), so the law sees a bad torque in both forms.

    """
    try:
        kernels[index](*arrays)
    except ValueError:
        if all(np.isfinite(a).all() for a in arrays[:-1]):
            raise
        arrays[-1][...] = np.nan


def all_finite(values):
    """
    Tell whether every element of a 1-D float array is finite.

    Parameters
    ----------
    values : numpy.ndarray
        (n,).

    Returns
    -------
    bool
        False for any NaN or infinity.

    """
    for v in values:
        if not np.isfinite(v):
            return False
    return True


def _address_call(typingctx, address, arrays):
    """
    Type and lower a call of a C function at an address (a numba intrinsic).

    ``void f(const double *, ..., double *out)``: the arrays' data pointers
    are passed in order.
    """
    from llvmlite import ir
    from numba.core import types

    def codegen(context, builder, signature, args):
        byte_ptr = ir.IntType(8).as_pointer()
        pointers = []
        for k, ty in enumerate(signature.args[1]):
            value = builder.extract_value(args[1], k)
            data = context.make_array(ty)(context, builder, value).data
            pointers.append(builder.bitcast(data, byte_ptr))
        fnty = ir.FunctionType(ir.VoidType(), [byte_ptr] * len(pointers))
        builder.call(builder.inttoptr(args[0], fnty.as_pointer()), pointers)
        return context.get_dummy_value()
    return types.void(types.intp, arrays), codegen


if AVAILABLE:
    from numba.extending import intrinsic, overload

    _call_address = intrinsic(_address_call)

    @overload(call_kernel)
    def _call_kernel_compiled(kernels, index, arrays):
        def impl(kernels, index, arrays):
            _call_address(kernels[index], arrays)
        return impl

    jitable(all_finite)

#: :func:`all_finite` for calls from Python.
finite = compiled(all_finite)
