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
The controller's inverse dynamics, from the fastest implementation available.

Every model-based law calls the inverse dynamics of *its* model once per
sample. The customized C kernels of :mod:`robodyn_ros.dynamics.codegen`
(about 2 us per call for a 6-joint arm) are used when that module exists
and a C compiler works; otherwise the numpy reference
:func:`robodyn_ros.dynamics.inverse_dynamics` (correct, but milliseconds
per call). Both compute exactly the same torque (rigid body, rotor inertia
and every friction model of the joints).
"""

import warnings

import numpy as np

from ..dynamics import inverse_dynamics, mass_matrix
from ..errors import InputError

BACKENDS = ('auto', 'codegen', 'numpy')


def _codegen_kernels(model, required):
    """Return compiled kernels, or None when they cannot be had."""
    try:
        from ..dynamics.codegen import kernels
    except ImportError:
        if required:
            raise InputError('backend', 'robodyn_ros.dynamics.codegen is not available in '
                                        'this installation') from None
        return None
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try:
            k = kernels(model, backend='c' if required else None)
        except Exception as exc:  # compiler missing or failing: fall back
            if required:
                raise InputError('backend', f'C kernels unavailable: {exc}') from None
            return None
    if getattr(k, 'backend', '') != 'c':
        if required:
            raise InputError('backend', 'C kernels unavailable (no working compiler)')
        return None
    return k


class ModelDynamics:
    """
    Inverse dynamics, gravity and mass matrix of one model.

    Parameters
    ----------
    model : RobotModel
        The model (of the controller; not the plant's).
    backend : {'auto', 'codegen', 'numpy'}
        ``'auto'`` takes the C kernels when they can be built, else numpy.

    Attributes
    ----------
    model : RobotModel
        The model.
    backend : str
        ``'codegen'`` or ``'numpy'``.

    """

    def __init__(self, model, backend='auto'):
        if backend not in BACKENDS:
            raise InputError('backend', f'must be one of {", ".join(BACKENDS)}, got {backend!r}')
        self.model = model
        self._k = None if backend == 'numpy' else _codegen_kernels(model, backend == 'codegen')
        self.backend = 'codegen' if self._k is not None else 'numpy'
        n = model.n
        self._zero = np.zeros(n)
        if self._k is not None:
            self._id = self._k.inverse_dynamics
            self._id_rigid = self._k.inverse_dynamics_rigid
            self._grav = self._k.gravity

    @property
    def kernels(self):
        """Give the C kernels of the model (``codegen.Kernels``), or None on the numpy backend."""
        return self._k

    def inverse_dynamics(self, q, qd, qdd):
        """
        Torque for a state and an acceleration, every friction model included.

        Parameters
        ----------
        q, qd, qdd : numpy.ndarray
            Finite float arrays, (n,) [rad, rad/s, rad/s^2 or m, m/s, m/s^2].

        Returns
        -------
        numpy.ndarray
            (n,) [N m or N].

        """
        if self._k is not None:
            return self._id(q, qd, qdd)
        return inverse_dynamics(self.model, q, qd, qdd)

    def inverse_dynamics_rigid(self, q, qd, qdd):
        """
        Torque without friction (rigid body and rotor inertia).

        Parameters
        ----------
        q, qd, qdd : numpy.ndarray
            Finite float arrays, (n,).

        Returns
        -------
        numpy.ndarray
            (n,) [N m or N].

        """
        if self._k is not None:
            return self._id_rigid(q, qd, qdd)
        return inverse_dynamics(self.model, q, qd, qdd, friction=False)

    def gravity(self, q):
        """
        Gravity torque ``g(q)``.

        Parameters
        ----------
        q : numpy.ndarray
            Positions, (n,).

        Returns
        -------
        numpy.ndarray
            (n,) [N m or N].

        """
        if self._k is not None:
            return self._grav(q)
        return inverse_dynamics(self.model, q, self._zero, self._zero, friction=False)

    def mass_matrix(self, q):
        """
        Joint-space inertia matrix with rotor inertia (configuration time only).

        Parameters
        ----------
        q : numpy.ndarray
            Positions, (n,) or (N, n).

        Returns
        -------
        numpy.ndarray
            (n, n) or (N, n, n).

        """
        return mass_matrix(self.model, q)

    def __repr__(self):
        return f'ModelDynamics({self.model.name!r}, backend={self.backend!r})'
