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
Bridge from a :class:`~robodyn_ros.model.RobotModel` to Pinocchio.

Pinocchio serves as the independent reference for our dynamics and as the
simulated plant. The bridge builds a ``pinocchio.Model`` from the model's own
URDF (so both see the same numbers), copies rotor inertia (``armature``) and
gravity, and maps configuration and velocity vectors between the two joint
orderings (Pinocchio stores a continuous joint as ``(cos q, sin q)``).
"""

import numpy as np


class PinocchioBridge:
    """
    A Pinocchio model equivalent to a RobotModel, with vector mappings.

    Parameters
    ----------
    model : RobotModel
        The model to mirror.
    armature : bool
        Copy the rotor inertia into ``pinocchio.Model.armature``.

    Attributes
    ----------
    model : RobotModel
        The source model.
    pin_model : pinocchio.Model
        The Pinocchio model.
    pin_data : pinocchio.Data
        Work data for ``pin_model``.

    """

    def __init__(self, model, armature=True):
        import pinocchio as pin
        self._pin = pin
        self.model = model
        self.pin_model = pin.buildModelFromXML(model.to_urdf())
        self.pin_model.gravity.linear = np.array(model.gravity, dtype=float)
        self._idx_q = np.empty(model.n, dtype=int)
        self._idx_v = np.empty(model.n, dtype=int)
        self._continuous = np.zeros(model.n, dtype=bool)
        for i, joint in enumerate(model.joints):
            jid = self.pin_model.getJointId(joint.name)
            pj = self.pin_model.joints[jid]
            self._idx_q[i] = pj.idx_q
            self._idx_v[i] = pj.idx_v
            self._continuous[i] = pj.nq == 2
        n = model.n
        self._plain = bool(self.pin_model.nq == self.pin_model.nv == n
                           and not self._continuous.any()
                           and np.array_equal(self._idx_q, np.arange(n))
                           and np.array_equal(self._idx_v, np.arange(n)))
        if armature:
            arm = np.array(self.pin_model.armature)
            arm[self._idx_v] = model.armature
            self.pin_model.armature = arm
        self.pin_data = self.pin_model.createData()

    @property
    def plain(self):
        """Whether Pinocchio's vectors are ours as they are (no continuous joint, same order)."""
        return self._plain

    def q(self, q):
        """
        Pinocchio configuration of one of our configurations.

        Parameters
        ----------
        q : array_like
            Our joint coordinates, shape (n,) [rad or m].

        Returns
        -------
        numpy.ndarray
            Shape (nq,) for Pinocchio.

        """
        q = np.asarray(q, dtype=float)
        out = np.zeros(self.pin_model.nq)
        plain = ~self._continuous
        out[self._idx_q[plain]] = q[plain]
        cont = self._continuous
        out[self._idx_q[cont]] = np.cos(q[cont])
        out[self._idx_q[cont] + 1] = np.sin(q[cont])
        return out

    def v(self, v):
        """
        Pinocchio velocity (or acceleration, torque) vector of one of ours.

        Parameters
        ----------
        v : array_like
            Shape (n,).

        Returns
        -------
        numpy.ndarray
            Shape (nv,).

        """
        out = np.zeros(self.pin_model.nv)
        out[self._idx_v] = np.asarray(v, dtype=float)
        return out

    def from_v(self, pv):
        """
        Our ordering of a Pinocchio velocity-space vector.

        Parameters
        ----------
        pv : array_like
            Shape (nv,).

        Returns
        -------
        numpy.ndarray
            Shape (n,).

        """
        return np.asarray(pv, dtype=float)[self._idx_v]

    def from_matrix(self, mat):
        """
        Our ordering of a Pinocchio (nv, nv) matrix.

        Parameters
        ----------
        mat : array_like
            Shape (nv, nv).

        Returns
        -------
        numpy.ndarray
            Shape (n, n).

        """
        nv = self.pin_model.nv
        m = np.asarray(mat, dtype=float).reshape(nv, nv)
        return m[np.ix_(self._idx_v, self._idx_v)]

    def from_columns(self, mat):
        """
        Reorder the columns of a (rows, nv) matrix such as a Jacobian.

        Parameters
        ----------
        mat : array_like
            Shape (rows, nv).

        Returns
        -------
        numpy.ndarray
            Shape (rows, n).

        """
        m = np.asarray(mat, dtype=float).reshape(-1, self.pin_model.nv)
        return m[:, self._idx_v]

    def frame_pose(self, q, frame):
        """
        Pose of a frame computed by Pinocchio.

        Parameters
        ----------
        q : array_like
            Our joint coordinates, shape (n,).
        frame : str
            Frame (link) name.

        Returns
        -------
        numpy.ndarray
            4x4 homogeneous transform.

        """
        pin = self._pin
        pin.forwardKinematics(self.pin_model, self.pin_data, self.q(q))
        fid = self.pin_model.getFrameId(frame)
        pin.updateFramePlacement(self.pin_model, self.pin_data, fid)
        return self.pin_data.oMf[fid].homogeneous

    def frame_jacobian(self, q, frame, reference='world_aligned'):
        """
        Geometric Jacobian of a frame computed by Pinocchio.

        Parameters
        ----------
        q : array_like
            Our joint coordinates, shape (n,).
        frame : str
            Frame (link) name.
        reference : {'world_aligned', 'local'}
            Same meaning as :meth:`RobotModel.jacobian`.

        Returns
        -------
        numpy.ndarray
            Shape (6, n), our column order.

        """
        pin = self._pin
        ref = pin.LOCAL_WORLD_ALIGNED if reference == 'world_aligned' else pin.LOCAL
        fid = self.pin_model.getFrameId(frame)
        jac = pin.computeFrameJacobian(self.pin_model, self.pin_data, self.q(q), fid, ref)
        return self.from_columns(jac)
