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
Feed-forward efforts of a planned motion: the seam between planner and dynamics.

The planners only need a callable ``effort_provider(Q, QD, QDD) -> TAU`` over
the planned joints (arrays (N, n)). :class:`ModelEffortProvider` is the
in-process default: the robot's inverse dynamics kernels
(:func:`robodyn_ros.dynamics.codegen.kernels`, batch entry points; the same
torques as :func:`robodyn_ros.dynamics.inverse_dynamics`) with friction,
rotor inertia and an optional payload; joints of the model that are not
planned stay at fixed positions. A remote (parallel-dynamics) service can replace it
by any object with the same call.
"""

from dataclasses import dataclass

import numpy as np

from .limits import joint_vector
from ..dynamics.codegen import kernels
from ..dynamics.inputs import state_batches
from ..errors import InputError


@dataclass(frozen=True)
class Payload:
    """
    A rigid load carried by the robot.

    Attributes
    ----------
    mass : float
        Mass [kg] (>= 0).
    com : tuple of float
        Centre of mass in ``frame`` [m].
    inertia : tuple or None
        3x3 inertia about the centre of mass in ``frame`` axes [kg m^2];
        None for a point mass.
    frame : str or None
        Frame it is fixed to (default: the last body).

    """

    mass: float = 0.0
    com: tuple = (0.0, 0.0, 0.0)
    inertia: tuple = None
    frame: str = None

    def __post_init__(self):
        if not (np.isfinite(self.mass) and self.mass >= 0.0):
            raise InputError('payload mass', f'must be finite and >= 0 kg, got {self.mass}')
        com = np.asarray(self.com, dtype=float)
        if com.shape != (3,) or not np.all(np.isfinite(com)):
            raise InputError('payload com', f'must be 3 finite values [m], got {self.com}')

    def apply(self, model):
        """
        Return the model carrying this payload.

        Parameters
        ----------
        model : RobotModel
            The robot.

        Returns
        -------
        RobotModel
            The model itself when the mass is zero.

        """
        if self.mass == 0.0:
            return model
        return model.with_payload(self.mass, self.com, self.inertia, self.frame)


class ModelEffortProvider:
    """
    Joint efforts of planned states from the robot model (RNE with friction).

    Parameters
    ----------
    model : RobotModel
        The robot (without payload).
    joints : sequence of str, optional
        Planned joints, in column order (default all).
    payload : Payload, optional
        Load carried at the end effector.
    friction : bool
        Include the joints' friction models.
    fixed_positions : array_like, optional
        Positions of all model joints, (n_model,) [rad or m], used for the
        joints that are not planned (default zero).

    """

    def __init__(self, model, joints=None, payload=None, friction=True, fixed_positions=None):
        self._payload = payload if payload is not None else Payload()
        self._model = self._payload.apply(model)
        self._names = list(joints) if joints else model.joint_names
        self._idx = np.array([model.joint_index(j) for j in self._names], dtype=int)
        self._friction = bool(friction)
        self._fixed = (np.zeros(model.n) if fixed_positions is None
                       else joint_vector(fixed_positions, model.n, 'fixed_positions',
                                         model.joint_names))

    @property
    def model(self):
        """Model used, payload included (RobotModel)."""
        return self._model

    @property
    def joint_names(self):
        """Planned joints (list of str)."""
        return list(self._names)

    @property
    def indices(self):
        """Model indices of the planned joints, (n,) (numpy.ndarray of int)."""
        return self._idx.copy()

    @property
    def fixed_positions(self):
        """Positions of all model joints used for those not planned, (n_model,)."""
        return self._fixed.copy()

    @property
    def friction(self):
        """Whether the joints' friction models are included (bool)."""
        return self._friction

    def with_fixed_positions(self, positions):
        """
        Return a copy with other positions for the joints that are not planned.

        Parameters
        ----------
        positions : array_like
            Positions of all model joints, (n_model,).

        Returns
        -------
        ModelEffortProvider
            The copy.

        """
        out = object.__new__(type(self))
        out.__dict__.update(self.__dict__)
        out._fixed = joint_vector(positions, self._model.n, 'fixed_positions',
                                  self._model.joint_names)
        return out

    def __call__(self, q, qd, qdd):
        """
        Compute the efforts of planned states.

        Parameters
        ----------
        q, qd, qdd : array_like
            Planned positions, velocities, accelerations, (N, n) or (n,).

        Returns
        -------
        numpy.ndarray
            Efforts, same shape [N m or N].

        """
        q, qd, qdd = (np.asarray(x, dtype=float) for x in (q, qd, qdd))
        single = q.ndim == 1
        q2, qd2, qdd2 = (np.atleast_2d(x) for x in (q, qd, qdd))
        if q2.shape[1] != self._idx.size:
            raise InputError('q', f'expected {self._idx.size} planned joints, got '
                                  f'{q2.shape[1]}')
        if self._idx.size == self._model.n and np.array_equal(self._idx,
                                                              np.arange(self._model.n)):
            full = (q2, qd2, qdd2)
        else:
            rows = q2.shape[0]
            full = [np.tile(self._fixed, (rows, 1)), np.zeros((rows, self._model.n)),
                    np.zeros((rows, self._model.n))]
            for arr, part in zip(full, (q2, qd2, qdd2)):
                arr[:, self._idx] = part
        tau = self._efforts(*full)[:, self._idx]
        return tau[0] if single else tau

    def _efforts(self, q, qd, qdd):
        _, q, qd, qdd = state_batches(self._model, q, qd, qdd)
        k = kernels(self._model)
        if self._friction:
            return k.inverse_dynamics_batch(q, qd, qdd)
        return k.inverse_dynamics_rigid_batch(q, qd, qdd)

    def __repr__(self):
        return (f'ModelEffortProvider(model={self._model.name!r}, joints={self._names}, '
                f'payload={self._payload}, friction={self._friction})')
