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
Straight-line motion of a frame in task space (seed 001, section 8.4).

The frame's origin moves on the segment from ``P^i`` to ``P^f`` and its
orientation turns about one fixed axis ``u`` (in the start frame) by the
angle ``alpha`` of ``(R^i)^T R^f`` (eqs. 8.48-8.51); both follow one time law
``r(t)`` synchronised like two joints under the translational limits
``(k_v1, k_a1)`` and rotational limits ``(k_v2, k_a2)`` (eqs. 8.53, 8.54).

The joint motion comes from the inverse kinematics at every grid time
(warm-started from the previous sample; the law's break points are grid
times too), the joint velocities from ``qd = J^+ V`` and the accelerations
from ``qdd = J^+ (A - Jd qd)`` (one-sided at the breaks of a C1 law);
between grid points the trajectory is the quintic Hermite piece through
both end states, so the frame stays on the line to well below a
micrometre. The line is refused
near a singular configuration; if the joints would exceed their velocity or
acceleration limits, time is stretched uniformly (the path is unchanged). The task-space limits
are one record, :class:`CartesianLimits`.
"""

from dataclasses import dataclass
import math

import numpy as np

from .errors import LimitError, SingularityError
from .ik import axis_angle, check_pose, pose_and_jacobian, solve_ik
from .limits import joint_vector, PlanningLimits
from .polynomials import hermite_quintic, pad
from .profiles import synchronise
from .trajectory import PiecewisePolynomialTrajectory
from ..errors import InputError
from ..model.transforms import axis_angle_matrix


@dataclass(frozen=True)
class CartesianLimits:
    """
    Task-space limits of a straight line: the time law's and the singularity margin.

    Every field is checked when the record is made.

    Attributes
    ----------
    linear_speed : float
        Translational speed limit ``k_v1`` [m/s].
    linear_acceleration : float
        Translational acceleration limit ``k_a1`` [m/s^2].
    angular_speed : float
        Rotational speed limit ``k_v2`` [rad/s].
    angular_acceleration : float
        Rotational acceleration limit ``k_a2`` [rad/s^2].
    singular_threshold : float
        Smallest singular value of the task Jacobian accepted along the line
        (the Jacobian's mixed units: m/rad in the translation rows, 1 in the
        rotation rows, for revolute joints).

    """

    linear_speed: float = 0.5
    linear_acceleration: float = 1.0
    angular_speed: float = 1.0
    angular_acceleration: float = 2.0
    singular_threshold: float = 1e-3

    def __post_init__(self):
        for name, motion, quantity, unit in (
                ('linear_speed', 'translation', 'speed limit', 'm/s'),
                ('linear_acceleration', 'translation', 'acceleration limit', 'm/s^2'),
                ('angular_speed', 'rotation', 'speed limit', 'rad/s'),
                ('angular_acceleration', 'rotation', 'acceleration limit', 'rad/s^2')):
            value = _number(getattr(self, name), name)
            if not value > 0.0:   # NaN too; +inf means no limit
                raise LimitError(motion, quantity, value, 0.0, 'must be >', unit)
            object.__setattr__(self, name, value)
        threshold = _number(self.singular_threshold, 'singular_threshold')
        if not (math.isfinite(threshold) and threshold >= 0.0):
            raise InputError('singular_threshold', f'must be finite and >= 0, got {threshold}')
        object.__setattr__(self, 'singular_threshold', threshold)


def _number(value, name):
    try:
        return float(value)
    except (TypeError, ValueError):
        raise InputError(name, f'must be a number, got {value!r}') from None


class CartesianLineTrajectory(PiecewisePolynomialTrajectory):
    """
    Joint trajectory that moves a frame on a straight line.

    Parameters
    ----------
    joint_names : sequence of str
        Joint names (all joints of the model, in model order).
    times : numpy.ndarray
        Grid times, (K,) [s].
    q, qd : numpy.ndarray
        Positions and velocities at the grid times, (K, n).
    qdd_right, qdd_left : numpy.ndarray
        Accelerations at the grid times, from the right and from the left
        (they differ at the breaks of a C1 law), (K, n).
    line : dict
        Line data: ``frame``, ``start_pose``, ``goal_pose``, ``axis`` (in
        the start frame), ``angle``, ``distance``, ``synchronisation``,
        ``stretch``, ``min_singular_value``, ``orientation``.

    """

    def __init__(self, joint_names, times, q, qd, qdd_right, qdd_left, line):
        h = np.diff(times)[:, None]
        coeffs = hermite_quintic(q[:-1], qd[:-1], qdd_right[:-1], q[1:], qd[1:], qdd_left[1:],
                                 np.where(h > 0.0, h, 1.0))
        # A line of zero length holds the start.
        coeffs[h[:, 0] == 0.0] = pad(q[:-1][h[:, 0] == 0.0, :, None], 6)
        super().__init__(joint_names, times, coeffs)
        self._line = dict(line)
        self._end = q[-1].copy()

    @property
    def frame(self):
        """Name the moving frame, a str."""
        return self._line['frame']

    @property
    def start_pose(self):
        """Start pose, 4x4."""
        return self._line['start_pose'].copy()

    @property
    def goal_pose(self):
        """Goal pose, 4x4."""
        return self._line['goal_pose'].copy()

    @property
    def distance(self):
        """Length of the segment ``D`` [m]."""
        return self._line['distance']

    @property
    def angle(self):
        """Rotation angle ``alpha`` [rad]."""
        return self._line['angle']

    @property
    def axis(self):
        """Rotation axis ``u`` in the start frame, (3,)."""
        return self._line['axis'].copy()

    @property
    def synchronisation(self):
        """Time law shared by translation and rotation (Synchronisation)."""
        return self._line['synchronisation']

    @property
    def stretch(self):
        """Uniform time stretch applied for the joint limits (float, >= 1)."""
        return self._line['stretch']

    @property
    def min_singular_value(self):
        """Smallest singular value of the task Jacobian along the line (float)."""
        return self._line['min_singular_value']

    def _evaluate(self, times):
        q, qd, qdd = super()._evaluate(times)
        q[times >= self.duration] = self._end
        return q, qd, qdd

    def pose(self, t):
        """
        Pose the line prescribes at a time.

        Parameters
        ----------
        t : float
            Time [s] (clipped to the trajectory).

        Returns
        -------
        numpy.ndarray
            4x4 pose.

        """
        sync = self._line['synchronisation']
        r = float(sync.profile.evaluate(min(max(t, 0.0), self.duration) / self.stretch)[0])
        return _line_pose(self._line, r)


def _line_pose(line, r):
    start, goal = line['start_pose'], line['goal_pose']
    out = np.eye(4)
    out[:3, 3] = start[:3, 3] + r * (goal[:3, 3] - start[:3, 3])
    out[:3, :3] = start[:3, :3] @ axis_angle_matrix(line['axis'], r * line['angle'])
    return out


def cartesian_line(model, start, goal, frame=None, *, task_limits=CartesianLimits(),
                   kind='trapezoid', duration=None, dt=0.01, limits=None, orientation=True,
                   joints=None):
    """
    Plan a straight-line motion of a frame from the current joints to a goal pose.

    Parameters
    ----------
    model : RobotModel
        The robot.
    start : array_like
        Start joint positions, (n,) [rad or m].
    goal : array_like
        Goal pose of the frame in the root frame, 4x4 (position only is used
        when ``orientation`` is False).
    frame : str, optional
        Moving frame (default ``model.end_effector``).
    task_limits : CartesianLimits
        Translational and rotational speed and acceleration limits, and the
        smallest singular value of the task Jacobian accepted.
    kind : str
        Time law (point-to-point profile kind, e.g. ``'trapezoid'``).
    duration : float, optional
        Wanted duration [s] (default: the minimum under the task limits).
    dt : float
        Grid step of the inverse kinematics [s].
    limits : PlanningLimits, optional
        Joint limits over all model joints (default the model's); the
        position range is enforced, velocity and acceleration limits stretch
        time when exceeded.
    orientation : bool
        Move the orientation too (False: position only, for arms with fewer
        than six joints).
    joints : sequence of str, optional
        Joints that may move (default all); the others stay at ``start``.

    Returns
    -------
    CartesianLineTrajectory
        Joint trajectory over all model joints.

    Raises
    ------
    InputError
        Malformed start or goal, ``task_limits`` not a :class:`CartesianLimits`, or
        a non-positive dt.
    LimitError, UnreachablePoseError
        A goal outside the joint range or out of reach.
    SingularityError
        When the line passes too near a singular configuration.

    """
    names = model.joint_names
    q0 = joint_vector(start, model.n, 'start', names)
    goal = check_pose(goal, 'goal')
    f = model.frame(frame or model.end_effector)
    limits = PlanningLimits.from_model(model) if limits is None else limits
    if limits.joint_names != tuple(names):
        raise InputError('limits', 'must cover every model joint in model order')
    limits.check_positions(q0, 'start position')
    if not isinstance(task_limits, CartesianLimits):
        raise InputError('task_limits', f'must be a CartesianLimits, got {task_limits!r}')
    singular_threshold = task_limits.singular_threshold
    if not (math.isfinite(dt) and dt > 0.0):
        raise InputError('dt', f'must be a positive time step, got {dt}')
    rot0, pos0, _ = pose_and_jacobian(model, q0, f)
    start_pose = np.eye(4)
    start_pose[:3, :3], start_pose[:3, 3] = rot0, pos0
    if not orientation:
        goal = goal.copy()
        goal[:3, :3] = rot0
    distance = float(np.linalg.norm(goal[:3, 3] - pos0))
    axis, angle = axis_angle(rot0.T @ goal[:3, :3])
    sync = synchronise(kind, [distance, angle],
                       [task_limits.linear_speed, task_limits.angular_speed],
                       [task_limits.linear_acceleration, task_limits.angular_acceleration],
                       duration, ['translation', 'rotation'])
    line = {'frame': f.name, 'start_pose': start_pose, 'goal_pose': goal, 'axis': axis,
            'angle': angle, 'distance': distance, 'synchronisation': sync,
            'orientation': orientation}
    active = None if joints is None else list(joints)
    # Reachability of the goal first, for a clear message.
    solve_ik(model, goal, q0, f.name, orientation=orientation, joints=active,
             lower=limits.lower, upper=limits.upper)
    tf = sync.duration
    count = max(1, int(math.ceil(tf / dt - 1e-9)))
    times = np.union1d(np.linspace(0.0, tf, count + 1), sync.profile.breaks)
    times = times[np.concatenate([[True], np.diff(times) > 1e-9 * max(tf, 1.0)])]
    if times.size == 1:
        times = np.array([0.0, 0.0])
    r, rd, rdd_right = sync.profile.evaluate(times)
    rdd_left = sync.profile.evaluate(times, side='left')[2]
    rows = 6 if orientation else 3
    idx = (np.arange(model.n) if active is None
           else np.array([model.joint_index(j) for j in active], dtype=int))
    dpos = goal[:3, 3] - pos0
    w_dir = rot0 @ axis * angle
    q = np.empty((times.size, model.n))
    qd = np.zeros_like(q)
    qdd_r = np.zeros_like(q)
    qdd_l = np.zeros_like(q)
    guess = q0.copy()
    sigma_min = math.inf
    for k, t in enumerate(times):
        target = _line_pose(line, r[k])
        sol = solve_ik(model, target, guess, f.name, orientation=orientation, joints=active,
                       lower=limits.lower, upper=limits.upper, max_iterations=50)
        q[k] = sol.q
        _, _, jac = pose_and_jacobian(model, sol.q, f)
        task = jac[:rows, idx]
        s = np.linalg.svd(task, compute_uv=False)
        sigma = float(s[-1]) if rows <= idx.size else 0.0
        sigma_min = min(sigma_min, sigma)
        if sigma < singular_threshold:
            raise SingularityError(
                f'the line of frame {f.name!r} passes near a singular configuration at '
                f't = {t:.4g} s of {tf:.4g} s (smallest singular value of the Jacobian '
                f'{sigma:.3g} < {singular_threshold:g}; q = {np.round(sol.q, 4).tolist()})')
        pinv = np.linalg.pinv(task)
        qd[k, idx] = pinv @ np.concatenate([rd[k] * dpos, rd[k] * w_dir])[:rows]
        drift = _jacobian_drift(model, sol.q, qd[k], f)[:rows]
        for out, rdd in ((qdd_r, rdd_right), (qdd_l, rdd_left)):
            out[k, idx] = pinv @ (np.concatenate([rdd[k] * dpos, rdd[k] * w_dir])[:rows] - drift)
        step = times[min(k + 1, times.size - 1)] - t
        guess = sol.q + qd[k] * step + 0.5 * qdd_r[k] * step * step
    with np.errstate(divide='ignore', invalid='ignore'):
        pv = np.max(np.abs(qd), axis=0) / limits.velocity
        pa = np.max(np.maximum(np.abs(qdd_r), np.abs(qdd_l)), axis=0) / limits.acceleration
    stretch = max(1.0, float(np.nanmax(pv)), math.sqrt(float(np.nanmax(pa))))
    line.update(stretch=stretch, min_singular_value=sigma_min)
    return CartesianLineTrajectory(names, times * stretch, q, qd / stretch,
                                   qdd_r / stretch ** 2, qdd_l / stretch ** 2, line)


def _jacobian_drift(model, q, qd, frame):
    """``Jd(q, qd) qd`` by a central difference of the Jacobian along ``qd``."""
    speed = float(np.max(np.abs(qd)))
    if speed == 0.0:
        return np.zeros(6)
    eps = 1e-5 / speed
    _, _, jp = pose_and_jacobian(model, q + eps * qd, frame)
    _, _, jm = pose_and_jacobian(model, q - eps * qd, frame)
    return (jp - jm) @ qd / (2.0 * eps)
