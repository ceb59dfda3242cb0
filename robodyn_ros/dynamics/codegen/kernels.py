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
The kernel objects: compiled C entry points, or the numpy fallback.

:class:`Kernels` exposes the C functions themselves as attributes (no Python
wrapper in between, which would double the per-call cost).
:class:`NumpyKernels` has the same methods, computed with the numpy
reference; it is used when no C compiler works.
"""

import numpy as np

from ..inputs import state_array
from ..rne import inverse_dynamics as np_inverse_dynamics

#: Entry points of a kernel object (each also with ``_batch``).
ENTRY_POINTS = ('inverse_dynamics', 'inverse_dynamics_rigid', 'gravity', 'mass_matrix',
                'forward_dynamics')


class Kernels:
    """
    Compiled kernels of one model.

    Attributes
    ----------
    model : RobotModel
        The model.
    backend : str
        ``'c'``.
    source : str
        The generated C text.
    op_counts : dict
        Operation counts per kernel.
    path : str
        The shared object.

    Notes
    -----
    Entry points (C functions; arrays must be C-contiguous float64, else
    ``ValueError``):

    * ``inverse_dynamics(q, qd, qdd, out=None, f_ext=None)`` -- torques with
      armature and every friction model, as
      :func:`robodyn_ros.dynamics.rne.inverse_dynamics`;
    * ``inverse_dynamics_rigid(q, qd, qdd, out=None, f_ext=None)`` -- same
      with ``friction=False``;
    * ``gravity(q, out=None)``, ``mass_matrix(q, out=None)`` (with armature),
      ``forward_dynamics(q, qd, tau, out=None)`` (rigid body with armature);
    * each also as ``<name>_batch(Q, ..., out=None, start=0, stop=N, f_ext=None)``
      over rows of (N, n) arrays, releasing the GIL.

    """

    backend = 'c'

    def __init__(self, model, generated, module, path):
        self.model = model
        self.source = generated.source.replace('__RD_MODULE__', module.__name__)
        self.op_counts = generated.op_counts
        self.path = path
        self.module = module
        for name in ENTRY_POINTS:
            setattr(self, name, getattr(module, name))
            setattr(self, name + '_batch', getattr(module, name + '_batch'))

    def c_address(self, name):
        """
        Return the address of a single-state kernel's plain C function.

        The function takes one ``const double *`` per input and the output
        pointer last, and checks nothing: the caller must pass C-contiguous
        float64 arrays of the kernel's sizes. For compiled code that calls it
        through a pointer (see :mod:`robodyn_ros.control.step_dynamics`). Valid
        while this object (which holds the loaded module) lives.

        Parameters
        ----------
        name : str
            One of ``ENTRY_POINTS``.

        Returns
        -------
        int
            The address.

        """
        return int(self.module.c_addresses[name])

    def __repr__(self):
        return f'<Kernels {self.model.name} n={self.model.n} backend=c {self.path}>'


def _rows(arr, start, stop):
    count = arr.shape[0]
    stop = count if stop is None else int(stop)
    start = int(start)
    if not 0 <= start <= stop <= count:
        raise ValueError(f'need 0 <= start <= stop <= {count} rows, got start={start}, '
                         f'stop={stop}')
    return slice(start, stop)


def _store(result, out):
    if out is None:
        return result
    np.copyto(out, result)
    return out


class NumpyKernels:
    """
    The same entry points computed with the numpy reference (fallback).

    Attributes
    ----------
    model : RobotModel
        The model.
    backend : str
        ``'numpy'``.
    source : str
        The C text that could not be compiled (for inspection).
    op_counts : dict
        Operation counts of the generated kernels.

    """

    backend = 'numpy'

    def __init__(self, model, generated, reason=''):
        self.model = model
        self.source = generated.source
        self.op_counts = generated.op_counts
        self.reason = reason

    def __repr__(self):
        return f'<NumpyKernels {self.model.name} n={self.model.n} ({self.reason})>'

    def inverse_dynamics(self, q, qd, qdd, out=None, f_ext=None):
        """Torques with armature and friction [N m or N], (n,)."""
        return _store(np_inverse_dynamics(self.model, q, qd, qdd, f_ext=f_ext), out)

    def inverse_dynamics_rigid(self, q, qd, qdd, out=None, f_ext=None):
        """Torques with armature, no friction [N m or N], (n,)."""
        return _store(np_inverse_dynamics(self.model, q, qd, qdd, f_ext=f_ext,
                                          friction=False), out)

    def gravity(self, q, out=None):
        """Gravity torques [N m or N], (n,)."""
        zero = np.zeros_like(state_array(q, self.model.n, 'q'))
        return _store(np_inverse_dynamics(self.model, q, zero, zero, friction=False), out)

    def mass_matrix(self, q, out=None):
        """Mass matrix with armature, (n, n), by RNE columns."""
        qa = state_array(q, self.model.n, 'q')
        n = self.model.n
        eye = np.eye(n)
        zero = np.zeros((n, n))
        cols = np_inverse_dynamics(self.model, np.broadcast_to(qa, (n, n)), zero, eye,
                                   friction=False, gravity=False)
        return _store(cols.T.copy(), out)

    def forward_dynamics(self, q, qd, tau, out=None):
        """Accelerations ``M^-1 (tau - h)``, rigid body with armature, (n,)."""
        zero = np.zeros(self.model.n)
        bias = np_inverse_dynamics(self.model, q, qd, zero, friction=False)
        tau = state_array(tau, self.model.n, 'tau')
        return _store(np.linalg.solve(self.mass_matrix(q), tau - bias), out)

    def _batch(self, name, arrays, out, start, stop, f_ext=None):
        arrays = [np.asarray(a, dtype=float) for a in arrays]
        rows = _rows(arrays[0], start, stop)
        if out is None:
            shape = (self.model.n, self.model.n) if name == 'mass_matrix' else (self.model.n,)
            out = np.empty((arrays[0].shape[0],) + shape)
        func = getattr(self, name)
        for r in range(rows.start, rows.stop):
            kwargs = {} if f_ext is None else {'f_ext': np.asarray(f_ext)[r]}
            func(*[a[r] for a in arrays], out=out[r], **kwargs)
        return out

    def inverse_dynamics_batch(self, q, qd, qdd, out=None, start=0, stop=None, f_ext=None):
        """Batch of :meth:`inverse_dynamics` over rows ``start:stop``."""
        return self._batch('inverse_dynamics', (q, qd, qdd), out, start, stop, f_ext)

    def inverse_dynamics_rigid_batch(self, q, qd, qdd, out=None, start=0, stop=None,
                                     f_ext=None):
        """Batch of :meth:`inverse_dynamics_rigid` over rows ``start:stop``."""
        return self._batch('inverse_dynamics_rigid', (q, qd, qdd), out, start, stop, f_ext)

    def gravity_batch(self, q, out=None, start=0, stop=None):
        """Batch of :meth:`gravity` over rows ``start:stop``."""
        return self._batch('gravity', (q,), out, start, stop)

    def mass_matrix_batch(self, q, out=None, start=0, stop=None):
        """Batch of :meth:`mass_matrix` over rows ``start:stop``."""
        return self._batch('mass_matrix', (q,), out, start, stop)

    def forward_dynamics_batch(self, q, qd, tau, out=None, start=0, stop=None):
        """Batch of :meth:`forward_dynamics` over rows ``start:stop``."""
        return self._batch('forward_dynamics', (q, qd, tau), out, start, stop)
