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
Inverse kinematics by damped least squares on the model's Jacobian.

Newton steps ``dq = J^T (J J^T + lambda^2 I)^-1 e`` on the pose error ``e``
(position error and the rotation vector of ``R_d R^T``, both in root-frame
axes), with the damping switched on only near singular configurations
(``lambda^2 = (1 - (sigma_min / eps)^2) lambda_max^2`` when ``sigma_min <
eps``) and faded out as the error vanishes (so the last steps are plain
Newton steps and converge quadratically), steps capped in size, and joints
clamped to their range. A failure
says why: a joint held at its limit (:class:`LimitError`), or a pose out of
reach (:class:`UnreachablePoseError`, with the residual and the smallest
singular value).
"""

from dataclasses import dataclass

import numpy as np

from .errors import LimitError, UnreachablePoseError
from .limits import joint_vector
from ..errors import InputError
from ..model import kinematics
from ..model.transforms import is_rotation

#: Smallest singular value below which the damping starts.
DAMPING_THRESHOLD = 0.05

#: Largest damping factor lambda_max (at a singular configuration).
MAX_DAMPING = 0.05

#: Error norm above which the damping acts in full [m or rad].
DAMPING_ERROR = 1e-2


@dataclass(frozen=True, eq=False)
class IkSolution:
    """
    A converged inverse-kinematics solution.

    Attributes
    ----------
    q : numpy.ndarray
        Joint positions, (n,) [rad or m].
    position_error : float
        Remaining position error [m].
    rotation_error : float
        Remaining rotation error [rad] (0 in position-only mode).
    iterations : int
        Newton steps taken.
    min_singular_value : float
        Smallest singular value of the (task) Jacobian at the solution.

    """

    q: np.ndarray
    position_error: float
    rotation_error: float
    iterations: int
    min_singular_value: float


def axis_angle(rot):
    """
    Axis and angle of a rotation matrix (seed 001 eq. 8.51, with atan2).

    ``C = (trace R - 1) / 2``, ``S = |w| / 2`` with ``w`` the skew part
    ``(r32 - r23, r13 - r31, r21 - r12)``, ``alpha = atan2(S, C)``,
    ``u = w / (2 S)``; accurate for small angles too. Near ``pi`` the axis
    comes from the symmetric part ``(R + R^T) / 4 + I / 2 ~ u u^T``.

    Parameters
    ----------
    rot : array_like
        3x3 rotation.

    Returns
    -------
    tuple
        ``(u (3,), alpha)`` with alpha in [0, pi] [rad]; ``u = (0, 0, 1)``
        for the identity.

    """
    r = np.asarray(rot, dtype=float)
    w = np.array([r[2, 1] - r[1, 2], r[0, 2] - r[2, 0], r[1, 0] - r[0, 1]])
    s = 0.5 * float(np.linalg.norm(w))
    c = 0.5 * (float(np.trace(r)) - 1.0)
    angle = float(np.arctan2(s, c))
    if s > 1e-6 or (c > 0.0 and s > 0.0):
        return w / (2.0 * s), angle
    if c > 0.0:
        return np.array([0.0, 0.0, 1.0]), 0.0
    m = 0.25 * (r + r.T) + 0.5 * np.eye(3)
    i = int(np.argmax(np.diag(m)))
    u = m[:, i] / np.sqrt(max(m[i, i], 1e-300))
    u /= np.linalg.norm(u)
    if np.dot(u, w) < 0.0:
        u = -u
    return u, angle


def rotation_vector(rot):
    """
    Rotation vector (axis times angle) of a rotation matrix.

    Parameters
    ----------
    rot : numpy.ndarray
        3x3 rotation.

    Returns
    -------
    numpy.ndarray
        (3,) [rad].

    """
    axis, angle = axis_angle(rot)
    return axis * angle


def check_pose(pose, argument='pose'):
    """
    Validate a homogeneous transform.

    Parameters
    ----------
    pose : array_like
        4x4 matrix with a proper rotation.
    argument : str
        Name for messages.

    Returns
    -------
    numpy.ndarray
        Float copy.

    Raises
    ------
    InputError
        Wrong shape, non-finite entries or an improper rotation.

    """
    arr = np.array(pose, dtype=float)
    if arr.shape != (4, 4):
        raise InputError(argument, f'expected a 4x4 homogeneous matrix, got shape {arr.shape}')
    if not np.all(np.isfinite(arr)):
        raise InputError(argument, 'must be finite')
    if not is_rotation(arr[:3, :3], tol=1e-6):
        raise InputError(argument, 'rotation part is not a proper rotation matrix')
    return arr


def pose_and_jacobian(model, q, frame):
    """
    Pose and world-aligned geometric Jacobian of a frame in one pass.

    Parameters
    ----------
    model : RobotModel
        The robot.
    q : numpy.ndarray
        Joint positions, (n,).
    frame : Frame
        The frame (``model.frame(name)``).

    Returns
    -------
    tuple
        ``(R (3, 3), p (3,), J (6, n))``; J rows: linear, then angular.

    """
    rots, pos = kinematics.body_poses(model, q)
    if frame.body < 0:
        return frame.rotation.copy(), frame.translation.copy(), np.zeros((6, model.n))
    rb = rots[frame.body]
    rf = rb @ frame.rotation
    pf = pos[frame.body] + rb @ frame.translation
    jac = np.zeros((6, model.n))
    for j in kinematics.support(model, frame.body):
        joint = model.joints[j]
        axis = rots[j] @ joint.axis
        if joint.is_prismatic:
            jac[:3, j] = axis
        else:
            jac[:3, j] = np.cross(axis, pf - pos[j])
            jac[3:, j] = axis
    return rf, pf, jac


def pose_error(target_rot, target_pos, rot, pos, orientation=True):
    """
    Error from the current pose to the target, root-frame axes.

    Parameters
    ----------
    target_rot, target_pos : numpy.ndarray
        Target rotation (3, 3) and position (3,) [m].
    rot, pos : numpy.ndarray
        Current rotation and position.
    orientation : bool
        Include the rotation error.

    Returns
    -------
    numpy.ndarray
        (6,) ``[dp, rotation vector of R_d R^T]`` or (3,) ``dp`` [m, rad].

    """
    dp = target_pos - pos
    if not orientation:
        return dp
    return np.concatenate([dp, rotation_vector(target_rot @ rot.T)])


def dls_step(jac, err):
    """
    One damped least-squares step.

    Parameters
    ----------
    jac : numpy.ndarray
        Task Jacobian, (m, n).
    err : numpy.ndarray
        Task error, (m,).

    Returns
    -------
    tuple
        ``(dq (n,), sigma_min)``.

    """
    u, s, vt = np.linalg.svd(jac, full_matrices=False)
    sigma_min = float(s[-1]) if jac.shape[0] <= jac.shape[1] else 0.0
    lam2 = 0.0
    if sigma_min < DAMPING_THRESHOLD:
        lam2 = (1.0 - (sigma_min / DAMPING_THRESHOLD) ** 2) * MAX_DAMPING ** 2
        lam2 *= min(1.0, float(np.linalg.norm(err)) / DAMPING_ERROR)
    gains = s / (s * s + lam2 + 1e-300)
    return vt.T @ (gains * (u.T @ err)), sigma_min


def _step(jac, err, active, n):
    dq = np.zeros(n)
    step, sigma = dls_step(jac[:, active], err)
    dq[active] = step
    return dq, sigma


def solve_ik(model, target, q0, frame=None, *, orientation=True, joints=None, lower=None,
             upper=None, tol=1e-10, max_iterations=200, max_step=0.5):
    """
    Find joint positions that put a frame at a target pose.

    Parameters
    ----------
    model : RobotModel
        The robot.
    target : array_like
        4x4 target pose in the root frame (only the position is used when
        ``orientation`` is False).
    q0 : array_like
        Initial guess, (n,) [rad or m].
    frame : str, optional
        Frame name (default ``model.end_effector``).
    orientation : bool
        Match the orientation too (arms with fewer than 6 joints usually
        can only match the position).
    joints : sequence of str, optional
        Joints the solver may move (default all); the others keep their
        value from ``q0``.
    lower, upper : array_like, optional
        Joint range (default the model's).
    tol : float
        Convergence tolerance on the position [m] and rotation [rad] errors.
    max_iterations : int
        Newton steps allowed.
    max_step : float
        Largest joint step per iteration [rad or m].

    Returns
    -------
    IkSolution
        The solution.

    Raises
    ------
    LimitError
        When the solution needs a joint beyond its range.
    UnreachablePoseError
        When the pose cannot be reached (residual and singular value given).

    """
    target = check_pose(target, 'target')
    q = joint_vector(q0, model.n, 'q0', model.joint_names)
    lo = np.asarray(model.lower_limits if lower is None else lower, dtype=float)
    hi = np.asarray(model.upper_limits if upper is None else upper, dtype=float)
    q = np.clip(q, lo, hi)
    f = model.frame(frame or model.end_effector)
    rows = 6 if orientation else 3
    active = (np.arange(model.n) if joints is None
              else np.array([model.joint_index(name) for name in joints], dtype=int))
    t_rot, t_pos = target[:3, :3], target[:3, 3]
    err = None
    sigma = 0.0
    for it in range(int(max_iterations) + 1):
        rot, pos, jac = pose_and_jacobian(model, q, f)
        err = pose_error(t_rot, t_pos, rot, pos, orientation)
        dq, sigma = _step(jac[:rows], err, active, model.n)
        perr = float(np.linalg.norm(err[:3]))
        rerr = float(np.linalg.norm(err[3:])) if orientation else 0.0
        if perr <= tol and rerr <= tol:
            return IkSolution(q, perr, rerr, it, sigma)
        if it == max_iterations:
            break
        size = np.max(np.abs(dq))
        if size > max_step:
            dq *= max_step / size
        q = np.clip(q + dq, lo, hi)
    # Why did it fail? A joint pinned at a bound with the step pushing outwards.
    rot, pos, jac = pose_and_jacobian(model, q, f)
    dq, sigma = _step(jac[:rows], pose_error(t_rot, t_pos, rot, pos, orientation), active,
                      model.n)
    for j, name in enumerate(model.joint_names):
        if q[j] <= lo[j] + 1e-9 and dq[j] < -1e-9:
            raise LimitError(name, 'position', q[j] + dq[j], lo[j],
                             'needed to reach the pose is below the lower limit')
        if q[j] >= hi[j] - 1e-9 and dq[j] > 1e-9:
            raise LimitError(name, 'position', q[j] + dq[j], hi[j],
                             'needed to reach the pose exceeds the upper limit')
    perr = float(np.linalg.norm(err[:3]))
    rerr = float(np.linalg.norm(err[3:])) if orientation else 0.0
    raise UnreachablePoseError(
        f'pose of frame {f.name!r} unreachable: closest configuration leaves {perr:.3g} m and '
        f'{rerr:.3g} rad after {max_iterations} iterations (smallest singular value of the '
        f'Jacobian {sigma:.3g}); target position {np.round(t_pos, 6).tolist()}')
