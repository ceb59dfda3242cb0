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
Customized dynamics kernels: straight-line C generated per robot (no rclpy).

From a :class:`~robodyn_ros.model.RobotModel` the generator writes
straight-line code for that robot only, in the manner of seed 002 (Kanade:
propagate zeros and ones) and seed 001 §1.7 (Khalil: customized Newton-Euler,
intermediate variables, backward removal of unused ones). A small scalar
expression DAG of our own (:mod:`.expr`, hash-consed, no sympy) does the
work as the recursions are built: no product with 0 or +-1, no sum with 0,
constants folded, common subexpressions shared, dead nodes dropped, one
``sincos`` per joint angle.

Kernels: inverse dynamics exactly as
:func:`robodyn_ros.dynamics.rne.inverse_dynamics` (rigid body, armature,
velocity friction, seed-004 bearing friction from the reaction wrenches and
the transmission map) with or without an end-effector wrench, gravity
torques, the mass matrix (straight-line composite rigid bodies) and forward
dynamics in inverse pairs: ``forward_dynamics_rigid`` inverts
``inverse_dynamics_rigid`` (mass matrix plus a branch-sparse ``L^T D L``
solve), ``forward_dynamics`` inverts ``inverse_dynamics``, friction
included (velocity friction subtracted; load-dependent friction solved for
by :mod:`.fd_solve`); the same
with a point-mass payload whose mass and centre of mass are inputs
(``inverse_dynamics_payload``, ``gravity_payload``, and ``payload_torque``
for 1 kg, the regressor of the payload estimator); and the friction torques
alone (``friction``). Each for one state and for a batch of states.

Why C and not numba: the whole point is the per-call cost from Python. A
trivial ``METH_FASTCALL`` C function costs about 0.45 us per call here
against about 0.8 us for a trivial numba function, and the goal is to be no
slower than Pinocchio's ``rnea`` (about 1.3-1.9 us on this machine for a
6-joint arm). So the generated C is wrapped as a CPython extension module
(``METH_FASTCALL``, buffer protocol, C-contiguous float64, sizes and
finite values checked in C), compiled on demand with the system C compiler and cached on disk (see
:mod:`.build`). Batch entry points release the GIL and take a row range, so
threads can split a batch (:func:`.threads.run_batch`). Without a working
compiler, :func:`kernels` warns once and returns the numpy reference with
the same methods.

Use::

    from robodyn_ros.dynamics.codegen import kernels
    k = kernels(model)                     # generated, compiled, cached
    tau = k.inverse_dynamics(q, qd, qdd)   # float64 arrays, shape (n,)
    qdd = k.forward_dynamics(q, qd, tau)   # its inverse
    k.inverse_dynamics_batch(Q, QD, QDD, out=T, start=0, stop=len(Q))
    tau = k.inverse_dynamics_payload(q, qd, qdd, np.array([m, cx, cy, cz]))
    k.op_counts['rne']                     # {'mul': ..., 'add': ..., ...}

