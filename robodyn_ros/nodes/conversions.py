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

"""Conversions between ROS messages and numpy arrays (joint order by name)."""

import math

from builtin_interfaces.msg import Duration
import numpy as np
from sensor_msgs.msg import JointState
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint


def to_seconds(duration):
    """
    Seconds of a ``builtin_interfaces`` Duration or Time.

    Parameters
    ----------
    duration : builtin_interfaces.msg.Duration or Time
        The value.

    Returns
    -------
    float
        Seconds.

    """
    return duration.sec + duration.nanosec * 1e-9


def to_duration(seconds):
    """
    Convert seconds to a ``builtin_interfaces`` Duration.

    Parameters
    ----------
    seconds : float
        Non-negative time [s].

    Returns
    -------
    builtin_interfaces.msg.Duration
        The duration.

    """
    sec = math.floor(seconds)
    nanosec = int(round((seconds - sec) * 1e9))
    if nanosec >= 1_000_000_000:
        sec, nanosec = sec + 1, nanosec - 1_000_000_000
    return Duration(sec=int(sec), nanosec=nanosec)


def order_index(names, wanted):
    """
    Positions of ``wanted`` joint names in a message's ``names``.

    Parameters
    ----------
    names : sequence of str
        Names in the message.
    wanted : sequence of str
        Names in the order the caller needs.

    Returns
    -------
    numpy.ndarray
        Indices into ``names``.

    Raises
    ------
    ValueError
        Naming the missing joints.

    """
    lookup = {n: i for i, n in enumerate(names)}
    missing = [n for n in wanted if n not in lookup]
    if missing:
        raise ValueError(f'message lacks joints {", ".join(missing)}')
    return np.array([lookup[n] for n in wanted], dtype=int)


def joint_state_msg(joint_names, stamp, position=(), velocity=(), effort=()):
    """
    Build a JointState message.

    Parameters
    ----------
    joint_names : sequence of str
        Joint names.
    stamp : builtin_interfaces.msg.Time
        Header stamp.
    position, velocity, effort : array_like
        Values (empty to leave out) [rad, rad/s, N m or m, m/s, N].

    Returns
    -------
    sensor_msgs.msg.JointState
        The message.

    """
    msg = JointState()
    msg.header.stamp = stamp
    msg.name = list(joint_names)
    msg.position = [float(v) for v in position]
    msg.velocity = [float(v) for v in velocity]
    msg.effort = [float(v) for v in effort]
    return msg


def trajectory_msg(joint_names, times, q, qd=None, qdd=None, effort=None, stamp=None,
                   frame_id=''):
    """
    Build a dense JointTrajectory from sampled arrays.

    Parameters
    ----------
    joint_names : sequence of str
        Joint names.
    times : array_like
        Time from start of each point, (N,) [s].
    q, qd, qdd, effort : array_like
        (N, n) arrays; None to leave a field empty.
    stamp : builtin_interfaces.msg.Time, optional
        Header stamp (start time; zero means "now" to trajectory followers).
    frame_id : str
        Header frame id.

    Returns
    -------
    trajectory_msgs.msg.JointTrajectory
        The message.

    """
    msg = JointTrajectory()
    if stamp is not None:
        msg.header.stamp = stamp
    msg.header.frame_id = frame_id
    msg.joint_names = list(joint_names)
    for k, t in enumerate(times):
        p = JointTrajectoryPoint()
        p.positions = [float(v) for v in q[k]]
        if qd is not None:
            p.velocities = [float(v) for v in qd[k]]
        if qdd is not None:
            p.accelerations = [float(v) for v in qdd[k]]
        if effort is not None:
            p.effort = [float(v) for v in effort[k]]
        p.time_from_start = to_duration(float(t))
        msg.points.append(p)
    return msg


def trajectory_arrays(msg, joint_names=None):
    """
    Arrays of a JointTrajectory, reordered to ``joint_names``.

    Parameters
    ----------
    msg : trajectory_msgs.msg.JointTrajectory
        The message.
    joint_names : sequence of str, optional
        Joint order wanted (default: the message's).

    Returns
    -------
    dict
        ``times`` (N,), and ``positions``, ``velocities``, ``accelerations``,
        ``effort`` as (N, n) arrays or None where the points leave them empty.

    Raises
    ------
    ValueError
        On unknown joints, points with inconsistent lengths, or non-finite
        values.

    """
    names = list(msg.joint_names)
    if len(set(names)) != len(names):
        raise ValueError('duplicate joint names')
    idx = order_index(names, joint_names or names)
    n = len(names)
    out = {'times': np.array([to_seconds(p.time_from_start) for p in msg.points])}
    for field in ('positions', 'velocities', 'accelerations', 'effort'):
        rows = [getattr(p, field) for p in msg.points]
        if all(len(r) == 0 for r in rows):
            out[field] = None
            continue
        for k, r in enumerate(rows):
            if len(r) != n:
                raise ValueError(f'point {k}: {field} has {len(r)} entries for {n} joints')
        arr = np.array(rows, dtype=float).reshape(len(rows), n)[:, idx]
        if not np.all(np.isfinite(arr)):
            k, j = np.argwhere(~np.isfinite(arr))[0]
            raise ValueError(f'point {k}: {field} of joint {(joint_names or names)[j]} is '
                             f'{arr[k, j]}')
        out[field] = arr
    return out
