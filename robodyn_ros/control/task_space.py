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
Task-space (resolved-acceleration) computed torque (seed 001 §9.4.3, Luh 80).

With ``X`` the pose of a frame (origin position, and optionally the
orientation), ``w = X''_ref + Kd (X'_ref - X') + Kp (X_ref - X)`` and the
torque is one inverse-dynamics call (eqs. 9.33-9.35)::

    tau = IDM(q, qd, J^+ (w - J' qd))

so with a perfect model ``X'' = w`` and the task error obeys ``e'' + Kd e'
+ Kp e = 0``. The Jacobian is the geometric one in world-aligned axes (origin
velocity, angular velocity); the orientation error is the rotation vector of
``R_ref R^T``; ``J' qd`` is the directional derivative of ``J`` along ``qd``
(central difference). ``J^+`` is the damped least-squares inverse (exact
inverse away from singularities when ``damping = 0``); on a redundant arm
the null-space motion is damped (no self-motion, seed 001's choice of the
homogeneous term).
"""

from dataclasses import dataclass

import numpy as np

from .base import Controller
from .checks import per_joint
from .gains import ct_gains
from ..errors import InputError
from ..model.transforms import matrix_to_axis_angle


@dataclass(frozen=True, eq=False)
class TaskReference:
    """
    Desired motion of a frame at one instant (world axes).

    Attributes
    ----------
    position, velocity, acceleration : numpy.ndarray
        Origin position [m], velocity [m/s], acceleration [m/s^2], (3,).
    rotation : numpy.ndarray, optional
        Orientation (3, 3); None for a position-only task.
    angular_velocity, angular_acceleration : numpy.ndarray, optional
        [rad/s], [rad/s^2], (3,).

    """

    position: np.ndarray
    velocity: np.ndarray
    acceleration: np.ndarray
    rotation: np.ndarray = None
    angular_velocity: np.ndarray = None
    angular_acceleration: np.ndarray = None


def _finite(value, shape):
    if value is None:
        return None
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return None
    if arr.shape != shape or not np.isfinite(arr).all():
        return None
    return arr


class TaskSpaceComputedTorque(Controller):
    """
    Resolved-acceleration computed torque of one frame.

    Parameters
    ----------
    model : RobotModel
        The controller's model.
    period : float
        Sample period [s].
    frame : str, optional
        Controlled frame (default the end effector).
    kp, kd : float, optional
        Task gains [1/s^2, 1/s]; or ``omega`` and ``zeta``.
    omega, zeta : float, optional
        Natural frequency [rad/s] and damping of the task error.
    orientation : bool
        Control the orientation too (6-D task); else the position only.
    damping : float
        Damped least-squares factor [m or rad]; 0 for the plain inverse.
    null_damping : float
        Damping of the null-space motion of a redundant arm [1/s].
    **kwargs
        Passed to :class:`~robodyn_ros.control.base.Controller`.

    """

    law = 'task_space_computed_torque'

    def __init__(self, model, period, frame=None, kp=None, kd=None, *, omega=None, zeta=1.0,
                 orientation=True, damping=0.0, null_damping=10.0, **kwargs):
        super().__init__(model, period, **kwargs)
        self.frame = frame or model.end_effector
        model.frame(self.frame)
        self.orientation = bool(orientation)
        m = 6 if self.orientation else 3
        self._resize_error(m)
        if omega is not None:
            if kp is not None or kd is not None:
                raise InputError('omega', 'give either omega or kp and kd, not both')
            kp, kd = ct_gains(omega, zeta, m)
        if kp is None or kd is None:
            raise InputError('kp', 'give kp and kd, or omega')
        self.kp = per_joint(kp, m, 'kp', low=0.0)
        self.kd = per_joint(kd, m, 'kd', low=0.0)
        if not damping >= 0.0:
            raise InputError('damping', f'must be >= 0, got {damping}')
        self.damping = float(damping)
        self.null_damping = float(null_damping)
        self._rows = slice(0, m)

    def pose_and_jacobian(self, q, qd):
        """
        Frame pose, Jacobian and ``J' qd`` at a state.

        Parameters
        ----------
        q, qd : numpy.ndarray
            State, (n,).

        Returns
        -------
        tuple
            ``(rotation (3, 3), position (3,), J (6, n), Jdot_qd (6,))``.

        """
        pose = self.model.frame_pose(q, self.frame)
        jac = self.model.jacobian(q, self.frame)
        speed = float(np.abs(qd).max())
        if speed > 0.0:
            eps = 1e-6 / speed
            jp = self.model.jacobian(q + eps * qd, self.frame)
            jm = self.model.jacobian(q - eps * qd, self.frame)
            jdqd = (jp - jm) @ qd / (2.0 * eps)
        else:
            jdqd = np.zeros(6)
        return pose[:3, :3], pose[:3, 3], jac, jdqd

    def task_error(self, q, ref):
        """
        Task error ``X_ref - X`` (position, then rotation vector) [m, rad].

        Parameters
        ----------
        q : numpy.ndarray
            Positions, (n,).
        ref : TaskReference
            Desired pose.

        Returns
        -------
        numpy.ndarray
            (3,) or (6,).

        """
        pose = self.model.frame_pose(q, self.frame)
        return self._pose_error(pose[:3, :3], pose[:3, 3], ref)

    def _pose_error(self, rot, pos, ref):
        e = ref.position - pos
        if not self.orientation:
            return e
        axis, angle = matrix_to_axis_angle(ref.rotation @ rot.T)
        return np.concatenate([e, axis * angle])

    def _check_reference(self, reference):
        if reference is None:
            return None, 'none given'
        parts = {}
        for name in ('position', 'velocity', 'acceleration'):
            parts[name] = _finite(getattr(reference, name, None), (3,))
            if parts[name] is None:
                return None, f'{name} missing, not 3 values or not finite'
        if self.orientation:
            rot = _finite(getattr(reference, 'rotation', None), (3, 3))
            if rot is None:
                return None, 'rotation missing or not a finite 3x3 matrix'
            parts['rotation'] = rot
            for name in ('angular_velocity', 'angular_acceleration'):
                value = getattr(reference, name, None)
                parts[name] = np.zeros(3) if value is None else _finite(value, (3,))
                if parts[name] is None:
                    return None, f'{name} not 3 finite values'
        return TaskReference(**parts), ''

    def _compute(self, t, q, qd, ref):
        rot, pos, jac, jdqd = self.pose_and_jacobian(q, qd)
        vel = jac @ qd
        e = self._pose_error(rot, pos, ref)
        if self.orientation:
            acc_d = np.concatenate([ref.acceleration, ref.angular_acceleration])
            vel_d = np.concatenate([ref.velocity, ref.angular_velocity])
        else:
            acc_d, vel_d = ref.acceleration, ref.velocity
        rows = self._rows
        j = jac[rows]
        w = acc_d + self.kd * (vel_d - vel[rows]) + self.kp * e
        rhs = w - jdqd[rows]
        jjt = j @ j.T + (self.damping ** 2) * np.eye(j.shape[0])
        try:
            pinv = j.T @ np.linalg.inv(jjt)
        except np.linalg.LinAlgError:
            return None
        qdd = pinv @ rhs
        if j.shape[0] < self.n:
            null = np.eye(self.n) - pinv @ j
            qdd = qdd - self.null_damping * (null @ qd)
        return self.dynamics.inverse_dynamics(q, qd, qdd)

    def _error(self, q, ref):
        return self.task_error(q, ref)