:func:`kernels` is the one place where the implementation is chosen: C
when a compiler works, else the numpy reference behind the same interface
(:class:`.numpy_kernels.NumpyKernels`), or as asked (argument or
``$ROBODYN_CODEGEN_BACKEND``).
"""

import os
import warnings

from .build import CompilerUnavailable, load
from .generate import generate
from .kernels import Kernels
from .numpy_kernels import NumpyKernels

#: Set to ``numpy`` to force the numpy fallback, ``c`` to require the compiler.
BACKEND_ENV = 'ROBODYN_CODEGEN_BACKEND'

#: Backend requests: the names the controllers and nodes use, and their meaning.
REQUESTS = {None: None, 'auto': None, 'c': 'c', 'codegen': 'c', 'numpy': 'numpy'}

_WARNED = set()


class CodegenWarning(RuntimeWarning):
    """The C kernels could not be built; the numpy reference is used instead."""


def backend_request(backend):
    """
    Read a backend request: ``None``/``'auto'``, ``'c'``/``'codegen'`` or ``'numpy'``.

    Parameters
    ----------
    backend : str or None
        The request; ``None`` and ``'auto'`` defer to ``$ROBODYN_CODEGEN_BACKEND``.

    Returns
    -------
    str or None
        ``None`` (C when a compiler works, else numpy), ``'c'`` or ``'numpy'``.

    Raises
    ------
    ValueError
        On an unknown name (``InputError`` from the package's callers).

    """
    if backend not in REQUESTS:
        raise ValueError(f"backend must be one of 'auto', 'c', 'codegen', 'numpy' (or None), "
                         f'got {backend!r}')
    request = REQUESTS[backend]
    if request is None:
        request = REQUESTS.get(os.environ.get(BACKEND_ENV) or None, 'invalid')
        if request == 'invalid':
            raise ValueError(f'${BACKEND_ENV} must be c or numpy, got '
                             f'{os.environ[BACKEND_ENV]!r}')
    return request


def _generated(model, payload_frame):
    return model.derived(('codegen_generated', payload_frame),
                         lambda m: generate(m, payload_frame=payload_frame))


def _make(model, backend, payload_frame):
    def gen():
        return _generated(model, payload_frame)

    if backend == 'numpy':
        return NumpyKernels(model, gen, 'numpy backend requested', payload_frame)
    try:
        module, path = load(gen().source)
    except CompilerUnavailable as exc:
        if backend == 'c':
            raise
        reason = str(exc).splitlines()[0][:300]
        if reason not in _WARNED:
            _WARNED.add(reason)
            warnings.warn(f'robodyn_ros: C dynamics kernels unavailable ({reason}); using '
                          'the numpy reference implementation instead (much slower)',
                          CodegenWarning, stacklevel=3)
        return NumpyKernels(model, gen, reason, payload_frame)
    return Kernels(model, gen(), module, path, payload_frame)


def kernels(model, backend=None, payload_frame=None):
    """
    Return the customized kernels of a model, generated and compiled once per model.

    This is the one place where C or numpy is chosen: everything that wants
    the robot's dynamics fast asks here, and gets an object with the same
    entry points either way.

    Parameters
    ----------
    model : RobotModel
        The model.
    backend : {None, 'auto', 'c', 'codegen', 'numpy'}
        ``None`` or ``'auto'``: C when a compiler works, else numpy with a
        warning (or as ``$ROBODYN_CODEGEN_BACKEND`` says); ``'c'`` (alias
        ``'codegen'``): raise if C fails; ``'numpy'``: the reference
        implementation.
    payload_frame : str, optional
        Frame of the payload point mass of ``inverse_dynamics_payload``,
        ``payload_torque`` and ``gravity_payload``; default
        ``model.end_effector``. Each frame has kernels of its own.

    Returns
    -------
    Kernels or NumpyKernels
        Object with ``inverse_dynamics``, ``inverse_dynamics_rigid``,
        ``gravity``, ``mass_matrix``, ``forward_dynamics``,
        ``forward_dynamics_rigid``, ``inverse_dynamics_payload``, ``payload_torque``,
        ``gravity_payload``, ``friction`` and their ``_batch`` forms, plus
        ``backend`` (``'c'`` or ``'numpy'``), ``payload_frame``, ``source``
        and ``op_counts``.

    Raises
    ------
    CompilerUnavailable
        With ``backend='c'`` when the module cannot be built.
    ValueError
        On an unknown backend name.
    UnknownNameError
        When the model has no frame ``payload_frame``.

    """
    request = backend_request(backend)
    frame = payload_frame or model.end_effector
    model.frame(frame)
    return model.derived(('codegen_kernels', request, frame),
                         lambda m: _make(m, request, frame))


def op_counts(model):
    """
    Operation counts of the generated kernels of a model (no compiler needed).

    Parameters
    ----------
    model : RobotModel
        The model.

    Returns
    -------
    dict
        Kernel name to counts: ``mul``, ``add`` (additions and
        subtractions), ``neg``, ``div``, ``sincos`` (angles), ``func``
        (other functions) and ``select`` (comparisons). ``rne`` and
        ``rne_ext`` are the rigid body alone (no armature, no friction).

    """
    return _generated(model, model.end_effector).op_counts


__all__ = ['BACKEND_ENV', 'CodegenWarning', 'CompilerUnavailable', 'backend_request',
           'kernels', 'op_counts']
