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
Topics and messages of the parallel-dynamics service, its workers and its clients.

Standard message types only:

* ``dynamics/request`` (trajectory_msgs/JointTrajectory): states per point
  (positions; velocities and accelerations, empty meaning zero); the header
  (stamp and frame_id) is the request id.
* ``dynamics/response`` (JointTrajectory): the same header, joint names and
  points with ``effort`` filled. **An error response has the same header and
  joint names and no points**; the reason is published on ``diagnostics``
  (a status named ``<node>: request`` with the request id) and logged.
* ``dynamics/info`` (std_msgs/String, JSON, latched): robot, model
  fingerprint, joints, friction, scheme of the service.
* ``dynamics/workers`` (String, JSON): heartbeats of worker processes.
* ``<worker>/chunk_request`` and ``dynamics/chunk_response`` (JointTrajectory):
  chunks of requests between the service and its workers; the frame_id
  carries ``<token>:<chunk>:<friction 0|1>``.
"""

import json

import numpy as np
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from std_msgs.msg import String
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint

from .conversions import to_duration, trajectory_arrays

REQUEST_TOPIC = 'dynamics/request'
RESPONSE_TOPIC = 'dynamics/response'
INFO_TOPIC = 'dynamics/info'
WORKERS_TOPIC = 'dynamics/workers'
CHUNK_RESPONSE_TOPIC = 'dynamics/chunk_response'
#: Worker's private chunk topic (``~/chunk_request``).
CHUNK_REQUEST_SUFFIX = 'chunk_request'

#: Requests, responses and chunks: reliable, a few messages deep.
DATA_QOS = QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE)
#: The service's description: latched.
INFO_QOS = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                      durability=DurabilityPolicy.TRANSIENT_LOCAL)
#: Heartbeat period of a worker [s] and silence after which it counts as lost [s].
HEARTBEAT_PERIOD = 0.5
WORKER_LOST_AFTER = 2.0


def request_id(msg):
    """
    Identify a request by its header.

    Parameters
    ----------
    msg : JointTrajectory
        Request or response.

    Returns
    -------
    str
        ``<frame_id>@<sec>.<nanosec>``.

    """
    stamp = msg.header.stamp
    return f'{msg.header.frame_id}@{stamp.sec}.{stamp.nanosec:09d}'


def request_states(msg, joint_names, max_points):
    """
    Read the states of a request in the model's joint order.

    Parameters
    ----------
    msg : JointTrajectory
        The request.
    joint_names : sequence of str
        The model's joints (every one must be in the request).
    max_points : int
        Largest accepted number of points.

    Returns
    -------
    tuple
        ``(q, qd, qdd, order)``: (N, n) arrays in model order and the index
        of each request column in the model (to answer in request order).

    Raises
    ------
    ValueError
        Unknown, missing or duplicate joints, no points, too many points,
        points with inconsistent lengths or no positions, non-finite values.

    """
    names = list(msg.joint_names)
    unknown = [j for j in names if j not in joint_names]
    if unknown:
        raise ValueError(f'unknown joints {", ".join(unknown)} (the model has '
                         f'{", ".join(joint_names)})')
    if len(msg.points) == 0:
        raise ValueError('no points')
    if len(msg.points) > max_points:
        raise ValueError(f'{len(msg.points)} points, more than max_points = {max_points}')
    arrays = trajectory_arrays(msg, joint_names)
    q = arrays['positions']
    if q is None:
        raise ValueError('points have no positions')
    zeros = np.zeros_like(q)
    qd = arrays['velocities'] if arrays['velocities'] is not None else zeros
    qdd = arrays['accelerations'] if arrays['accelerations'] is not None else zeros
    order = np.array([list(joint_names).index(j) for j in names], dtype=int)
    return (np.ascontiguousarray(q), np.ascontiguousarray(qd), np.ascontiguousarray(qdd),
            order)


def fill_efforts(msg, tau, order):
    """
    Turn a request into its response: the efforts filled in, in the request's joint order.

    Parameters
    ----------
    msg : JointTrajectory
        The request (modified in place).
    tau : numpy.ndarray
        Efforts in model order, (N, n) [N m or N].
    order : numpy.ndarray
        Model index of each request column.

    Returns
    -------
    JointTrajectory
        ``msg`` itself.

    """
    rows = np.asarray(tau, dtype=float)[:, order].tolist()
    for point, row in zip(msg.points, rows):
        point.effort = row
    return msg


def error_response(msg):
    """
    Build the error response to a request: same header and joint names, no points.

    Parameters
    ----------
    msg : JointTrajectory
        The request.

    Returns
    -------
    JointTrajectory
        The response.

    """
    out = JointTrajectory()
    out.header = msg.header
    out.joint_names = list(msg.joint_names)
    return out


def is_error(msg):
    """
    Tell an error response from a result.

    Parameters
    ----------
    msg : JointTrajectory
        A response.

    Returns
    -------
    bool
        True when it has no points.

    """
    return len(msg.points) == 0


def response_efforts(msg, joint_names):
    """
    Read the efforts of a response in a given joint order.

    Parameters
    ----------
    msg : JointTrajectory
        A (successful) response.
    joint_names : sequence of str
        Order wanted.

    Returns
    -------
    numpy.ndarray
        (N, n) [N m or N].

    Raises
    ------
    ValueError
        If the efforts are missing or malformed.

    """
    effort = trajectory_arrays(msg, joint_names)['effort']
    if effort is None:
        raise ValueError('response has no efforts')
    return effort


def chunk_request(token, index, friction, stamp, joint_names, q, qd, qdd):
    """
    Build a chunk of a request for a worker.

    Parameters
    ----------
    token : str
        Identifies the request inside the service.
    index : int
        Chunk number.
    friction : bool
        Include friction.
    stamp : builtin_interfaces.msg.Time
        Stamp of the request.
    joint_names : sequence of str
        Joints, model order.
    q, qd, qdd : numpy.ndarray
        States of the chunk, (M, n).

    Returns
    -------
    JointTrajectory
        The chunk.

    """
    msg = JointTrajectory()
    msg.header.stamp = stamp
    msg.header.frame_id = f'{token}:{int(index)}:{int(bool(friction))}'
    msg.joint_names = list(joint_names)
    zero = to_duration(0.0)
    for a, b, c in zip(q.tolist(), qd.tolist(), qdd.tolist()):
        msg.points.append(JointTrajectoryPoint(positions=a, velocities=b, accelerations=c,
                                               time_from_start=zero))
    return msg


def parse_chunk_id(frame_id):
    """
    Read a chunk's id.

    Parameters
    ----------
    frame_id : str
        ``<token>:<chunk>:<friction>``.

    Returns
    -------
    tuple
        ``(token, index, friction)``.

    Raises
    ------
    ValueError
        If it is malformed.

    """
    parts = frame_id.split(':')
    if len(parts) != 3 or not parts[1].isdigit() or parts[2] not in ('0', '1'):
        raise ValueError(f'malformed chunk id {frame_id!r}')
    return parts[0], int(parts[1]), parts[2] == '1'


def json_msg(data):
    """
    Wrap a dict as a std_msgs/String of JSON.

    Parameters
    ----------
    data : dict
        Content.

    Returns
    -------
    String
        The message.

    """
    return String(data=json.dumps(data, sort_keys=True))


def parse_json(msg):
    """
    Read a std_msgs/String of JSON.

    Parameters
    ----------
    msg : String
        The message.

    Returns
    -------
    dict or None
        The content, None when it is not a JSON object.

    """
    try:
        data = json.loads(msg.data)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None
