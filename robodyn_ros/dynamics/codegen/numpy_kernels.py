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
The kernel entry points computed with the numpy reference (no compiler needed).

:class:`NumpyKernels` has the methods of :class:`~.kernels.Kernels`, with
the same arguments and results, from :mod:`robodyn_ros.dynamics.rne`,
:mod:`robodyn_ros.dynamics.forward` and
:mod:`robodyn_ros.dynamics.point_mass`. It is what
:func:`robodyn_ros.dynamics.codegen.kernels` returns when no C compiler
works or the numpy backend is asked for. As the C entry points, it refuses
a NaN or infinite input, with ``InputError`` (a ``ValueError``) naming the
argument, row and joint.
"""

import numpy as np

from ..forward import forward_dynamics as np_forward_dynamics
from ..inputs import state_array
from ..point_mass import point_mass_torque
from ..rne import inverse_dynamics as np_inverse_dynamics, joint_friction
from ...errors import InputError


def _rows(arr, start, stop):
    count = arr.shape[0]
    stop = count if stop is None else int(stop)
    start = int(start)
    if not 0 <= start <= stop <= count:
        raise ValueError(f'need 0 <= start <= stop <= {count} rows, got start={start}, '
                         f'stop={stop}')
    return slice(start, stop)


#: Argument names of the batch entry points' inputs.
_ARGS = {'inverse_dynamics': ('q', 'qd', 'qdd'), 'inverse_dynamics_rigid': ('q', 'qd', 'qdd'),
         'gravity': ('q',), 'mass_matrix': ('q',), 'forward_dynamics': ('q', 'qd', 'tau'),
         'forward_dynamics_rigid': ('q', 'qd', 'tau'),
         'inverse_dynamics_payload': ('q', 'qd', 'qdd', 'payload'),
         'payload_torque': ('q', 'qd', 'qdd', 'com'), 'gravity_payload': ('q', 'payload'),
         'friction': ('q', 'qd', 'qdd')}


def _check_rows(names, arrays, rows, n):
    """Raise InputError naming the first NaN or infinite entry of ``rows`` (absolute row)."""
    for name, arr in zip(names, arrays):
        part = arr[rows]
        if part.ndim == 2 and not np.all(np.isfinite(part)):
            r, j = np.argwhere(~np.isfinite(part))[0]
            what = 'joint' if part.shape[1] == n else 'entry'
            raise InputError(name, f'row {rows.start + r}, {what} {j} is {part[r, j]} '
                                   '(must be finite)')


def _store(result, out):
    if out is None:
        return result
    np.copyto(out, result)
    return out


def _payload(payload):
    """Mass [kg] and centre of mass [m] of a ``[m, cx, cy, cz]`` input."""
    p = state_array(payload, 4, 'payload')
    return p[..., 0:1], p[..., 1:]


class NumpyKernels:
    """
    The entry points of the kernels computed with the numpy reference.

    Parameters
    ----------
    model : RobotModel
        The model.
    generate : callable
        ``generate()`` returns the model's generated kernels (C text and
        operation counts), called on first use of ``source`` or ``op_counts``.
    reason : str
        Why the C kernels are not used.
    payload_frame : str
        Frame of the payload of the payload kernels.

    Attributes
    ----------
    model : RobotModel
        The model.
    backend : str
        ``'numpy'``.
    payload_frame : str
        Frame of the payload.

    """

    backend = 'numpy'

    def __init__(self, model, generate, reason, payload_frame):
        self.model = model
        self.reason = reason
        self.payload_frame = payload_frame
        self._generate = generate

    @property
    def source(self):
        """Give the C text that is not compiled, for inspection (str)."""
        return self._generate().source

    @property
    def op_counts(self):
        """Give the operation counts of the generated kernels (dict)."""
        return self._generate().op_counts

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
        """Accelerations that :meth:`inverse_dynamics` maps to ``tau`` (its inverse), (n,)."""
        return _store(np_forward_dynamics(self.model, q, qd, tau, method='crba'), out)

    def forward_dynamics_rigid(self, q, qd, tau, out=None):
        """Accelerations ``M^-1 (tau - h)`` of :meth:`inverse_dynamics_rigid`, (n,)."""
        return _store(np_forward_dynamics(self.model, q, qd, tau, method='crba',
                                          friction=False), out)

    def payload_torque(self, q, qd, qdd, com, out=None):
        """Rigid-body torques of 1 kg at ``com`` in the payload frame [N m/kg], (n,)."""
        return _store(point_mass_torque(self.model, q, qd, qdd, com, self.payload_frame), out)

    def inverse_dynamics_payload(self, q, qd, qdd, payload, out=None):
        """Torques with friction plus ``m payload_torque(c)``, ``payload = [m, c]``, (n,)."""
        mass, com = _payload(payload)
        tau = np_inverse_dynamics(self.model, q, qd, qdd)
        return _store(tau + mass * self.payload_torque(q, qd, qdd, com), out)

    def gravity_payload(self, q, payload, out=None):
        """Gravity torques with a point mass ``payload = [m, cx, cy, cz]``, (n,)."""
        mass, com = _payload(payload)
        zero = np.zeros_like(state_array(q, self.model.n, 'q'))
        return _store(self.gravity(q) + mass * self.payload_torque(q, zero, zero, com), out)

    def friction(self, q, qd, qdd, out=None):
        """Friction torques alone (velocity and load-dependent) [N m or N], (n,)."""
        return _store(joint_friction(self.model, q, qd, qdd), out)

    def _batch(self, name, arrays, out, start, stop, f_ext=None):
        arrays = [np.asarray(a, dtype=float) for a in arrays]
        rows = _rows(arrays[0], start, stop)
        if out is None:
            shape = (self.model.n, self.model.n) if name == 'mass_matrix' else (self.model.n,)
            out = np.empty((arrays[0].shape[0],) + shape)
        names = _ARGS[name] + ('f_ext',)
        _check_rows(names, arrays + ([] if f_ext is None else [np.asarray(f_ext, dtype=float)]),
                    rows, self.model.n)
        func = getattr(self, name)
        if name == 'mass_matrix':                         # one state at a time
            for r in range(rows.start, rows.stop):
                func(*[a[r] for a in arrays], out=out[r])
        elif rows.stop > rows.start:                      # the numpy code takes batches
            kwargs = {} if f_ext is None else {'f_ext': np.asarray(f_ext, dtype=float)[rows]}
            out[rows] = func(*[a[rows] for a in arrays], **kwargs)
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

    def forward_dynamics_rigid_batch(self, q, qd, tau, out=None, start=0, stop=None):
        """Batch of :meth:`forward_dynamics_rigid` over rows ``start:stop``."""
        return self._batch('forward_dynamics_rigid', (q, qd, tau), out, start, stop)

    def inverse_dynamics_payload_batch(self, q, qd, qdd, payload, out=None, start=0,
                                       stop=None):
        """Batch of :meth:`inverse_dynamics_payload` over rows ``start:stop``."""
        return self._batch('inverse_dynamics_payload', (q, qd, qdd, payload), out, start,
                           stop)

    def payload_torque_batch(self, q, qd, qdd, com, out=None, start=0, stop=None):
        """Batch of :meth:`payload_torque` over rows ``start:stop``."""
        return self._batch('payload_torque', (q, qd, qdd, com), out, start, stop)

    def gravity_payload_batch(self, q, payload, out=None, start=0, stop=None):
        """Batch of :meth:`gravity_payload` over rows ``start:stop``."""
        return self._batch('gravity_payload', (q, payload), out, start, stop)

    def friction_batch(self, q, qd, qdd, out=None, start=0, stop=None):
        """Batch of :meth:`friction` over rows ``start:stop``."""
        return self._batch('friction', (q, qd, qdd), out, start, stop)
