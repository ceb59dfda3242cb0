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
The compiled kernel object: the C entry points of one generated module.

:class:`Kernels` exposes the C functions themselves as attributes (no Python
wrapper in between, which would double the per-call cost).
:class:`~.numpy_kernels.NumpyKernels` has the same methods, computed with
the numpy reference; :func:`robodyn_ros.dynamics.codegen.kernels` returns
one or the other.
"""

#: Entry points of a kernel object (each also with ``_batch``).
ENTRY_POINTS = ('inverse_dynamics', 'inverse_dynamics_rigid', 'gravity', 'mass_matrix',
                'forward_dynamics', 'forward_dynamics_rigid', 'inverse_dynamics_payload',
                'payload_torque', 'gravity_payload', 'friction')


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
    payload_frame : str
        Frame of the payload of the payload kernels.

    Notes
    -----
    Entry points (C functions; arrays must be C-contiguous float64, else
    ``ValueError``):

    * ``inverse_dynamics(q, qd, qdd, out=None, f_ext=None)`` -- torques with
      armature and every friction model, as
      :func:`robodyn_ros.dynamics.rne.inverse_dynamics`;
    * ``inverse_dynamics_rigid(q, qd, qdd, out=None, f_ext=None)`` -- same
      with ``friction=False``;
    * ``gravity(q, out=None)``, ``mass_matrix(q, out=None)`` (with armature);
    * ``forward_dynamics(q, qd, tau, out=None)`` -- the inverse of
      ``inverse_dynamics``: the accelerations it maps to ``tau``, armature
      and every friction model included, as
      :func:`robodyn_ros.dynamics.forward.forward_dynamics`, so
      ``forward_dynamics(q, qd, inverse_dynamics(q, qd, qdd)) == qdd`` to
      round-off. Velocity friction depends on ``qd`` alone and is subtracted
      from ``tau`` (``M(q) qdd = tau - h(q, qd) - tau_v(qd)``, straight-line
      code); load-dependent friction (bearings, transmissions) depends on
      ``qdd`` through the joint reactions and is solved by Newton iterations
      on the inverse-dynamics kernel (:mod:`.fd_solve`; a few microseconds;
      ``ForwardDynamicsError`` when they find no solution; where friction
      makes the torque a non-injective function of the acceleration, the
      solution reached from the answer without load-dependent friction);
    * ``forward_dynamics_rigid(q, qd, tau, out=None)`` -- the inverse of
      ``inverse_dynamics_rigid``: rigid body with armature, no friction
      (Pinocchio's ``aba`` with the armature);
    * ``inverse_dynamics_payload(q, qd, qdd, payload, out=None)`` -- the
      torque of ``inverse_dynamics`` plus the rigid-body torque of a point
      mass, ``payload = [m, cx, cy, cz]`` [kg, m] in ``payload_frame``
      (the point mass of ``model.with_payload(m, c, frame=payload_frame)``).
      Every friction model is evaluated on the robot *without* the payload
      (its reactions and rigid torque), as the linear-in-mass payload model
      of :mod:`robodyn_ros.control.payload` has it, so the torque is exactly
      ``inverse_dynamics + m payload_torque(c)``; for a model without
      load-dependent (bearing, transmission) friction this is the inverse
      dynamics of the model carrying the payload;
    * ``payload_torque(q, qd, qdd, com, out=None)`` -- the rigid-body torque
      of a 1 kg point mass at ``com`` (3,) alone, gravity included: the
      regressor column ``y_m = d tau / d m``;
    * ``gravity_payload(q, payload, out=None)`` -- gravity torques with the
      payload;
    * ``friction(q, qd, qdd, out=None)`` -- the friction torques alone
      (``inverse_dynamics`` less ``inverse_dynamics_rigid``: velocity
      friction and the load-dependent friction from the joint reactions),
      from a kernel of their own;
    * each also as ``<name>_batch(Q, ..., out=None, start=0, stop=N, f_ext=None)``
      over rows of (N, ...) arrays, releasing the GIL.

    Every entry point refuses a NaN or infinite input with ``ValueError``:
    single-state entry points name the argument and index, batch entry
    points the row (a check of a few nanoseconds per call).

    """

    backend = 'c'

    def __init__(self, model, generated, module, path, payload_frame):
        self.model = model
        self.payload_frame = payload_frame
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
        float64 arrays of the kernel's sizes (finite: a NaN input gives NaN
        results, and ``forward_dynamics`` gives NaN when its friction
        equations have no solution found). For compiled code that calls it
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
