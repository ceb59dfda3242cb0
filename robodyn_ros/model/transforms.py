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
Rotations and rigid transforms used by the model layer.

Conventions: a pose is a pair ``(R, p)`` of a 3x3 rotation matrix and a
3-vector [m] that maps coordinates in a child frame to its parent frame,
``x_parent = R @ x_child + p``. Angles are in radians.
"""

import numpy as np

#: Entries closer than this to 0 or +-1 are snapped, so that a rotation by
#: pi/2 has exact zeros and ones (the customized kernels rely on that).
SNAP_TOLERANCE = 1e-14


def snap(values, tol=SNAP_TOLERANCE):
    """
    Snap near-zero and near-unit entries to exactly 0, 1 or -1.

    Parameters
    ----------
    values : array_like
        Numbers to clean (any shape).
    tol : float
        Absolute tolerance.

    Returns
    -------
    numpy.ndarray
        A float copy with snapped entries.

    """
    out = np.array(values, dtype=float)
    out[np.abs(out) < tol] = 0.0
    out[np.abs(out - 1.0) < tol] = 1.0
    out[np.abs(out + 1.0) < tol] = -1.0
    return out


def rot_x(angle):
    """
    Rotation about x.

    Parameters
    ----------
    angle : float
        Angle [rad].

    Returns
    -------
    numpy.ndarray
        3x3 rotation matrix.

    """
    c, s = np.cos(angle), np.sin(angle)
    return snap([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def rot_y(angle):
    """
    Rotation about y.

    Parameters
    ----------
    angle : float
        Angle [rad].

    Returns
    -------
    numpy.ndarray
        3x3 rotation matrix.

    """
    c, s = np.cos(angle), np.sin(angle)
    return snap([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def rot_z(angle):
    """
    Rotation about z.

    Parameters
    ----------
    angle : float
        Angle [rad].

    Returns
    -------
    numpy.ndarray
        3x3 rotation matrix.

    """
    c, s = np.cos(angle), np.sin(angle)
    return snap([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def rpy_to_matrix(rpy):
    """
    URDF roll-pitch-yaw to a rotation matrix, ``Rz(yaw) Ry(pitch) Rx(roll)``.

    Parameters
    ----------
    rpy : array_like
        (roll, pitch, yaw) [rad].

    Returns
    -------
    numpy.ndarray
        3x3 rotation matrix.

    """
    roll, pitch, yaw = (float(v) for v in rpy)
    return snap(rot_z(yaw) @ rot_y(pitch) @ rot_x(roll))


def matrix_to_rpy(rot):
    """
    Rotation matrix to URDF roll-pitch-yaw (inverse of :func:`rpy_to_matrix`).

    Parameters
    ----------
    rot : array_like
        3x3 rotation matrix.

    Returns
    -------
    numpy.ndarray
        (roll, pitch, yaw) [rad]; at pitch = +-pi/2 the roll is set to 0.

    """
    r = np.asarray(rot, dtype=float)
    sy = np.hypot(r[0, 0], r[1, 0])
    if sy > 1e-12:
        roll = np.arctan2(r[2, 1], r[2, 2])
        pitch = np.arctan2(-r[2, 0], sy)
        yaw = np.arctan2(r[1, 0], r[0, 0])
    else:
        roll = 0.0
        pitch = np.arctan2(-r[2, 0], sy)
        yaw = np.arctan2(-r[0, 1], r[1, 1])
    return np.array([roll, pitch, yaw])


def axis_angle_matrix(axis, angle):
    """
    Rotation by ``angle`` about the unit vector ``axis`` (Rodrigues).

    Parameters
    ----------
    axis : array_like
        Unit 3-vector.
    angle : float
        Angle [rad].

    Returns
    -------
    numpy.ndarray
        3x3 rotation matrix.

    """
    k = np.asarray(axis, dtype=float)
    kx = skew(k)
    return np.eye(3) + np.sin(angle) * kx + (1.0 - np.cos(angle)) * (kx @ kx)


def matrix_to_axis_angle(rot):
    """
    Axis and angle of a rotation matrix.

    Parameters
    ----------
    rot : array_like
        3x3 rotation matrix.

    Returns
    -------
    tuple of (numpy.ndarray, float)
        Unit axis and angle in [0, pi] [rad]; the axis is (0, 0, 1) for the
        identity.

    """
    r = np.asarray(rot, dtype=float)
    cos_angle = np.clip((np.trace(r) - 1.0) / 2.0, -1.0, 1.0)
    angle = float(np.arccos(cos_angle))
    if angle < 1e-12:
        return np.array([0.0, 0.0, 1.0]), 0.0
    if np.pi - angle < 1e-6:
        # Near pi: take the axis from the symmetric part.
        m = (r + np.eye(3)) / 2.0
        k = np.sqrt(np.clip(np.diag(m), 0.0, None))
        i = int(np.argmax(k))
        k = m[:, i] / k[i]
        return k / np.linalg.norm(k), angle
    w = np.array([r[2, 1] - r[1, 2], r[0, 2] - r[2, 0], r[1, 0] - r[0, 1]])
    return w / (2.0 * np.sin(angle)), angle


def skew(v):
    """
    Cross-product (hat) matrix of a 3-vector.

    Parameters
    ----------
    v : array_like
        3-vector.

    Returns
    -------
    numpy.ndarray
        3x3 skew-symmetric matrix.

    """
    x, y, z = (float(c) for c in v)
    return np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])


def homogeneous(rot, trans):
    """
    Pack a rotation and a translation into a 4x4 homogeneous matrix.

    Parameters
    ----------
    rot : array_like
        3x3 rotation.
    trans : array_like
        3-vector [m].

    Returns
    -------
    numpy.ndarray
        4x4 matrix.

    """
    t = np.eye(4)
    t[:3, :3] = rot
    t[:3, 3] = trans
    return t


def is_rotation(rot, tol=1e-9):
    """
    Tell whether ``rot`` is a proper rotation matrix.

    Parameters
    ----------
    rot : array_like
        3x3 matrix.
    tol : float
        Tolerance on orthonormality and determinant.

    Returns
    -------
    bool
        True for an orthonormal matrix with determinant +1.

    """
    r = np.asarray(rot, dtype=float)
    return (r.shape == (3, 3)
            and np.allclose(r @ r.T, np.eye(3), atol=tol)
            and abs(np.linalg.det(r) - 1.0) < tol)
