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
The controller's inverse dynamics: a view of the robot's kernels.

Every model-based law calls the inverse dynamics of *its* model once per
sample. :class:`ModelDynamics` is a thin view of
:func:`robodyn_ros.dynamics.codegen.kernels` (which chooses, once, the
customized C kernels when a compiler works, else the numpy reference behind
the same interface); it only names the backend the way the controllers and
their node parameter do (``'auto'``, ``'codegen'``, ``'numpy'``). Both
implementations compute exactly the same torque (rigid body, rotor inertia
and every friction model of the joints).
"""

from ..dynamics.codegen import kernels
from ..dynamics.inputs import state_array
from ..errors import InputError

#: Backend names of the controllers and what they ask of :func:`kernels`.
BACKENDS = {'auto': None, 'codegen': 'c', 'numpy': 'numpy'}


class ModelDynamics:
    """
    Inverse dynamics, gravity and mass matrix of one model.

    Parameters
    ----------
    model : RobotModel
        The model (of the controller; not the plant's).
    backend : {'auto', 'codegen', 'numpy'}
        Request passed to :func:`~robodyn_ros.dynamics.codegen.kernels`:
        ``'auto'`` takes the C kernels when they can be built, else numpy;
        ``'codegen'`` requires C; ``'numpy'`` the reference.

    Attributes
    ----------
    model : RobotModel
        The model.
    kernels : Kernels or NumpyKernels
        The robot's kernels (every entry point, ``c_address`` for compiled
        callers when they are C).
    backend : str
        ``'codegen'`` or ``'numpy'``.

    Raises
    ------
    InputError
        On an unknown backend name.
    CompilerUnavailable
        With ``'codegen'`` when the C kernels cannot be built.

    """

    def __init__(self, model, backend='auto'):
        if backend not in BACKENDS:
            raise InputError('backend', f'must be one of {", ".join(BACKENDS)}, got {backend!r}')
        self.model = model
        self.kernels = kernels(model, BACKENDS[backend])
        self.backend = 'codegen' if self.kernels.backend == 'c' else 'numpy'
        self._id = self.kernels.inverse_dynamics
        self._id_rigid = self.kernels.inverse_dynamics_rigid
        self._grav = self.kernels.gravity

    def inverse_dynamics(self, q, qd, qdd):
        """
        Torque for a state and an acceleration, every friction model included.

        Parameters
        ----------
        q, qd, qdd : numpy.ndarray
            Finite float64 arrays, (n,) [rad, rad/s, rad/s^2 or m, m/s, m/s^2].

        Returns
        -------
        numpy.ndarray
            (n,) [N m or N].

        """
        return self._id(q, qd, qdd)

    def inverse_dynamics_rigid(self, q, qd, qdd):
        """
        Torque without friction (rigid body and rotor inertia).

        Parameters
        ----------
        q, qd, qdd : numpy.ndarray
            Finite float64 arrays, (n,).

        Returns
        -------
        numpy.ndarray
            (n,) [N m or N].

        """
        return self._id_rigid(q, qd, qdd)

    def gravity(self, q):
        """
        Gravity torque ``g(q)``.

        Parameters
        ----------
        q : numpy.ndarray
            Positions, float64 (n,).

        Returns
        -------
        numpy.ndarray
            (n,) [N m or N].

        """
        return self._grav(q)

    def mass_matrix(self, q):
        """
        Joint-space inertia matrix with rotor inertia.

        Parameters
        ----------
        q : array_like
            Positions, (n,) or (N, n).

        Returns
        -------
        numpy.ndarray
            (n, n) or (N, n, n).

        Raises
        ------
        InputError
            On a wrong shape or a non-finite value.

        """
        qa = state_array(q, self.model.n, 'q')
        if qa.ndim == 1:
            return self.kernels.mass_matrix(qa)
        return self.kernels.mass_matrix_batch(qa)

    def __repr__(self):
        return f'ModelDynamics({self.model.name!r}, backend={self.backend!r})'
