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
Forward kinematics and geometric Jacobians of a :class:`RobotModel`, and its methods for them.

Poses map body coordinates to root coordinates; lengths in m, angles in rad.
"""

import numpy as np

from .transforms import axis_angle_matrix, homogeneous
from ..errors import InputError


def joint_motion(joint, q):
    """
    Motion of one joint at coordinate ``q``.

    Parameters
    ----------
    joint : Joint
        The joint.
    q : float
        Coordinate [rad or m].

    Returns
    -------
    tuple of (numpy.ndarray, numpy.ndarray)
        Rotation (3, 3) and translation (3,) of the child body frame in the
        joint frame.

    """
    if joint.is_prismatic:
        return np.eye(3), joint.axis * q
    return axis_angle_matrix(joint.axis, q), np.zeros(3)


def body_poses(model, q):
    """
    Poses of all body frames in the root frame.

    Parameters
    ----------
    model : RobotModel
        The robot.
    q : numpy.ndarray
        Joint coordinates, shape (n,) [rad or m].

    Returns
    -------
    tuple of (numpy.ndarray, numpy.ndarray)
        Rotations (n, 3, 3) and origins (n, 3) [m].

    """
    n = model.n
    rots = np.empty((n, 3, 3))
    pos = np.empty((n, 3))
    for i, joint in enumerate(model.joints):
        rm, pm = joint_motion(joint, q[i])
        if joint.parent < 0:
            r_parent, p_parent = np.eye(3), np.zeros(3)
        else:
            r_parent, p_parent = rots[joint.parent], pos[joint.parent]
        r_joint = r_parent @ joint.rotation
        rots[i] = r_joint @ rm
        pos[i] = p_parent + r_parent @ joint.translation + r_joint @ pm
    return rots, pos


def frame_pose(model, q, frame):
    """
    Pose of one frame in the root frame.

    Parameters
    ----------
    model : RobotModel
        The robot.
    q : numpy.ndarray
        Joint coordinates, shape (n,).
    frame : Frame
        The frame.

    Returns
    -------
    numpy.ndarray
        4x4 homogeneous transform.

    """
    rot, pos = _frame_pose(model, q, frame)
    return homogeneous(rot, pos)


def _frame_pose(model, q, frame, poses=None):
    if frame.body < 0:
        return frame.rotation.copy(), frame.translation.copy()
    rots, pos = body_poses(model, q) if poses is None else poses
    rb, pb = rots[frame.body], pos[frame.body]
    return rb @ frame.rotation, pb + rb @ frame.translation


def support(model, body):
    """
    Joints between the root and a body, root first.

    Parameters
    ----------
    model : RobotModel
        The robot.
    body : int
        Body index (-1 for the root).

    Returns
    -------
    list of int
        Joint indices.

    """
    path = []
    while body >= 0:
        path.append(body)
        body = model.joints[body].parent
    return path[::-1]


def frame_jacobian(model, q, frame, reference='world_aligned'):
    """
    Geometric Jacobian of one frame.

    Parameters
    ----------
    model : RobotModel
        The robot.
    q : numpy.ndarray
        Joint coordinates, shape (n,).
    frame : Frame
        The frame.
    reference : {'world_aligned', 'local'}
        Axes of the result (origin velocity of the frame in both cases).

    Returns
    -------
    numpy.ndarray
        Shape (6, n): linear rows first, then angular rows.

    """
    poses = body_poses(model, q)
    rots, pos = poses
    rf, pf = _frame_pose(model, q, frame, poses)
    jac = np.zeros((6, model.n))
    for j in support(model, frame.body):
        joint = model.joints[j]
        axis = rots[j] @ joint.axis
        if joint.is_prismatic:
            jac[:3, j] = axis
        else:
            jac[:3, j] = np.cross(axis, pf - pos[j])
            jac[3:, j] = axis
    if reference == 'local':
        jac[:3] = rf.T @ jac[:3]
        jac[3:] = rf.T @ jac[3:]
    return jac


class KinematicsMixin:
    """
    Kinematic queries of a model by frame name.

    The host provides ``check_configuration(q)`` and ``frame(name)`` (as
    :class:`~robodyn_ros.model.RobotModel` does).
    """

    def forward_kinematics(self, q):
        """
        Poses of every body frame in the root frame.

        Parameters
        ----------
        q : array_like
            Joint coordinates, shape (n,) [rad or m].

        Returns
        -------
        tuple of (numpy.ndarray, numpy.ndarray)
            Rotations (n, 3, 3) and origins (n, 3) [m].

        """
        return body_poses(self, self.check_configuration(q))

    def frame_pose(self, q, frame):
        """
        Pose of a named frame in the root frame.

        Parameters
        ----------
        q : array_like
            Joint coordinates, shape (n,) [rad or m].
        frame : str
            Frame or link name.

        Returns
        -------
        numpy.ndarray
            4x4 homogeneous transform (root from frame).

        """
        return frame_pose(self, self.check_configuration(q), self.frame(frame))

    def jacobian(self, q, frame, reference='world_aligned'):
        """
        Geometric Jacobian of a named frame.

        Parameters
        ----------
        q : array_like
            Joint coordinates, shape (n,) [rad or m].
        frame : str
            Frame or link name.
        reference : {'world_aligned', 'local'}
            ``'world_aligned'``: velocity of the frame origin and angular
            velocity in root-frame axes; ``'local'``: the same in the frame's
            own axes.

        Returns
        -------
        numpy.ndarray
            Shape (6, n): rows 0-2 linear [m/s per unit qd], rows 3-5
            angular [rad/s per unit qd].

        """
        if reference not in ('world_aligned', 'local'):
            raise InputError('reference', f"must be 'world_aligned' or 'local', got {reference!r}")
        return frame_jacobian(self, self.check_configuration(q), self.frame(frame), reference)
